import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import {deriveColumns, type Row} from './cells.js';

/**
 * Pure layout maths for the table: which columns fit in how many cells, how a
 * cell is cut and padded, and which rows are in the window. Kept free of React
 * so it is tested directly and costs nothing to re-run on resize.
 */

export type Column = {path: string; width: number};
export type TableLayout = {columns: Column[]; hidden: number};

/** Cells between two columns. */
export const gap = 2;
/** Width of the selection marker in front of each row. */
export const markerWidth = 2;
/**
 * A column is never cut narrower than this (or its natural width): fewer
 * readable columns beat many columns of two letters and an ellipsis. Twelve
 * cells keep a UUID prefix long enough to tell objects apart.
 */
const minimumWidth = 12;
/** Nor wider than this: one long description must not starve the others. */
const maximumWidth = 48;

/** Cuts `text` to `width` terminal cells with an ellipsis and pads it to exactly `width`. */
export function fitCell(text: string, width: number): string {
	if (width <= 0) {
		return '';
	}

	let cut = text;
	let cells = stringWidth(text);
	if (cells > width) {
		cut = cliTruncate(text, width, {position: 'end'});
		cells = stringWidth(cut);
		// A wide character that would straddle the edge is dropped, never split.
		while (cells > width) {
			cut = cliTruncate(cut, width - (cells - width), {position: 'end'});
			cells = stringWidth(cut);
		}
	}

	return cut + ' '.repeat(width - cells);
}

/**
 * Fits columns into `width` cells: every column gets its natural width (the
 * widest of header and cells, capped) when it fits; otherwise the widest are
 * narrowed together (a common cap, found by search) down to a minimum, and
 * the columns that still do not fit are hidden from the right.
 */
export function layoutColumns(rows: readonly Row[], width: number, sample = 200): TableLayout {
	const paths = deriveColumns(rows.map(row => row.cells));
	const natural = paths.map(path => {
		let widest = stringWidth(path);
		// Past a few hundred rows the widest cell is already known well enough.
		for (const row of rows.slice(0, sample)) {
			const text = row.cells.get(path);
			if (text !== undefined) {
				widest = Math.max(widest, stringWidth(text));
			}
		}

		return Math.min(widest, maximumWidth);
	});

	const available = width - markerWidth;
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

	// Keep as many leading columns as fit at their floor width.
	let count = paths.length;
	while (count > 1 && total(count, minimumWidth) > available) {
		count--;
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

// A row's cells only change with the columns: a key press that moves the
// selection reuses every other line as it was (measuring text is the costly part).
const lines = new WeakMap<Map<string, string>, {columns: readonly Column[]; text: string}>();

const layouts = new WeakMap<readonly Row[], {width: number; layout: TableLayout}>();

/**
 * {@link layoutColumns}, remembered per page and width: going back to a page
 * reuses its columns, and with them every line already cut for them.
 */
export function pageLayout(rows: readonly Row[], width: number): TableLayout {
	const cached = layouts.get(rows);
	if (cached?.width === width) {
		return cached.layout;
	}

	const layout = layoutColumns(rows, width);
	layouts.set(rows, {width, layout});
	return layout;
}

/** One table line: marker, then each cell cut and padded to its column. */
export function formatRow(cells: Map<string, string>, columns: readonly Column[], selected: boolean): string {
	let cached = lines.get(cells);
	if (cached?.columns !== columns) {
		cached = {columns, text: columns.map(column => fitCell(cells.get(column.path) ?? '', column.width)).join(' '.repeat(gap))};
		lines.set(cells, cached);
	}

	return (selected ? '› ' : '  ') + cached.text;
}

export function formatHeader(columns: readonly Column[]): string {
	return ' '.repeat(markerWidth) + columns.map(column => fitCell(column.path, column.width)).join(' '.repeat(gap));
}

/**
 * The first row of the window: keeps the selected row visible and moves the
 * window only as far as needed (so the view does not jump), never past the end.
 */
export function windowStart(total: number, height: number, selected: number, previousStart: number): number {
	if (height <= 0 || total <= height) {
		return 0;
	}

	let start = Math.min(Math.max(previousStart, 0), total - height);
	if (selected < start) {
		start = selected;
	} else if (selected >= start + height) {
		start = selected - height + 1;
	}

	return Math.max(0, Math.min(start, total - height));
}
