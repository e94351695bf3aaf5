import {readdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {importsOf, sourceEdges} from './imports.js';
import {layerOf, layers, rules, violations} from './layers.js';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../source');

describe('layering of source/', () => {
	const edges = sourceEdges(sourceRoot);

	test('the import reader sees the tree, dynamic imports included', () => {
		// A reader that found nothing would pass every rule below.
		expect(edges.length).toBeGreaterThan(100);
		expect(edges).toContainEqual(expect.objectContaining({from: 'cli.tsx', to: 'commands/browse/browse.js', kind: 'dynamic'}));
		expect(edges).toContainEqual(expect.objectContaining({from: 'config/options.ts', to: 'contract/contract.js', kind: 'static'}));
	});

	test('every folder of source/ (and each root file) is a layer with a rule', () => {
		const found = readdirSync(sourceRoot, {withFileTypes: true})
			.filter(entry => entry.isDirectory() || /\.[cm]?[jt]sx?$/.test(entry.name))
			.map(entry => layerOf(entry.isDirectory() ? `${entry.name}/x.ts` : entry.name));
		const ruled = new Set(rules.map(rule => rule.layer));
		expect(found.filter(layer => !ruled.has(layer))).toEqual([]);
		expect([...layers].sort()).toEqual([...new Set(found)].sort());
	});

	test('no import crosses a layer it must not', () => {
		// On failure the message lists every offending edge, one per line.
		expect(violations(edges).join('\n')).toBe('');
	});
});

describe('the checker itself', () => {
	test('reads static, re-exported, dynamic and type imports, and ignores comments and strings', () => {
		const text = [
			'import {a} from \'./a.js\';',
			'export {b} from \'../sandbox/b.js\';',
			'// import {c} from \'./commented.js\';',
			'const s = "import(\'./in-a-string.js\')";',
			'type T = import(\'./typed.js\').T;',
			'async function f() {',
			'\treturn import(\'../audit/late.js\');',
			'}',
		].join('\n');
		expect(importsOf('x.ts', text)).toEqual([
			{specifier: './a.js', kind: 'static', line: 1},
			{specifier: '../sandbox/b.js', kind: 'static', line: 2},
			{specifier: './typed.js', kind: 'type', line: 5},
			{specifier: '../audit/late.js', kind: 'dynamic', line: 7},
		]);
	});

	test('names each forbidden edge, and narrows a layer to the files it may use of another', () => {
		const found = violations([
			{from: 'config/options.ts', to: 'sandbox/index.js', kind: 'dynamic', line: 3},
			{from: 'config/options.ts', to: 'sandbox/scenarios/scenario-names.js', kind: 'static', line: 4},
			{from: 'browser/page-stack.ts', to: 'audit/fill.js', kind: 'static', line: 1},
			{from: 'components/run.tsx', to: 'app.js', kind: 'static', line: 5},
			{from: 'sandbox/server.ts', to: 'text/errors.js', kind: 'static', line: 8},
			{from: 'sandbox/query.ts', to: 'contract/contract.js', kind: 'static', line: 7},
			{from: 'sandbox/query.ts', to: 'contract/types.js', kind: 'static', line: 8},
			{from: 'sandbox/query.ts', to: 'contract/links.js', kind: 'static', line: 9},
			{from: 'output/csv.ts', to: 'browser/cells.js', kind: 'static', line: 2},
			{from: 'http/walker.ts', to: 'cells/exact-cells.js', kind: 'type', line: 2},
			{from: 'commands/browse/browse.tsx', to: 'app.js', kind: 'dynamic', line: 9},
		]);
		expect(found).toEqual([
			expect.stringMatching(/^config\/options\.ts:3 imports sandbox\/index\.js \(dynamic\): config\/ may import from sandbox\/ only sandbox\/scenarios\/scenario-names\.ts/),
			expect.stringMatching(/^browser\/page-stack\.ts:1 imports audit\/fill\.js \(static\): browser\/ must not import audit\//),
			expect.stringMatching(/^components\/run\.tsx:5 imports app\.js \(static\): components\/ must not import the app root/),
			expect.stringMatching(/^sandbox\/server\.ts:8 imports text\/errors\.js \(static\): sandbox\/ must not import text\//),
			expect.stringMatching(/^sandbox\/query\.ts:9 imports contract\/links\.js \(static\): sandbox\/ may import from contract\/ only contract\/contract\.ts and contract\/types\.ts/),
			expect.stringMatching(/^output\/csv\.ts:2 imports browser\/cells\.js \(static\): output\/ must not import browser\//),
			expect.stringMatching(/^http\/walker\.ts:2 imports cells\/exact-cells\.js \(type\): http\/ must not import cells\//),
		]);
	});
});
