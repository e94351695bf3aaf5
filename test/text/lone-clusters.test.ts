import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {graphemeSegmenter, loneClusters} from '../../source/text/lone-clusters.js';

const icu = new Intl.Segmenter();

function segmentsOf(segments: Iterable<{segment: string; index: number}>): Array<[string, number]> {
	return [...segments].map(({segment, index}) => [segment, index]);
}

/** Every BMP code point the pattern admits. */
function admitted(): string[] {
	const found: string[] = [];
	for (let code = 0; code <= 0xFFFF; code++) {
		const character = String.fromCharCode(code);
		if (loneClusters.test(character)) {
			found.push(character);
		}
	}

	return found;
}

/**
 * One admitted code point of each kind of neighbour UAX #29 tells apart:
 * other, a control, LF, a Hangul LV and LVT syllable, an extended
 * pictographic, CJK, a letter of a script with conjuncts.
 */
const neighbours = ['a', '\t', '\n', '\u001B', '\uAC00', '\uAC01', '\u00A9', '\u231A', '日', '\u0915', '\u0E01', '·', '…'];

/** Text drawn from what terminals draw differently, lone clusters and not. */
const pieces = ['a', ' ', '\u001B[31m', '\r\n', '\n', '\r', 'é', 'e\u0301', '日', 'ｶﾞ', '\uFF76\uFF9E', '한', '\u1100\u1161\u11A8', '\uAC00\u11A8', '·', '…', '▇', '👍', '👍🏽', '👨‍👩‍👧', '🇯🇵', '\u200D', '\uFE0F', '1\uFE0F\u20E3', 'ก\u0E33', '\u0D4E\u0D15', '\u0915\u094D\u0937', '\u00AD', '\u3164', '\uD800', '\u{20000}'];
const mixed = fc.oneof(
	fc.array(fc.constantFrom(...pieces), {maxLength: 30}).map(parts => parts.join('')),
	fc.string({unit: 'binary', maxLength: 40}),
	fc.string({unit: 'grapheme', maxLength: 20}),
);

describe('loneClusters', () => {
	it('admits only code points that are their own cluster beside themselves and every kind of neighbour (this Node\'s ICU)', () => {
		// Each admitted code point doubled, then set between copies of each
		// neighbour: text of lone clusters has one cluster a code unit.
		// In runs of 200 (ICU's segmenting slows with a text's length).
		const all = admitted();
		const texts: string[] = [];
		for (let start = 0; start < all.length; start += 200) {
			const characters = all.slice(start, start + 200);
			texts.push(characters.map(character => character + character).join(''), ...neighbours.map(other => other + characters.join(other) + other));
		}

		for (const text of texts) {
			const joined: string[] = [];
			for (const {segment} of icu.segment(text)) {
				if (segment.length > 1 && joined.push(JSON.stringify(segment)) >= 5) {
					break;
				}
			}

			expect(joined).toEqual([]);
		}
	});

	it('admits what terminals mostly show and nothing that joins', () => {
		expect(loneClusters.test('plain ASCII, \u001B[1mstyled\u001B[22m\tand\ncontrols')).toBe(true);
		expect(loneClusters.test('é·…▇日本語한국어 ﾃｷｽﾄ ©')).toBe(true);
		for (const joins of ['\r\n', 'e\u0301', '\u1100\u1161', '👍', '\u200D', '\uFE0F', 'ก\u0E33', '\uFF76\uFF9E', '\u00AD', '\uD800']) {
			expect(loneClusters.test(joins), JSON.stringify(joins)).toBe(false);
		}
	});
});

describe('graphemeSegmenter', () => {
	it('splits any text as Intl.Segmenter does, segments and indices', () => {
		const segmenter = graphemeSegmenter();
		fc.assert(fc.property(mixed, text => {
			expect(segmentsOf(segmenter.segment(text))).toEqual(segmentsOf(icu.segment(text)));
		}), {numRuns: 2000});
	});

	it('passes a granularity other than grapheme to Intl.Segmenter', () => {
		const words = graphemeSegmenter('en', {granularity: 'word'});
		expect([...words.segment('two words')].map(({segment}) => segment)).toEqual(['two', ' ', 'words']);
	});
});
