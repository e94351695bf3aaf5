import {inert} from '../core/inert.js';
import type {ListObject} from '../core/types.js';
import {cell, columnsOf, flatten} from '../core/flatten.js';
import type {Writer, WriterOptions} from './writer.js';

const exact = {value: cell};

function quote(value: string): string {
	return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * RFC 4180 CSV with flattened columns. The header must come first and the
 * dump streams, so the columns are those of the first page with objects;
 * paths first seen later are left out and named in a note at the end
 * (NDJSON keeps everything).
 */
export function csvWriter(options: WriterOptions): Writer {
	let columns: string[] | undefined;
	const dropped = new Set<string>();
	const show = options.tty ? inert : (value: string) => value;
	return {
		page(objects: ListObject[]) {
			if (objects.length === 0) {
				return '';
			}

			const rows = objects.map(object => flatten(object, exact));
			let text = '';
			if (columns === undefined) {
				columns = columnsOf(rows);
				text += `${columns.map(column => quote(show(column))).join(',')}\r\n`;
			}

			const known = new Set(columns);
			for (const row of rows) {
				for (const path of row.keys()) {
					if (!known.has(path)) {
						dropped.add(path);
					}
				}

				text += `${columns.map(column => quote(show(row.get(column) ?? ''))).join(',')}\r\n`;
			}

			return text;
		},
		end: () => '',
		notes() {
			if (dropped.size === 0) {
				return [];
			}

			const names = [...dropped];
			return [`${names.length} ${names.length === 1 ? 'field' : 'fields'} first seen after the CSV header was written ${names.length === 1 ? 'was' : 'were'} left out (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}); use --format ndjson to keep every field.`];
		},
	};
}
