import {escapeUnsafeJson} from '../text/unsafe-chars.js';

/**
 * The one JSON scanner. Everything that reads JSON text by hand reads it
 * here: the page scanner that cuts each object's exact text out of a body
 * (json-spans.ts), the config reader that names the line of every key
 * (json-lines.ts), and the cells and pretty lines made from an object's exact
 * text (exact-cells.ts). Two ways in:
 *
 * - JsonReader validates any text against RFC 8259 and hands out its tokens
 *   one at a time with their offsets and nesting depth; a fault is one
 *   JsonSyntaxError naming the problem, the offset, the line and the column.
 * - skipString, skipValue and compactJson walk text already known to be
 *   valid (JSON.parse read it, or JsonReader did), with no checks left to
 *   make: they are the hot loops of `dump`, which finds every object of every
 *   page with them.
 *
 * Written here rather than taken from a streaming JSON library: those hand
 * out parsed values (numbers already rounded) or events without the source
 * offsets that cutting exact spans needs. Iterative with an explicit stack,
 * never recursive: a text nested 100,000 deep must not overflow the call stack.
 */

/** A fault in a JSON text: `problem` in words, where it is as an offset, a line and a column (both 1-based). */
export class JsonSyntaxError extends Error {
	readonly line: number;
	readonly column: number;

	constructor(readonly problem: string, readonly offset: number, text: string) {
		const lineStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
		let line = 1;
		for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) {
			line++;
		}

		const column = offset - lineStart + 1;
		super(`line ${line}, column ${column}: ${problem}`);
		this.name = 'JsonSyntaxError';
		this.line = line;
		this.column = column;
	}
}

