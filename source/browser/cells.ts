import {columnsOf, flatten as flattenObject, maxFlattenDepth, stringifyOrNote} from '../core/flatten.js';
import {inert} from '../core/inert.js';
import {isUnsafeCodePoint} from '../core/unsafe-chars.js';

/**
 * Turns listed objects into table cells: one path per scalar field, nested
 * objects flattened to dotted paths (`balance.amount`), every value made inert
 * here so nothing the server sent reaches the terminal raw.
 */

/** A flattened object: path → display text (already inert). */
export type FlatRow = Map<string, string>;

function display(value: unknown): string {
	if (typeof value === 'string') {
		return inert(value);
	}

	if (value === null) {
		return 'null';
	}

	if (typeof value === 'number' || typeof value === 'boolean') {
		return String(value);
	}

	// Arrays (and objects past the flattened depth) are a field of their own:
	// compact JSON, or a note when too deeply nested to serialize.
	return inert(stringifyOrNote(value));
}

const shown = {key: inert, value: display};

/** One object as table cells, keys and values made inert. */
export function flatten(object: Record<string, unknown>): FlatRow {
	return flattenObject(object, shown);
}

/** `id` first, then every path in order of first appearance across the page. */
export const deriveColumns = (rows: readonly FlatRow[]): string[] => columnsOf(rows);

/** Rows whose text contains `query` (case-insensitive) in any cell. */
export function filterRows<T extends {cells: FlatRow}>(rows: readonly T[], query: string): T[] {
	const needle = query.trim().toLowerCase();
	if (needle === '') {
		return [...rows];
	}

	return rows.filter(row => {
		for (const text of row.cells.values()) {
			if (text.toLowerCase().includes(needle)) {
				return true;
			}
		}

		return false;
	});
}

export type Row = {index: number; object: Record<string, unknown>; cells: FlatRow};

// Flattening a page is the costly part of drawing it; a page object never
// changes once loaded, so its rows are computed once and shared by the reducer
// (which counts filtered rows) and the table.
const cache = new WeakMap<readonly object[], Row[]>();

export function rowsOf(objects: ReadonlyArray<Record<string, unknown>>): Row[] {
	let rows = cache.get(objects);
	if (!rows) {
		rows = objects.map((object, index) => ({index, object, cells: flatten(object)}));
		cache.set(objects, rows);
	}

	return rows;
}

/** The rows of a page the filter lets through, cached per filter text. */
const filtered = new WeakMap<Row[], {query: string; rows: Row[]}>();

export function visibleRows(objects: ReadonlyArray<Record<string, unknown>>, query: string): Row[] {
	const rows = rowsOf(objects);
	if (query.trim() === '') {
		return rows;
	}

	const hit = filtered.get(rows);
	if (hit?.query === query) {
		return hit.rows;
	}

	const result = filterRows(rows, query);
	filtered.set(rows, {query, rows: result});
	return result;
}

/**
 * Whether the filter may let a row of `objects` through: a quick test that
 * never says no where {@link filterRows} would show a row (a property test
 * holds it to that), and may say yes where it shows none. A search across
 * pages (`n`) asks it first and asks visibleRows only on a yes, so a page
 * with no match costs one scan of its values instead of a flattened,
 * escaped row per object. It reads the values as filterRows does: each
 * leaf as its cell shows it, lowercased; a value with a character `inert`
 * would escape shows differently, so any such value makes it say yes.
 */
export function mayMatch(objects: ReadonlyArray<Record<string, unknown>>, query: string): boolean {
	const needle = query.trim().toLowerCase();
	if (needle === '') {
		return objects.length > 0;
	}

	const texts: string[] = [];
	const stack: Array<{value: Record<string, unknown>; depth: number}> = objects.map(value => ({value, depth: 1}));
	while (stack.length > 0) {
		const {value: object, depth} = stack.pop()!;
		for (const key in object) {
			if (!Object.hasOwn(object, key)) {
				continue;
			}

			const value = object[key];
			if (typeof value === 'string') {
				texts.push(value);
			} else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
				texts.push(String(value));
			} else if (typeof value === 'object' && !Array.isArray(value) && depth < maxFlattenDepth && Object.keys(value).length > 0) {
				stack.push({value: value as Record<string, unknown>, depth: depth + 1});
			} else {
				// Arrays, empty and too deep objects are one cell of JSON text (as cells show them).
				texts.push(stringifyOrNote(value));
			}
		}
	}

	// Joined with a line break, a character no filter holds (the prompt takes
	// no control characters) and no letter: lowercasing each value sees the
	// same word ends as it would alone (a final sigma stays final). The breaks
	// are the only unsafe characters allowed in the joined text.
	const joined = texts.join('\n');
	if (!inertApartFromBreaks(joined)) {
		return true;
	}

	return joined.toLowerCase().includes(needle);
}

const notPrintableAscii = /[^\n\u0020-\u007E]/g;

/**
 * Whether `text` has no character `inert` would escape, line breaks aside.
 * Printable ASCII never is one, so only the other characters are looked up
 * in the unsafe table: one quick scan instead of the Unicode-aware pattern.
 */
function inertApartFromBreaks(text: string): boolean {
	notPrintableAscii.lastIndex = 0;
	for (let match = notPrintableAscii.exec(text); match !== null; match = notPrintableAscii.exec(text)) {
		const code = text.codePointAt(match.index)!;
		if (isUnsafeCodePoint(code)) {
			return false;
		}

		// A surrogate pair is one character: its second half is not a lone surrogate.
		notPrintableAscii.lastIndex = match.index + (code > 0xFF_FF ? 2 : 1);
	}

	return true;
}
