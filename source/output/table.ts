import {inert, inertLine} from '../text/inert.js';
import type {ListObject} from '../contract/types.js';
import {exactCells} from '../cells/exact-cells.js';
import {FieldCheck} from './field-check.js';
import {formatCells, formatHeaderCells, layoutColumns, maximumWidth, type Column} from '../cells/table-layout.js';
import {windowLength} from '../text/text-width.js';
import type {Writer, WriterOptions} from './writer.js';
import {flag} from '../config/hints.js';

// Cells are made inert before they are measured and cut: an escape such as
// `\x1b` takes the cells it is drawn in. Only a head of a long value is: no
// column is wider than maximumWidth, and the cut reads at most
// windowLength(maximumWidth) code units, so a head twice that long still
// counts as overflowing (the cell ends in `…`), and a megabyte cell costs
// what a short one does.
const headLength = 2 * windowLength(maximumWidth);
function shownCells(cells: Map<string, string>): Map<string, string> {
	const shown = new Map<string, string>();
	for (const [path, text] of cells) {
		shown.set(inert(path), inert(text.length > headLength ? text.slice(0, headLength) : text));
	}

	return shown;
}

/**
 * A plain text table for people, laid out by the browser's rules (the shared
 * layout of cells/table-layout.ts): natural widths capped, the id kept whole,
 * the widest columns narrowed together and, on a terminal, the columns that
 * still do not fit left out from the right and named in a note. Columns and
 * widths come from the first page with objects (the table streams, like
 * every format); lines carry no trailing spaces.
 */
export function tableWriter(options: WriterOptions): Writer {
	const resumed = options.resume as {columns?: Column[]; hidden?: string[]} | undefined;
	let columns = resumed?.columns;
	let hidden: string[] = resumed?.hidden ?? [];
	const fields = new FieldCheck(options.fields);
	const bold = (text: string) => (options.color ? `\u001B[1m${text}\u001B[22m` : text);
	return {
		page(objects: ListObject[], texts?: readonly string[]) {
			if (objects.length === 0) {
				return '';
			}

			// Values as sent (the exact texts, as in csv), then made inert.
			const rows = objects.map((object, index) => shownCells(exactCells(texts?.[index] ?? JSON.stringify(object))));
			fields.observe(rows);
			let text = '';
			if (columns === undefined) {
				const available = options.tty && options.columns !== undefined ? options.columns : Number.POSITIVE_INFINITY;
				// --columns: exactly those, in that order; else the reading order (cells/column-order.ts).
				const layout = layoutColumns(rows, available, undefined, options.fields ? {paths: options.fields} : {});
				columns = layout.columns;
				hidden = layout.hiddenPaths;
				text += `${bold(formatHeaderCells(columns).trimEnd())}\n`;
			}

			for (const row of rows) {
				text += `${formatCells(row, columns).trimEnd()}\n`;
			}

			return text;
		},
		end: () => '',
		state: () => ({columns, hidden}),
		notes() {
			// Column names are the server's keys: inert and cut, the first few named.
			const named = hidden.slice(0, 5).map(path => inertLine(path, 40)).join(', ') + (hidden.length > 5 ? ', …' : '');
			const result = hidden.length === 0 ? [] : [`${hidden.length} ${hidden.length === 1 ? 'column' : 'columns'} did not fit the terminal width and ${hidden.length === 1 ? 'was' : 'were'} left out (${named}); use ${flag(['dump', 'browse'], 'format', 'csv')} or ndjson to see every field.`];
			hidden = [];
			return [...result, ...fields.notes()];
		},
	};
}
