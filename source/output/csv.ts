import {inert, inertLine} from '../text/inert.js';
import type {ListObject} from '../contract/types.js';
import {columnsOf} from '../cells/flatten.js';
import {exactCells} from '../cells/exact-cells.js';
import {FieldCheck} from './field-check.js';
import type {Writer, WriterOptions} from './writer.js';
import {flag} from '../config/hints.js';

/**
 * A text a spreadsheet would run as a formula (or whose leading tab or CR
 * could hide one) gets a leading `'`, which spreadsheets show as text. Only
 * strings: a JSON number such as -5 stays a number.
 */
export function guardFormula(text: string): string {
	return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function quote(value: string): string {
	return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * RFC 4180 CSV with flattened columns (see exact-cells.ts: values as sent,
 * paths that never collide). The header must come first and the dump
 * streams, so the columns are those of the first page with objects; paths
 * first seen later are left out and named in a note at the end (NDJSON keeps
 * everything). Text cells and column names are guarded against formula
 * injection unless `formulaGuard` is false.
 */
export function csvWriter(options: WriterOptions): Writer {
	let columns = (options.resume as {columns?: string[]} | undefined)?.columns;
	const {parentColumn} = options;
	const dropped = new Set<string>();
	const show = options.tty ? inert : (value: string) => value;
	const guard = options.formulaGuard === false ? undefined : guardFormula;
	const cellOptions = {string: guard};
	const fields = new FieldCheck(options.fields);
	return {
		page(objects: ListObject[], texts?: readonly string[], parent?: string) {
			if (objects.length === 0) {
				return '';
			}

			const rows = objects.map((object, index) => {
				const cells = exactCells(texts?.[index] ?? JSON.stringify(object), cellOptions);
				// The parent's column first; a field of the object's own of that name keeps its cell (the data as sent).
				return parentColumn === undefined || cells.has(parentColumn) ? cells : new Map([[parentColumn, parent ?? ''], ...cells]);
			});
			fields.observe(rows);
			let text = '';
			if (columns === undefined) {
				columns = options.fields ? [...options.fields] : columnsOf(rows);
				if (parentColumn !== undefined && !options.fields) {
					columns = [parentColumn, ...columns.filter(column => column !== parentColumn)];
				}

				text += `${columns.map(column => quote(show(guard ? guard(column) : column))).join(',')}\r\n`;
			}

			const known = new Set(columns);
			for (const row of rows) {
				// With --columns the user chose what to leave out: nothing to note.
				for (const path of options.fields ? [] : row.keys()) {
					if (!known.has(path)) {
						dropped.add(path);
					}
				}

				text += `${columns.map(column => quote(show(row.get(column) ?? ''))).join(',')}\r\n`;
			}

			return text;
		},
		end: () => '',
		state: () => ({columns}),
		notes() {
			if (dropped.size === 0) {
				return fields.notes();
			}

			const names = [...dropped];
			// Field names are the server's keys: inert and cut on stderr, like any server text.
			const shown = names.slice(0, 5).map(name => inertLine(name, 40));
			return [`${names.length} ${names.length === 1 ? 'field' : 'fields'} first seen after the CSV header was written ${names.length === 1 ? 'was' : 'were'} left out (${shown.join(', ')}${names.length > 5 ? ', …' : ''}); use ${flag(['dump', 'browse'], 'format', 'ndjson')} to keep every field.`, ...fields.notes()];
		},
	};
}
