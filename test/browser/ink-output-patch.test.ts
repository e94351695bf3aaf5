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

type OutputClass = new (options: {width: number; height: number}) => {caches: unknown; write: (x: number, y: number, text: string, options: {transformers: unknown[]}) => void; get: () => {output: string}};

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
});
