/**
 * The one table of keys. Input handling looks keys up here and the help
 * overlay is generated from it, so the two cannot drift apart.
 */

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
	| 'help'
	| 'close'
	| 'quit';

export type Binding = {
	command: Command;
	/** Key names as produced by {@link keyName}. */
	keys: string[];
	/** How the help overlay writes the keys. */
	label: string;
	description: string;
};

export const keymap: readonly Binding[] = [
	{command: 'up', keys: ['up', 'k'], label: '↑ k', description: 'previous row (scrolls detail and debug)'},
	{command: 'down', keys: ['down', 'j'], label: '↓ j', description: 'next row (scrolls detail and debug)'},
	{command: 'page-up', keys: ['pageup'], label: 'PgUp', description: 'one screen of rows up'},
	{command: 'page-down', keys: ['pagedown'], label: 'PgDn', description: 'one screen of rows down'},
	{command: 'top', keys: ['g'], label: 'g', description: 'first row of the page'},
	{command: 'bottom', keys: ['G'], label: 'G', description: 'last row of the page'},
	{command: 'next', keys: ['right', 'l', ']'], label: '→ l ]', description: 'next page (follows next_uri)'},
	{command: 'previous', keys: ['left', 'h', '['], label: '← h [', description: 'previous page (cached; previous_uri at the bottom)'},
	{command: 'first', keys: ['0', 'home'], label: '0 Home', description: 'first page'},
	{command: 'toggle-order', keys: ['o'], label: 'o', description: 'toggle order asc/desc (new walk)'},
	{command: 'limit-up', keys: ['+', '='], label: '+', description: 'limit +5 (new walk)'},
	{command: 'limit-down', keys: ['-', '_'], label: '-', description: 'limit -5 (new walk)'},
	{command: 'limit-type', keys: ['L'], label: 'L', description: 'type a limit 0–100 (new walk)'},
	{command: 'refresh', keys: ['r'], label: 'r', description: 'refresh the page, or retry after an error'},
	{command: 'detail', keys: ['return'], label: 'Enter', description: 'selected object as JSON'},
	{command: 'debug', keys: ['d'], label: 'd', description: 'request, response, raw pagination and cursor evidence'},
	{command: 'compare', keys: ['c'], label: 'c', description: 'which ids each credential sees on this page (--compare-env)'},
	{command: 'filter', keys: ['/'], label: '/', description: 'filter the rows of the page'},
	{command: 'help', keys: ['?'], label: '?', description: 'this help'},
	{command: 'close', keys: ['escape'], label: 'Esc', description: 'close the overlay, or clear the filter'},
	{command: 'quit', keys: ['q', 'ctrl+c'], label: 'q Ctrl-C', description: 'quit'},
];

const byKey = new Map<string, Command>(keymap.flatMap(binding => binding.keys.map(key => [key, binding.command] as const)));

export function commandFor(name: string): Command | undefined {
	return byKey.get(name);
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
};

/** One name for a key press, whatever the terminal sent for it. */
export function keyName(input: string, key: KeyFlags): string {
	if (key.upArrow) return 'up';
	if (key.downArrow) return 'down';
	if (key.leftArrow) return 'left';
	if (key.rightArrow) return 'right';
	if (key.pageUp) return 'pageup';
	if (key.pageDown) return 'pagedown';
	if (key.home) return 'home';
	if (key.end) return 'end';
	if (key.return) return 'return';
	if (key.escape) return 'escape';
	if (key.backspace || key.delete) return 'backspace';
	if (key.tab) return 'tab';
	if (key.ctrl) return `ctrl+${input}`;
	return input;
}

/** Help overlay lines, straight from the table. */
export function helpLines(): string[] {
	const width = Math.max(...keymap.map(binding => binding.label.length));
	return [
		...keymap.map(binding => `${binding.label.padEnd(width)}  ${binding.description}`),
		'',
		`${'typing'.padEnd(width)}  in / and L: Enter applies, Esc cancels, Backspace deletes`,
	];
}
