import {columnsOf, flatten as flattenObject, maxFlattenDepth, stringifyOrNote, tooDeepNote} from '../../cells/flatten.js';
import {exactCells} from '../../cells/exact-cells.js';
import {inert} from '../../text/inert.js';
import {isUnsafeCodePoint} from '../../text/unsafe-chars.js';

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

/** Rows the filter lets through only for cells off screen: how many, and those columns, first met first. */
export type OffScreenMatches = {rows: number; columns: string[]};

/**
 * Of the rows the filter let through (filterRows: every cell of a row counts,
 * shown or not), those with no match in a `shown` column, and the columns
 * they matched in: what the status line names, so a row on screen with the
 * text nowhere in sight is explained. None for no filter.
 */
export function matchesOffScreen(rows: ReadonlyArray<{cells: FlatRow}>, query: string, shown: ReadonlySet<string>): OffScreenMatches {
	const needle = query.trim().toLowerCase();
	const columns = new Set<string>();
	let count = 0;
	if (needle === '') {
		return {rows: 0, columns: []};
	}

	for (const row of rows) {
		const outside: string[] = [];
		let inSight = false;
		for (const [path, text] of row.cells) {
			if (text.toLowerCase().includes(needle)) {
				if (shown.has(path)) {
					inSight = true;
					break;
				}

				outside.push(path);
			}
		}

		if (!inSight && outside.length > 0) {
			count++;
			for (const path of outside) {
				columns.add(path);
			}
		}
	}

	return {rows: count, columns: [...columns]};
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
// A cell that reads as a JSON number: what the server sent as a number, or a
// string holding one (the account API's amounts are decimal strings).
const numberText = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
// Text in one fixed collation, whatever the machine's locale: English, every difference counted.
const collator = new Intl.Collator('en', {sensitivity: 'variant'});

/** A decimal as sign, digits with no leading or trailing zero, and where its point sits: compared exactly, at any size. */
type Decimal = {sign: -1 | 0 | 1; digits: string; point: number};

function decimalOf(match: RegExpExecArray): Decimal {
	const [, minus, whole, fraction = '', exponent = '0'] = match;
	const all = `${whole}${fraction}`;
	const significant = all.replace(/^0+/, '');
	const digits = significant.replace(/0+$/, '');
	if (digits === '') {
		return {sign: 0, digits: '', point: 0};
	}

	return {sign: minus ? -1 : 1, digits, point: whole!.length - (all.length - significant.length) + Number(exponent)};
}

function compareDecimals(left: Decimal, right: Decimal): number {
	if (left.sign !== right.sign) {
		return left.sign - right.sign;
	}

	const magnitude = left.point === right.point ? (left.digits < right.digits ? -1 : left.digits > right.digits ? 1 : 0) : left.point - right.point;
	return left.sign * Math.sign(magnitude);
}

/**
 * Where a cell sorts among cells with a value: numbers (by value, exactly),
 * then text (by the fixed collation); cells equal there by their UTF-16
 * code units. A total order on cells, so the order of the rows does not
 * depend on the order the server sent them in.
 */
function compareCells(left: string, right: string): number {
	const leftNumber = numberText.exec(left);
	const rightNumber = numberText.exec(right);
	if ((leftNumber === null) !== (rightNumber === null)) {
		return leftNumber ? -1 : 1;
	}

	const byValue = leftNumber && rightNumber ? compareDecimals(decimalOf(leftNumber), decimalOf(rightNumber)) : collator.compare(left, right);
	return byValue === 0 ? (left < right ? -1 : left > right ? 1 : 0) : byValue;
}

/** Cells that sort last in either direction: `null` (a JSON null, or the text null, which reads the same), then no cell at all. */
function lastRank(cell: string | undefined): number {
	return cell === undefined ? 2 : cell === 'null' ? 1 : 0;
}

/**
 * The rows the filter lets through, sorted when a sort is set: by the
 * column's cells in one total order (compareCells; descending is its
 * reverse), `null` and then rows without the column last either way, equal
 * cells in the server's order. The cells read are the exact texts, and stay as shown.
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
		const rank = lastRank(left);
		if (rank !== lastRank(right) || rank !== 0) {
			return rank === lastRank(right) ? a.index - b.index : rank - lastRank(right);
		}

		const order = compareCells(left!, right!);
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
