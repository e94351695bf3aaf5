import {editDistance} from '../../text/edit-distance.js';
import {chooseColumns} from '../../cells/column-order.js';
import type {ColumnChoice} from '../../cells/column-order.js';
import {fitCell, formatCells, formatHeaderCells, gap, layoutColumns} from '../../cells/table-layout.js';
import type {Column, TableLayout} from '../../cells/table-layout.js';
import {displayWidth} from '../../text/text-width.js';
import type {Row, RowSort} from '../stack/cells.js';

/**
 * The browser's table: the shared layout of cells/table-layout.ts behind a
 * selection marker, remembered per page and width, and the window of rows on
 * screen. Kept free of React so it is tested directly and costs nothing to
 * re-run on resize.
 */

export {fitCell, type Column, type TableLayout};

/** Width of the selection marker in front of each row. */
export const markerWidth = 2;

/**
 * The table on the browser's screen: the shared column layout
 * (cells/table-layout.ts `layoutColumns`) for a terminal `width` cells wide,
 * the marker included, in the user's column view.
 */
export function screenLayout(rows: readonly Row[], width: number, sample?: number, view: ColumnView = {}): TableLayout {
	return layoutColumns(cellsOf(rows), width - markerWidth, sample, {paths: pageColumns(rows, view.choice), offset: view.offset});
}

// One cells array per page, so the shared layout can remember what it measured of it.
const pageCells = new WeakMap<readonly Row[], Array<Map<string, string>>>();
function cellsOf(rows: readonly Row[]): Array<Map<string, string>> {
	let cells = pageCells.get(rows);
	if (!cells) {
		cells = rows.map(row => row.cells);
		pageCells.set(rows, cells);
	}

	return cells;
}

/** How the user looks at a page's columns: their choice (picker, --columns) and how far they scrolled sideways. */
export type ColumnView = {choice?: ColumnChoice | undefined; offset?: number};

// A row's cells only change with the columns: a key press that moves the
// selection reuses every other line as it was (measuring text is the costly part).
const lines = new WeakMap<Map<string, string>, {columns: readonly Column[]; text: string; trimmed: string; width: number}>();

const layouts = new WeakMap<readonly Row[], {width: number; choice: ColumnChoice | undefined; offset: number; layout: TableLayout}>();

/**
 * {@link screenLayout}, remembered per page and width: going back to a page
 * reuses its columns, and with them every line already cut for them.
 */
export function pageLayout(rows: readonly Row[], width: number, view: ColumnView = {}): TableLayout {
	const cached = layouts.get(rows);
	const offset = view.offset ?? 0;
	if (cached?.width === width && cached.choice === view.choice && cached.offset === offset) {
		return cached.layout;
	}

	const layout = screenLayout(rows, width, undefined, view);
	layouts.set(rows, {width, choice: view.choice, offset, layout});
	return layout;
}

const chosen = new WeakMap<readonly Row[], {choice: ColumnChoice; paths: string[]}>();
const readingOrders = new WeakMap<readonly Row[], string[]>();

/**
 * The page's columns in the order the table shows them, remembered per page
 * and choice: ranking a page's columns reads every row, and a sideways
 * scroll, a resize or a toggle in the picker must not pay for it again. The
 * reading order (no choice) is kept apart, as every choice starts from it.
 */
export function pageColumns(rows: readonly Row[], choice?: ColumnChoice): string[] {
	let readingOrder = readingOrders.get(rows);
	if (!readingOrder) {
		readingOrder = chooseColumns(cellsOf(rows));
		readingOrders.set(rows, readingOrder);
	}

	if (!choice) {
		return readingOrder;
	}

	const cached = chosen.get(rows);
	if (cached && cached.choice === choice) {
		return cached.paths;
	}

	const paths = chooseColumns(cellsOf(rows), choice, {readingOrder});
	chosen.set(rows, {choice, paths});
	return paths;
}

/**
 * The column picker's list: every column of the page, in the order of the
 * choice (hidden ones where the user left them, so hiding and showing again
 * happens in place), then columns the choice does not name; without a
 * choice, the reading order, all shown.
 */
export function pickerItems(rows: readonly Row[], choice?: ColumnChoice): Array<{path: string; shown: boolean}> {
	const all = pageColumns(rows, undefined);
	if (!choice) {
		return all.map(path => ({path, shown: true}));
	}

	const shown = new Set(pageColumns(rows, choice));
	const onPage = new Set(all);
	const named = choice.order.filter(path => onPage.has(path));
	const ordered = [...new Set(['id', ...named, ...all])];
	return ordered.map(path => ({path, shown: shown.has(path)}));
}

/** One table line: marker, then each cell cut and padded to its column. */
export function formatRow(cells: Map<string, string>, columns: readonly Column[], selected: boolean): string {
	return (selected ? '› ' : '  ') + cutRow(cells, columns).text;
}

