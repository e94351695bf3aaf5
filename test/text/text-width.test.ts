import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {excerpt, oneLine} from '../../source/http/envelope.js';
import {cutToWidth, cutWithWidth, displayWidth, maxClusterLength, padToWidth, windowLength} from '../../source/text/text-width.js';

const segmenter = new Intl.Segmenter();
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text mixing what terminals draw differently: ASCII, CJK, emoji sequences, flags, accents, zero-width marks. */
const pieces = ['a', 'Z', ' ', '-', '日', '本', 'ﾃ', '👍', '👍🏽', '👨‍👩‍👧', '🇯🇵', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'e\u0301', '\u0301', 'ก\u0e31', '한', '\u1100\u1161', '\u200B', '\uFE0F', '1\uFE0F\u20E3', '\u{20000}', '\\x1b'];
const mixed = fc.oneof(
	fc.array(fc.constantFrom(...pieces), {maxLength: 60}).map(parts => parts.join('')),
	fc.string({unit: 'binary', maxLength: 80}),
	fc.string({unit: 'grapheme', maxLength: 40}),
);
const columns = fc.integer({min: 1, max: 60});

function boundaries(text: string): Set<number> {
	const set = new Set([0, text.length]);
	for (const {index} of segmenter.segment(text)) {
		set.add(index);
	}

	return set;
}

describe('cutToWidth', () => {
	it('cuts by cells, keeps text that fits, never splits a wide character', () => {
		expect(cutToWidth('hello', 5)).toBe('hello');
		expect(cutToWidth('hello world', 8)).toBe('hello w…');
		expect(cutToWidth('日本語のテキスト', 6)).toBe('日本…');
		expect(cutToWidth('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 4)).toBe('👨‍👩‍👧…');
		expect(cutToWidth('🇯🇵🇯🇵', 3)).toBe('🇯🇵…');
		expect(cutToWidth('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
		expect(cutToWidth('anything', 0)).toBe('');
		expect(cutToWidth('日本', 1)).toBe('…');
	});

	it('cuts the middle when asked, keeping head and tail', () => {
		expect(cutToWidth('https://example.com/v2/accounts', 15, {position: 'middle'})).toBe('https:/…ccounts');
		expect(cutToWidth('日本語のテキスト', 7, {position: 'middle'})).toBe('日…スト');
	});

	it('marks a head the caller cut itself, and drops an ellipsis wider than the room', () => {
		expect(cutToWidth('abc', 5, {continues: true})).toBe('abc…');
		expect(cutToWidth('abcde', 5, {continues: true})).toBe('abcd…');
		expect(cutToWidth('abcdef', 2, {ellipsis: '...'})).toBe('ab');
	});

	it('ends before an overlong cluster (a letter under hundreds of marks) instead of reading it all', () => {
		const zalgo = `ab${'c'}${'\u0301'.repeat(500)}d`;
		expect(cutToWidth(zalgo, 10)).toBe('ab…');
		expect(cutToWidth(`ok${'\u0301'.repeat(maxClusterLength)}`, 10)).toBe('o…');
	});

	it('properties: fits the width, a cluster prefix of the input, no lone surrogate, idempotent', () => {
		fc.assert(fc.property(mixed, columns, (text, width) => {
			const cut = cutToWidth(text, width);
			expect(stringWidth(cut)).toBeLessThanOrEqual(width);
			expect(cutWithWidth(text, width).width).toBe(stringWidth(cut));
			if (!loneSurrogate.test(text)) {
				expect(cut).not.toMatch(loneSurrogate);
			}

			const kept = cut === text ? text : cut.slice(0, -1);
			expect(text.startsWith(kept)).toBe(true);
			expect(boundaries(text).has(kept.length)).toBe(true);
			expect(cutToWidth(cut, width)).toBe(cut);
			if (stringWidth(text) <= width && text.length <= windowLength(width) && ![...segmenter.segment(text)].some(({segment}) => segment.length > maxClusterLength)) {
				expect(cut).toBe(text);
			}
		}), {numRuns: 500});
	});

	it('properties: the middle cut fits, keeps a prefix and a suffix', () => {
		fc.assert(fc.property(mixed, columns, (text, width) => {
			const cut = cutToWidth(text, width, {position: 'middle'});
			expect(stringWidth(cut)).toBeLessThanOrEqual(width);
			if (cut !== text) {
				const at = cut.indexOf('…');
				expect(text.startsWith(cut.slice(0, at))).toBe(true);
				expect(text.endsWith(cut.slice(at + 1))).toBe(true);
			}
		}), {numRuns: 300});
	});

	it('properties: padToWidth is exactly the width; displayWidth with a limit is the capped width', () => {
		fc.assert(fc.property(mixed, columns, (text, width) => {
			expect(stringWidth(padToWidth(text, width))).toBe(width);
			if (text.length <= windowLength(width)) {
				expect(displayWidth(text, width)).toBe(Math.min(width, cutToWidth(text, width) === text ? stringWidth(text) : width));
			}
		}), {numRuns: 300});
	});

	it('reads only a bounded prefix: a 1 MB text cuts as its first 10,000 characters do', () => {
		const texts = [
			'x'.repeat(1_000_000),
			'日本語'.repeat(340_000),
			'👨‍👩‍👧'.repeat(100_000),
			`a${'\u0301'.repeat(1_000_000)}`,
			'\u200B'.repeat(1_000_000),
			'e\u0301'.repeat(500_000),
		];
		for (const text of texts) {
			for (const width of [1, 12, 48, 100]) {
				const head = text.slice(0, 10_000);
				expect(cutToWidth(text, width)).toBe(cutToWidth(head, width));
				expect(cutToWidth(text, width, {position: 'middle'}).length).toBeLessThan(2 * windowLength(width));
				expect(displayWidth(text, width)).toBe(displayWidth(head, width));
			}
		}
	});
});

describe('excerpts of bodies and messages', () => {
	it('are one line, cut by cells with the same cut, and read only a head of a megabyte body', () => {
		const body = `  \n${'👍 日本\n'.repeat(200_000)}`;
		const cut = excerpt(body);
		expect(cut).toBe(excerpt(body.slice(0, 10_000)));
		expect(cut.startsWith('"👍 日本 👍')).toBe(true);
		expect(cut.endsWith('…"')).toBe(true);
		expect(stringWidth(cut)).toBeLessThanOrEqual(83);
		expect(cut).not.toMatch(loneSurrogate);
		expect(excerpt(' \n\t ')).toBe('an empty body');
		expect(oneLine('  \n ', 160)).toBe('');
		// A head the excerpt cut itself still ends in the ellipsis, even when it fits:
		// here the `b` lies past the bounded head, behind 100,000 spaces.
		expect(oneLine(`a${' '.repeat(100_000)}b`, 10)).toBe('a…');
		expect(oneLine(`a${' '.repeat(100)}b`, 10)).toBe('a b');
		expect(oneLine(`${'x '.repeat(10_000)}`, 10)).toBe('x x x x x …');
	});
});
