import {jsonEscape, unsafePattern} from '../core/unsafe-chars.js';

/**
 * Escapes, as `\uXXXX`, the characters of one JSON text that are unsafe on a
 * terminal (the shared table in unsafe-chars.ts). As escapes the JSON means
 * exactly the same value. Meant for one JSON text made by JSON.stringify
 * (which already escapes C0 controls and lone surrogates), never for several
 * texts joined by newlines. The dump writes the API's own texts instead (see
 * json-spans.ts); this serves values that were built here.
 */
const unsafe = unsafePattern();

export function safeJsonText(text: string): string {
	unsafe.lastIndex = 0;
	// The test first: most texts have none, and replace() would copy them.
	const found = unsafe.test(text);
	unsafe.lastIndex = 0;
	return found ? text.replace(unsafe, jsonEscape) : text;
}

export function safeJson(value: unknown): string {
	return safeJsonText(JSON.stringify(value));
}
