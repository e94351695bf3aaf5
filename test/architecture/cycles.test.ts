/**
 * No import cycle in source/, type imports counted: each module can be read
 * after the ones it imports, its types included (a circle closed by a type
 * import is broken with a leaf types module, such as browser/stack/types.ts).
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {sourceEdges, type Edge} from './imports.js';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../source');
const withoutExtension = (file: string) => file.replace(/\.[cm]?[jt]sx?$/, '');

/** The edges a cycle is made of: every import but a dynamic one (a chunk loaded on demand, after its importer). */
function counted(edges: readonly Edge[]): Edge[] {
	return edges.filter(edge => edge.kind !== 'dynamic');
}

/** Strongly connected components of more than one module (Tarjan's algorithm, iterative over the small graph). */
function cycles(edges: ReadonlyArray<{from: string; to: string}>): string[][] {
	const graph = new Map<string, string[]>();
	for (const {from, to} of edges) {
		const a = withoutExtension(from);
		const b = withoutExtension(to);
		graph.set(a, [...(graph.get(a) ?? []), b]);
		graph.set(b, graph.get(b) ?? []);
	}

	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (node: string): void => {
		index.set(node, counter);
		low.set(node, counter);
		counter++;
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node)!) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(node, Math.min(low.get(node)!, index.get(next)!));
			}
		}

		if (low.get(node) === index.get(node)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1) {
				found.push(component.sort());
			}
		}
	};

	for (const node of graph.keys()) {
		if (!index.has(node)) {
			visit(node);
		}
	}

	return found;
}

describe('imports of source/', () => {
	test('form no cycle, type imports counted (static, re-exported and `import type`; a dynamic import is not)', () => {
		expect(cycles(counted(sourceEdges(sourceRoot))).map(component => component.join(' -> '))).toEqual([]);
	});

	test('a circle closed by type imports only is a cycle', () => {
		const root = mkdtempSync(path.join(tmpdir(), 'pagewalk-cycles-'));
		try {
			writeFileSync(path.join(root, 'a.ts'), 'import type {B} from \'./b.js\';\nexport type A = {b: B};\n');
			writeFileSync(path.join(root, 'b.ts'), 'export type B = {a: import(\'./a.js\').A};\n');
			writeFileSync(path.join(root, 'c.ts'), 'export async function c() {\n\treturn import(\'./d.js\');\n}\n');
			writeFileSync(path.join(root, 'd.ts'), 'export {c} from \'./c.js\';\n');
			expect(cycles(counted(sourceEdges(root)))).toEqual([['a', 'b']]);
		} finally {
			rmSync(root, {recursive: true, force: true});
		}
	});

	test('the checker finds a cycle when there is one', () => {
		expect(cycles([{from: 'a.ts', to: 'b.js'}, {from: 'b.ts', to: 'a.js'}, {from: 'b.ts', to: 'c.js'}])).toEqual([['a', 'b']]);
	});
});
