import {hanging} from '../../text/wrap.js';

/**
 * The keymap, as one typed record: every command is bound and described, or
 * the compiler says which is missing. Input handling (screen.ts) looks keys
 * up here, and the help overlay and the README's key table
 * (scripts/keymap-table.ts) are generated from it, so none can drift apart.
 * test/browser/keys.test.ts checks what types cannot: every command has a
 * key, no key means two things in one mode, no description is empty.
 */
import {contractDefaults} from '../../contract/contract.js';

/**
 * Where a key is read. `table`: the page of rows. `overlay`: help, detail,
 * debug or compare covering it. `prompt`: a line being typed (the filter
 * after `/`, a limit after `L`), where printable keys are text. `picker`:
 * the column picker (`C`), a list of the page's columns to show, hide and move.
 * `detail`: the detail view, an overlay whose own keys (choosing and opening
 * a related list) come first; any other key means what it does in `overlay`.
 * `confirm`: a yes/no question (overwrite a file?), where any other key is no.
 */
export type Mode = 'table' | 'overlay' | 'prompt' | 'picker' | 'detail' | 'confirm';

export const modes: readonly Mode[] = ['table', 'overlay', 'prompt', 'picker', 'detail', 'confirm'];

/** Where commands apply unless they say otherwise: everywhere but a prompt. */
const browsing: readonly Mode[] = ['table', 'overlay'];

export type Command =
	| 'up'
	| 'down'
	| 'page-up'
	| 'page-down'
	| 'top'
	| 'bottom'
	| 'next'
	| 'previous'
	| 'first'
	| 'toggle-order'
	| 'limit-up'
	| 'limit-down'
	| 'limit-type'
	| 'refresh'
	| 'detail'
	| 'debug'
	| 'compare'
	| 'filter'
	| 'find'
	| 'sort'
	| 'help'
	| 'close'
	| 'back'
	| 'quit'
	| 'interrupt'
	| 'suspend'
	| 'prompt-apply'
	| 'prompt-cancel'
	| 'prompt-delete'
	| 'confirm-yes'
	| 'scroll-left'
	| 'scroll-right'
	| 'columns'
	| 'wrap'
	| 'picker-up'
	| 'picker-down'
	| 'picker-toggle'
	| 'picker-move-up'
	| 'picker-move-down'
	| 'picker-apply'
	| 'picker-cancel'
	| 'picker-reset'
	| 'detail-next'
	| 'detail-previous'
	| 'related-next'
	| 'related-previous'
	| 'open-related'
	| 'parent'
	// Copy and save.
	| 'copy-id'
	| 'copy-json'
	| 'copy-curl'
	| 'save-page'
	| 'save-walk'
	| 'export-lists'
	| 'export-choice'
	// Jump and search.
	| 'jump'
	| 'search-next'
	| 'search-previous'
	| 'follow';

/** Keys with a name, as {@link keyName} reports them. */
type NamedKey =
	| 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end' | 'return' | 'escape' | 'backspace' | 'tab'
	| 'shift+left' | 'shift+right' | 'shift+up' | 'shift+down' | 'shift+tab';

type Characters<Text extends string> = Text extends `${infer First}${infer Rest}` ? First | Characters<Rest> : never;
type Letter = Characters<'abcdefghijklmnopqrstuvwxyz'>;
/** One printable ASCII character, so a typo such as 'pgup' fails to compile. */
type Printable = Letter | Uppercase<Letter> | Characters<'0123456789 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'>;

/** A key as {@link keyName} names it. */
export type KeyName = NamedKey | Printable | `ctrl+${Letter}`;

/**
 * A key of a command: its name, or the name with options. `hidden` keeps a
 * spare spelling out of the help (`=` is `+` without Shift); `modes` widens
 * or narrows where this one key applies (Ctrl-C quits even while typing).
 */
export type KeyBinding = KeyName | {key: KeyName; hidden?: true; modes?: readonly Mode[]};

export type CommandSpec = {
	keys: readonly KeyBinding[];
	/** One line of the help overlay. */
	description: string;
	/** Where the command applies; everywhere but a prompt when not given. */
	modes?: readonly Mode[];
	/** Fuller wording for the README's key table, where there is room; the description otherwise. */
	readme?: string;
};

