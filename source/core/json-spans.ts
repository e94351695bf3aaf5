import type {ObjectBytes} from './types.js';
import {isUnsafeCodePoint, jsonEscape} from './unsafe-chars.js';

/**
 * The API's own text of each listed object. JSON.parse followed by
 * JSON.stringify is not the identity: integers above 2^53 lose digits, long
 * decimals are rounded, `1.0` becomes `1`, integer-like keys move to the
 * front, duplicate keys collapse. So the writers take each object's text from
 * the body itself: this scanner validates the body and cuts out every element
 * of the top-level `data` array (and the `pagination` value), with the
 * insignificant whitespace removed and every token unchanged. The one change:
 * characters unsafe on a terminal (the table in unsafe-chars.ts) that appear
 * literally inside a string are written as `\uXXXX` escapes, one per UTF-16
 * unit, so a surrogate pair stays a pair and the value stays the same. Escapes
 * the server wrote (`\u001b`, even a lone `\ud800`) are kept as written.
 *
 * Iterative with an explicit stack, never recursive: a body of objects nested
 * 100,000 deep must not overflow the call stack. One pass, linear in the body.
 *
 * Written here rather than taken from a streaming JSON library: those hand
 * out parsed values (numbers already rounded) or events without the source
 * offsets that cutting exact spans needs.
 */

export class JsonSyntaxError extends Error {
	constructor(readonly problem: string, readonly offset: number) {
		super(`${problem} at offset ${offset}`);
		this.name = 'JsonSyntaxError';
	}
}

export type PageSpans = {
	/** The exact text of each element of the top-level `data` array, in order. */
	objectTexts: string[];
	/** The exact text of the top-level `pagination` value, when there is one. */
	paginationText: string | undefined;
};

const object = 1;
const array = 2;

// What the scanner expects next.
const value = 0;
const afterValue = 1;
const firstKey = 2;
const key = 3;
const firstItem = 4;

