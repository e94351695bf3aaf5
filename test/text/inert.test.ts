import {describe, expect, test} from 'vitest';
import fc from 'fast-check';
import {inert, isInert} from '../../source/text/inert.js';

describe('inert', () => {
	test('escapes terminal control sequences visibly', () => {
		expect(inert('a\u001B[2Jb')).toBe('a\\x1b[2Jb');
		expect(inert('\u001B]52;c;aGVsbG8=\u0007')).toBe('\\x1b]52;c;aGVsbG8=\\x07');
		expect(inert('\u001B]8;;https://evil\u001B\\link\u001B]8;;\u001B\\')).toBe(
			'\\x1b]8;;https://evil\\x1b\\link\\x1b]8;;\\x1b\\',
		);
		expect(inert('\u009B31m')).toBe('\\x9b31m');
		expect(inert('bell\u0007')).toBe('bell\\x07');
		expect(inert('line\nnext\r\t')).toBe('line\\nnext\\r\\t');
	});

	test('escapes bidi overrides and invisible marks', () => {
		expect(inert('abc\u202Edcb')).toBe('abc\\u{202e}dcb');
		expect(inert('a\u200Bb\u2066c\u2069\uFEFF')).toBe('a\\u{200b}b\\u{2066}c\\u{2069}\\u{feff}');
		expect(inert('\uDB40\uDC41')).toBe('\\u{e0041}');
		expect(inert('lone \uD800 surrogate')).toBe('lone \\u{d800} surrogate');
	});

	test('leaves ordinary text, wide characters and emoji alone', () => {
		for (const text of ['BTC Wallet', '比特币钱包', 'café', '👍🏽', '❤️', 'a-b_c.d']) {
			expect(inert(text)).toBe(text);
			expect(isInert(text)).toBe(true);
		}
	});

	test('output never contains a control, bidi or zero-width character', () => {
		fc.assert(
			fc.property(fc.string({unit: 'binary'}), text => {
				const safe = inert(text);
				expect(isInert(safe)).toBe(true);
				// eslint-disable-next-line no-control-regex -- control characters are what this checks are absent
				expect(safe).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/);
			}),
		);
	});
});

describe('one table of unsafe code points', () => {
	test('inert on the screen and the JSON writers escape exactly the same code points', async () => {
		const {escapeUnsafeJson, isUnsafeCodePoint} = await import('../../source/text/unsafe-chars.js');
		const planes: Array<[number, number]> = [[0, 0xFF_FF], [0x1_F3_00, 0x1_F4_00], [0xE_00_00, 0xE_02_00]];
		// The code points where either disagrees with the table, asserted once: an expect per code point costs many times the checks.
		const onScreen: string[] = [];
		const inJson: string[] = [];
		for (const [from, to] of planes) {
			for (let code = from; code < to; code++) {
				const char = String.fromCodePoint(code);
				const unsafe = isUnsafeCodePoint(code);
				if (isInert(char) === unsafe) {
					onScreen.push(code.toString(16));
				}

				// JSON.stringify escapes C0 (and quote, backslash) itself; the writers escape the rest.
				if (code !== 0x22 && code !== 0x5C && escapeUnsafeJson(JSON.stringify(char)).includes('\\') !== unsafe) {
					inJson.push(code.toString(16));
				}
			}
		}

		expect(onScreen).toEqual([]);
		expect(inJson).toEqual([]);
	});
});
