/**
 * The layers of the source tree and what each may import. A rule names what
 * a layer must not reach; `allowOnly` narrows a layer's view of another one
 * to a few files.
 */
import type {Edge} from './imports.js';

export type Layer = 'core' | 'browser' | 'components' | 'commands' | 'sandbox' | 'audit' | 'output' | 'app' | 'cli' | string;

/** The layer of a file relative to the source root: its top folder, or the app root files. */
export function layerOf(file: string): Layer {
	if (/^app\.[cm]?[jt]sx?$/.test(file)) {
		return 'app';
	}

	if (/^cli\.[cm]?[jt]sx?$/.test(file)) {
		return 'cli';
	}

	const slash = file.indexOf('/');
	return slash === -1 ? file : file.slice(0, slash);
}

export type Rule = {
	layer: Layer;
	/** Layers this one must never import. */
	forbid: Layer[];
	/** For these layers, only these files (relative to the source root, without extension) may be imported. */
	allowOnly?: Partial<Record<Layer, string[]>>;
	why: string;
};

export const rules: Rule[] = [
	{
		layer: 'core',
		forbid: ['sandbox', 'browser', 'components', 'commands', 'audit', 'output', 'app', 'cli'],
		why: 'the core is pure: contract, links, walker, client and options depend on nothing above them',
	},
	{
		layer: 'browser',
		forbid: ['audit', 'components', 'commands', 'sandbox', 'app', 'cli'],
		why: 'the browser\'s pure state depends only on core/',
	},
	{
		layer: 'components',
		forbid: ['commands', 'app', 'cli'],
		why: 'components render state; the app root and the commands use them, never the other way',
	},
	{
		layer: 'sandbox',
		forbid: ['browser', 'components', 'commands', 'audit', 'output', 'app', 'cli'],
		allowOnly: {core: ['core/contract', 'core/types']},
		why: 'the sandbox and the client share the contract module, never each other',
	},
	{
		layer: 'output',
		forbid: ['browser', 'components', 'commands', 'audit', 'sandbox', 'app', 'cli'],
		why: 'writers turn objects into text and know nothing of the screen, the audit or the sandbox',
	},
	{
		layer: 'audit',
		forbid: ['browser', 'components', 'commands', 'sandbox', 'output', 'app', 'cli'],
		why: 'the audit is a report over a walk: pure checks and words on top of the core, run by its command',
	},
	{
		layer: 'commands',
		forbid: ['cli'],
		why: 'a command is an entry the CLI dispatches to, never the other way',
	},
	{
		layer: 'app',
		forbid: ['commands', 'sandbox', 'audit', 'cli'],
		why: 'the app root lays out the browser\'s components; what it loads and talks to is given to it',
	},
];

function withoutExtension(file: string): string {
	return file.replace(/\.[cm]?[jt]sx?$/, '');
}

/** The edges that break a rule, each as one line naming the file, the line and the rule. */
export function violations(edges: readonly Edge[], layerRules: readonly Rule[] = rules): string[] {
	const found: string[] = [];
	for (const edge of edges) {
		const from = layerOf(edge.from);
		const to = layerOf(edge.to);
		if (from === to) {
			continue;
		}

		for (const rule of layerRules) {
			if (rule.layer !== from) {
				continue;
			}

			const allowed = rule.allowOnly?.[to];
			if (rule.forbid.includes(to)) {
				found.push(`${edge.from}:${edge.line} imports ${edge.to} (${edge.kind}): ${from}/ must not import ${to === 'app' || to === 'cli' ? 'the app root' : `${to}/`}; ${rule.why}`);
			} else if (allowed && !allowed.includes(withoutExtension(edge.to))) {
				found.push(`${edge.from}:${edge.line} imports ${edge.to} (${edge.kind}): ${from}/ may import from ${to}/ only ${allowed.map(file => `${file}.ts`).join(' and ')}; ${rule.why}`);
			}
		}
	}

	return found;
}
