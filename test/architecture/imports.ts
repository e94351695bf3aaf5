/**
 * Reads every import of the source tree: static imports and re-exports,
 * dynamic `import()` and `import('…')` types. Parsed with the TypeScript
 * compiler the project already uses, so imports inside comments or strings
 * never count and no other dependency is needed.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type Edge = {
	/** Importing file, relative to the source root, with forward slashes. */
	from: string;
	/** Imported file, relative to the source root (the `.js` of a `.ts` source kept as written). */
	to: string;
	/** How it is imported. */
	kind: 'static' | 'dynamic' | 'type';
	line: number;
};

function sourceFiles(root: string, directory = root): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(directory, {withFileTypes: true})) {
		const full = path.join(directory, entry.name);
		if (entry.isDirectory()) {
			files.push(...sourceFiles(root, full));
		} else if (/\.(?:ts|tsx|mts)$/.test(entry.name)) {
			files.push(full);
		}
	}

	return files;
}

/** The module specifiers of one file, with their kind and line. */
export function importsOf(fileName: string, text: string): Array<{specifier: string; kind: Edge['kind']; line: number}> {
	const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const found: Array<{specifier: string; kind: Edge['kind']; line: number}> = [];
	const add = (node: ts.Node, literal: ts.Node | undefined, kind: Edge['kind']) => {
		if (literal && ts.isStringLiteralLike(literal)) {
			found.push({specifier: literal.text, kind, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1});
		}
	};

	const visit = (node: ts.Node) => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
			add(node, node.moduleSpecifier, 'static');
		} else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
			add(node, node.arguments[0], 'dynamic');
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
			add(node, node.argument.literal, 'type');
		}

		ts.forEachChild(node, visit);
	};

	visit(file);
	return found;
}

/** Every edge between files of the source tree (package imports are left out). */
export function sourceEdges(root: string): Edge[] {
	const edges: Edge[] = [];
	for (const file of sourceFiles(root)) {
		const from = path.relative(root, file).split(path.sep).join('/');
		for (const {specifier, kind, line} of importsOf(file, readFileSync(file, 'utf8'))) {
			if (!specifier.startsWith('.')) {
				continue;
			}

			const to = path.relative(root, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
			edges.push({from, to, kind, line});
		}
	}

	return edges;
}
