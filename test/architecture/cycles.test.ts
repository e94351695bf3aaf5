/** No import cycle in source/: each module can be read (and loaded) after the ones it imports. */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {sourceEdges} from './imports.js';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../source');
const withoutExtension = (file: string) => file.replace(/\.[cm]?[jt]sx?$/, '');

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
	test('form no cycle (static imports; a type-only or a dynamic import is not loaded with its module)', () => {
		const lines = new Map<string, string[]>();
		const lineOf = (file: string, line: number) => {
			if (!lines.has(file)) {
				lines.set(file, readFileSync(path.join(sourceRoot, file), 'utf8').split('\n'));
			}

			return lines.get(file)![line - 1] ?? '';
		};

		// `import type {…}` is erased at build: it loads nothing.
		const edges = sourceEdges(sourceRoot).filter(edge => edge.kind === 'static' && !/^\s*(?:import|export) type /.test(lineOf(edge.from, edge.line)));
		expect(cycles(edges).map(component => component.join(' -> '))).toEqual([]);
	});

	test('the checker finds a cycle when there is one', () => {
		expect(cycles([{from: 'a.ts', to: 'b.js'}, {from: 'b.ts', to: 'a.js'}, {from: 'b.ts', to: 'c.js'}])).toEqual([['a', 'b']]);
	});
});
