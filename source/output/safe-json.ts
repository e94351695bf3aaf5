/**
 * JSON.stringify already escapes C0 controls and lone surrogates. These are
 * the other characters that can change a terminal or reorder text (C1
 * controls, bidi and invisible marks, tag characters); as `\uXXXX` escapes
 * the JSON means exactly the same value, so the output stays the API's own
 * objects and is still safe to print on a terminal. Outside strings JSON
 * text never holds them, so escaping a whole page's text at once is exact.
 */
const unsafe = /[\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\uDB40]/;
const unsafeAll = new RegExp(unsafe.source, 'g');

function escape(char: string): string {
	return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Escapes the unsafe characters of JSON text (one object or a whole page of lines). */
export function safeJsonText(text: string): string {
	// The test first: most pages have none, and replace() would copy them.
	return unsafe.test(text) ? text.replace(unsafeAll, escape) : text;
}

export function safeJson(value: unknown): string {
	return safeJsonText(JSON.stringify(value));
}