/** In the order the help overlay and the README list them. */
export const keymap: Readonly<Record<Command, CommandSpec>> = {
	up: {keys: ['up', 'k'], description: 'previous row (scrolls detail and debug)'},
	down: {keys: ['down', 'j'], description: 'next row (scrolls detail and debug)'},
	'page-up': {keys: ['pageup'], description: 'one screen of rows up'},
	'page-down': {keys: ['pagedown'], description: 'one screen of rows down'},
	top: {keys: ['g', 'home'], description: 'first row of the page'},
	bottom: {keys: ['G', 'end'], description: 'last row of the page'},
	next: {keys: ['right', 'l', ']'], description: 'next page (follows next_uri)', readme: 'next page (follows `next_uri`; prefetched)'},
	previous: {
		keys: ['left', 'h', '['],
		description: 'previous page (cached; previous_uri at the bottom)',
		readme: 'previous page (cached; at the bottom of the stack, `previous_uri`)',
	},
	first: {keys: ['0'], description: 'first page'},
	'toggle-order': {
		keys: ['o'],
		description: 'toggle order asc/desc in place (the selected object stays; new walk)',
		readme: 'toggle `asc`/`desc` in place: a new walk in the other order that starts at the selected object, which stays selected (`o` twice comes back to it; `0` then goes to the first page)',
	},
	'limit-up': {keys: ['+', {key: '=', hidden: true}], description: 'limit +5 (new walk)'},
	'limit-down': {keys: ['-', {key: '_', hidden: true}], description: 'limit -5 (new walk)'},
	'limit-type': {keys: ['L'], description: `type a limit ${contractDefaults.minimumLimit}–${contractDefaults.maximumLimit} (new walk)`},
	refresh: {keys: ['r'], description: 'refresh the page, or retry after an error', readme: 'refresh (says whether the page changed), or retry after an error'},
	detail: {keys: ['return'], description: 'selected object as JSON', readme: 'the selected object as pretty JSON, scrollable'},
	debug: {
		keys: ['d'],
		description: 'request, response, raw pagination and cursor evidence',
		readme: 'debug: request URL and headers (credentials redacted), status, timing, retries, size, warnings, raw `pagination`, cursor evidence',
	},
	compare: {
		keys: ['c'],
		description: 'which ids each credential sees on this page (--compare-env)',
		readme: 'compare: which ids of this page each credential sees (`--compare-env NAME`; with `--demo`, the sandbox\'s other credential)',
	},
	filter: {keys: ['/'], description: 'filter the rows of the page', modes: ['table'], readme: 'filter the rows of the page (`Esc` clears)'},
	sort: {
		keys: ['s'],
		description: 'sort this page\'s rows by the leftmost column shown (< > choose it): ▲, ▼, server order',
		modes: ['table'],
		readme: 'sort the rows on screen by the leftmost column after the id (`<` `>` scroll to the one wanted): `s` once ascending ▲, again descending ▼, a third time back to the server\'s order; numbers as numbers; every page shown is sorted the same way, the walk itself stays in the server\'s order (said in the status line)',
	},
	find: {
		keys: ['/'],
		description: 'in a pane: find text (Enter goes to it; / Enter again: the next)',
		modes: ['overlay'],
		readme: 'in detail, debug, help or compare: find text, as in less (Enter scrolls to the next line holding it, from the top line on, wrapping around; `/` `Enter` again finds the next)',
	},
	help: {keys: ['?'], description: 'this help', readme: 'help, generated from the same keymap that handles input'},
	// Back and quit as in less and VisiData: Esc and q go back one level, q
	// quits only where there is nothing left to go back from, Q quits from
	// anywhere, and Ctrl-C first stops a search that runs.
	close: {
		keys: ['escape'],
		description: 'back one level: close the overlay, clear the filter, leave a related list',
		readme: 'back one level: close the overlay, clear the filter, then leave a related list for the list it was opened from; stops a search',
	},
	back: {
		keys: ['q'],
		description: 'back one level as Esc; on the first list with no filter, quit',
		readme: 'back one level as `Esc` does; on the list pagewalk opened with, no filter applied, quit (as VisiData\'s `q`)',
	},
	quit: {keys: ['Q'], description: 'quit from anywhere', readme: 'quit from anywhere, restoring the terminal'},
	interrupt: {keys: ['ctrl+c'], description: 'stop a search or an export that runs, else quit (even while typing)', modes, readme: 'stop a search (as in less) or an export (`E`) that runs, else quit, even while typing'},
	suspend: {
		keys: ['ctrl+z'],
		description: 'suspend to the shell; fg brings it back (even while typing)',
		modes,
		readme: 'suspend to the shell, the terminal given back as it was (as in less and vim); `fg` brings the browser back where it was, redrawn; even while typing',
	},
	'prompt-apply': {keys: ['return'], description: 'applies', modes: ['prompt']},
	'prompt-cancel': {keys: ['escape'], description: 'cancels', modes: ['prompt']},
	'prompt-delete': {keys: ['backspace'], description: 'deletes', modes: ['prompt']},
	'confirm-yes': {keys: ['y', 'Y'], description: 'yes (any other key is no)', modes: ['confirm']},
	// Columns and wide text. `z`, not `w`: w is kept for saving.
	'scroll-left': {
		keys: ['<', {key: 'shift+left', hidden: true}],
		description: 'columns left, id stays (also Shift-←); pane text left when wrap is off',
		readme: 'scroll the table\'s columns left (also `Shift-←`), the `id` column pinned; in a pane with wrapping off, scroll the text left',
	},
	'scroll-right': {
		keys: ['>', {key: 'shift+right', hidden: true}],
		description: 'columns right, id stays (also Shift-→); pane text right when wrap is off',
		readme: 'scroll the table\'s columns right (also `Shift-→`; the status line says which are shown: `cols 4–9 of 22`); in a pane with wrapping off, scroll the text right',
	},
	columns: {
		keys: ['C'],
		description: 'pick columns: show, hide, reorder (remembered per endpoint)',
		readme: 'column picker: show, hide and reorder the page\'s columns; remembered per endpoint (also `--columns a,b,c`)',
	},
	wrap: {keys: ['z'], description: 'wrap long lines in panes on/off (off: < > scroll sideways)', readme: 'wrap long lines in detail, debug, help and compare on/off (on by default; off: `<` `>` scroll sideways)'},
	'picker-up': {keys: ['up', 'k'], description: 'previous column', modes: ['picker']},
	'picker-down': {keys: ['down', 'j'], description: 'next column', modes: ['picker']},
	'picker-toggle': {keys: [' '], description: 'shows or hides it', modes: ['picker']},
	'picker-move-up': {keys: ['K', 'shift+up'], description: 'moves it up', modes: ['picker']},
	'picker-move-down': {keys: ['J', 'shift+down'], description: 'moves it down', modes: ['picker']},
	'picker-apply': {keys: ['return'], description: 'applies', modes: ['picker']},
	'picker-cancel': {keys: ['escape', 'q'], description: 'cancels', modes: ['picker']},
	'picker-reset': {keys: ['r'], description: 'resets, forgetting the choice', modes: ['picker']},
	'detail-next': {keys: ['n'], description: 'in detail: the next object', modes: ['overlay']},
	'detail-previous': {keys: ['p'], description: 'in detail: the previous object', modes: ['overlay']},
	// Related lists: an object's own lists (an account's transactions,
	// addresses, ...), listed at the top of its detail view, each opened as a
	// new walk; Backspace goes back. In detail, ← → choose among them instead
	// of paging (they page as before where an object has none).
	'related-next': {
		keys: ['right', 'l', 'tab'],
		description: 'in detail: the next related list (an object without any: next page)',
		modes: ['detail'],
		readme: 'in detail: choose the next of the object\'s related lists listed at its top (an account\'s `transactions`, `addresses`, …); where there are none, the next page as before',
	},
	'related-previous': {
		keys: ['left', 'h', {key: 'shift+tab', hidden: true}],
		description: 'in detail: the previous related list (none: previous page)',
		modes: ['detail'],
		readme: 'in detail: choose the previous related list; where there are none, the previous page as before',
	},
	'open-related': {
		keys: ['return'],
		description: 'in detail: open the chosen related list as a new walk (own pages, order, limit)',
		modes: ['detail'],
		readme: 'in detail: open the chosen related list as a new walk with its own pages, order and limit; the status line shows the way back (`accounts › BTC Wallet › transactions`)',
	},
	parent: {
		keys: ['backspace'],
		description: 'back from a related list to the list it was opened from, as it was',
		readme: 'back from a related list to the list it was opened from, on the same page and row, with the same filter and columns',
	},
	// Copy and save: the clipboard through OSC 52 (browser/actions/effects.ts); files through the command's callback.
	'copy-id': {
		keys: ['y'],
		description: 'copy the selected object\'s id (OSC 52)',
		readme: 'copy the selected object\'s id to the clipboard (OSC 52: the terminal must allow it; under tmux, `set-clipboard on`)',
	},
	'copy-json': {keys: ['Y'], description: 'copy the selected object\'s JSON as the server wrote it', readme: 'copy the selected object\'s JSON, exactly as the server wrote it'},
	'copy-curl': {
		keys: ['u'],
		description: 'copy the page\'s request as a curl command (credential as $VARIABLE)',
		readme: 'copy the request of the page on screen as a `curl` command; the credential appears only as its environment variable (`$COINBASE_ACCESS_TOKEN`), a CDP key as `$JWT` with the `uri` to sign',
	},
	'save-page': {keys: ['w'], description: 'write the page to a file as NDJSON, as dump does', readme: 'write the page on screen to a file as NDJSON, byte for byte what `dump` writes (asks for the name; never overwrites unasked)'},
	'save-walk': {keys: ['W'], description: 'write every page walked so far to a file as NDJSON', readme: 'write the walk so far, every page from the first to the one on screen, to a file as NDJSON (pages evicted from memory are fetched again)'},
	// Every account's lists to a file (browser/actions/effects.ts ExportJob), the walk of `pagewalk dump transactions --all -o FILE`.
	'export-lists': {
		keys: ['E'],
		description: 'on the accounts list: every account\'s transactions (or addresses) to a file',
		modes: ['table'],
		readme: 'on the account API\'s accounts list: write every account\'s transactions (`Tab` in the prompt: addresses) to a file, byte for byte what `dump transactions --all -o FILE` writes; progress in the status line while you browse on, `Ctrl-C` stops it resumably (never overwrites unasked)',
	},
	'export-choice': {keys: ['tab'], description: 'switches what E writes (transactions, addresses)', modes: ['prompt']},
	// Jump to a cursor and search across pages.
	jump: {
		keys: [':'],
		description: 'jump: id starts a new walk after that object, <id before it',
		modes: ['table'],
		readme: 'jump to a cursor: type an id for a new walk after that object (`starting_after`), `<id` before it (`ending_before`); same order and limit',
	},
	'search-next': {
		keys: ['n'],
		description: 'next page with a row matching the filter (walks; Esc stops)',
		modes: ['table'],
		readme: 'search on: the next page holding a row that matches the `/` filter, walking as far as needed (progress in the status line; `Esc` stops on the page reached; at most `--max-pages`, else 1,000 pages a search)',
	},
	follow: {
		keys: ['F'],
		description: 'follow the newest end: new objects appear as they arrive (any key stops)',
		modes: ['table'],
		readme: 'follow the newest end, as `less +F`: in `desc` the first page, in `asc` the page on screen, asked every few seconds for what is past its end (`ending_before` the first object, `starting_after` the last), within the rate limit and pausing longer after a failure; new objects are marked `+` and counted (`following · 3 new`); any key stops',
	},
	'search-previous': {
		keys: ['N'],
		description: 'previous page with a row matching the filter',
		modes: ['table'],
		readme: 'search back: the previous page holding a matching row (down the stack, then `previous_uri`)',
	},
};

