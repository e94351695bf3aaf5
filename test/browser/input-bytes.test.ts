/**
 * The terminal's bytes as Ink's parser reads them (browser/keys/input-bytes.ts):
 * UTF-8 exactly as TextDecoder reads it, wherever the reads cut it; a byte
 * 0x80–0x9F that is no part of a whole character is its C1 control; a
 * character broken off is U+FFFD for its lead, and what followed is read again.
 */
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {InputDecoder} from '../../source/browser/keys/input-bytes.js';

function decodeReads(reads: number[][]): string {
	const decoder = new InputDecoder();
	return reads.map(read => decoder.decode(Uint8Array.from(read))).join('');
}

describe('InputDecoder', () => {
	it('valid UTF-8, cut into reads anywhere, is the text TextDecoder reads', () => {
		fc.assert(fc.property(fc.string({unit: 'grapheme', maxLength: 40}), fc.array(fc.nat(), {maxLength: 8}), (text, cuts) => {
			const bytes = [...Buffer.from(text, 'utf8')];
			const points = [...new Set([0, ...cuts.map(cut => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
			expect(decodeReads(points.slice(1).map((point, index) => bytes.slice(points[index], point)))).toBe(text);
		}), {numRuns: 500});
	});

	it('a lone byte 0x80–0x9F is the C1 control it names', () => {
		for (let byte = 0x80; byte <= 0x9F; byte++) {
			expect(decodeReads([[0x61, byte, 0x62]])).toBe(`a${String.fromCodePoint(byte)}b`);
		}

		expect(decodeReads([[0x9D, ...Buffer.from('52;c;YWJj'), 0x07]])).toBe('\u009D52;c;YWJj\u0007');
	});

	it('a character broken off is U+FFFD for its lead, and the bytes after it are read again', () => {
		expect(decodeReads([[0xE2, 0x9D, 0x35]])).toBe('\uFFFD\u009D5');
		expect(decodeReads([[0xF0, 0x9D, 0x9C, 0x41]])).toBe('\uFFFD\u009D\u009CA');
		expect(decodeReads([[0xED, 0x9D, 0x1B]])).toBe('\uFFFD\u009D\u001B');
		// Forms UTF-8 does not allow: overlong, a surrogate, past U+10FFFF, a stray continuation.
		expect(decodeReads([[0xC0, 0x9D]])).toBe('\uFFFD\u009D');
		expect(decodeReads([[0xE0, 0x82, 0x9B]])).toBe('\uFFFD\u0082\u009B');
		expect(decodeReads([[0xED, 0xA0, 0x80]])).toBe('\uFFFD\uFFFD\u0080');
		expect(decodeReads([[0xF4, 0x90, 0x80, 0x80]])).toBe('\uFFFD\u0090\u0080\u0080');
		expect(decodeReads([[0xA9, 0xFF]])).toBe('\uFFFD\uFFFD');
	});

	it('a character cut by a read waits for the rest: whole it is the character, C1 as UTF-8 included', () => {
		expect(decodeReads([[0xE2], [0x9D], [0x9C]])).toBe('\u275C');
		expect(decodeReads([[0xC2], [0x9D, 0x61]])).toBe('\u009Da');
		expect(decodeReads([[0xE2, 0x9D], [0x35]])).toBe('\uFFFD\u009D5');
	});
});
