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

import {cutToWidth, windowLength} from './text-width.js';
import {unsafePattern} from './unsafe-chars.js';

// The table of unsafe code points is shared with the JSON writers (see
// unsafe-chars.ts); here each becomes a visible escape.
const unsafe = unsafePattern();

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

/**
 * Server text for one line of stderr, at most `columns` wide: inert and cut,
 * and only the window the cut can reach is made inert, so a megabyte-long
 * text costs no more than a short one.
 */
export function inertLine(text: string, columns: number): string {
	return cutToWidth(inert(text.slice(0, windowLength(columns))), columns);
}

/** Whether `text` would be changed by {@link inert}. */
export function isInert(text: string): boolean {
	unsafe.lastIndex = 0;
	const found = unsafe.test(text);
	unsafe.lastIndex = 0;
	return !found;
}