export const commands = Object.keys(keymap) as Command[];

export function bindingKey(binding: KeyBinding): KeyName {
	return typeof binding === 'string' ? binding : binding.key;
}

function bindingModes(command: Command, binding: KeyBinding): readonly Mode[] {
	return (typeof binding === 'string' ? undefined : binding.modes) ?? keymap[command].modes ?? browsing;
}

/** Each mode's keys, each with its one command. */
const byMode = new Map<Mode, Map<string, Command>>(modes.map(mode => [mode, new Map()]));
for (const command of commands) {
	for (const binding of keymap[command].keys) {
		for (const mode of bindingModes(command, binding)) {
			byMode.get(mode)!.set(bindingKey(binding), command);
		}
	}
}

/** The command a key means in a mode, if any (in a prompt, other keys are text; in detail, the overlay's unless detail has its own). */
export function commandFor(mode: Mode, name: string): Command | undefined {
	return byMode.get(mode)!.get(name) ?? (mode === 'detail' ? byMode.get('overlay')!.get(name) : undefined);
}

/** Every (mode, key, command) the keymap binds, duplicates included: what the tests check. */
export function bindings(): Array<{mode: Mode; key: KeyName; command: Command}> {
	return commands.flatMap(command => keymap[command].keys.flatMap(binding =>
		bindingModes(command, binding).map(mode => ({mode, key: bindingKey(binding), command}))));
}