export function isWhitespace(code: number): boolean {
	return code === 0x20 || code === 0x0A || code === 0x0D || code === 0x09;
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
	return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

const escapable = new Set([0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74]);

/** A key's or string's value as JSON.parse reads it, from its token (quotes included). */
export function stringValue(text: string, start: number, end: number): string {
	const raw = text.slice(start + 1, end - 1);
	return raw.includes('\\') ? JSON.parse(text.slice(start, end)) as string : raw;
}

// Token kinds JsonReader.next() returns.
export const jsonObject = 1;
export const jsonArray = 2;
export const jsonString = 3;
export const jsonNumber = 4;
export const jsonTrue = 5;
export const jsonFalse = 6;
export const jsonNull = 7;
/** A key in an object (its value comes next). */
export const jsonKey = 8;
/** The `}` or `]` that ends an object or array. */
export const jsonClose = 9;
/** The end of the text, after one whole value. */
export const jsonEnd = 10;

// What the reader expects next.
const value = 0;
const firstItem = 1;
const item = 2;
const firstKey = 3;
const key = 4;
const colon = 5;
const after = 6;

const object = 1;
const array = 2;

/**
 * Reads a JSON text token by token, checking the grammar as it goes. After
 * next(), `start` and `end` are the token's offsets and `depth` the number of
 * objects and arrays around the value it starts or ends (a key counts as its
 * value's). `spaces` counts the runs of whitespace passed so far and `wide`
 * the strings holding characters beyond ASCII, so a reader of spans can tell
 * whether a value's text is already compact and plain.
 */
export class JsonReader {
	start = 0;
	end = 0;
	depth = 0;
	spaces = 0;
	wide = 0;
	readonly #text: string;
	readonly #stack: number[] = [];
	#state = value;

	/** @param from Where the text starts (past a byte order mark, say). */
	constructor(text: string, from = 0) {
		this.#text = text;
		this.end = from;
	}

	/** Reads the next token and returns its kind; throws a JsonSyntaxError where the text is not JSON. */
	next(): number {
		const text = this.#text;
		const stack = this.#stack;
		let at = this.#skipSpace(this.end);
		for (;;) {
			const code = text.charCodeAt(at);
			const state = this.#state;
			if (state === after) {
				const top = stack.at(-1);
				if (top === undefined) {
					if (at < text.length) {
						this.#fail(`unexpected ${this.#describe(at)} after the end of the document`, at);
					}

					this.start = at;
					this.end = at;
					return jsonEnd;
				}

				if (code === 0x2C) {
					this.#state = top === object ? key : item;
					at = this.#skipSpace(at + 1);
					continue;
				}

				if (code === (top === object ? 0x7D : 0x5D)) {
					return this.#close(at);
				}

				return this.#unexpected(top === object ? '\',\' or \'}\' after a value in an object' : '\',\' or \']\' after a value in a list', at);
			}

			if (state === firstKey || state === key) {
				if (code === 0x7D) {
					if (state === key) {
						this.#fail('a comma before \'}\' (JSON allows no trailing comma)', at);
					}

					return this.#close(at);
				}

				if (code !== 0x22) {
					this.#unexpected('a key in double quotes', at);
				}

				this.start = at;
				this.end = this.#string(at);
				this.depth = stack.length;
				this.#state = colon;
				return jsonKey;
			}

			if (state === colon) {
				if (code !== 0x3A) {
					this.#unexpected(`':' after the key ${JSON.stringify(stringValue(text, this.start, this.end))}`, at);
				}

				this.#state = value;
				at = this.#skipSpace(at + 1);
				continue;
			}

			if (code === 0x5D && state !== value) {
				if (state === item) {
					this.#fail('a comma before \']\' (JSON allows no trailing comma)', at);
				}

				return this.#close(at);
			}

			return this.#value(code, at);
		}
	}

	#value(code: number, at: number): number {
		this.start = at;
		this.depth = this.#stack.length;
		this.#state = after;
		switch (code) {
			case 0x7B: {
				this.end = at + 1;
				this.#stack.push(object);
				this.#state = firstKey;
				return jsonObject;
			}

			case 0x5B: {
				this.end = at + 1;
				this.#stack.push(array);
				this.#state = firstItem;
				return jsonArray;
			}

			case 0x22: {
				this.end = this.#string(at);
				return jsonString;
			}

			case 0x74: {
				return this.#literal('true', jsonTrue, at);
			}

			case 0x66: {
				return this.#literal('false', jsonFalse, at);
			}

			case 0x6E: {
				return this.#literal('null', jsonNull, at);
			}

			default: {
				if (code === 0x2D || isDigit(code)) {
					this.end = this.#number(at);
					return jsonNumber;
				}

				return this.#unexpected('a value', at);
			}
		}
	}

	#close(at: number): number {
		this.#stack.pop();
		this.start = at;
		this.end = at + 1;
		this.depth = this.#stack.length;
		this.#state = after;
		return jsonClose;
	}

	#literal(word: string, kind: number, at: number): number {
		if (!this.#text.startsWith(word, at)) {
			this.#unexpected('a value', at);
		}

		this.end = at + word.length;
		return kind;
	}

	#skipSpace(from: number): number {
		const text = this.#text;
		let at = from;
		while (isWhitespace(text.charCodeAt(at))) {
			at++;
		}

		if (at !== from) {
			this.spaces++;
		}

		return at;
	}

	/** The end of the string token whose opening quote is at `start`. */
	#string(start: number): number {
		const text = this.#text;
		let at = start + 1;
		let wide = false;
		for (;;) {
			const code = text.charCodeAt(at);
			if (code === 0x22) {
				if (wide) {
					this.wide++;
				}

				return at + 1;
			}

			if (code === 0x5C) {
				const next = text.charCodeAt(at + 1);
				if (next === 0x75) {
					for (let digit = 2; digit < 6; digit++) {
						if (!isHex(text.charCodeAt(at + digit))) {
							this.#fail('a string holds an escape JSON does not know (\\u takes four hex digits)', at);
						}
					}

					at += 6;
				} else if (escapable.has(next)) {
					at += 2;
				} else {
					this.#fail('a string holds an escape JSON does not know', at);
				}

				continue;
			}

			if (code < 0x20 || Number.isNaN(code)) {
				this.#fail(at >= text.length ? 'a string misses its closing quote' : 'a string holds a line break or control character (write it as \\n) or misses its closing quote', at);
			}

			if (code >= 0x7F) {
				wide = true;
			}

			at++;
		}
	}

	/** The end of the number token starting at `start`. */
	#number(start: number): number {
		const text = this.#text;
		let at = start;
		if (text.charCodeAt(at) === 0x2D) {
			at++;
		}

		if (text.charCodeAt(at) === 0x30) {
			at++;
		} else {
			at = this.#digits(at, 'a digit after \'-\'');
		}

		if (text.charCodeAt(at) === 0x2E) {
			at = this.#digits(at + 1, 'a digit after the decimal point');
		}

		const exponent = text.charCodeAt(at);
		if (exponent === 0x65 || exponent === 0x45) {
			at++;
			const sign = text.charCodeAt(at);
			if (sign === 0x2B || sign === 0x2D) {
				at++;
			}

			at = this.#digits(at, 'a digit in the exponent');
		}

		return at;
	}

	/** Past one or more digits from `at`. */
	#digits(from: number, expected: string): number {
		const text = this.#text;
		let at = from;
		if (!isDigit(text.charCodeAt(at))) {
			this.#unexpected(expected, at);
		}

		while (isDigit(text.charCodeAt(at))) {
			at++;
		}

		return at;
	}

	#describe(at: number): string {
		if (at >= this.#text.length) {
			return 'the end of the file';
		}

		const code = this.#text.codePointAt(at)!;
		return code >= 0x21 && code <= 0x7E ? `'${this.#text[at]!}'` : `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
	}

	/** The usual slips from JavaScript or JSON5 get their own words. */
	#unexpected(expected: string, at: number): never {
		const text = this.#text;
		if (text[at] === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) {
			this.#fail('JSON has no comments', at);
		}

		if (text[at] === '\'') {
			this.#fail('strings take double quotes in JSON, not single ones', at);
		}

		return this.#fail(`expected ${expected}, found ${this.#describe(at)}`, at);
	}

	#fail(problem: string, at: number): never {
		throw new JsonSyntaxError(problem, at, this.#text);
	}
}

