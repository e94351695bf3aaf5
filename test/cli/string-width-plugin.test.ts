/**
 * The bundle's string-width (scripts/string-width-plugin.mjs: its RGI emoji
 * pattern made on first need) gives the width the unmodified package gives,
 * for every code point of the planes in use alone, with a variation
 * selector, keycap or skin tone after it, and for emoji sequences of every kind.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {build} from 'esbuild';
import stringWidth from 'string-width';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {lazyEmojiPattern, lazyEmojiPlugin} from '../../scripts/string-width-plugin.mjs';

let outdir: string;
let bundledFile: string;
let bundled: typeof stringWidth;

beforeAll(async () => {
	outdir = mkdtempSync(path.join(tmpdir(), 'pagewalk-string-width-'));
	bundledFile = path.join(outdir, 'string-width.cjs');
	// As scripts/build.mjs bundles it, as one CommonJS file to require here.
	await build({
		stdin: {contents: "export {default} from 'string-width';", resolveDir: '.', loader: 'js'},
		outfile: bundledFile,
		bundle: true,
		format: 'cjs',
		platform: 'node',
		target: 'node20',
		logLevel: 'error',
		plugins: [lazyEmojiPlugin],
	});
	bundled = (createRequire(import.meta.url)(bundledFile) as {default: typeof stringWidth}).default;
}, 30_000);

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

	it('agrees on every code point alone', () => {
		expect(disagreements(codePoints(assigned, ''))).toEqual([]);
	}, 60_000);

	it('agrees on every code point that may start an emoji, followed by VS16, a keycap or a skin tone', () => {
		for (const suffix of ['\uFE0F', '\uFE0F\u20E3', '\u{1F3FD}']) {
			expect(disagreements(codePoints(emojiStarts, suffix)), JSON.stringify(suffix)).toEqual([]);
		}
	}, 60_000);

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
