/**
 * The terminal's bytes as the text Ink's input parser reads. UTF-8, as the
 * terminal speaks, except for what UTF-8 cannot mean: a byte 0x80–0x9F that
 * is not part of a whole UTF-8 character is the C1 control it names, as a
 * terminal's own parser (VT500, 8-bit controls) reads it: 0x9D opens an OSC
 * string, 0x9B a CSI sequence, 0x9C ends a string. A decoder that made such
 * a byte U+FFFD (Node's, with the stream's encoding set to utf8) would let
 * the string's contents through as keys (`0x9D 52;c;YWJj 0x07`: `]`, `Y`,
 * `W` …); made a C1 control, the parser (patches/ink+6.8.0.patch) swallows
 * the string whole, as it does the 7-bit form and C1 sent as UTF-8.
 *
 * A sequence that starts as UTF-8 and breaks off (`0xE2 0x9D 5`) is U+FFFD
 * for its first byte only, and the bytes after it are read again each on its
 * own, so no C1 byte hides behind a lead byte. A character cut by a read
 * waits for the rest in the next one. Every other byte UTF-8 does not allow
 * (0xA0–0xBF alone, 0xC0, 0xC1, 0xF5–0xFF) is U+FFFD, as before.
 */

const replacement = '\uFFFD';

/** How many bytes follow `lead`, and the range of the first of them (UTF-8's table, no overlong forms or surrogates). */
function leadOf(lead: number): {follow: number; low: number; high: number} | undefined {
	if (lead >= 0xC2 && lead <= 0xDF) {
		return {follow: 1, low: 0x80, high: 0xBF};
	}

	if (lead >= 0xE0 && lead <= 0xEF) {
		return {follow: 2, low: lead === 0xE0 ? 0xA0 : 0x80, high: lead === 0xED ? 0x9F : 0xBF};
	}

	if (lead >= 0xF0 && lead <= 0xF4) {
		return {follow: 3, low: lead === 0xF0 ? 0x90 : 0x80, high: lead === 0xF4 ? 0x8F : 0xBF};
	}

	return undefined;
}

export class InputDecoder {
	/** The bytes of a character cut by a read, its lead first. */
	#held: number[] = [];

	/** The text of `bytes`, after what the last read left. */
	decode(bytes: Uint8Array): string {
		if (this.#held.length === 0 && bytes.every(byte => byte < 0x80)) {
			return Buffer.from(bytes).toString('latin1');
		}

		let text = '';
		const queue = [...this.#held, ...bytes];
		this.#held = [];
		let index = 0;
		while (index < queue.length) {
			const byte = queue[index]!;
			const lead = leadOf(byte);
			if (lead === undefined) {
				// ASCII; a lone 0x80–0x9F is its C1 control; any other byte out of place is U+FFFD.
				text += byte < 0xA0 ? String.fromCodePoint(byte) : replacement;
				index++;
				continue;
			}

			let length = 1;
			while (length <= lead.follow && index + length < queue.length) {
				const next = queue[index + length]!;
				const [low, high] = length === 1 ? [lead.low, lead.high] : [0x80, 0xBF];
				if (next < low || next > high) {
					break;
				}

				length++;
			}

			if (length === lead.follow + 1) {
				text += Buffer.from(queue.slice(index, index + length)).toString('utf8');
				index += length;
			} else if (index + length === queue.length) {
				// Whole so far, cut by the read: the rest comes with the next one.
				this.#held = queue.slice(index);
				break;
			} else {
				// Broken off: the lead alone is U+FFFD, and what followed it is read again.
				text += replacement;
				index++;
			}
		}

		return text;
	}
}
