import type {ListObject} from '../contract/types.js';
import {joinedBytes, linesInPlace} from './exact-bytes.js';
import {safeJson} from './safe-json.js';
import type {Writer} from './writer.js';

/**
 * One API object per line, exactly as received: the object's own text from
 * the body (see json/json-spans.ts), whitespace removed and terminal-unsafe
 * characters escaped. Objects that came without their text (built in tests)
 * are serialized, with the same escaping.
 */
export function ndjsonWriter(): Writer {
	return {
		page(objects: ListObject[], texts?: readonly string[]) {
			let text = '';
			for (const [index, object] of objects.entries()) {
				text += `${texts?.[index] ?? safeJson(object)}\n`;
			}

			return text;
		},
		pageBytes: (objects, texts, bytes) => linesInPlace(objects.length, bytes) ?? joinedBytes(objects.length, texts, bytes, {before: '', between: '\n', after: objects.length > 0 ? '\n' : ''}),
		end: () => '',
		notes: () => [],
	};
}
