import {columnTraits, nameRank, orderColumns, ranks, type Cells, type ColumnTraits} from './column-order.js';
import {readsAsNumber} from './exact-cells.js';
import {columnsOf} from './flatten.js';
import {cutWithWidth, displayWidth, padToWidth} from '../text/text-width.js';

/**
 * The one table layout, shared by the browser and `dump --format table`: which
 * columns fit in how many cells, how wide each is, how a cell is cut and
 * padded. Pure maths over flattened rows (`path → text`, already inert), free
 * of React and of either caller, so both draw a page by the same rules.
 */

/** `prefix`: an id shortened as git shortens a hash, to its first characters with no ellipsis (whole in detail, copy and search). */
export type Column = {path: string; width: number; align?: 'right'; prefix?: true};

/**
 * How wide a shortened id is, as git shortens a hash: {@link minimumWidth}
 * cells, longer only where two ids of the page share that many first
 * characters, at most `most` (the whole id).
 */
function uniquePrefixWidth(ids: readonly string[], most: number): number {
	for (let width = Math.min(minimumWidth, most); width < most; width++) {
		if (new Set(ids.map(id => id.slice(0, width))).size === ids.length) {
			return width;
		}
	}

	return most;
}
/** `hidden`: columns of the page not shown (scrolled past or not fitting). */
/** The columns that fit, and how many (and which) did not. */
export type TableLayout = {columns: Column[]; hidden: number; hiddenPaths: string[]};

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

/** Where a column's text sits in its cells: numbers and amounts to the right, so their digits line up. */
export type Align = 'left' | 'right';

export type LayoutOptions = {
	/** The columns, in the order to show them (default: the page's, in reading order; see cells/column-order.ts). */
	paths?: readonly string[];
	/** Columns scrolled past, after the pinned `id` (horizontal scrolling). */
	offset?: number;
};

/** Columns scrolled past: at least one column stays beside the pinned id. */
export function clampOffset(offset: number, scrollable: number): number {
	return Math.max(0, Math.min(offset, scrollable - 1));
}

/** `prefix`: for the id, the width of its shortened form, worked out once a page when first needed. */
type Measure = {natural: number; traits: ColumnTraits; prefix?: number};
const measures = new WeakMap<readonly Cells[], {sample: number; columns: Map<string, Measure>}>();

/**
 * A column's width when it is shown at all: a timestamp whole (its order is
 * in its last digits), a name or amount up to {@link readWidth}, anything
 * else up to {@link minimumWidth}, and never narrower than its own name.
 * Spare cells are then shared out.
 */
export const readWidth = 24;

/** {@link fitCell}, the padding in front: numbers line up on their last digit. */
export function fitRight(text: string, width: number): string {
	const cut = cutWithWidth(text, width);
	return ' '.repeat(Math.max(0, width - cut.width)) + cut.text;
}

/**
 * Fits columns into `available` cells (Infinity: no limit). Columns are taken
 * in order (the reading order of cells/column-order.ts unless `paths` says
 * otherwise), from `offset` on after the pinned id, as long as each fits at
 * its floor: a timestamp whole, a field people read up to {@link readWidth},
 * any other up to {@link minimumWidth} (or at that minimum when its floor
 * does not fit), its whole name either way; the first column that fits
 * neither way ends the row. Spare cells then widen the shown columns
 * together (a common cap, found by search) up to their natural width (the
 * widest of header and cells, at most {@link maximumWidth}); the columns left
 * over are counted as hidden. Widths are measured up to the cap only, so a
 * megabyte cell costs what a short one does.
 */
