import type {ListObject} from '../contract/types.js';
import {joinedBytes} from './exact-bytes.js';
import {safeJson} from './safe-json.js';
import type {Writer} from './writer.js';

/**
 * One JSON array for the whole walk, streamed: `[` before the first object,
 * `]` from end(), which the dump calls on failure too, so a walk that fails
 * midway still leaves one valid document of what was read (and a write that
 * fails midway one of what the file kept). Each element is
 * the object's exact text, as in NDJSON.
 */
export function jsonWriter(resume?: unknown): Writer {
	let started = (resume as {started?: boolean} | undefined)?.started === true;
	return {
		page(objects: ListObject[], texts?: readonly string[]) {
			let text = '';
			for (const [index, object] of objects.entries()) {
				text += `${started ? ',\n' : '[\n'}${texts?.[index] ?? safeJson(object)}`;
				started = true;
			}

			return text;
		},
		pageBytes(objects, texts, bytes) {
			if (objects.length === 0) {
				return new Uint8Array(0);
			}

			const before = started ? ',\n' : '[\n';
			started = true;
			return joinedBytes(objects.length, texts, bytes, {before, between: ',\n', after: ''});
		},
		end: (objects?: number) => ((objects === undefined ? started : objects > 0) ? '\n]\n' : '[]\n'),
		notes: () => [],
		state: () => ({started}),
	};
}