function isWhitespace(code: number): boolean {
	return code === 0x20 || code === 0x0A || code === 0x0D || code === 0x09;
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
	return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

const escapable = new Set([0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74]);

/** A key's value as JSON.parse reads it (a key may be written with escapes). */
function keyOf(body: string, start: number, end: number): string {
	const raw = body.slice(start + 1, end - 1);
	return raw.includes('\\') ? JSON.parse(body.slice(start, end)) as string : raw;
}

/**
 * Validates `body` as one JSON text and returns the exact texts of the
 * elements of its top-level `data` array and of its `pagination` value. As
 * JSON.parse does, a key given twice counts by its last occurrence. Throws a
 * JsonSyntaxError on invalid JSON.
 */
export function scanPage(body: string): PageSpans {
	const {length} = body;
	const stack: number[] = [];
	let objectTexts: string[] = [];
	let paginationText: string | undefined;
	let state = value;
	let index = 0;
	// The top-level key whose value comes next, and whether `data` is open.
	let topKey: string | undefined;
	let inData = false;
	// The value being cut out: its depth, pieces and the start of the current piece.
	let captureDepth = -1;
	let captureStart = 0;
	let pieces: string[] = [];
	let pieceStart = 0;

	const fail = (problem: string, at: number): never => {
		throw new JsonSyntaxError(at >= length ? 'unexpected end of JSON' : problem, at);
	};

	const startValue = (at: number) => {
		const depth = stack.length;
		if (captureDepth === -1 && ((depth === 2 && inData) || (depth === 1 && topKey === 'pagination'))) {
			captureDepth = depth;
			captureStart = at;
			pieceStart = at;
			pieces = [];
		}
	};

	const endValue = (at: number) => {
		if (captureDepth !== stack.length) {
			return;
		}

		let text: string;
		if (pieces.length === 0) {
			text = body.slice(captureStart, at);
		} else {
			pieces.push(body.slice(pieceStart, at));
			text = pieces.join('');
			pieces = [];
		}

		if (captureDepth === 2) {
			objectTexts.push(text);
		} else {
			paginationText = text;
		}

		captureDepth = -1;
	};

	const scanString = (start: number): number => {
		let at = start + 1;
		for (;;) {
			if (at >= length) {
				fail('unterminated string', at);
			}

			const code = body.charCodeAt(at);
			if (code === 0x22) {
				return at + 1;
			}

			if (code === 0x5C) {
				const next = body.charCodeAt(at + 1);
				if (next === 0x75) {
					for (let digit = 2; digit < 6; digit++) {
						if (!isHex(body.charCodeAt(at + digit))) {
							fail('bad \\u escape in a string', at);
						}
					}

					at += 6;
				} else if (escapable.has(next)) {
					at += 2;
				} else {
					fail('bad escape in a string', at);
				}

				continue;
			}

			if (code < 0x20) {
				fail('control character in a string', at);
			}

			if (code < 0x7F) {
				at++;
				continue;
			}

			// A pair is looked up as one code point; a surrogate alone is unsafe.
			let units = 1;
			let point = code;
			if (code >= 0xD8_00 && code <= 0xDB_FF) {
				const low = body.charCodeAt(at + 1);
				if (low >= 0xDC_00 && low <= 0xDF_FF) {
					units = 2;
					point = ((code - 0xD8_00) * 0x4_00) + (low - 0xDC_00) + 0x1_00_00;
				}
			}

			if (captureDepth !== -1 && isUnsafeCodePoint(point)) {
				pieces.push(body.slice(pieceStart, at), jsonEscape(body.slice(at, at + units)));
				pieceStart = at + units;
			}

			at += units;
		}
	};

	const scanNumber = (start: number): number => {
		let at = start;
		if (body.charCodeAt(at) === 0x2D) {
			at++;
		}

		if (body.charCodeAt(at) === 0x30) {
			at++;
		} else if (isDigit(body.charCodeAt(at))) {
			while (isDigit(body.charCodeAt(at))) {
				at++;
			}
		} else {
			fail('bad number', at);
		}

		if (body.charCodeAt(at) === 0x2E) {
			at++;
			if (!isDigit(body.charCodeAt(at))) {
				fail('bad number', at);
			}

			while (isDigit(body.charCodeAt(at))) {
				at++;
			}
		}

		const exponent = body.charCodeAt(at);
		if (exponent === 0x65 || exponent === 0x45) {
			at++;
			const sign = body.charCodeAt(at);
			if (sign === 0x2B || sign === 0x2D) {
				at++;
			}

			if (!isDigit(body.charCodeAt(at))) {
				fail('bad number', at);
			}

			while (isDigit(body.charCodeAt(at))) {
				at++;
			}
		}

		return at;
	};

	const literal = (word: string) => {
		if (!body.startsWith(word, index)) {
			fail('unexpected character', index);
		}

		startValue(index);
		index += word.length;
		endValue(index);
		state = afterValue;
	};

	for (;;) {
		// Whitespace: skipped, and cut out of the value being captured.
		if (index < length && isWhitespace(body.charCodeAt(index))) {
			if (captureDepth !== -1 && index > pieceStart) {
				pieces.push(body.slice(pieceStart, index));
			}

			while (index < length && isWhitespace(body.charCodeAt(index))) {
				index++;
			}

			pieceStart = index;
		}

		if (state === afterValue && stack.length === 0) {
			if (index < length) {
				fail('unexpected text after the JSON value', index);
			}

			break;
		}

		const code = body.charCodeAt(index);
		switch (state) {
			case firstItem: {
				if (code === 0x5D) {
					stack.pop();
					index++;
					if (inData && stack.length === 1) {
						inData = false;
					}

					endValue(index);
					state = afterValue;
					break;
				}

				state = value;
				break;
			}

			case firstKey:
			case key: {
				if (state === firstKey && code === 0x7D) {
					stack.pop();
					index++;
					endValue(index);
					state = afterValue;
					break;
				}

				if (code !== 0x22) {
					fail('expected a key in double quotes', index);
				}

				const start = index;
				index = scanString(index);
				if (stack.length === 1) {
					topKey = keyOf(body, start, index);
				}

				if (captureDepth !== -1 && index < length && isWhitespace(body.charCodeAt(index))) {
					pieces.push(body.slice(pieceStart, index));
					while (index < length && isWhitespace(body.charCodeAt(index))) {
						index++;
					}

					pieceStart = index;
				} else {
					while (index < length && isWhitespace(body.charCodeAt(index))) {
						index++;
					}
				}

				if (body.charCodeAt(index) !== 0x3A) {
					fail('expected a colon after a key', index);
				}

				index++;
				state = value;
				break;
			}

			case value: {
				if (stack.length === 1 && topKey === 'data') {
					// A later `data` replaces an earlier one, as in JSON.parse.
					objectTexts = [];
					inData = code === 0x5B;
				}

				if (code === 0x7B) {
					startValue(index);
					stack.push(object);
					index++;
					state = firstKey;
				} else if (code === 0x5B) {
					startValue(index);
					stack.push(array);
					index++;
					state = firstItem;
				} else if (code === 0x22) {
					startValue(index);
					index = scanString(index);
					endValue(index);
					state = afterValue;
				} else if (code === 0x2D || isDigit(code)) {
					startValue(index);
					index = scanNumber(index);
					endValue(index);
					state = afterValue;
				} else if (code === 0x74) {
					literal('true');
				} else if (code === 0x66) {
					literal('false');
				} else if (code === 0x6E) {
					literal('null');
				} else {
					fail('expected a value', index);
				}

				break;
			}

			default: {
				const top = stack.at(-1);
				if (code === 0x2C) {
					index++;
					state = top === object ? key : value;
				} else if ((top === object && code === 0x7D) || (top === array && code === 0x5D)) {
					stack.pop();
					index++;
					if (inData && stack.length === 1) {
						inData = false;
					}

					endValue(index);
					state = afterValue;
				} else {
					fail(top === object ? 'expected a comma or }' : 'expected a comma or ]', index);
				}
			}
		}
	}

	return {objectTexts, paginationText};
}

// The fast path of pageTexts, for a body JSON.parse has already accepted: no
// validation is left to do, so each element of `data` is found by a pattern
// that matches a whole compact object in one native call (below), or, where
// it does not match, by matching brackets and skipping strings with indexOf.
// An element is kept as the very slice of the body when it needs no change:
// no whitespace between its tokens, nothing unsafe inside its strings. Those
// that need a change, few in practice, go through the full scanner.

/**
 * A pattern matching one compact JSON object (no whitespace between tokens)
 * nested at most `depth` levels, whose characters outside strings are
 * `other` and inside strings `inString` or an escape `\` + `escaped`.
 * Written "unrolled" (`a*(?:b a*)*`, each alternative opening with its own
 * character) so there is one way to match at each step: linear in the text,
 * matched or not, with no backtracking to blow up on hostile input.
 */
function objectPattern(other: string, inString: string, escaped: string, depth: number): RegExp {
	const string = `"${inString}*(?:\\\\${escaped}${inString}*)*"`;
	let inner = `${other}*(?:${string}${other}*)*`;
	for (let level = 0; level < depth; level++) {
		const nested = `(?:${string}|\\{${inner}\\}|\\[${inner}\\])`;
		inner = `${other}*(?:${nested}${other}*)*`;
	}

	return new RegExp(`\\{${inner}\\}`, 'y');
}

// Printable ASCII alone (U+0020-U+007E, none of them unsafe): an object this
// matches needs no change, and its UTF-8 bytes are as many as its characters.
// Outside strings: not a bracket, brace, quote or space.
const asciiObject = objectPattern(String.raw`[!#-Z\\^-z|~]`, String.raw`[ !#-[\]-~]`, '[ -~]', 6);
// Any characters: the object is compact, but may hold unsafe or non-ASCII ones.
const anyObject = objectPattern(String.raw`[^\s"[\]{}]`, String.raw`[^"\\]`, '[^]', 6);

/** Where the element starting at `at` ends when `pattern` matches it whole, or undefined. */
function matchedEnd(pattern: RegExp, body: string, at: number): number | undefined {
	pattern.lastIndex = at;
	try {
		return pattern.test(body) ? pattern.lastIndex : undefined;
	} catch {
		// The engine gave up on an enormous object: the bracket scan below decides.
		return undefined;
	}
}

/** Set by skipValue when it passes whitespace between tokens. */
let spaced = false;

function skipWhitespace(body: string, at: number): number {
	while (isWhitespace(body.charCodeAt(at))) {
		at++;
	}

	return at;
}

/** The index after the string whose opening quote is at `at`. */
function skipString(body: string, at: number): number {
	let quote = at;
	for (;;) {
		quote = body.indexOf('"', quote + 1);
		if (quote === -1) {
			throw new JsonSyntaxError('unterminated string', body.length);
		}

		// A quote after an odd run of backslashes is escaped.
		let before = quote - 1;
		while (body.charCodeAt(before) === 0x5C) {
			before--;
		}

		if ((quote - 1 - before) % 2 === 0) {
			return quote + 1;
		}
	}
}

/**
 * The text of the value of `key` when `key` is the first member of the
 * object that `text` opens with and the value ends within `text`; undefined
 * otherwise (`text` may be cut anywhere). For reading a page's `pagination`
 * from the first bytes of its body, before the whole body is parsed.
 */
export function leadingValue(text: string, key: string): string | undefined {
	try {
		let index = skipWhitespace(text, 0);
		if (text.charCodeAt(index) !== 0x7B) {
			return undefined;
		}

		index = skipWhitespace(text, index + 1);
		if (text.charCodeAt(index) !== 0x22) {
			return undefined;
		}

		const keyStart = index;
		index = skipString(text, index);
		if (keyOf(text, keyStart, index) !== key) {
			return undefined;
		}

		index = skipWhitespace(text, index);
		if (text.charCodeAt(index) !== 0x3A) {
			return undefined;
		}

		const start = skipWhitespace(text, index + 1);
		return text.slice(start, skipValue(text, start));
	} catch {
		// Cut short within the value, or not JSON there.
		return undefined;
	}
}

/** The index after the (valid) value starting at `at`. */
function skipValue(body: string, at: number): number {
	const first = body.charCodeAt(at);
	if (first === 0x22) {
		return skipString(body, at);
	}

	let index = at;
	if (first !== 0x7B && first !== 0x5B) {
		// A number or a literal.
		for (;;) {
			const code = body.charCodeAt(index);
			if (code === 0x2C || code === 0x7D || code === 0x5D || isWhitespace(code) || Number.isNaN(code)) {
				// Not a value at all: the body was not valid JSON after all.
				if (index === at) {
					throw new JsonSyntaxError('expected a value', at);
				}

				return index;
			}

			index++;
		}
	}

	let depth = 0;
	for (;;) {
		const code = body.charCodeAt(index);
		if (code === 0x22) {
			index = skipString(body, index);
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
			spaced = true;
		} else if (Number.isNaN(code)) {
			throw new JsonSyntaxError('unexpected end of JSON', index);
		}

		index++;
	}
}

/** Where `data`'s elements lie in a body, as offsets of UTF-16 units. */
type Spans = {
	starts: number[];
	ends: number[];
	/** Whether whitespace stands between the tokens of an element: its text is not a plain slice. */
	spaced: boolean[];
	/** Whether an element is compact printable ASCII: a plain slice, as many bytes as characters. */
	ascii: boolean[];
};

const noSpans = (): Spans => ({starts: [], ends: [], spaced: [], ascii: []});

/** Where the elements of `data` lie in a body known to be valid JSON with an object at the top. */
function validBodySpans(body: string): Spans {
	let spans = noSpans();
	let index = skipWhitespace(body, 0);
	if (body.charCodeAt(index) !== 0x7B) {
		throw new JsonSyntaxError('expected an object', index);
	}

	index++;
	for (;;) {
		index = skipWhitespace(body, index);
		const code = body.charCodeAt(index);
		if (code === 0x7D || Number.isNaN(code)) {
			return spans;
		}

		if (code === 0x2C) {
			index++;
			continue;
		}

		const keyStart = index;
		index = skipString(body, index);
		const name = keyOf(body, keyStart, index);
		index = skipWhitespace(body, skipWhitespace(body, index) + 1);
		if (name !== 'data' || body.charCodeAt(index) !== 0x5B) {
			if (name === 'data') {
				spans = noSpans();
			}

			index = skipValue(body, index);
			continue;
		}

		// A later `data` replaces an earlier one, as in JSON.parse.
		spans = noSpans();
		index++;
		for (;;) {
			index = skipWhitespace(body, index);
			const next = body.charCodeAt(index);
			if (next === 0x5D) {
				index++;
				break;
			}

			if (next === 0x2C) {
				index++;
				continue;
			}

			let end = next === 0x7B ? matchedEnd(asciiObject, body, index) : undefined;
			const ascii = end !== undefined;
			spaced = false;
			end ??= (next === 0x7B ? matchedEnd(anyObject, body, index) : undefined) ?? skipValue(body, index);
			spans.starts.push(index);
			spans.ends.push(end);
			spans.spaced.push(spaced);
			spans.ascii.push(ascii);
			index = end;
		}
	}
}

/** Whether `text` holds an unsafe character (a pair counted as one code point). */
function holdsUnsafe(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code >= 0x20 && code <= 0x7E) {
			continue;
		}

		if (code >= 0xD8_00 && code <= 0xDB_FF && (text.charCodeAt(index + 1) & 0xFC_00) === 0xDC_00) {
			if (isUnsafeCodePoint(((code - 0xD8_00) * 0x4_00) + (text.charCodeAt(index + 1) - 0xDC_00) + 0x1_00_00)) {
				return true;
			}

			index++;
		} else if (isUnsafeCodePoint(code)) {
			return true;
		}
	}

	return false;
}

