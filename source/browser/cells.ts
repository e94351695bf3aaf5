import {columnsOf, flatten as flattenObject, stringifyOrNote} from '../core/flatten.js';
import {inert} from '../core/inert.js';

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
