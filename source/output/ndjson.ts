import type {ListObject} from '../core/types.js';
import {safeJson} from './safe-json.js';
import type {Writer} from './writer.js';

/** One API object per line, exactly as received. */
export function ndjsonWriter(): Writer {
	return {
		page(objects: ListObject[]) {
			let text = '';
			for (const object of objects) {
				text += `${safeJson(object)}\n`;
			}

			return text;
		},
		end: () => '',
		notes: () => [],
	};
}
