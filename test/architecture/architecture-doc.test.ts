/**
 * docs/architecture.md is the map of the tree, so it is checked against the
 * tree: every folder of source/ (at any depth, a folder of rooms too) has its
 * line in the tree at the top, saying what it holds; every path that tree
 * names is there; and every file and every function, type or variable the
 * doc names (in prose, the tree and the flows drawn step by step) still
 * exists. A folder added without its line, or a name renamed away, fails here.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docFile = 'docs/architecture.md';

/** Paths of a folder's entries from the repository's root, `/`-separated, at any depth. */
function entries(folder: string, kind: 'file' | 'folder'): string[] {
	return readdirSync(path.join(root, folder), {withFileTypes: true, recursive: true})
		.filter(entry => (kind === 'file' ? entry.isFile() : entry.isDirectory()))
		.map(entry => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The tree at the top of the doc (its first code block): each line that starts with a path, as that path and what the line says of it. */
function treeLines(doc: string): Array<{path: string; says: string}> {
	const tree = /^```\n([\s\S]*?)^```/m.exec(doc)?.[1] ?? '';
	return [...tree.matchAll(/^([\w.-]+(?:\/[\w.-]+)*\/?)(?: +(.*))?$/gm)].map(match => ({path: match[1]!, says: match[2] ?? ''}));
}

/** The folders of source/ (each as `source/…/`) and its root files without a line in the tree, or with a line that says nothing. */
function unnamed(doc: string, folders: readonly string[], rootFiles: readonly string[]): string[] {
	const said = new Set(treeLines(doc).filter(line => line.says.trim().length > 0).map(line => line.path));
	return [...folders.map(folder => `${folder}/`), ...rootFiles].filter(name => !said.has(name));
}

/** A file a doc names: `a/b.ts`, `exact-cells.ts`, `dump.js` (a module as imported). */
const fileName = /(?<![\w./+-])(?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:tsx?|mjs|js|json|md)(?![\w/])/g;

/**
 * A name of code a doc uses: camelCase (`wantedTasks`, `onNext`) or PascalCase
 * of two words or more (`HeldTasks`, `JsonReader`); a single capitalised word
 * is as often English as code, and is left out.
 */
const codeName = /(?<![\w.\\-])(?:[a-z]+[A-Z]|[A-Z][a-z]+[A-Z])\w*/g;

/**
 * The files the doc names that no file of the repository is (a name matches a
 * file whose path ends with it; a `.js` module its `.ts` or `.tsx`), and the
 * code names it uses that no source, test or script holds.
 */
function staleNames(doc: string, files: readonly string[], words: ReadonlySet<string>): string[] {
	const isFile = (name: string) => {
		const candidates = name.endsWith('.js') ? [name, name.replace(/\.js$/, '.ts'), name.replace(/\.js$/, '.tsx')] : [name];
		return candidates.some(candidate => files.some(file => file === candidate || file.endsWith(`/${candidate}`)));
	};

	const named = namesIn(doc);
	return [...named.files.filter(name => !isFile(name)), ...named.code.filter(name => !words.has(name))];
}

/** The files (but dist/'s, built rather than kept) and the names of code a doc uses, each once. */
function namesIn(doc: string): {files: string[]; code: string[]} {
	const files = [...doc.matchAll(fileName)].map(match => match[0]).filter(name => !name.startsWith('dist/'));
	const code = [...doc.replaceAll(fileName, ' ').matchAll(codeName)].map(match => match[0]);
	return {files: [...new Set(files)], code: [...new Set(code)]};
}

describe('docs/architecture.md, against the tree', () => {
	const doc = readFileSync(path.join(root, docFile), 'utf8');

	test('every folder of source/, at any depth, and each root file has a line of the tree saying what it holds', () => {
		const folders = entries('source', 'folder');
		const rootFiles = readdirSync(path.join(root, 'source'), {withFileTypes: true}).filter(entry => entry.isFile()).map(entry => `source/${entry.name}`);
		expect(folders.length).toBeGreaterThan(20);
		expect(unnamed(doc, folders, rootFiles)).toEqual([]);
	});

	test('every path the tree names is a folder or a file of the repository', () => {
		const lines = treeLines(doc);
		expect(lines.length).toBeGreaterThan(30);
		const folders = new Set(['source', 'test', 'patches', 'scripts'].flatMap(top => [top, ...entries(top, 'folder')]).map(folder => `${folder}/`));
		const files = new Set(readdirSync(path.join(root, 'source')).map(name => `source/${name}`));
		expect(lines.map(line => line.path).filter(name => !folders.has(name) && !files.has(name))).toEqual([]);
	});

	test('every file and every name of code the doc uses still exists', () => {
		const files = ['source', 'test', 'scripts', 'docs', 'patches'].flatMap(folder => entries(folder, 'file'));
		// The words of the code: its sources, tests and scripts.
		const code = files.filter(file => /^(?:source|test|scripts)\//.test(file) && /\.[cm]?[jt]sx?$/.test(file));
		const words = new Set(code.flatMap(file => readFileSync(path.join(root, file), 'utf8').match(/\w+/g) ?? []));
		expect(words.size).toBeGreaterThan(1000);
		// A reader that found nothing would pass.
		expect(namesIn(doc).files.length).toBeGreaterThan(60);
		expect(namesIn(doc).code.length).toBeGreaterThan(60);
		expect(staleNames(doc, [...files, 'vitest.config.ts', 'package.json', 'README.md'], words)).toEqual([]);
	});
});

describe('the checker itself', () => {
	const doc = [
		'# A map',
		'',
		'```',
		'source/cli.tsx   entry',
		'source/text/     inert text',
		'source/browser/',
		'```',
		'',
		'`wantedTasks` in browser/state/tasks.ts, and `goneAway` in old-module.ts; `HeldTasks`, dump.js.',
	].join('\n');

	test('names a folder without its line, or with a line that says nothing', () => {
		expect(unnamed(doc, ['source/text', 'source/browser', 'source/browser/keys'], ['source/cli.tsx', 'source/app.tsx'])).toEqual(['source/browser/', 'source/browser/keys/', 'source/app.tsx']);
	});

	test('names a file or a name of code no longer there', () => {
		const files = ['source/cli.tsx', 'source/browser/state/tasks.ts', 'source/commands/dump/dump.ts'];
		expect(staleNames(doc, files, new Set(['wantedTasks', 'HeldTasks']))).toEqual(['old-module.ts', 'goneAway']);
	});
});
