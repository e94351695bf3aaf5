import {escapeUnsafeJson} from '../text/unsafe-chars.js';

/**
 * A value built here as one JSON text, with the characters unsafe on a
 * terminal written as `\uXXXX` escapes (the shared table in unsafe-chars.ts):
 * as escapes the JSON means exactly the same value. The dump writes the
 * API's own texts instead (see json-spans.ts); this serves values that were
 * built here.
 */
export function safeJson(value: unknown): string {
	return escapeUnsafeJson(JSON.stringify(value));
}
