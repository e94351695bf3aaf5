import {csvWriter} from './csv.js';
import {jsonWriter} from './json.js';
import {ndjsonWriter} from './ndjson.js';
import {tableWriter} from './table.js';
import type {Format, Writer, WriterOptions} from './writer.js';

export {formats, type Format, type Writer, type WriterOptions} from './writer.js';

export function createWriter(format: Format, options: WriterOptions): Writer {
	switch (format) {
		case 'ndjson': {
			return ndjsonWriter();
		}

		case 'json': {
			return jsonWriter(options.resume);
		}

		case 'csv': {
			return csvWriter(options);
		}

		case 'table': {
			return tableWriter(options);
		}
	}
}
