/**
 * pagewalk patches Ink 6.8's output pass (patches/ink+6.8.0.patch, applied by
 * patch-package in `prepare`): every frame shares one bounded set of caches,
 * so lines that did not change are not tokenized again (bench:keys: most of a
 * key's cost). This test fails loudly when the patch was not applied (an Ink
 * upgrade, or an install that skipped `prepare`).
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';

type Caches = {characters: number; styledChars: Map<string, unknown[]>; clear: () => void};
type OutputClass = new (options: {width: number; height: number}) => {caches: Caches; write: (x: number, y: number, text: string, options: {transformers: unknown[]}) => void; get: () => {output: string}};

async function loadOutput(): Promise<OutputClass> {
	const entry = createRequire(import.meta.url).resolve('ink');
	return ((await import(pathToFileURL(path.join(path.dirname(entry), 'output.js')).href)) as {default: OutputClass}).default;
}

describe('Ink\'s output pass, as patched', () => {
	it('shares its caches between frames and draws the same text', async () => {
		const Output = await loadOutput();
		const first = new Output({width: 20, height: 2});
		const second = new Output({width: 20, height: 2});
		expect(first.caches, 'patches/ink+6.8.0.patch is not applied: run `npx patch-package` (npm install runs it)').toBe(second.caches);
		for (const output of [first, second]) {
			output.write(0, 0, 'a line · é 日本', {transformers: []});
			output.write(0, 1, '\u001B[7mselected\u001B[27m', {transformers: []});
		}

		expect(second.get().output).toBe(first.get().output);
		expect(first.get().output.split('\n')[0]).toBe('a line · é 日本');
	});

	it('holds at most a bound in characters and a frame, whatever the width: wide frames hold fewer lines', async () => {
		const Output = await loadOutput();
		for (const [width, height] of [[80, 24], [300, 100]] as const) {
			const bound = Math.max(32_000, 2 * width * height);
			let most = 0;
			// Enough frames to pass the bound: the caches start over once.
			for (let frame = 0; frame < Math.ceil(bound / (width * height)) + 3; frame++) {
				// Every line new, as when paging: each frame a screen of lines never drawn before.
				const output = new Output({width, height});
				for (let y = 0; y < height; y++) {
					output.write(0, y, `${frame}:${y} `.padEnd(width, String.fromCodePoint(97 + ((frame + y) % 26))), {transformers: []});
				}

				output.get();
				// Characters of the lines tokenized and kept (an object each).
				const cached = [...output.caches.styledChars.values()].reduce((sum, line) => sum + line.length, 0);
				most = Math.max(most, cached);
			}

			expect(most, `${width}x${height}`).toBeLessThanOrEqual(bound + (width * height));
			// A key after a page at this size (the caches started over on it): one line is new, the rest are reused.
			const page = new Output({width, height});
			page.caches.clear();
			const draw = (output: InstanceType<OutputClass>, selected: number) => {
				for (let y = 0; y < height; y++) {
					output.write(0, y, `${y === selected ? '>' : ' '} row ${y}`.padEnd(width, 'x'), {transformers: []});
				}

				output.get();
			};

			draw(page, 0);
			const key = new Output({width, height});
			const cached = key.caches.styledChars.size;
			draw(key, 1);
			expect(key.caches.styledChars.size - cached, `${width}x${height}`).toBe(2);
		}
	});

	it('keeps one object for each character in each style, shared by the lines cached', async () => {
		const Output = await loadOutput();
		const output = new Output({width: 300, height: 100});
		output.caches.clear();
		for (let y = 0; y < 100; y++) {
			const text = `row ${y} `.padEnd(300, 'abcdefghij');
			output.write(0, y, y === 7 ? `\u001B[7m${text}\u001B[27m` : text, {transformers: []});
		}

		const drawn = output.get().output.split('\n');
		expect(drawn[1]).toBe('row 1 '.padEnd(300, 'abcdefghij'));
		expect(drawn[7]).toBe(`\u001B[7m${'row 7 '.padEnd(300, 'abcdefghij')}\u001B[27m`);
		const characters = [...output.caches.styledChars.values()].flat();
		expect(characters).toHaveLength(300 * 100);
		// Letters, digits and a space, plain and reversed: a few dozen objects for thirty thousand characters.
		expect(new Set(characters).size).toBeLessThan(60);
	});
});

