import {describe, expect, it} from 'vitest';
import {
	bindings, browsingCommands, commandFor, commands, helpLines, keyLabel, keymap, keyName, modes, shownKeys, type Command, type CommandSpec, type KeyBinding,
} from '../../source/browser/keys/keymap.js';
import {modeOf, type KeyContext, type Screen} from '../../source/browser/keys/screen.js';
import {routeKey} from '../../source/browser/keys/router.js';

const context: KeyContext = {bodyRows: 10, overlayLines: 25, filter: '', hasSelection: true};
const table: Screen = {kind: 'table'};

describe('keymap', () => {
	it('binds every key of the issue, the same on the table and in overlays', () => {
		for (const [key, command] of Object.entries({
			up: 'up', k: 'up', down: 'down', j: 'down', pageup: 'page-up', pagedown: 'page-down', g: 'top', G: 'bottom',
			right: 'next', l: 'next', ']': 'next', left: 'previous', h: 'previous', '[': 'previous', 0: 'first', home: 'top', end: 'bottom',
			o: 'toggle-order', '+': 'limit-up', '=': 'limit-up', '-': 'limit-down', _: 'limit-down', L: 'limit-type', r: 'refresh',
			return: 'detail', d: 'debug', c: 'compare', '?': 'help', escape: 'close', q: 'back', Q: 'quit', 'ctrl+c': 'interrupt',
		})) {
			expect(commandFor('table', key), key).toBe(command);
			expect(commandFor('overlay', key), key).toBe(command);
		}
	});

	it('q goes back one level as Esc does, and quits only from the first list with no filter (VisiData); Q quits from anywhere', () => {
		expect(commandFor('table', 'q')).toBe('back');
		expect(commandFor('overlay', 'q')).toBe('back');
		expect(commandFor('overlay', 'Q')).toBe('quit');
		expect(routeKey(table, 'q', 'q', context)).toEqual({quit: true});
		expect(routeKey(table, 'q', 'q', {...context, filter: 'BTC'})).toEqual({stack: [{type: 'set-filter', filter: ''}]});
		expect(routeKey(table, 'escape', '', {...context, filter: 'BTC'})).toEqual({stack: [{type: 'set-filter', filter: ''}]});
		expect(routeKey(table, 'q', 'q', {...context, nested: true})).toEqual({walk: {type: 'parent'}});
		expect(routeKey(table, 'escape', '', {...context, nested: true})).toEqual({walk: {type: 'parent'}});
		// A filter inside a related list goes first.
		expect(routeKey(table, 'escape', '', {...context, nested: true, filter: 'x'})).toEqual({stack: [{type: 'set-filter', filter: ''}]});
		// Esc on the first list has nothing to go back from, and never quits.
		expect(routeKey(table, 'escape', '', context)).toEqual({});
		expect(routeKey(table, 'Q', 'Q', {...context, nested: true, filter: 'x'})).toEqual({quit: true});
		expect(routeKey({kind: 'help', scroll: 0}, 'q', 'q', context)).toEqual({screen: table});
		expect(commandFor('overlay', 'n')).toBe('detail-next');
		expect(commandFor('overlay', 'p')).toBe('detail-previous');
		expect(commandFor('table', 'n')).toBe('search-next');
	});

	it('/ filters the rows on the table, and finds text in a pane (less)', () => {
		expect(commandFor('table', '/')).toBe('filter');
		expect(commandFor('overlay', '/')).toBe('find');
		expect(commandFor('detail', '/')).toBe('find');
	});

	it('in a prompt, binds only Enter, Esc, Backspace, Tab (E\'s choice of list), Ctrl-C and Ctrl-Z; every other key is text', () => {
		expect(commandFor('prompt', 'return')).toBe('prompt-apply');
		expect(commandFor('prompt', 'escape')).toBe('prompt-cancel');
		expect(commandFor('prompt', 'backspace')).toBe('prompt-delete');
		expect(commandFor('prompt', 'tab')).toBe('export-choice');
		expect(commandFor('prompt', 'ctrl+c')).toBe('interrupt');
		expect(commandFor('prompt', 'ctrl+z')).toBe('suspend');
		expect(bindings().filter(binding => binding.mode === 'prompt')).toHaveLength(6);
		for (const key of ['q', 'j', '/', '?', 'L', '0']) {
			expect(commandFor('prompt', key), key).toBeUndefined();
		}
	});

	it('gives every command a key the help shows', () => {
		for (const command of commands) {
			expect(shownKeys(command).length, command).toBeGreaterThan(0);
		}
	});

	it('binds no key twice in the same mode', () => {
		for (const mode of modes) {
			const keys = bindings().filter(binding => binding.mode === mode).map(binding => binding.key);
			const twice = keys.filter((key, index) => keys.indexOf(key) !== index);
			expect(twice, mode).toEqual([]);
		}
	});

	it('describes every command, in the help and in the README', () => {
		for (const command of commands) {
			const spec: CommandSpec = keymap[command];
			expect(spec.description.trim(), command).not.toBe('');
			expect(spec.description, command).toBe(spec.description.trim());
			if (spec.readme !== undefined) {
				expect(spec.readme.trim(), command).not.toBe('');
			}
		}
	});

	it('is checked by the compiler: commands and key names', () => {
		// @ts-expect-error -- 'pgup' is no key name ('pageup' is).
		const typo: KeyBinding = 'pgup';
		// @ts-expect-error -- not a command of the keymap.
		const unknown: Command = 'scroll';
		expect([typo, unknown]).toHaveLength(2);
	});

	it('maps each screen to its mode', () => {
		expect(modeOf(table)).toBe('table');
		expect(modeOf({kind: 'debug', scroll: 0})).toBe('overlay');
		expect(modeOf({kind: 'help', scroll: 0})).toBe('overlay');
		expect(modeOf({kind: 'filter', draft: '', before: ''})).toBe('prompt');
		expect(modeOf({kind: 'limit', draft: ''})).toBe('prompt');
	});

	it('names keys from Ink flags', () => {
		expect(keyName('', {upArrow: true})).toBe('up');
		expect(keyName('', {pageDown: true})).toBe('pagedown');
		expect(keyName('c', {ctrl: true})).toBe('ctrl+c');
		expect(keyName('', {return: true})).toBe('return');
		expect(keyName('G', {})).toBe('G');
	});

	it('labels keys for people', () => {
		expect(keyLabel('up')).toBe('↑');
		expect(keyLabel('pagedown')).toBe('PgDn');
		expect(keyLabel('return')).toBe('Enter');
		expect(keyLabel('ctrl+c')).toBe('Ctrl-C');
		expect(keyLabel('G')).toBe('G');
		expect(shownKeys('limit-up')).toEqual(['+']);
	});

	it('generates the help from the record', () => {
		const lines = helpLines();
		// Every command of the table and overlays, a blank line, how related lists work, the picker's line and the typing line.
		expect(lines).toHaveLength(browsingCommands().length + 4);
		expect(lines.at(-3)).toBe('related    Enter on an account shows its own lists (transactions, addresses, …): ← → choose, Enter opens one as a new walk (the status line shows the way back), Backspace returns as you left it');
		// Keys padded to the widest label (Backspace), then two spaces.
		expect(lines.at(-2)).toBe('columns    in C: ↑ k previous column, ↓ j next column, Space shows or hides it, K Shift-↑ moves it up, J Shift-↓ moves it down, Enter applies, Esc q cancels, r resets, forgetting the choice');
		expect(lines[0]).toBe('↑ k        previous row (scrolls detail and debug)');
		expect(lines).toContain('o          toggle order asc/desc in place (the selected object stays; new walk)');
		expect(lines).toContain('Q          quit from anywhere');
		expect(lines).toContain('q          back one level as Esc; on the first list with no filter, quit');
		expect(lines).toContain('Esc        back one level: close the overlay, clear the filter, leave a related list');
		expect(lines).toContain('Backspace  back from a related list to the list it was opened from, as it was');
		expect(lines.at(-1)).toBe('typing     in /, L, :, w, W and E: Enter applies, Esc cancels, Backspace deletes, Tab switches what E writes (transactions, addresses)');
	});
});