/**
 * A row as the table draws it: the line without its trailing blanks (Ink's
 * output pass costs per character drawn), and its width in terminal cells,
 * known from the layout without measuring (every cell is cut and padded to
 * its column, and the blanks removed are one cell each). Never wider than
 * the layout, never narrower than string-width's measure of the text (which
 * is one less where a character joins the padding after it into one
 * cluster): test/browser/row-line.property.test.ts.
 */
export type RowLine = {text: string; width: number};

/** `fresh`: an object that just arrived while following (F), marked `+` unless selected. */
export function rowLine(cells: Map<string, string>, columns: readonly Column[], selected: boolean, fresh = false): RowLine {
	const {trimmed, width} = cutRow(cells, columns);
	return {text: (selected ? '› ' : fresh ? '+ ' : '  ') + trimmed, width: markerWidth + width};
}

// Each cell as cut for a column width, kept per row: a sideways scroll, a
// toggle in the picker or a resize back lays the row out again, and most of
// its cells come back at a width they were already cut to.
const cellCuts = new WeakMap<Map<string, string>, Map<string, string>>();
function cutCell(cells: Map<string, string>, column: Column): string {
	let cuts = cellCuts.get(cells);
	if (!cuts) {
		cuts = new Map();
		cellCuts.set(cells, cuts);
	}

	const key = `${column.prefix ? '=' : column.align === 'right' ? '>' : '<'}${column.width} ${column.path}`;
	let text = cuts.get(key);
	if (text === undefined) {
		text = formatCells(cells, [column]);
		cuts.set(key, text);
	}

	return text;
}

function cutRow(cells: Map<string, string>, columns: readonly Column[]) {
	let cached = lines.get(cells);
	if (cached?.columns !== columns) {
		const text = columns.map(column => cutCell(cells, column)).join(' '.repeat(gap));
		// Only the padding's spaces, one cell each: trimEnd would also take an
		// ideographic space (two cells) or a no-break space the cell holds.
		let end = text.length;
		while (end > 0 && text.charCodeAt(end - 1) === 0x20) {
			end--;
		}

		const trimmed = text.slice(0, end);
		const full = columns.reduce((sum, column) => sum + column.width, 0) + gap * Math.max(0, columns.length - 1);
		cached = {columns, text, trimmed, width: full - (text.length - trimmed.length)};
		lines.set(cells, cached);
	}

	return cached;
}

// The header changes only with the columns: cut once per layout, not on every key.
const headers = new WeakMap<readonly Column[], string>();

export function formatHeader(columns: readonly Column[], sort?: RowSort | null): string {
	const sorted = sort ? columns.findIndex(column => column.path === sort.path) : -1;
	if (sort && sorted !== -1) {
		// ▲ or ▼ just before the sorted column's name, in the padding of a
		// right-aligned name or else in the blanks before the column (the gap,
		// or the marker's place): the name stays whole, the widths as laid out.
		const arrow = sort.direction === 'ascending' ? '▲' : '▼';
		const parts = columns.flatMap((column, index) => [index === 0 ? ' '.repeat(markerWidth) : ' '.repeat(gap), formatHeaderCells([column])]);
		const column = columns[sorted]!;
		const cell = parts[2 * sorted + 1]!;
		const padding = column.align === 'right' ? Math.max(0, column.width - displayWidth(column.path, column.width + 1)) : 0;
		if (padding > 0) {
			parts[2 * sorted + 1] = `${cell.slice(0, padding - 1)}${arrow}${cell.slice(padding)}`;
		} else {
			parts[2 * sorted] = `${parts[2 * sorted]!.slice(0, -1)}${arrow}`;
		}

		return parts.join('');
	}

	let header = headers.get(columns);
	if (header === undefined) {
		header = ' '.repeat(markerWidth) + formatHeaderCells(columns);
		headers.set(columns, header);
	}

	return header;
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

/**
 * Columns the user typed (--columns) that no row of the page has: a typo is
 * shown, not silently dropped, with the closest column the page does have.
 * At most a few are reported. A choice made in the picker (remembered) named
 * what an earlier page had, not what the user asked for: never reported.
 */
export function missingColumns(rows: readonly Row[], choice?: ColumnChoice): Array<{path: string; closest?: string}> {
	if (!choice?.typed || rows.length === 0) {
		return [];
	}

	const present = new Set<string>();
	for (const row of rows) {
		for (const path of row.cells.keys()) {
			present.add(path);
		}
	}

	const missing = choice.order.filter(path => !present.has(path)).slice(0, 3);
	return missing.map(path => {
		let closest: string | undefined;
		let best = Math.max(2, Math.floor(path.length / 3)) + 1;
		for (const candidate of present) {
			const distance = editDistance(path, candidate);
			if (distance < best) {
				best = distance;
				closest = candidate;
			}
		}

		return closest === undefined ? {path} : {path, closest};
	});
}
