import {Buffer} from 'node:buffer';
import {describe, expect, it} from 'vitest';
import {copyNote, maxClipboardBytes, osc52} from '../../source/browser/actions/clipboard.js';
import {isInert} from '../../source/text/inert.js';

function payload(sequence: string): string {
	// eslint-disable-next-line no-control-regex -- the OSC 52 sequence is what is matched
	const match = /^\u001B\]52;c;([A-Za-z\d+/=]*)\u0007$/.exec(sequence);
	expect(match).not.toBeNull();
	return Buffer.from(match![1]!, 'base64').toString('utf8');
}

describe('osc52', () => {
	it('is ESC ] 52 ; c ; base64 BEL, and the payload decodes to the text, UTF-8 and control characters included', () => {
		for (const text of ['7c1d2e', '{"id":"a","name":"Zoë 🦊"}', '\u001B[31mred\u0007', '']) {
			const write = osc52(text);
			expect(write.ok).toBe(true);
			expect(payload(write.ok ? write.sequence : '')).toBe(text);
		}
	});

	it('copies up to the bound in UTF-8 bytes, and refuses one byte more', () => {
		expect(osc52('x'.repeat(maxClipboardBytes)).ok).toBe(true);
		expect(osc52('x'.repeat(maxClipboardBytes + 1))).toEqual({ok: false, bytes: maxClipboardBytes + 1});
		// Three bytes a character: a third of the bound in characters is already at it.
		expect(osc52('€'.repeat(maxClipboardBytes / 3 + 1)).ok).toBe(false);
	});
});

describe('copyNote', () => {
	it('says what was copied and that the terminal must allow OSC 52, the id cut short', () => {
		expect(copyNote('id', '7c1d2e3f-aaaa-bbbb-cccc-0123456789ab', osc52('x'))).toBe('copied id 7c1d2e3f-aaaa-b… (needs a terminal that allows OSC 52)');
		expect(copyNote('curl command of page 2', '', osc52('x'))).toBe('copied curl command of page 2 (needs a terminal that allows OSC 52)');
	});

	it('draws a hostile id inert', () => {
		const note = copyNote('id', '\u001B]52;c;ZXZpbA==\u0007\u001B[2J', osc52('x'));
		expect(isInert(note)).toBe(true);
	});

	it('too big: one sentence with the size and the bound, suggesting w', () => {
		const note = copyNote('JSON of', 'abc', osc52('x'.repeat(120_000)));
		expect(note).toBe('JSON of abc is 120 kB, more than the 75 kB pagewalk copies through the terminal; w writes the page to a file instead.');
	});
});
