import {columnsOf, flatten as flattenObject, maxFlattenDepth, stringifyOrNote, tooDeepNote} from '../cells/flatten.js';
import {exactCells} from '../cells/exact-cells.js';
import {inert} from '../text/inert.js';
import {isUnsafeCodePoint} from '../text/unsafe-chars.js';

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

/**
 * One object as table cells from its exact text (Page.objectTexts), the cells
 * dump writes: numbers as the server wrote them (`9007199254740993`, `1.10`),
 * a key `a.b` apart from a nested a → b (`["a.b"]` against `a.b`), a repeated
 * key kept (`key#2`); then keys and values made inert, as every cell is.
 */
export function exactRow(text: string): FlatRow {
	const row: FlatRow = new Map();
	for (const [path, value] of exactCells(text, {nullText: 'null'})) {
		row.set(inert(path), inert(value));
	}

	return row;
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

/** A row: the object, its exact text when the page has it (what detail and copy show), and its cells. */
export type Row = {index: number; object: Record<string, unknown>; text?: string; cells: FlatRow};

// Flattening a page is the costly part of drawing it; a page object never
// changes once loaded, so its rows are computed once and shared by the reducer
// (which counts filtered rows) and the table. Only for the pages used last:
// a page's rows take as much memory again as the page itself, and every
// cache of the table's (layouts, cut lines, filtered and sorted rows) is keyed
// by them, so the pages the stack keeps off screen cost their data alone.
const cache = new WeakMap<readonly object[], Row[]>();
/** Pages whose rows are kept, most recently used last: on screen, the next and the one below, and a spare. */
export const maxRowPages = 4;
const recent: Array<readonly object[]> = [];

function used(objects: readonly object[]): void {
	if (recent.at(-1) === objects) {
		return;
	}

	const at = recent.indexOf(objects);
	if (at !== -1) {
		recent.splice(at, 1);
	}

	recent.push(objects);
	if (recent.length > maxRowPages) {
		cache.delete(recent.shift()!);
	}
}

/**
 * The rows of a page: from its objects' exact texts when it has them (a page
 * read from a response always does), else from the parsed objects. Display
 * never reads a parsed number where the server's own text is at hand.
 */
export function rowsOf(objects: ReadonlyArray<Record<string, unknown>>, texts?: readonly string[]): Row[] {
	let rows = cache.get(objects);
	if (!rows) {
		rows = objects.map((object, index) => {
			const text = texts?.[index];
			return text === undefined ? {index, object, cells: flatten(object)} : {index, object, text, cells: exactRow(text)};
		});
		cache.set(objects, rows);
	}

	used(objects);
	return rows;
}

/** The rows of a page the filter lets through, cached per filter text. */
const filtered = new WeakMap<Row[], {query: string; rows: Row[]}>();

export function visibleRows(objects: ReadonlyArray<Record<string, unknown>>, query: string, texts?: readonly string[]): Row[] {
	const rows = rowsOf(objects, texts);
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

/** Rows sorted on screen by one column (`s`): this page's rows only, never the server's order. */
export type RowSort = {path: string; direction: 'ascending' | 'descending'};

const sortedRows = new WeakMap<Row[], {key: string; rows: Row[]}>();
const numberText = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The rows the filter lets through, sorted when a sort is set. Sorting may
 * read parsed values (numbers compare as numbers), display never does: the
 * cells stay the exact texts. Rows without the column come last; ties keep
 * the server's order.
 */
export function shownPageRows(objects: ReadonlyArray<Record<string, unknown>>, query: string, texts: readonly string[] | undefined, sort: RowSort | null | undefined): Row[] {
	const rows = visibleRows(objects, query, texts);
	if (!sort) {
		return rows;
	}

	const key = `${sort.path}\u0000${sort.direction}`;
	const hit = sortedRows.get(rows);
	if (hit?.key === key) {
		return hit.rows;
	}

	const sign = sort.direction === 'ascending' ? 1 : -1;
	const result = [...rows].sort((a, b) => {
		const left = a.cells.get(sort.path);
		const right = b.cells.get(sort.path);
		if (left === undefined || right === undefined) {
			return left === right ? a.index - b.index : left === undefined ? 1 : -1;
		}

		const order = numberText.test(left) && numberText.test(right) ? Number(left) - Number(right) : left.localeCompare(right);
		return order === 0 ? a.index - b.index : sign * order;
	});
	sortedRows.set(rows, {key, rows: result});
	return result;
}

/**
 * Whether the filter may let a row of `objects` through: a quick test that
 * never says no where {@link filterRows} would show a row (a property test
 * holds it to that), and may say yes where it shows none. A search across
 * pages (`n`) asks it first and asks visibleRows only on a yes, so a page
 * with no match costs one scan instead of a flattened, escaped row per
 * object. With the objects' JSON texts (`texts`, parallel to `objects`) and
 * a needle no number or JSON punctuation could hold, it searches the texts
 * (see mayMatchTexts); else it reads the values as filterRows does: each
 * leaf as its cell shows it, lowercased; a value with a character `inert`
 * would escape shows differently, so any such value makes it say yes.
 */
export function mayMatch(objects: ReadonlyArray<Record<string, unknown>>, query: string, texts?: readonly string[]): boolean {
	const needle = query.trim().toLowerCase();
	if (needle === '') {
		return objects.length > 0;
	}

	const quick = texts?.length === objects.length ? mayMatchTexts(objects, texts, needle) : undefined;
	return quick ?? mayMatchValues(objects, needle);
}

/**
 * What a cell shows can hold the needle only if: a string (shown as sent when
 * nothing in it needs escaping), true, false or null (shown as sent), a
 * number (digits, `.`, `e`, `+`, `-` only), or the JSON of an array or a too
 * deep object, whose every token is a string, number or literal.
 */
const numberCharacters = /^[\d.e+-]*$/;
// Needles that could span two tokens of a JSON cell, or need an escape.
const structural = /[[\]{},:"\\]/;
/**
 * The quick test on the objects' own JSON texts (the page keeps them for the
 * dump), for a needle of printable ASCII that no number, JSON punctuation or
 * note could hold: then every cell the needle could be found in shows a
 * piece of the text exactly as sent, and an ASCII case-insensitive search of
 * the texts finds it (JSON's keys and punctuation only add false yeses).
 * Undefined when it does not apply: the caller reads the values instead.
 */
function mayMatchTexts(objects: ReadonlyArray<Record<string, unknown>>, texts: readonly string[], needle: string): boolean | undefined {
	if (!/^[\u0020-\u007E]+$/.test(needle) || numberCharacters.test(needle) || structural.test(needle) || tooDeepNote.toLowerCase().includes(needle)) {
		return undefined;
	}

	const pattern = new RegExp(needle.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i');
	for (const [index, text] of texts.entries()) {
		// A yes is always safe; a no only for a text shown as sent (else its values are read).
		if (pattern.test(text) || (notShownAsSent(text) && mayMatchValues([objects[index]!], needle))) {
			return true;
		}
	}

	return false;
}

function mayMatchValues(objects: ReadonlyArray<Record<string, unknown>>, needle: string): boolean {
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
	if (holds(joined, code => code !== 0x0A && isUnsafeCodePoint(code))) {
		return true;
	}

	return joined.toLowerCase().includes(needle);
}

/**
 * Whether an object's JSON text holds something not shown as sent (an escape,
 * a character `inert` escapes) or a character that lowercases to ASCII (İ,
 * the Kelvin sign), which an ASCII case-insensitive search would miss.
 */
function notShownAsSent(text: string): boolean {
	return text.includes('\\') || holds(text, code => isUnsafeCodePoint(code) || code === 0x1_30 || code === 0x21_2A);
}

const notPrintableAscii = /[^\u0020-\u007E]/g;

/**
 * Whether `text` holds a character `odd` says yes to, among those outside
 * printable ASCII (no unsafe character is in it): one quick scan and a table
 * look-up per other character, instead of the Unicode-aware unsafe pattern
 * over every character, which is several times slower on a page.
 */
function holds(text: string, odd: (code: number) => boolean): boolean {
	notPrintableAscii.lastIndex = 0;
	for (let match = notPrintableAscii.exec(text); match !== null; match = notPrintableAscii.exec(text)) {
		const code = text.codePointAt(match.index)!;
		if (odd(code)) {
			return true;
		}

		// A surrogate pair is one character: its second half is not a lone surrogate.
		notPrintableAscii.lastIndex = match.index + (code > 0xFF_FF ? 2 : 1);
	}

	return false;
}
