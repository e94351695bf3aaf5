/**
 * The layers of the source tree and what each may import. A rule names what
 * a layer must not reach; `allowOnly` narrows a layer's view of another one
 * to a few files.
 */
import type {Edge} from './imports.js';

export type Layer = string;

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

/**
 * Every layer: the folders of source/ and the two root files. A folder not
 * listed here fails the layer test, so a new folder comes with its rule.
 */
export const layers = ['text', 'contract', 'json', 'cells', 'config', 'http', 'browser', 'components', 'output', 'audit', 'sandbox', 'commands', 'app', 'cli'] as const;

/** The layers `layer` must not import: all but itself and `allowed`. */
function allBut(layer: Layer, allowed: readonly Layer[]): Layer[] {
	return layers.filter(other => other !== layer && !allowed.includes(other));
}

export const rules: Rule[] = [
	{
		layer: 'text',
		forbid: allBut('text', ['contract']),
		allowOnly: {contract: ['contract/types']},
		why: 'what reaches a terminal or stderr (inert text, widths, colour, redaction, the one sentence of an error) depends on nothing of ours but the contract\'s types',
	},
	{
		layer: 'contract',
		forbid: allBut('contract', ['text']),
		why: 'the list pagination contract, its types and links: the module the sandbox and the client share',
	},
	{
		layer: 'json',
		forbid: allBut('json', ['text', 'contract']),
		allowOnly: {contract: ['contract/types']},
		why: 'reading JSON text exactly serves every reader of a body or a file and knows nothing of them',
	},
	{
		layer: 'cells',
		forbid: allBut('cells', ['text', 'contract', 'json', 'config']),
		allowOnly: {config: ['config/flag-values']},
		why: 'the one cell model and the column layout are shared by the browser and dump, and know neither',
	},
	{
		layer: 'config',
		forbid: allBut('config', ['text', 'contract', 'json', 'sandbox']),
		allowOnly: {sandbox: ['sandbox/scenarios/scenario-names']},
		why: 'flags, options, profiles and credentials say what a run is asked to do, before any request; of the sandbox only its scenario names, to check --scenario',
	},
	{
		layer: 'http',
		forbid: allBut('http', ['text', 'contract', 'json', 'config']),
		why: 'the client, the wire and the walker make requests as the configuration says, and know nothing of the screen, the writers or the sandbox',
	},
	{
		layer: 'browser',
		forbid: allBut('browser', ['text', 'contract', 'json', 'cells', 'config', 'http']),
		why: 'the browser\'s pure state (no React, no command) stands on the walker and the cell model',
	},
	{
		layer: 'components',
		forbid: ['commands', 'sandbox', 'audit', 'app', 'cli'],
		why: 'components render state; the app root and the commands use them, never the other way',
	},
	{
		layer: 'output',
		forbid: allBut('output', ['text', 'contract', 'json', 'cells', 'config']),
		why: 'writers turn objects into text and know nothing of the screen, the audit, the wire or the sandbox',
	},
	{
		layer: 'audit',
		forbid: allBut('audit', ['text', 'contract', 'json', 'cells', 'config', 'http']),
		why: 'the audit is a report over a walk: pure checks and words on top of the walker, run by its command',
	},
	{
		layer: 'sandbox',
		forbid: allBut('sandbox', ['contract']),
		allowOnly: {contract: ['contract/contract', 'contract/types']},
		why: 'the sandbox and the client share the contract module, never each other',
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
	{
		layer: 'cli',
		forbid: ['app', 'browser', 'components', 'sandbox', 'audit', 'output'],
		why: 'the entry dispatches to the commands; what a command loads is its own',
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