const namedLabels: Record<NamedKey, string> = {
	up: '↑',
	down: '↓',
	left: '←',
	right: '→',
	pageup: 'PgUp',
	pagedown: 'PgDn',
	home: 'Home',
	end: 'End',
	return: 'Enter',
	escape: 'Esc',
	backspace: 'Backspace',
	tab: 'Tab',
	'shift+left': 'Shift-←',
	'shift+right': 'Shift-→',
	'shift+up': 'Shift-↑',
	'shift+down': 'Shift-↓',
	'shift+tab': 'Shift-Tab',
};

/** How help and the README write a key: ↑, PgUp, Enter, Ctrl-C. */
export function keyLabel(key: KeyName): string {
	if (key in namedLabels) {
		return namedLabels[key as NamedKey];
	}

	if (key === ' ') {
		return 'Space';
	}

	return key.startsWith('ctrl+') && key.length > 5 ? `Ctrl-${key.slice(5).toUpperCase()}` : key;
}

/** The keys of a command as the help shows them (spare spellings left out). */
export function shownKeys(command: Command): string[] {
	return keymap[command].keys.filter(binding => typeof binding === 'string' || !binding.hidden).map(binding => keyLabel(bindingKey(binding)));
}

/** The first key shown for a command: the one a sentence names (`Esc goes back`). */
export function firstKey(command: Command): string {
	return shownKeys(command)[0]!;
}

