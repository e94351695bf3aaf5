/**
 * The one table of code points that must never reach a terminal as they are:
 * the screen shows them as visible escapes (see inert.ts) and the JSON writers
 * re-escape them as `\uXXXX` (see json-spans.ts), which keeps the JSON value
 * exactly the same. One table, so what is safe on the screen and in the
 * output cannot drift apart.
 *
 * - C0 controls, DEL and C1 controls (0x80-0x9f include the 8-bit CSI, OSC
 *   and ST introducers; ESC 0x1b is the 7-bit one).
 * - Bidi controls: ALM, LRM, RLM, LRE..RLO, LRI..PDI.
 * - Invisible marks: soft hyphen, CGJ, Hangul fillers, Khmer inherent vowels,
 *   Mongolian vowel separator, ZWSP/ZWNJ/ZWJ, word joiner and invisible
 *   operators, line/paragraph separators, BOM/ZWNBSP, interlinear annotations.
 * - Tag characters U+E0000-U+E007F: invisible, and able to smuggle hidden
 *   text. They are also legitimate data (subdivision flags such as England's
 *   are a black flag followed by tags), so the JSON writers escape them as a
 *   whole surrogate pair (`\udb40\udc67`), which any JSON reader turns back
 *   into the same character; never as a lone surrogate.
 * - Lone surrogates (terminals render them unpredictably; UTF-8 cannot hold them).
 *
 * Variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF) are not here: they
 * change how the character before them looks, not what the terminal does.
 */
export const unsafeRanges: ReadonlyArray<readonly [number, number]> = [
	[0x00, 0x1F],
	[0x7F, 0x9F],
	[0xAD, 0xAD],
	[0x3_4F, 0x3_4F],
	[0x6_1C, 0x6_1C],
	[0x11_5F, 0x11_60],
	[0x17_B4, 0x17_B5],
	[0x18_0E, 0x18_0E],
	[0x20_0B, 0x20_0F],
	[0x20_28, 0x20_2E],
	[0x20_60, 0x20_6F],
	[0x31_64, 0x31_64],
	[0xFE_FF, 0xFE_FF],
	[0xFF_A0, 0xFF_A0],
	[0xFF_F9, 0xFF_FB],
	// The one astral range; isUnsafeCodePoint below tests it by hand.
	[0xE_00_00, 0xE_00_7F],
];

const hex = (code: number) => code.toString(16).padStart(4, '0');

/**
 * A global, Unicode-aware pattern matching one unsafe code point: a whole
 * surrogate pair for an astral one, a lone surrogate on its own. Each call
 * returns a fresh RegExp, so callers never share `lastIndex`.
 */
export function unsafePattern(): RegExp {
	const ranges = unsafeRanges.map(([from, to]) => (from === to ? `\\u{${hex(from)}}` : `\\u{${hex(from)}}-\\u{${hex(to)}}`)).join('');
	// With the u flag, [\u{d800}-\u{dfff}] matches only surrogates not in a pair.
	return new RegExp(`[${ranges}\\u{d800}-\\u{dfff}]`, 'gu');
}

// BMP lookup as a byte table: the JSON scanner asks once per character of
// every string, so a branch-free index beats a search.
const bmp = new Uint8Array(0x1_00_00);
for (const [from, to] of unsafeRanges) {
	for (let code = from; code <= Math.min(to, 0xFF_FF); code++) {
		bmp[code] = 1;
	}
}

/** Whether a code point is unsafe; a surrogate code point means a lone one. */
export function isUnsafeCodePoint(code: number): boolean {
	if (code <= 0xFF_FF) {
		return bmp[code] === 1 || (code >= 0xD8_00 && code <= 0xDF_FF);
	}

	return code >= 0xE_00_00 && code <= 0xE_00_7F;
}

/** JSON's escape for unsafe text: `\uXXXX` for each UTF-16 unit, so a pair stays a pair. */
export function jsonEscape(text: string): string {
	let result = '';
	for (let index = 0; index < text.length; index++) {
		result += `\\u${hex(text.charCodeAt(index))}`;
	}

	return result;
}

const unsafeInJson = unsafePattern();

/**
 * A text made by JSON.stringify (pretty-printed too) with every unsafe
 * character inside its strings written as `\uXXXX`: the same value, safe on
 * a terminal. JSON.stringify already escapes the C0 controls inside strings,
 * so the only raw ones left are its own line breaks and indentation, kept.
 * Meant for one such text, never for several joined by newlines.
 */
export function escapeUnsafeJson(text: string): string {
	unsafeInJson.lastIndex = 0;
	// The test first: most texts have none, and replace() would copy them.
	const found = unsafeInJson.test(text);
	unsafeInJson.lastIndex = 0;
	return found ? text.replace(unsafeInJson, char => (char === '\n' || char === '\t' ? char : jsonEscape(char))) : text;
}