// Below: text known to be valid JSON, read with no checks left to make.

/** The index after the string whose opening quote is at `at`, in valid JSON. */
export function skipString(text: string, at: number): number {
	let quote = at;
	for (;;) {
		quote = text.indexOf('"', quote + 1);
		if (quote === -1) {
			// Only text cut short gets here (leadingValue reads a body's first bytes).
			throw new JsonSyntaxError('a string misses its closing quote', text.length, text);
		}

		// A quote after an odd run of backslashes is escaped.
		let before = quote - 1;
		while (text.charCodeAt(before) === 0x5C) {
			before--;
		}

		if ((quote - 1 - before) % 2 === 0) {
			return quote + 1;
		}
	}
}

/** Set to true by skipValue when it passes whitespace between a value's tokens. */
export type Spacing = {spaced: boolean};

/**
 * The index after the value starting at `at`, in valid JSON; with `spacing`,
 * notes whether whitespace stands between the value's tokens. Brackets are
 * counted and strings skipped whole, so the loop is short and linear.
 */
export function skipValue(text: string, at: number, spacing?: Spacing): number {
	const first = text.charCodeAt(at);
	if (first === 0x22) {
		return skipString(text, at);
	}

	let index = at;
	if (first !== 0x7B && first !== 0x5B) {
		// A number or a literal: up to the next delimiter.
		for (;;) {
			const code = text.charCodeAt(index);
			if (code === 0x2C || code === 0x7D || code === 0x5D || isWhitespace(code) || Number.isNaN(code)) {
				// Not a value at all: the text was not valid JSON after all.
				if (index === at) {
					throw new JsonSyntaxError('expected a value', at, text);
				}

				return index;
			}

			index++;
		}
	}

	let depth = 0;
	for (;;) {
		const code = text.charCodeAt(index);
		if (code === 0x22) {
			index = skipString(text, index);
			continue;
		}

		if (code === 0x7B || code === 0x5B) {
			depth++;
		} else if (code === 0x7D || code === 0x5D) {
			depth--;
			if (depth === 0) {
				return index + 1;
			}
		} else if (isWhitespace(code)) {
			if (spacing) {
				spacing.spaced = true;
			}
		} else if (Number.isNaN(code)) {
			throw new JsonSyntaxError('unexpected end of JSON', index, text);
		}

		index++;
	}
}

/**
 * The value between `start` and `end` of valid JSON as the writers carry it:
 * the whitespace between its tokens removed, every token unchanged, except
 * that characters unsafe on a terminal (the table in unsafe-chars.ts) written
 * literally inside a string become `\uXXXX` escapes, one per UTF-16 unit, so
 * a surrogate pair stays a pair and the value stays the same. Escapes the
 * server wrote (`\u001b`, even a lone `\ud800`) are kept as written.
 */
export function compactJson(text: string, start: number, end: number): string {
	let compact = '';
	let piece = start;
	let at = start;
	while (at < end) {
		const code = text.charCodeAt(at);
		if (code === 0x22) {
			at = skipString(text, at);
		} else if (isWhitespace(code)) {
			compact += text.slice(piece, at);
			while (isWhitespace(text.charCodeAt(at))) {
				at++;
			}

			piece = at;
		} else {
			at++;
		}
	}

	// Outside its strings valid JSON holds only ASCII tokens and whitespace,
	// now gone: whatever the escape finds is inside a string.
	return escapeUnsafeJson(compact + text.slice(piece, end));
}
