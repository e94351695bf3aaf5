import {columnsOf} from './flatten.js';
import {displayWidth, padToWidth} from './text-width.js';

/**
 * The one table layout, shared by the browser and `dump --format table`: which
 * columns fit in how many cells, how wide each is, how a cell is cut and
 * padded. Pure maths over flattened rows (`path → text`, already inert), free
 * of React and of either caller, so both draw a page by the same rules.
 */

export type Column = {path: string; width: number};
export type TableLayout = {columns: Column[]; hidden: number};
/** Flattened cells of one object: path → inert display text. */
export type Cells = ReadonlyMap<string, string>;

/** Cells between two columns. */
export const gap = 2;
/**
 * A column is never cut narrower than this (or its natural width): fewer
 * readable columns beat many columns of two letters and an ellipsis. Twelve
 * cells keep a UUID prefix long enough to tell objects apart.
 */
export const minimumWidth = 12;
/** Nor wider than this: one long description must not starve the others. */
export const maximumWidth = 48;
/** Past a few hundred rows the widest cell is already known well enough. */
const sampleRows = 200;

/** Cuts `text` to `width` terminal cells with an ellipsis and pads it to exactly `width`. */
export function fitCell(text: string, width: number): string {
	return padToWidth(text, width);
}

/**
 * Fits columns into `available` cells (Infinity: no limit): every column gets
 * its natural width (the widest of header and cells, capped) when it fits;
 * otherwise the widest are narrowed together (a common cap, found by search)
 * down to a minimum, and the columns that still do not fit are hidden from
 * the right. Widths are measured up to the cap only, so a megabyte cell costs
 * what a short one does.
 */
export function layoutColumns(rows: readonly Cells[], available: number, sample = sampleRows): TableLayout {
	const paths = columnsOf(rows as Iterable<Map<string, string>>);
	const sampled = rows.slice(0, sample);
	const natural = paths.map(path => {
		let widest = displayWidth(path, maximumWidth);
		// The id is measured in every row, so it stays whole (see below).
		for (const row of path === 'id' ? rows : sampled) {
			const text = row.get(path);
			if (text !== undefined && widest < maximumWidth) {
				widest = Math.max(widest, displayWidth(text, maximumWidth));
			}
		}

		return widest;
	});

	// The id is the cursor: users copy it and match it against next_uri, so it
	// keeps its whole width whenever one more column still fits beside it.
	const pinned = paths[0] === 'id' && natural[0]! + gap + minimumWidth <= available ? natural[0]! : undefined;
	const widthOf = (i: number, cap: number) => (i === 0 && pinned !== undefined ? pinned : Math.min(natural[i]!, cap));
	const total = (count: number, cap: number) => {
		let sum = gap * Math.max(0, count - 1);
		for (let i = 0; i < count; i++) {
			sum += widthOf(i, cap);
		}

		return sum;
	};

	// Keep as many leading columns as fit at their floor width: one pass from
	// the left (an object of 100,000 fields must not cost 100,000 sums).
	let count = 1;
	let used = widthOf(0, minimumWidth);
	while (count < paths.length && used + gap + widthOf(count, minimumWidth) <= available) {
		used += gap + widthOf(count, minimumWidth);
		count++;
	}

	let low = minimumWidth;
	let high = maximumWidth;
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		if (total(count, middle) <= available) {
			low = middle;
		} else {
			high = middle - 1;
		}
	}

	const columns = paths.slice(0, count).map((path, i) => ({path, width: widthOf(i, low)}));
	// A terminal narrower than one column at its floor: cut that column to fit.
	if (count === 1 && columns[0]!.width > available) {
		columns[0]!.width = Math.max(1, available);
	}

	return {columns, hidden: paths.length - count};
}

/** The cells of one row (or the header, given each column's path), cut, padded and joined. */
export function formatCells(cells: Cells, columns: readonly Column[]): string {
	return columns.map(column => fitCell(cells.get(column.path) ?? '', column.width)).join(' '.repeat(gap));
}

/** The header: each column's path, cut and padded like a cell. */
export function formatHeaderCells(columns: readonly Column[]): string {
	return columns.map(column => fitCell(column.path, column.width)).join(' '.repeat(gap));
}
