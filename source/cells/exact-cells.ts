import {maxFlattenDepth} from './flatten.js';
import {skipString, skipValue, stringValue} from '../json/json-tokenizer.js';

/**
 * Flattens one object's exact JSON text (see json/json-spans.ts) into
 * `path → cell` pairs for the csv and table formats, so cells show values as
 * the server sent them: a number keeps its token (`1.0`, `9007199254740993`,
 * `1e400`), keys keep their order, arrays and empty objects are their own
 * exact text. Strings are decoded; null is an empty cell.
 *
 * Paths never collide, so no value is dropped silently:
 * - a key holding `.`, `[`, `]` or `#` (or an empty key) is written as a
 *   bracketed JSON string, `a["b.c"]`, so the literal key "a.b" (`["a.b"]`)
 *   stays apart from the nested a → b (`a.b`);
 * - a key given twice in one object keeps both values, the second as `key#2`.
 *
 * Read with the one JSON scanner's walk over valid text (json-tokenizer.ts).
 * Iterative over the text, and nesting deeper than `maxDepth` levels stays
 * one cell holding its exact text: a deeply nested object costs linear work,
 * not one ever longer path per level.
 */

/**
 * Whether a cell reads as a number: a JSON number as the server wrote it, or a
 * string holding one (the account API's amounts, `"0.00010000"`). Such a cell
 * is right-aligned, and drawn whole or not at all: `227.6807097…`, cut, reads
 * as another number. Bounded: a megabyte cell is not one.
 */
export function readsAsNumber(text: string): boolean {
	return text.length <= 64 && /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(text);
}

export type CellOptions = {
	/** How a string value is shown (the csv formula guard); the decoded string when absent. */
	string?: (text: string) => string;
	/** Object levels flattened into paths; deeper objects are one cell. */
	maxDepth?: number;
	/** How null is shown: empty by default (csv), `null` in the browser. */
	nullText?: string;
};

const bare = /^[^.[\]#]+$/;

function segment(prefix: string, key: string): string {
	if (bare.test(key)) {
		return prefix === '' ? key : `${prefix}.${key}`;
	}

	return `${prefix}[${JSON.stringify(key)}]`;
}

/**
 * The cells of one object's minified JSON text, in the order of the text.
 * A text that is not an object gives no cells.
 */
export function exactCells(text: string, options: CellOptions = {}): Map<string, string> {
	const cells = new Map<string, string>();
	const repeats = new Map<string, number>();
	const maxDepth = options.maxDepth ?? maxFlattenDepth;
	if (text.charCodeAt(0) !== 0x7B) {
		return cells;
	}

	const prefixes: string[] = [''];
	let at = 1;
	while (prefixes.length > 0) {
		const code = text.charCodeAt(at);
		if (code === 0x7D) {
			prefixes.pop();
			at++;
			continue;
		}

		if (code === 0x2C) {
			at++;
			continue;
		}

		const keyEnd = skipString(text, at);
		const path = segment(prefixes.at(-1)!, stringValue(text, at, keyEnd));
		at = keyEnd + 1;
		const first = text.charCodeAt(at);
		if (first === 0x7B && text.charCodeAt(at + 1) !== 0x7D && prefixes.length < maxDepth) {
			prefixes.push(path);
			at++;
			continue;
		}

		const end = skipValue(text, at);
		const token = text.slice(at, end);
		let cell: string;
		if (first === 0x22) {
			const decoded = stringValue(text, at, end);
			cell = options.string ? options.string(decoded) : decoded;
		} else {
			cell = token === 'null' ? options.nullText ?? '' : token;
		}

		at = end;

		if (cells.has(path)) {
			const count = (repeats.get(path) ?? 1) + 1;
			repeats.set(path, count);
			cells.set(`${path}#${count}`, cell);
		} else {
			cells.set(path, cell);
		}
	}

	return cells;
}

/**
 * An object's exact text, pretty-printed as JSON.stringify(value, null, 2)
 * would lay it out, but from the text itself: every token as the server wrote
 * it (`9007199254740993`, `1.10`), keys in their order, duplicates kept. Past
 * `maxDepth` levels the rest stays on its line (or, with `deeper: 'refuse'`,
 * undefined is returned at once), so a deeply nested object costs linear work
 * and output, not an ever deeper indent per level.
 */
export function prettyLines(text: string, options: {maxDepth?: number; string?: (token: string) => string; deeper?: 'inline' | 'refuse'} = {}): string[] | undefined {
	const maxDepth = options.maxDepth ?? maxFlattenDepth;
	const lines: string[] = [];
	const pad = (depth: number) => '  '.repeat(Math.min(depth, maxDepth));
	let line = '';
	let depth = 0;
	let at = 0;
	while (at < text.length) {
		const code = text.charCodeAt(at);
		if (code === 0x22) {
			const end = skipString(text, at);
			line += options.string ? options.string(text.slice(at, end)) : text.slice(at, end);
			at = end;
		} else if (code === 0x7B || code === 0x5B) {
			const close = code === 0x7B ? 0x7D : 0x5D;
			if (text.charCodeAt(at + 1) === close) {
				line += text.slice(at, at + 2);
				at += 2;
				continue;
			}

			line += text[at];
			depth++;
			if (depth > maxDepth && options.deeper === 'refuse') {
				return undefined;
			}

			if (depth <= maxDepth) {
				lines.push(line);
				line = pad(depth);
			}

			at++;
		} else if (code === 0x7D || code === 0x5D) {
			depth--;
			if (depth < maxDepth) {
				lines.push(line);
				line = pad(depth);
			}

			line += text[at];
			at++;
		} else if (code === 0x2C) {
			line += ',';
			if (depth <= maxDepth) {
				lines.push(line);
				line = pad(depth);
			}

			at++;
		} else {
			line += code === 0x3A ? ': ' : text[at];
			at++;
		}
	}

	lines.push(line);
	return lines;
}
