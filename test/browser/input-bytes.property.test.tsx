/**
 * No byte sequence a terminal or a paste can deliver may take the browser
 * down: random bytes, every escape form (CSI with any parameters,
 * intermediates and final byte, kitty's CSI u, SS3, OSC ended by BEL or ST,
 * DCS/SOS/PM/APC strings, ESC or ESC ESC before any character, a lone Esc),
 * bracketed paste, all cut across writes at random. After each run the
 * browser still answers keys.
 *
 * Ink's own input handling threw on a CSI it could not name when its
 * parameters read as a Ctrl modifier (`\x1b[31m`, `\x1b[1;5X`); the fix is in
 * the Ink patch (patches/), since the throw came before any handler of ours.
 * Keys that quit (Q, q on the first list, Ctrl-C) are left out of the
 * generated input: quitting is not a crash, and would end the run early.
 */
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

const fixture = sandboxBrowser({size: {columns: 100, rows: 16}});

/** Text without the keys that quit. */
function withoutQuit(text: string): string {
	// eslint-disable-next-line no-control-regex -- Ctrl-C is what is left out
	return text.replaceAll(/[Qq\u0003]/g, '');
}

const parameters = fc.string({unit: fc.constantFrom('0', '1', '2', '3', '5', '9', ';', ':', '?', '<', '>', '='), maxLength: 8});
// Intermediate bytes (0x20–0x2F) between parameters and the final byte, as in `\x1b[2 q`.
const intermediates = fc.string({unit: fc.integer({min: 0x20, max: 0x2F}).map(code => String.fromCodePoint(code)), maxLength: 2});
const finalByte = fc.integer({min: 0x40, max: 0x7E}).map(code => String.fromCodePoint(code));
const csi = fc.tuple(parameters, intermediates, finalByte).map(([middle, between, end]) => `\u001B[${middle}${between}${end}`);
// Kitty's CSI u with any code point and modifiers, valid or not.
const csiU = fc.tuple(fc.nat({max: 0x11_0000}), fc.nat({max: 300})).map(([code, modifiers]) => `\u001B[${code};${modifiers}u`);
// ESC (or ESC ESC) before any one character: Esc then the key, or Alt+key as a terminal sends it.
const escapedKey = fc.tuple(fc.constantFrom('\u001B', '\u001B\u001B'), fc.string({unit: 'binary', minLength: 1, maxLength: 1})).map(([escapes, key]) => escapes + key);
// DCS, SOS, PM and APC strings, ended by ST or not at all.
const controlString = fc.tuple(fc.constantFrom('P', 'X', '^', '_'), fc.string({maxLength: 8}), fc.constantFrom('\u001B\\', '')).map(([kind, body, end]) => `\u001B${kind}${body}${end}`);
const ss3 = fc.integer({min: 0x20, max: 0x7E}).map(code => `\u001BO${String.fromCodePoint(code)}`);
const osc = fc.tuple(fc.string({maxLength: 12}), fc.constantFrom('\u0007', '\u001B\\')).map(([body, end]) => `\u001B]${body}${end}`);
const bytes = fc.uint8Array({maxLength: 24}).map(array => Buffer.from(array).toString('latin1'));
const utf8 = fc.string({unit: 'binary', maxLength: 12});
const paste = fc.string({maxLength: 16}).map(text => `\u001B[200~${text}\u001B[201~`);
const piece = fc.oneof(csi, csiU, ss3, osc, controlString, escapedKey, bytes, utf8, paste, fc.constant('\u001B'), fc.constantFrom('\u001B[31m', '\u001B[1;5X', '\u001B[0m', '\u001B[?1049h', '\u001B[M   ', '\u001B[<0;3;4M'));

/** The pieces joined, then cut into writes at random places. */
const writes = fc.tuple(fc.array(piece, {minLength: 1, maxLength: 8}), fc.array(fc.nat(), {maxLength: 6})).map(([pieces, cuts]) => {
	const text = withoutQuit(pieces.join(''));
	const points = [...new Set(cuts.map(cut => cut % (text.length + 1)))].sort((a, b) => a - b);
	const chunks: string[] = [];
	let from = 0;
	for (const point of [...points, text.length]) {
		if (point > from) {
			chunks.push(text.slice(from, point));
			from = point;
		}
	}

	return chunks;
});

describe('any bytes on stdin', () => {
	it('an unknown CSI (a pasted colour code, a modified key Ink cannot name) is ignored, not fatal', async () => {
		const app = await fixture.browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('\u001B[31m', '\u001B[1;5X', 'v\u001B[31mxv', 'j');
		const frame = await app.waitFor(f => f.includes('row 2/'));
		// The same page, and no byte of the sequences typed or shown as text.
		expect(frame).toContain('page 1 ·');
		for (const text of ['[31m', '1;5X']) {
			expect(frame).not.toContain(text);
		}
	});

	it('never crash the browser, and it answers keys afterwards', async () => {
		const app = await fixture.browse();
		await app.waitFor(f => f.includes('page 1 '));
		await fc.assert(
			fc.asyncProperty(writes, async chunks => {
				await app.press(...chunks);
				// Back out of whatever the bytes opened (a prompt, an overlay, a filter, a related list), then ask for help.
				await app.press(keys.escape, keys.escape, keys.escape, keys.escape, keys.escape, '?');
				await app.waitFor(f => f.startsWith('keys'));
				await app.press(keys.escape);
				await app.waitFor(f => !f.startsWith('keys'));
			}),
			{numRuns: 60, seed: 20_261_125},
		);
	});
});
