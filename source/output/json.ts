import type {ListObject} from '../core/types.js';
import {safeJsonText} from './safe-json.js';
import type {Writer} from './writer.js';

/**
 * One JSON array for the whole walk, streamed: `[` before the first object,
 * `]` from end(), which the dump calls on failure too, so a walk that fails
 * midway still leaves one valid document of what was read.
 */
export function jsonWriter(): Writer {
	let started = false;
	return {
		page(objects: ListObject[]) {
			let text = '';
			for (const object of objects) {
				text += `${started ? ',\n' : '[\n'}${JSON.stringify(object)}`;
				started = true;
			}

			return safeJsonText(text);
		},
		end: () => (started ? '\n]\n' : '[]\n'),
		notes: () => [],
	};
}
