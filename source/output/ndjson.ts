import type {ListObject} from '../core/types.js';
import {safeJsonText} from './safe-json.js';
import type {Writer} from './writer.js';

/** One API object per line, exactly as received. */
export function ndjsonWriter(): Writer {
	return {
		page(objects: ListObject[]) {
			let text = '';
			for (const object of objects) {
				text += `${JSON.stringify(object)}\n`;
			}

			// One scan per page rather than per object.
			return safeJsonText(text);
		},
		end: () => '',
		notes: () => [],
	};
}
