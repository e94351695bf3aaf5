import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import {inert} from '../core/inert.js';
import type {ListObject} from '../core/types.js';
import {columnsOf} from '../core/flatten.js';
import {exactCells} from './exact-cells.js';
import type {Writer, WriterOptions} from './writer.js';

const maxColumnWidth = 36;

function pad(text: string, width: number): string {
	const fitted = stringWidth(text) > width ? cliTruncate(text, width) : text;
	return fitted + ' '.repeat(Math.max(0, width - stringWidth(fitted)));
}

/**
 * A plain text table for people. Columns and widths come from the first page
 * with objects (the table streams, like every format), cells are made inert
 * and truncated with an ellipsis; on a terminal, columns that do not fit the
 * width are left out and named in a note.
 */
export function tableWriter(options: WriterOptions): Writer {
	let columns: Array<{path: string; width: number}> | undefined;
	let hidden: string[] = [];
	const bold = (text: string) => (options.color ? `\u001B[1m${text}\u001B[22m` : text);
	return {
		page(objects: ListObject[], texts?: readonly string[]) {
			if (objects.length === 0) {
				return '';
			}

			// Values as sent: the exact texts, as in csv.
			const rows = objects.map((object, index) => exactCells(texts?.[index] ?? JSON.stringify(object)));
			let text = '';
			if (columns === undefined) {
				const all = columnsOf(rows).map(path => ({
					path,
					width: Math.min(maxColumnWidth, Math.max(stringWidth(inert(path)), ...rows.map(row => stringWidth(inert(row.get(path) ?? ''))))),
				}));
				columns = [];
				let used = 0;
				for (const column of all) {
					if (options.tty && options.columns !== undefined && columns.length > 0 && used + column.width + 2 > options.columns) {
						hidden.push(column.path);
						continue;
					}

					columns.push(column);
					used += column.width + 2;
				}

				text += `${bold(columns.map(column => pad(inert(column.path), column.width)).join('  ').trimEnd())}\n`;
			}

			for (const row of rows) {
				text += `${columns.map(column => pad(inert(row.get(column.path) ?? ''), column.width)).join('  ').trimEnd()}\n`;
			}

			return text;
		},
		end: () => '',
		notes() {
			const result = hidden.length === 0 ? [] : [`${hidden.length} ${hidden.length === 1 ? 'column' : 'columns'} did not fit the terminal width and ${hidden.length === 1 ? 'was' : 'were'} left out; use --format csv or ndjson to see every field.`];
			hidden = [];
			return result;
		},
	};
}