/**
 * Which of the spans hold an unsafe character (`unsafe`, filled in), and,
 * with `byteLength` (the length of the body's UTF-8 bytes), each span's
 * offsets in those bytes: a UTF-16 offset plus the extra bytes of the
 * characters before it. Only the elements that are not plain ASCII, and the
 * text around `data`, are measured; what lies between elements is commas and
 * whitespace. Returns undefined when the count does not come out at
 * `byteLength`, so a body and bytes that do not belong together never yield
 * offsets.
 */
function markObjects(body: string, spans: Spans, unsafe: boolean[], byteLength: number | undefined): Int32Array | undefined {
	const {starts, ends, ascii} = spans;
	const count = starts.length;
	const offsets = byteLength === undefined ? undefined : new Int32Array(count * 2);
	// UTF-8 bytes beyond one per UTF-16 unit, so far.
	const extraIn = (from: number, to: number) => {
		const text = body.slice(from, to);
		return Buffer.byteLength(text) - text.length;
	};

	let extra = offsets && count > 0 ? extraIn(0, starts[0]!) : 0;
	for (let index = 0; index < count; index++) {
		if (offsets) {
			offsets[index * 2] = starts[index]! + extra;
		}

		if (!ascii[index]) {
			const text = body.slice(starts[index], ends[index]);
			unsafe[index] = holdsUnsafe(text);
			if (offsets) {
				extra += Buffer.byteLength(text) - text.length;
			}
		}

		if (offsets) {
			offsets[(index * 2) + 1] = ends[index]! + extra;
		}
	}

	if (!offsets) {
		return undefined;
	}

	extra += extraIn(count > 0 ? ends[count - 1]! : 0, body.length);
	return body.length + extra === byteLength ? offsets : undefined;
}

