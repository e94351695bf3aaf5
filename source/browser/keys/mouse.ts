/**
 * The mouse wheel. The browse command turns on SGR mouse reporting
 * (`ESC[?1000h ESC[?1006h`, off again on every way out; --no-mouse leaves
 * it off): the terminal then reports a wheel notch as `ESC[<64;x;yM` (up) or
 * `ESC[<65;x;yM` (down), and clicks as other buttons. Chosen over the
 * alternate-scroll mode (`ESC[?1007h`, the wheel sent as arrow keys) because
 * that one moves one row per arrow the terminal chooses to send, and xterm
 * and tmux do not all honour it; reporting gives exactly three rows a notch,
 * as less scrolls. The cost: the terminal no longer selects text with a
 * plain drag (Shift-drag still does in most terminals), which `y` makes up
 * for the id.
 *
 * Ink 6.8's input parser hands a report over as one CSI sequence (the
 * event as the parser cut it, `ESC[<64;10;5M`; useInput's `input` has it
 * without the ESC, which the key splitter would turn into the keys `[` `<`
 * `6` …). So the app asks this module first, and a report is never a key.
 * Typed or pasted text that is exactly a mouse report is taken for one: a
 * cost accepted.
 *
 * Terminals without SGR reporting send the old form, `ESC[M` and three raw
 * bytes; the parser gives `ESC[M`, then the bytes as text. Those three
 * characters are swallowed too, so a click can never type `q`.
 */

/** Rows the wheel moves per notch, as less scrolls. */
export const wheelRows = 3;

// eslint-disable-next-line no-control-regex -- an escape sequence is what this matches
const sgrReport = /^\u001B?\[<(\d{1,4});(\d{1,5});(\d{1,5})([Mm])$/;
// eslint-disable-next-line no-control-regex -- the same for the old form
const legacyStart = /^\u001B?\[M$/;

/** Bits of the button code that are modifiers (Shift, Meta, Ctrl) or motion. */
const modifierBits = 4 | 8 | 16 | 32;

/** What one input holds: `rows` the wheel scrolls (negative: up; 0 for none, a click or a release) and the keys left to handle. */
export type MouseInput = {rows: number; keys: string};

/** Rows a wheel button scrolls: 64 up, 65 down; other buttons (clicks, sideways wheel) none. */
function wheelOf(button: number): number {
	const plain = button & ~modifierBits;
	if (plain === 64) {
		return -wheelRows;
	}

	return plain === 65 ? wheelRows : 0;
}

/**
 * A filter over what useInput delivers, one input at a time: mouse reports
 * become scrolls, the rest passes as keys. Holds how many raw bytes of an
 * old-style report are still to come.
 */
export function createMouseFilter(): (input: string) => MouseInput {
	let legacyBytes = 0;
	let legacyButton = 0;
	return input => {
		if (legacyBytes > 0) {
			const characters = [...input];
			const taken = characters.slice(0, legacyBytes);
			if (legacyBytes === 3 && taken[0] !== undefined) {
				legacyButton = taken[0].codePointAt(0)! - 32;
			}

			legacyBytes -= taken.length;
			return {rows: legacyBytes === 0 ? wheelOf(legacyButton) : 0, keys: characters.slice(taken.length).join('')};
		}

		const sgr = sgrReport.exec(input);
		if (sgr) {
			return {rows: sgr[4] === 'M' ? wheelOf(Number(sgr[1])) : 0, keys: ''};
		}

		if (legacyStart.test(input)) {
			legacyBytes = 3;
			return {rows: 0, keys: ''};
		}

		return {rows: 0, keys: input};
	};
}