describe('routing keys', () => {
	it('maps table keys to page-stack actions', () => {
		expect(routeKey(table, 'j', 'j', context)).toEqual({stack: [{type: 'move', delta: 1}]});
		expect(routeKey(table, 'pagedown', '', context)).toEqual({stack: [{type: 'move', delta: 10}]});
		expect(routeKey(table, 'right', '', context)).toEqual({stack: [{type: 'next'}]});
		expect(routeKey(table, '+', '+', context)).toEqual({stack: [{type: 'change-limit', delta: 5}]});
		expect(routeKey(table, 'q', 'q', context)).toEqual({quit: true});
		expect(routeKey(table, 'x', 'x', context)).toEqual({});
	});

	it('opens detail only with a selected object, and the same key closes it', () => {
		expect(routeKey(table, 'return', '', context)).toEqual({screen: {kind: 'detail', scroll: 0}});
		expect(routeKey(table, 'return', '', {...context, hasSelection: false})).toEqual({});
		expect(routeKey({kind: 'detail', scroll: 3}, 'return', '', context)).toEqual({screen: table});
		expect(routeKey({kind: 'detail', scroll: 3}, 'escape', '', context)).toEqual({screen: table});
		expect(routeKey({kind: 'detail', scroll: 3}, 'n', 'n', context)).toEqual({stack: [{type: 'move', delta: 1}], screen: {kind: 'detail', scroll: 0}});
		expect(routeKey({kind: 'detail', scroll: 3}, 'p', 'p', context)).toEqual({stack: [{type: 'move', delta: -1}], screen: {kind: 'detail', scroll: 0}});
		expect(routeKey({kind: 'debug', scroll: 3}, 'n', 'n', context)).toEqual({});
	});

	it('q and Esc close every overlay; q quits only from the table', () => {
		for (const kind of ['help', 'detail', 'debug', 'compare'] as const) {
			expect(routeKey({kind, scroll: 2}, 'q', 'q', context), kind).toEqual({screen: table});
			expect(routeKey({kind, scroll: 2}, 'escape', '', context), kind).toEqual({screen: table});
		}
	});

	it('scrolls overlays within their length', () => {
		const detail: Screen = {kind: 'detail', scroll: 0};
		expect(routeKey(detail, 'down', '', context)).toEqual({screen: {kind: 'detail', scroll: 1}});
		expect(routeKey(detail, 'up', '', context)).toEqual({screen: {kind: 'detail', scroll: 0}});
		expect(routeKey(detail, 'G', 'G', context)).toEqual({screen: {kind: 'detail', scroll: 15}});
		expect(routeKey({kind: 'detail', scroll: 15}, 'pagedown', '', context)).toEqual({screen: {kind: 'detail', scroll: 15}});
	});

	it('page keys in the debug panel navigate and keep it open; in detail they close it', () => {
		expect(routeKey({kind: 'debug', scroll: 0}, 'right', '', context)).toEqual({stack: [{type: 'next'}], screen: {kind: 'debug', scroll: 0}});
		expect(routeKey({kind: 'detail', scroll: 0}, 'right', '', context)).toEqual({stack: [{type: 'next'}], screen: table});
	});

	it('types a filter that applies as typed; Enter keeps it, Esc restores the old one', () => {
		let routed = routeKey(table, '/', '/', {...context, filter: 'old'});
		expect(routed.screen).toEqual({kind: 'filter', draft: 'old', before: 'old'});
		routed = routeKey(routed.screen!, 'x', 'x', context);
		expect(routed).toEqual({screen: {kind: 'filter', draft: 'oldx', before: 'old'}, stack: [{type: 'set-filter', filter: 'oldx'}]});
		expect(routeKey(routed.screen!, 'backspace', '', context).stack).toEqual([{type: 'set-filter', filter: 'old'}]);
		expect(routeKey(routed.screen!, 'escape', '', context)).toEqual({screen: table, stack: [{type: 'set-filter', filter: 'old'}]});
		expect(routeKey(routed.screen!, 'return', '', context)).toEqual({screen: table});
		// q is text while typing, not quit.
		expect(routeKey(routed.screen!, 'q', 'q', context).quit).toBeUndefined();
		// Esc on the table clears an active filter.
		expect(routeKey(table, 'escape', '', {...context, filter: 'x'})).toEqual({stack: [{type: 'set-filter', filter: ''}]});
	});

	it('types a limit: Enter applies it; anything else typed is kept as typed and refused by name, never cut to a limit it was not', () => {
		let screen = routeKey(table, 'L', 'L', context).screen!;
		screen = routeKey(screen, '5', '5', context).screen!;
		screen = routeKey(screen, '0', '0', context).screen!;
		expect(routeKey(screen, 'return', '', context)).toEqual({screen: table, stack: [{type: 'set-limit', limit: 50}]});
		// -1 was 1 before: the - was dropped unsaid.
		const minus = ['-', '1'].reduce((current, key) => routeKey(current, key, key, context).screen!, routeKey(table, 'L', 'L', context).screen!);
		expect(minus).toEqual({kind: 'limit', draft: '-1'});
		expect(routeKey(minus, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: Number.NaN, refused: {typed: '-1', why: 'not-whole'}}]);
		expect(routeKey({kind: 'limit', draft: '5a'}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: Number.NaN, refused: {typed: '5a', why: 'not-whole'}}]);
		expect(routeKey({kind: 'limit', draft: '1.5'}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: Number.NaN, refused: {typed: '1.5', why: 'not-whole'}}]);
		expect(routeKey({kind: 'limit', draft: '500'}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: Number.NaN, refused: {typed: '500', why: 'over'}}]);
		expect(routeKey({kind: 'limit', draft: ''}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: Number.NaN, refused: {typed: '', why: 'empty'}}]);
		// The contract's bounds, both in.
		expect(routeKey({kind: 'limit', draft: '100'}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: 100}]);
		expect(routeKey({kind: 'limit', draft: '0'}, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: 0}]);
	});

	it('L starts from the limit in use, to be replaced: a digit starts over, Backspace clears it, Enter keeps it', () => {
		const opened = routeKey(table, 'L', 'L', {...context, limit: 25}).screen!;
		expect(opened).toEqual({kind: 'limit', draft: '25', fresh: true});
		expect(routeKey(opened, '3', '3', context).screen).toEqual({kind: 'limit', draft: '3'});
		expect(routeKey(opened, 'backspace', '', context).screen).toEqual({kind: 'limit', draft: ''});
		expect(routeKey(opened, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: 25}]);
		const typed = routeKey(routeKey(opened, '3', '3', context).screen!, '0', '0', context).screen!;
		expect(routeKey(typed, 'return', '', context).stack).toEqual([{type: 'set-limit', limit: 30}]);
	});

	it('Home and End go to the first and last row, as g and G; 0 is the first page', () => {
		expect(routeKey(table, 'home', '', context)).toEqual({stack: [{type: 'move-to', position: 'top'}]});
		expect(routeKey(table, 'end', '', context)).toEqual({stack: [{type: 'move-to', position: 'bottom'}]});
		expect(routeKey(table, '0', '0', context)).toEqual({stack: [{type: 'first'}]});
	});

	it('the overwrite question: y or Y from the keymap says yes, any other key no', () => {
		expect(commandFor('confirm', 'y')).toBe('confirm-yes');
		expect(commandFor('confirm', 'Y')).toBe('confirm-yes');
		expect(commandFor('confirm', 'n')).toBeUndefined();
		expect(commandFor('confirm', 'ctrl+c')).toBe('interrupt');
	});

	it('Ctrl-C quits from anywhere, even while typing', () => {
		expect(routeKey({kind: 'filter', draft: '', before: ''}, 'ctrl+c', 'c', context)).toEqual({quit: true});
	});
});
