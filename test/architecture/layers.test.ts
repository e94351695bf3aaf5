import {readdirSync, readFileSync} from 'node:fs';
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

	test('every folder of source/ (a room inside one too, and each root file) is a layer with a rule', () => {
		const found = readdirSync(sourceRoot, {withFileTypes: true, recursive: true})
			.filter(entry => entry.isFile() && /\.[cm]?[jt]sx?$/.test(entry.name))
			.map(entry => layerOf(path.relative(sourceRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')));
		const ruled = new Set(rules.map(rule => rule.layer));
		expect([...new Set(found)].filter(layer => !ruled.has(layer))).toEqual([]);
		expect([...layers].sort()).toEqual([...new Set(found)].sort());
		expect(rules.filter(rule => rule.why.length < 40).map(rule => rule.layer)).toEqual([]);
	});

	test('every layer has its line in docs/architecture.md\'s tree (the entry beside the sandbox\'s rooms, its row)', () => {
		const doc = readFileSync(path.join(sourceRoot, '../docs/architecture.md'), 'utf8');
		const named = (layer: string) => layer === 'app' || layer === 'cli'
			? doc.includes(`\nsource/${layer}.tsx `)
			: layer.endsWith('/index') ? doc.includes(`\n| ${layer} |`) : doc.includes(`\nsource/${layer}/ `);
		expect(layers.filter(layer => !named(layer))).toEqual([]);
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
			{from: 'browser/stack/page-stack.ts', to: 'audit/fill.js', kind: 'static', line: 1},
			{from: 'components/run.tsx', to: 'app.js', kind: 'static', line: 5},
			{from: 'sandbox/routes/server.ts', to: 'text/errors.js', kind: 'static', line: 8},
			{from: 'sandbox/routes/query.ts', to: 'contract/contract.js', kind: 'static', line: 7},
			{from: 'sandbox/routes/query.ts', to: 'contract/types.js', kind: 'static', line: 8},
			{from: 'sandbox/routes/query.ts', to: 'contract/links.js', kind: 'static', line: 9},
			{from: 'output/csv.ts', to: 'browser/stack/cells.js', kind: 'static', line: 2},
			{from: 'http/walker.ts', to: 'cells/exact-cells.js', kind: 'type', line: 2},
			{from: 'commands/browse/browse.tsx', to: 'app.js', kind: 'dynamic', line: 9},
			// A room below another imports of it only its types module; a command never imports another one.
			{from: 'browser/related/related-walks.ts', to: 'browser/state/types.js', kind: 'static', line: 3},
			{from: 'browser/related/related-walks.ts', to: 'browser/state/browser-state.js', kind: 'static', line: 4},
			{from: 'browser/stack/page-stack.ts', to: 'browser/view/status-model.js', kind: 'static', line: 5},
			{from: 'commands/dump/dump.ts', to: 'commands/audit/audit.js', kind: 'dynamic', line: 6},
			{from: 'commands/audit/audit.ts', to: 'commands/dump/dump-steps.js', kind: 'static', line: 7},
			{from: 'components/use-tasks.ts', to: 'sandbox/index.js', kind: 'static', line: 8},
		]);
		expect(found).toEqual([
			expect.stringMatching(/^config\/options\.ts:3 imports sandbox\/index\.js \(dynamic\): config\/ may import from sandbox\/ only sandbox\/scenarios\/scenario-names\.ts/),
			expect.stringMatching(/^browser\/stack\/page-stack\.ts:1 imports audit\/fill\.js \(static\): browser\/stack\/ must not import audit\//),
			expect.stringMatching(/^components\/run\.tsx:5 imports app\.js \(static\): components\/ must not import the app root/),
			expect.stringMatching(/^sandbox\/routes\/server\.ts:8 imports text\/errors\.js \(static\): sandbox\/routes\/ must not import text\//),
			expect.stringMatching(/^sandbox\/routes\/query\.ts:9 imports contract\/links\.js \(static\): sandbox\/routes\/ may import from contract\/ only contract\/contract\.ts and contract\/types\.ts/),
			expect.stringMatching(/^output\/csv\.ts:2 imports browser\/stack\/cells\.js \(static\): output\/ must not import browser\/stack\//),
			expect.stringMatching(/^http\/walker\.ts:2 imports cells\/exact-cells\.js \(type\): http\/ must not import cells\//),
			expect.stringMatching(/^browser\/related\/related-walks\.ts:4 imports browser\/state\/browser-state\.js \(static\): browser\/related\/ may import from browser\/state\/ only browser\/state\/types\.ts/),
			expect.stringMatching(/^browser\/stack\/page-stack\.ts:5 imports browser\/view\/status-model\.js \(static\): browser\/stack\/ must not import browser\/view\//),
			expect.stringMatching(/^commands\/dump\/dump\.ts:6 imports commands\/audit\/audit\.js \(dynamic\): commands\/dump\/ must not import commands\/audit\//),
			expect.stringMatching(/^components\/use-tasks\.ts:8 imports sandbox\/index\.js \(static\): components\/ must not import sandbox\/index\//),
		]);
	});
});