/** The exact texts of `data`'s elements, and their byte offsets when `byteLength` is given. */
function validBodyTexts(body: string, byteLength?: number): {texts: string[]; offsets: Int32Array | undefined} {
	const spans = validBodySpans(body);
	const count = spans.starts.length;
	const unsafe: boolean[] = new Array<boolean>(count).fill(false);
	const offsets = markObjects(body, spans, unsafe, byteLength);
	const texts: string[] = [];
	for (let index = 0; index < count; index++) {
		const text = body.slice(spans.starts[index], spans.ends[index]);
		if (spans.spaced[index]! || unsafe[index]!) {
			texts.push(scanPage(`{"data":[${text}]}`).objectTexts[0]!);
			// Not a plain slice of the bytes: written from its text.
			if (offsets) {
				offsets[index * 2] = -1;
			}
		} else {
			texts.push(text);
		}
	}

	return {texts, offsets};
}

/**
 * The exact texts of a body's `data` objects, for a body JSON.parse already
 * read into `count` objects. Both read the same text, so the counts agree;
 * should they not, the texts are left out (undefined) and the writers fall
 * back to the parsed values rather than write a wrong text. With `bytes`
 * (the UTF-8 bytes `body` was decoded from), also the objects' places in
 * those bytes: see ObjectBytes. Only the fast path gives them; a body that
 * needed the full scanner gives texts alone.
 */
export function pageSpans(body: string, count: number, bytes?: Uint8Array): {texts: string[] | undefined; bytes?: ObjectBytes} {
	try {
		const {texts, offsets} = validBodyTexts(body, bytes?.length);
		if (texts.length === count) {
			return offsets && bytes ? {texts, bytes: {body: bytes, offsets}} : {texts};
		}
	} catch {
		// The full scanner below decides, and words any fault.
	}

	try {
		const {objectTexts} = scanPage(body);
		return {texts: objectTexts.length === count ? objectTexts : undefined};
	} catch {
		return {texts: undefined};
	}
}
