/**
 * `dump` to a pipe loads nothing it does not use: the modules the bundle
 * evaluates for it (the CLI's entry and every chunk it imports statically,
 * then the dump command's chunk and its static imports) hold no Ink, no
 * React and no string-width. Those come in by dynamic import, where they are
 * used. Read from esbuild's metafile of the same build as scripts/build.mjs.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {build, type Metafile} from 'esbuild';
import {afterAll, describe, expect, it} from 'vitest';
import {cutToWidth, displayWidth, loadTextWidth} from '../../source/text/text-width.js';

const out = mkdtempSync(path.join(tmpdir(), 'pagewalk-lean-'));
afterAll(() => {
	rmSync(out, {recursive: true, force: true});
});

async function metafile(): Promise<Metafile> {
	const result = await build({
		entryPoints: {cli: 'source/cli.tsx'},
		outdir: out,
		bundle: true,
		splitting: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		metafile: true,
		write: false,
		external: ['react-devtools-core'],
		logLevel: 'error',
		define: {'process.env.NODE_ENV': '"production"'},
	});
	return result.metafile;
}

/** The inputs of `from` and every output it imports statically. */
function staticInputs(meta: Metafile, from: string[]): string[] {
	const seen = new Set<string>();
	const visit = (file: string) => {
		const output = meta.outputs[file];
		if (seen.has(file) || !output) {
			return;
		}

		seen.add(file);
		for (const imported of output.imports) {
			if (imported.kind === 'import-statement') {
				visit(imported.path);
			}
		}
	};

	for (const file of from) {
		visit(file);
	}

	return [...seen].flatMap(file => Object.keys(meta.outputs[file]!.inputs));
}

describe('dump to a pipe', () => {
	it('evaluates no Ink, React or string-width: they are only imported dynamically', async () => {
		const meta = await metafile();
		const outputs = Object.keys(meta.outputs);
		const entry = outputs.find(file => file.endsWith('/cli.js'))!;
		const dumpChunk = outputs.find(file => Object.keys(meta.outputs[file]!.inputs).includes('source/commands/dump/dump.ts'))!;
		const inputs = staticInputs(meta, [entry, dumpChunk]);
		expect(inputs).toContain('source/commands/dump/dump.ts');
		expect(inputs.filter(input => /node_modules\/(ink|react|react-reconciler|string-width|yoga-layout)\//.test(input))).toEqual([]);
		// The browser's chunks do hold them (the check above could not pass by looking nowhere).
		expect(Object.values(meta.outputs).some(output => Object.keys(output.inputs).some(input => input.includes('node_modules/string-width/')))).toBe(true);
	});

	it('the browser\'s first paint, before Ink has loaded, evaluates no Ink or React either', async () => {
		const meta = await metafile();
		const outputs = Object.keys(meta.outputs);
		const entry = outputs.find(file => file.endsWith('/cli.js'))!;
		const paintChunk = outputs.find(file => Object.keys(meta.outputs[file]!.inputs).includes('source/components/first-paint.ts'))!;
		const browseChunk = outputs.find(file => Object.keys(meta.outputs[file]!.inputs).includes('source/commands/browse/browse.tsx'))!;
		const inputs = staticInputs(meta, [entry, browseChunk, paintChunk]);
		expect(inputs).toContain('source/components/first-paint.ts');
		expect(inputs.filter(input => /node_modules\/(ink|react|react-reconciler|yoga-layout)\//.test(input))).toEqual([]);
	});

	it('measures exactly once string-width is loaded, and loading again changes nothing', async () => {
		// This process has it loaded (test/support/text-width.ts).
		await loadTextWidth();
		expect(displayWidth('日本')).toBe(4);
		expect(displayWidth('é')).toBe(1);
		expect(cutToWidth('日本語のテキスト', 5)).toBe('日本…');
	});
});
