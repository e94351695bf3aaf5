/**
 * The bundle's terminal-text packages (scripts/terminal-text-plugin.mjs: their
 * segmenter from lone-clusters.ts, string-width's RGI emoji pattern made on
 * first need) give what the unmodified packages give: string-width for every
 * code point of the planes in use alone, with a variation selector, keycap or
 * skin tone after it, and for emoji sequences of every kind; string-width,
 * wrap-ansi's string-width, slice-ansi and Ink's tokenizer on mixed text.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {tokenize} from '@alcalzone/ansi-tokenize';
import {build} from 'esbuild';
import fc from 'fast-check';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import stringWidth7 from '../../node_modules/wrap-ansi/node_modules/string-width/index.js';
import {lazyEmojiPattern, terminalTextPlugin, withGraphemeSegmenter} from '../../scripts/terminal-text-plugin.mjs';

type Bundled = {stringWidth: typeof stringWidth; stringWidth7: typeof stringWidth7; sliceAnsi: typeof sliceAnsi; tokenize: typeof tokenize};

let outdir: string;
let bundledFile: string;
let bundledModules: Bundled;
let bundled: typeof stringWidth;

beforeAll(async () => {
	outdir = mkdtempSync(path.join(tmpdir(), 'pagewalk-string-width-'));
	bundledFile = path.join(outdir, 'terminal-text.cjs');
	// As scripts/build.mjs bundles them, as one CommonJS file to require here.
	await build({
		stdin: {
			contents: [
				"export {default as stringWidth} from 'string-width';",
				"export {default as stringWidth7} from './node_modules/wrap-ansi/node_modules/string-width/index.js';",
				"export {default as sliceAnsi} from 'slice-ansi';",
				"export {tokenize} from '@alcalzone/ansi-tokenize';",
			].join('\n'),
			resolveDir: '.',
			loader: 'js',
		},
		outfile: bundledFile,
		bundle: true,
		format: 'cjs',
		platform: 'node',
		target: 'node20',
		logLevel: 'error',
		plugins: [terminalTextPlugin],
	});
	bundledModules = createRequire(import.meta.url)(bundledFile) as Bundled;
	bundled = bundledModules.stringWidth;
});

afterAll(() => {
	rmSync(outdir, {recursive: true, force: true});
});

/** The texts on which the two disagree, at most a few. */
function disagreements(texts: Iterable<string>): string[] {
	const found: string[] = [];
	for (const text of texts) {
		if (bundled(text) !== stringWidth(text) && found.push(text) >= 5) {
			break;
		}
	}

	return found;
}

/** Planes 0-3 (every assigned letter, symbol and emoji), tags and variation selectors, private use. */
const assigned: Array<[number, number]> = [[0, 0x3_FFFF], [0xE_0000, 0xE_01FF], [0xF_0000, 0xF_00FF], [0x10_FF00, 0x10_FFFF]];
/** The BMP and the emoji blocks: where a code point can start an emoji sequence. */
const emojiStarts: Array<[number, number]> = [[0, 0xFFFF], [0x1_F000, 0x1_FAFF]];

function* codePoints(ranges: Array<[number, number]>, suffix: string): Generator<string> {
	for (const [first, last] of ranges) {
		for (let code = first; code <= last; code++) {
			// Lone surrogates are their own clusters; they are covered alone.
			if (suffix === '' || code < 0xD8_00 || code > 0xDF_FF) {
				yield String.fromCodePoint(code) + suffix;
			}
		}
	}
}

describe('string-width in the bundle', () => {
	it('makes the pattern inside a function, and fails the build if string-width changed', () => {
		expect(readFileSync(bundledFile, 'utf8')).toContain('isRgiEmoji');
		expect(() => lazyEmojiPattern('export default function stringWidth() {}')).toThrow(/string-width changed/);
	});

	it('makes no Intl.Segmenter but lone-clusters.ts\'s, and fails the build if a package no longer makes one', () => {
		const text = readFileSync(bundledFile, 'utf8');
		// The two in graphemeSegmenter: the lazy one and the one for other granularities.
		expect(text.split('new Intl.Segmenter(').length - 1).toBe(2);
		expect(() => withGraphemeSegmenter('export const a = 1;')).toThrow(/package changed/);
	});

	it('agrees on every code point alone', () => {
		expect(disagreements(codePoints(assigned, ''))).toEqual([]);
	});

	it('agrees on every code point that may start an emoji, followed by VS16, a keycap or a skin tone', () => {
		for (const suffix of ['\uFE0F', '\uFE0F\u20E3', '\u{1F3FD}']) {
			expect(disagreements(codePoints(emojiStarts, suffix)), JSON.stringify(suffix)).toEqual([]);
		}
	});

	it('agrees on emoji sequences of every kind and on mixed text', () => {
		const texts = [
			'😀', '👍🏽', '🇫🇷', '🇺🇳🇫', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👨‍👩‍👧‍👦', '🧑🏽‍💻', '❤️', '❤', '#️⃣', '1⃣', '©', '©️', '™', '↔️', '☺', '👁️‍🗨️', '🏳️‍🌈', '🏃‍♀️',
			'…', '·', '▆', '–', '日本語', 'ｶﾞ', 'e\u0301', '한국어', '\u1100\u1161\u11A8', 'a\u200Db', '\u001B[31mred\u001B[39m', 'x😀y…z',
		];
		expect(disagreements(texts)).toEqual([]);
		expect(bundled('😀')).toBe(2);
		expect(bundled('…')).toBe(1);
	});
});

/** Text mixing lone clusters, sequences that join, escape sequences and controls. */
const pieces = ['a', ' ', 'word', '\u001B[31m', '\u001B[39m', '\u001B]8;;https://x.test\u0007', '\r\n', '\t', 'é', 'e\u0301', '日本', 'ｶﾞ', '한', '\u1100\u1161', '·', '…', '▇', '👍', '👍🏽', '👨‍👩‍👧', '🇯🇵', '\uFE0F', '1\uFE0F\u20E3', 'ก\u0E33', '\u00AD', '\u{20000}'];
const mixed = fc.oneof(
	fc.array(fc.constantFrom(...pieces), {maxLength: 30}).map(parts => parts.join('')),
	fc.string({unit: 'grapheme', maxLength: 20}),
);

describe('the terminal-text packages in the bundle, on mixed text', () => {
	it('string-width, wrap-ansi\'s string-width, slice-ansi and Ink\'s tokenizer give what the packages give', () => {
		fc.assert(fc.property(mixed, fc.nat(20), fc.nat(20), (text, start, length) => {
			expect(bundledModules.stringWidth(text)).toBe(stringWidth(text));
			expect(bundledModules.stringWidth7(text)).toBe(stringWidth7(text));
			expect(bundledModules.sliceAnsi(text, start, start + length)).toBe(sliceAnsi(text, start, start + length));
			expect(bundledModules.tokenize(text)).toEqual(tokenize(text));
			expect(bundledModules.tokenize(text, length)).toEqual(tokenize(text, length));
		}), {numRuns: 1000});
	});
});
