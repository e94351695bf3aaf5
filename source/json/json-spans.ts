import {compactJson, isWhitespace, JsonReader, JsonSyntaxError, jsonArray, jsonClose, jsonEnd, jsonKey, jsonObject, skipString, skipValue, stringValue, type Spacing} from './json-tokenizer.js';
import type {ObjectBytes} from '../contract/types.js';
import {isUnsafeCodePoint} from '../text/unsafe-chars.js';

/**
 * The API's own text of each listed object. JSON.parse followed by
 * JSON.stringify is not the identity: integers above 2^53 lose digits, long
 * decimals are rounded, `1.0` becomes `1`, integer-like keys move to the
 * front, duplicate keys collapse. So the writers take each object's text from
 * the body itself: every element of the top-level `data` array (and the
 * `pagination` value) is cut out of it, as compactJson in json-tokenizer.ts
 * writes a value: the insignificant whitespace removed, every token
 * unchanged, characters unsafe on a terminal inside strings escaped.
 *
 * Two ways to the same texts: scanPage validates the body with the one JSON
 * scanner (json-tokenizer.ts) as it cuts; pageSpans, which `dump` calls for
 * every page, reads a body JSON.parse has already accepted, with no checks
 * left to make (the fast path below).
 */

export {JsonSyntaxError} from './json-tokenizer.js';

export type PageSpans = {
	/** The exact text of each element of the top-level `data` array, in order. */
	objectTexts: string[];
	/** The exact text of the top-level `pagination` value, when there is one. */
	paginationText: string | undefined;
};

/**
 * Validates `body` as one JSON text and returns the exact texts of the
 * elements of its top-level `data` array and of its `pagination` value. As
 * JSON.parse does, a key given twice counts by its last occurrence. Throws a
 * JsonSyntaxError on invalid JSON.
 */
export function scanPage(body: string): PageSpans {
	const reader = new JsonReader(body);
	let objectTexts: string[] = [];
	let paginationText: string | undefined;
	// The top-level key whose value comes next, and whether `data` is open.
	let topKey: string | undefined;
	let inData = false;
	// The value being cut out: its depth and start, and the reader's counts there.
	let captureDepth = -1;
	let captureStart = 0;
	let spaces = 0;
	let wide = 0;
	const endValue = (scalar: boolean) => {
		// Already compact and plain ASCII: the text is the very slice. The
		// reader's counts include a token once it is read, so a value that is
		// one token (a string) is never known plain by them: compactJson decides.
		const plain = !scalar && reader.spaces === spaces && reader.wide === wide;
		const text = plain ? body.slice(captureStart, reader.end) : compactJson(body, captureStart, reader.end);
		if (captureDepth === 2) {
			objectTexts.push(text);
		} else {
			paginationText = text;
		}

		captureDepth = -1;
	};

	for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
		const {depth} = reader;
		if (kind === jsonKey) {
			if (depth === 1) {
				topKey = stringValue(body, reader.start, reader.end);
			}

			continue;
		}

		if (kind === jsonClose) {
			if (depth === captureDepth) {
				endValue(false);
			}

			if (depth === 1) {
				inData = false;
			}

			continue;
		}

		if (depth === 1 && topKey === 'data') {
			// A later `data` replaces an earlier one, as in JSON.parse.
			objectTexts = [];
			inData = kind === jsonArray;
		}

		if (captureDepth === -1 && ((depth === 2 && inData) || (depth === 1 && topKey === 'pagination'))) {
			captureDepth = depth;
			captureStart = reader.start;
			spaces = reader.spaces;
			wide = reader.wide;
		}

		if (depth === captureDepth && kind !== jsonObject && kind !== jsonArray) {
			endValue(true);
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

function skipWhitespace(body: string, at: number): number {
	let index = at;
	while (isWhitespace(body.charCodeAt(index))) {
		index++;
	}

	return index;
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
		if (stringValue(text, keyStart, index) !== key) {
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
	const spacing: Spacing = {spaced: false};
	let index = skipWhitespace(body, 0);
	if (body.charCodeAt(index) !== 0x7B) {
		throw new JsonSyntaxError('expected an object', index, body);
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
		const name = stringValue(body, keyStart, index);
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
			spacing.spaced = false;
			end ??= (next === 0x7B ? matchedEnd(anyObject, body, index) : undefined) ?? skipValue(body, index, spacing);
			spans.starts.push(index);
			spans.ends.push(end);
			spans.spaced.push(spacing.spaced);
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
		if (spans.spaced[index]! || unsafe[index]!) {
			texts.push(compactJson(body, spans.starts[index]!, spans.ends[index]!));
			// Not a plain slice of the bytes: written from its text.
			if (offsets) {
				offsets[index * 2] = -1;
			}
		} else {
			texts.push(body.slice(spans.starts[index], spans.ends[index]));
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
