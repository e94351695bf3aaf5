/**
 * The layers of the source tree and what each may import. A rule names what
 * a layer must not reach; `allowOnly` narrows a layer's view of another one
 * to a few files.
 */
import type {Edge} from './imports.js';

export type Layer = string;

/** The folders split into rooms: a file beside the rooms is a layer of its own. */
const roomed = ['browser', 'commands', 'sandbox'];

/**
 * The layer of a file relative to the source root: the app root files, a
 * room (`browser/stack`, `commands/dump`, `sandbox/data`: a folder inside a
 * top folder), a file beside the rooms (`sandbox/index`), or its top folder.
 */
export function layerOf(file: string): Layer {
	if (/^app\.[cm]?[jt]sx?$/.test(file)) {
		return 'app';
	}

	if (/^cli\.[cm]?[jt]sx?$/.test(file)) {
		return 'cli';
	}

	const parts = file.split('/');
	if (parts.length === 2 && roomed.includes(parts[0]!)) {
		return withoutExtension(file);
	}

	return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Whether `layer` is `folder` or one of its rooms: a rule naming `browser` names every room of it. */
export function under(layer: Layer, folder: Layer): boolean {
	return layer === folder || layer.startsWith(`${folder}/`);
}

export type Rule = {
	layer: Layer;
	/** Layers this one must never import (a folder names its rooms too). */
	forbid: Layer[];
	/** For these layers (a folder names its rooms too), only these files (relative to the source root, without extension) may be imported. */
	allowOnly?: Partial<Record<Layer, string[]>>;
	why: string;
};

const browserRooms = ['browser/stack', 'browser/search', 'browser/keys', 'browser/actions', 'browser/related', 'browser/view', 'browser/state'] as const;
const commandRooms = ['commands/browse', 'commands/dump', 'commands/audit', 'commands/serve', 'commands/token', 'commands/profiles', 'commands/completion'] as const;
const sandboxRooms = ['sandbox/data', 'sandbox/scenarios', 'sandbox/auth', 'sandbox/routes'] as const;

/**
 * Every layer: the folders of source/, the rooms of browser/, commands/ and
 * sandbox/, and the two root files. A folder not listed here fails the layer
 * test, so a new folder comes with its rule.
 */
export const layers = [
	'text', 'contract', 'json', 'cells', 'config', 'http', 'http/every-account',
	...browserRooms,
	'components', 'output', 'audit',
	'sandbox/index', ...sandboxRooms,
	'commands/process', 'commands/setup', ...commandRooms,
	'app', 'cli',
] as const;

/** The layers `layer` must not import: all but itself and `allowed` (a folder allows its rooms). */
function allBut(layer: Layer, allowed: readonly Layer[]): Layer[] {
	return layers.filter(other => other !== layer && !allowed.some(folder => under(other, folder)));
}

/** What the browser's rooms stand on outside browser/: the walker and the cell model, no React, no command. */
const browserBase = ['text', 'contract', 'json', 'cells', 'config', 'http'];
const sandboxContract = {contract: ['contract/contract', 'contract/types']};

/** A command's folder: any layer but the CLI entry and the other commands (but `also`). */
function command(layer: Layer, why: string, also: Layer[] = [], allowOnly?: Rule['allowOnly']): Rule {
	return {layer, forbid: ['cli', ...commandRooms.filter(other => other !== layer && !also.includes(other))], ...(allowOnly && {allowOnly}), why};
}

export const rules: Rule[] = [
	{
		layer: 'text',
		forbid: allBut('text', ['contract']),
		allowOnly: {contract: ['contract/types']},
		why: 'what reaches a terminal or stderr (inert text, widths, wrapping, colour, redaction, the one sentence of an error, how far apart two words are) depends on nothing of ours but the contract\'s types',
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
		layer: 'http/every-account',
		forbid: allBut('http/every-account', ['text', 'contract', 'json', 'config', 'http']),
		why: 'every account\'s lists are walks of the one walker through the one client, with a journal on disk: the walker\'s layer, none of the screen or the writers',
	},
	// The browser's rooms: its pure state (no React, no command) stands on the walker and the cell model.
	// A room above another may import it; a room below imports of one above only its leaf types module.
	{
		layer: 'browser/stack',
		forbid: allBut('browser/stack', browserBase),
		why: 'the page stack is a pure reducer over pages with its steps (follow, jump, where a search lands, the rows a page shows) and its types in stack/types.ts; every other room reads it, it reads none',
	},
	{
		layer: 'browser/search',
		forbid: allBut('browser/search', [...browserBase, 'browser/stack']),
		why: 'the search across pages walks the list with the walker outside the reducer and hands the stack an outcome in the stack\'s own types; the task runner (components/) starts it',
	},
	{
		layer: 'browser/keys',
		forbid: allBut('browser/keys', [...browserBase, 'browser/stack', 'browser/actions']),
		allowOnly: {'browser/actions': ['browser/actions/effects']},
		why: 'the one keymap and the routers turn a key into actions of the stack and the screen; of actions/ only the kinds of copy and save a key asks for (effects.ts, types)',
	},
	{
		layer: 'browser/actions',
		forbid: allBut('browser/actions', [...browserBase, 'browser/keys', 'browser/stack']),
		allowOnly: {'browser/keys': ['browser/keys/keymap'], 'browser/stack': ['browser/stack/types']},
		why: 'copy and save as data (effects.ts), the clipboard\'s OSC 52 write and save paths; a sentence names its keys from the keymap; what a copy or a save came to is a kind of the status message, so its types live with the message in stack/types.ts',
	},
	{
		layer: 'browser/related',
		forbid: allBut('browser/related', [...browserBase, 'browser/stack', 'browser/state']),
		allowOnly: {'browser/state': ['browser/state/types']},
		why: 'walks inside walks, each its own page stack; of state/ only its types (the walks are part of the browser state, whose reducer opens them)',
	},
	{
		layer: 'browser/view',
		forbid: allBut('browser/view', [...browserBase, 'browser/stack', 'browser/keys', 'browser/actions', 'browser/related', 'browser/state']),
		allowOnly: {'browser/state': ['browser/state/types']},
		why: 'what the screen shows, as lines and models without React, made from the state; of state/ only its types (the reducer asks the view how long a pane is)',
	},
	{
		layer: 'browser/state',
		forbid: allBut('browser/state', [...browserBase, 'browser/stack', 'browser/keys', 'browser/actions', 'browser/related', 'browser/view']),
		why: 'the browser state and its one reducer hold every room together and declare the tasks; a search is a task it declares, never runs',
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
	// The sandbox's rooms: of ours, only the contract module it shares with the client.
	{
		layer: 'sandbox/data',
		forbid: allBut('sandbox/data', ['contract']),
		allowOnly: sandboxContract,
		why: 'the records, their ordered indexes, the windows over them and churn: the data both APIs serve, knowing nothing of a request',
	},
	{
		layer: 'sandbox/scenarios',
		forbid: allBut('sandbox/scenarios', ['contract', 'sandbox/data']),
		allowOnly: sandboxContract,
		why: 'the scenarios\' names (config reads them to check --scenario) and each one\'s faults, over the data',
	},
	{
		layer: 'sandbox/auth',
		forbid: allBut('sandbox/auth', ['contract', 'sandbox/data', 'sandbox/routes']),
		allowOnly: {...sandboxContract, 'sandbox/routes': ['sandbox/routes/query']},
		why: 'who a request is: credentials, JWT checks and CDP keys; a refused token answers with the routes\' problem (query.ts ApiProblem), nothing else of them',
	},
	{
		layer: 'sandbox/routes',
		forbid: allBut('sandbox/routes', ['contract', 'sandbox/data', 'sandbox/scenarios', 'sandbox/auth']),
		allowOnly: sandboxContract,
		why: 'the HTTP server and both APIs\' routes: read the query, check the caller and the budget, serve a window of the data',
	},
	{
		layer: 'sandbox/index',
		forbid: allBut('sandbox/index', ['contract', 'sandbox']),
		allowOnly: sandboxContract,
		why: 'the sandbox\'s entry (index.ts) starts the server over its data, keys and scenario; the sandbox and the client share the contract module, never each other',
	},
	// The commands: a folder each (gh's pkg/cmd/<command>), entries the CLI dispatches to.
	{
		layer: 'commands/process',
		forbid: allBut('commands/process', ['text', 'contract', 'config']),
		why: 'what a command holds of its process (its streams, stop signals, V8 heap flags) serves every command and the CLI entry, and knows no command',
	},
	{
		layer: 'commands/setup',
		forbid: allBut('commands/setup', ['text', 'contract', 'json', 'config', 'http', 'sandbox', 'commands/process']),
		why: 'what a command sets up before its work (the configuration opened from a profile or the demo\'s sandbox, credentials, refused flag pairs, the state folder) is shared by the commands and knows none of them',
	},
	command('commands/browse', 'browse runs the browser; with no terminal it writes the walk as dump does (runBare)', ['commands/dump']),
	command('commands/dump', 'a command is an entry the CLI dispatches to, never another command\'s part'),
	command('commands/audit', 'the audit walks as dump does; of dump only its steps (which walks go from both ends)', ['commands/dump'], {'commands/dump': ['commands/dump/dump-steps']}),
	command('commands/serve', 'a command is an entry the CLI dispatches to, never another command\'s part'),
	command('commands/token', 'a command is an entry the CLI dispatches to, never another command\'s part'),
	command('commands/profiles', 'a command is an entry the CLI dispatches to, never another command\'s part'),
	command('commands/completion', 'a command is an entry the CLI dispatches to, never another command\'s part'),
	{
		layer: 'app',
		forbid: ['commands', 'sandbox', 'audit', 'cli'],
		why: 'the app root lays out the browser\'s components; what it loads and talks to is given to it',
	},
	{
		layer: 'cli',
		forbid: ['app', 'browser', 'components', 'sandbox', 'audit', 'output', 'commands/setup'],
		why: 'the entry dispatches to the commands (and sets the V8 flags first); what a command loads is its own',
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

			const narrowed = Object.entries(rule.allowOnly ?? {}).find(([folder]) => under(to, folder));
			if (rule.forbid.some(folder => under(to, folder))) {
				found.push(`${edge.from}:${edge.line} imports ${edge.to} (${edge.kind}): ${from}/ must not import ${to === 'app' || to === 'cli' ? 'the app root' : `${to}/`}; ${rule.why}`);
			} else if (narrowed && !narrowed[1]!.includes(withoutExtension(edge.to))) {
				found.push(`${edge.from}:${edge.line} imports ${edge.to} (${edge.kind}): ${from}/ may import from ${narrowed[0]}/ only ${narrowed[1]!.map(file => `${file}.ts`).join(' and ')}; ${rule.why}`);
			}
		}
	}

	return found;
}