/**
 * A hint line from the record: each item's commands by their first shown key,
 * then its word (`? help · ← → pages`), so a hint never names a key that
 * does something else.
 */
export function hintLine(items: ReadonlyArray<readonly [Command | readonly Command[], string]>): string {
	return items.map(([named, word]) => {
		const keys = (typeof named === 'string' ? [named] : named).map(command => firstKey(command));
		return `${keys.join(' ')} ${word}`;
	}).join(' · ');
}

/** The status line's hint when nothing else is to say, item by item (status-model.ts fits it to the width, `Q quit` kept). */
export const tableHintItems: ReadonlyArray<readonly [Command | readonly Command[], string]> = [['help', 'help'], [['previous', 'next'], 'pages'], ['detail', 'detail'], ['debug', 'debug'], ['close', 'back'], ['quit', 'quit']];

/** A pane's title ends with how it closes. */
export function paneHint(): string {
	return `${firstKey('back')} or ${firstKey('close')} closes`;
}

/** The column picker's title: its keys. */
export function pickerHint(): string {
	return hintLine([['picker-toggle', 'shows/hides'], [['picker-move-down', 'picker-move-up'], 'move'], ['picker-apply', 'applies'], ['picker-cancel', 'cancels'], ['picker-reset', 'defaults']]);
}

/** Commands that apply on the table or in an overlay (detail included): the lines of the help. */
export function browsingCommands(): Command[] {
	return commands.filter(command => (keymap[command].modes ?? browsing).some(mode => mode === 'table' || mode === 'overlay' || mode === 'detail'));
}

/** Commands of the column picker only: one line of the help. */
export function pickerCommands(): Command[] {
	return commands.filter(command => (keymap[command].modes ?? browsing).every(mode => mode === 'picker'));
}