export function layoutColumns(rows: readonly Cells[], available: number, sample = sampleRows, options: LayoutOptions = {}): TableLayout {
	const sampled = rows.slice(0, sample);
	const paths = options.paths ? [...options.paths] : orderColumns(sampled, columnsOf(rows as Iterable<Map<string, string>>));
	// What a column's cells say is measured once per page (the same rows
	// array): a sideways scroll or a toggle lays out again without reading
	// every cell again.
	let measured = measures.get(rows);
	if (measured?.sample !== sample) {
		measured = {sample, columns: new Map()};
		measures.set(rows, measured);
	}

	const measure = (path: string): Measure => {
		let found = measured.columns.get(path);
		if (!found) {
			let widest = displayWidth(path, maximumWidth);
			// The id is measured in every row, so it stays whole (see below).
			for (const row of path === 'id' ? rows : sampled) {
				const text = row.get(path);
				if (text !== undefined && widest < maximumWidth) {
					widest = Math.max(widest, displayWidth(text, maximumWidth));
				}
			}

			found = {natural: widest, traits: columnTraits(sampled, path)};
			measured.columns.set(path, found);
		}

		return found;
	};

	const natural = (path: string) => measure(path).natural;

	const hasId = paths[0] === 'id';
	const idNatural = hasId ? natural('id') : 0;
	// The id is the cursor: users copy it and match it against next_uri, so it
	// keeps its whole width whenever one more column still fits beside it.
	const pinned = hasId && idNatural + gap + minimumWidth <= available ? idNatural : undefined;
	const scrollable = hasId ? paths.slice(1) : paths;
	const offset = clampOffset(options.offset ?? 0, scrollable.length);
	const candidates = hasId ? ['id', ...scrollable.slice(offset)] : scrollable.slice(offset);

	type Planned = {path: string; natural: number; floor: number; align: Align; prefix?: true};
	const planned: Planned[] = [];
	let used = 0;
	for (const [index, path] of candidates.entries()) {
		const isId = hasId && index === 0;
		const {natural: width, traits} = measure(path);
		const rank = nameRank(path);
		// A column shows its whole name or is not shown: a cut name says less
		// than one fewer column would. (The natural width holds the name, up to
		// maximumWidth, so only a name wider than any column is cut.)
		const name = Math.min(width, displayWidth(path, maximumWidth));
		let wanted: number;
		if (isId && pinned !== undefined) {
			wanted = pinned;
		} else if (isId) {
			// No room for the whole id beside a column: its first characters, as git shows a hash.
			const measured = measure(path);
			measured.prefix ??= uniquePrefixWidth(rows.map(row => row.get('id') ?? ''), width);
			wanted = measured.prefix;
		} else if (traits.timestamp || traits.numeric) {
			// Kept whole where they fit: a timestamp's order is in its last digits, and a number cut is another number.
			wanted = width;
		} else if (rank > ranks.id && rank <= ranks.description) {
			wanted = Math.min(width, readWidth);
		} else {
			wanted = Math.min(width, minimumWidth);
		}

		const floors = [Math.max(wanted, name), Math.max(Math.min(width, minimumWidth), name)];
		const extra = planned.length === 0 ? 0 : gap;
		const floor = floors.find(candidate => used + extra + candidate <= available);
		if (floor === undefined) {
			if (planned.length === 0) {
				// A terminal narrower than one column at its floor: cut that column to fit.
				planned.push({path, natural: width, floor: Math.max(1, Math.floor(available)), align: 'left'});
				used = available;
			}

			break;
		}

		planned.push({path, natural: width, floor, align: !isId && traits.numeric ? 'right' : 'left', ...(isId && pinned === undefined ? {prefix: true as const} : {})});
		used += extra + floor;
	}

	const widthOf = (column: Planned, cap: number) => Math.max(column.floor, Math.min(column.natural, cap));
	const total = (cap: number) => planned.reduce((sum, column, i) => sum + (i > 0 ? gap : 0) + widthOf(column, cap), 0);
	let low = minimumWidth;
	let high = maximumWidth;
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		if (total(middle) <= available) {
			low = middle;
		} else {
			high = middle - 1;
		}
	}

	const columns: Column[] = planned.map(column => {
		const width = widthOf(column, low);
		if (column.prefix) {
			return {path: column.path, width, prefix: true};
		}

		return column.align === 'right' ? {path: column.path, width, align: 'right'} : {path: column.path, width};
	});
	const shown = new Set(columns.map(column => column.path));
	return {columns, hidden: paths.length - columns.length, hiddenPaths: paths.filter(path => !shown.has(path))};
}

/**
 * The cells of one row (or the header, given each column's path), cut, padded
 * and joined. A number is never cut among its digits (`227.6807097…` reads as
 * another number): one that does not fit is `…` alone, and the detail view
 * shows it whole.
 */
export function formatCells(cells: Cells, columns: readonly Column[]): string {
	return columns.map(column => {
		const text = cells.get(column.path) ?? '';
		if (column.prefix) {
			return padToWidth(text, column.width, {ellipsis: ''});
		}

		if (text.length > column.width && readsAsNumber(text) && column.width > 0) {
			return column.align === 'right' ? fitRight('…', column.width) : fitCell('…', column.width);
		}

		return column.align === 'right' ? fitRight(text, column.width) : fitCell(text, column.width);
	}).join(' '.repeat(gap));
}

/** The header: each column's path, cut and padded like a cell. */
export function formatHeaderCells(columns: readonly Column[]): string {
	return columns.map(column => column.align === 'right' ? fitRight(column.path, column.width) : fitCell(column.path, column.width)).join(' '.repeat(gap));
}
