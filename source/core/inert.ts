/**
 * Makes an untrusted string safe to draw: every character that could move the
 * cursor, change terminal state (ESC/CSI/OSC, including OSC 8 links and OSC 52
 * clipboard writes), reorder text (bidi controls) or hide text (zero-width and
 * other invisible marks) is replaced by a visible escape such as `\x1b` or
 * `\u{202e}`. Escaping the introducer (ESC, CSI, OSC, BEL, ST) is enough to make
 * a whole sequence inert: what follows it is plain printable text.
 *
 * Written here rather than taken from strip-ansi: stripping hides what the
 * server sent, and users debugging a list need to see it.
 */

// C0 controls, DEL, C1 controls (0x80-0x9f, which include 8-bit CSI/OSC/ST).
// Bidi: ALM, LRM, RLM, LRE..RLO, LRI..PDI. Invisible: soft hyphen, CGJ, Hangul
// fillers, Mongolian vowel separator, ZWSP/ZWNJ/ZWJ, word joiner and invisible
// operators, line/paragraph separators, BOM/ZWNBSP, interlinear annotations,
// tag characters, and lone surrogates (which terminals render unpredictably).
const unsafe =
	/[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const named: Record<string, string> = {
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t',
};

function escape(char: string): string {
	const known = named[char];
	if (known !== undefined) {
		return known;
	}

	const code = char.codePointAt(0)!;
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Returns `text` with every unsafe character shown as a visible escape. */
export function inert(text: string): string {
	return text.replace(unsafe, escape);
}

/** Whether `text` would be changed by {@link inert}. */
export function isInert(text: string): boolean {
	unsafe.lastIndex = 0;
	const found = unsafe.test(text);
	unsafe.lastIndex = 0;
	return !found;
}