/** The sentence on the column picker, shared by the help and the README: "in C: ↑ k previous column, ...". */
export function pickerLine(): string {
	const keys = pickerCommands().map(command => `${shownKeys(command).join(' ')} ${keymap[command].description}`);
	return `in ${shownKeys('columns').join(' ')}: ${keys.join(', ')}`;
}

/** Commands that apply in a prompt only: the keys of typing. */
export function promptCommands(): Command[] {
	return commands.filter(command => (keymap[command].modes ?? browsing).every(mode => mode === 'prompt'));
}

/** The commands that open a line to type in (the filter, a limit, a cursor, a file name). */
export const promptOpeners = ['filter', 'limit-type', 'jump', 'save-page', 'save-walk', 'export-lists'] as const satisfies readonly Command[];

export type PromptOpener = (typeof promptOpeners)[number];

/**
 * Advice to type something, said on the message line once the prompt it
 * belongs to has closed: it names the key that opens that prompt again, so
 * the advice never sends the typing to the table's keys.
 */
export function typeAgain(opener: PromptOpener, what: string): string {
	return `press ${firstKey(opener)} and type ${what}`;
}

/** The sentence on typing, shared by the help and the README: "in /, L, :, w and W: Enter applies, ...". */
export function typingLine(): string {
	const keys = promptCommands().map(command => `${shownKeys(command).join(' ')} ${keymap[command].description}`);
	const prompts = promptOpeners.map(command => shownKeys(command).join(' '));
	return `in ${prompts.slice(0, -1).join(', ')} and ${prompts.at(-1)!}: ${keys.join(', ')}`;
}

/** The subset of Ink's `Key` that names a key. */
export type KeyFlags = {
	upArrow?: boolean;
	downArrow?: boolean;
	leftArrow?: boolean;
	rightArrow?: boolean;
	pageUp?: boolean;
	pageDown?: boolean;
	home?: boolean;
	end?: boolean;
	return?: boolean;
	escape?: boolean;
	ctrl?: boolean;
	backspace?: boolean;
	delete?: boolean;
	tab?: boolean;
	shift?: boolean;
	/** Alt (ESC then a key), as Ink reads it; a plain Esc sets it too. */
	meta?: boolean;
};

/** One name for a key press, whatever the terminal sent for it. */
export function keyName(input: string, key: KeyFlags): string {
	if (key.upArrow) return key.shift ? 'shift+up' : 'up';
	if (key.downArrow) return key.shift ? 'shift+down' : 'down';
	if (key.leftArrow) return key.shift ? 'shift+left' : 'left';
	if (key.rightArrow) return key.shift ? 'shift+right' : 'right';
	if (key.pageUp) return 'pageup';
	if (key.pageDown) return 'pagedown';
	if (key.home) return 'home';
	if (key.end) return 'end';
	if (key.return) return 'return';
	if (key.escape) return 'escape';
	if (key.backspace || key.delete) return 'backspace';
	if (key.tab) return key.shift ? 'shift+tab' : 'tab';
	if (key.ctrl) return `ctrl+${input}`;
	return input;
}

/** How related lists work, for the help: the keys come from the record. */
export function relatedLine(): string {
	const key = firstKey;
	return `${key('detail')} on an account shows its own lists (transactions, addresses, …): ${key('related-previous')} ${key('related-next')} choose, ${key('open-related')} opens one as a new walk (the status line shows the way back), ${key('parent')} returns as you left it`;
}

let help: string[] | undefined;

/** Help overlay lines, straight from the record (made once); a long one wraps under the descriptions, not at column 0. */
export function helpLines(): string[] {
	if (help === undefined) {
		const rows = browsingCommands().map(command => [shownKeys(command).join(' '), keymap[command].description] as const);
		const width = Math.max(...rows.map(([label]) => label.length));
		help = hanging([
			...rows.map(([label, description]) => `${label.padEnd(width)}  ${description}`),
			'',
			`${'related'.padEnd(width)}  ${relatedLine()}`,
			`${'columns'.padEnd(width)}  ${pickerLine()}`,
			`${'typing'.padEnd(width)}  ${typingLine()}`,
		], width + 2);
	}

	return help;
}
