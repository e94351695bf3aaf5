import {describe, expect, it, vi} from 'vitest';
import {browserReducer, startState} from '../../source/browser/state/browser-state.js';
import type {BrowserAction} from '../../source/browser/state/browser-state.js';
import {commandFor, modes} from '../../source/browser/keys/keymap.js';
import {giveBackSequence, takeSequence} from '../../source/commands/browse/terminal-screen.js';
import {sandboxBrowser} from './support/sandbox-browser.js';
import {makePage, url} from './pages.js';
import type {BrowserState} from '../../source/browser/state/types.js';

/**
 * Ctrl-Z (the byte 0x1a in raw mode): the reducer counts it and does nothing
 * else, in every mode; the app hands each one to the command's suspend, which
 * gives the terminal back and stops (commands/browse/terminal-screen.ts; the real
 * stop and `fg` are in test/e2e/suspend.test.ts).
 */

const settings = {order: 'desc' as const, limit: 3};
const page1 = {url: url(), ids: ['a', 'b', 'c'], next: url('c')};
const ctrlZ: BrowserAction = {type: 'key', input: 'z', key: {ctrl: true}, bodyRows: 10};

function key(input: string, flags: {return?: boolean} = {}): BrowserAction {
	return {type: 'key', input, key: flags, bodyRows: 10};
}

function keysOn(state: BrowserState, ...presses: BrowserAction[]): BrowserState {
	return presses.reduce(browserReducer, state);
}

/** The state with one more Ctrl-Z counted and nothing else changed. */
function expectSuspendedOnly(before: BrowserState): void {
	const after = browserReducer(before, ctrlZ);
	expect(after).toEqual({...before, suspends: before.suspends + 1});
}

const onPage1 = () => startState({startUrl: page1.url, settings, firstPage: makePage(page1)});

describe('Ctrl-Z in the reducer', () => {
	it('is the suspend command in every mode', () => {
		for (const mode of modes) {
			expect(commandFor(mode, 'ctrl+z'), mode).toBe('suspend');
		}
	});

	it('counts each press and changes nothing else: on the table, in a pane, in a prompt (nothing typed), with a note shown', () => {
		const table = onPage1();
		expectSuspendedOnly(table);
		expect(keysOn(table, ctrlZ, ctrlZ).suspends).toBe(2);
		expectSuspendedOnly(keysOn(table, key('?')));
		const filter = keysOn(table, key('/'), key('a'));
		expect(filter.screen).toMatchObject({kind: 'filter', draft: 'a'});
		expectSuspendedOnly(filter);
		expectSuspendedOnly(keysOn(table, key('L')));
		expectSuspendedOnly({...table, stack: {...table.stack, notice: {kind: 'cannot', what: 'curl'}}});
	});

	it('neither stops a running search nor following: both go on after fg', () => {
		const searching = keysOn(onPage1(), key('/'), key('z'), key('', {return: true}), key('n'));
		expect(searching.tasks.search).not.toBeNull();
		expectSuspendedOnly(searching);
		const following = keysOn(onPage1(), key('F'));
		expect(following.stack.follow).not.toBeNull();
		expectSuspendedOnly(following);
	});
});

describe('Ctrl-Z in the app', () => {
	const fixture = sandboxBrowser({size: {columns: 100, rows: 16}});

	it('calls suspend once a press, in order with the keys of the same read', async () => {
		const suspend = vi.fn();
		const app = await fixture.browse({appProps: () => ({suspend})});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j\u001Aj');
		await app.waitFor(f => f.includes('row 3/'));
		await vi.waitFor(() => {
			expect(suspend).toHaveBeenCalledTimes(1);
		});
		await app.press('/', 'ab\u001Ac');
		await app.waitFor(f => f.includes('abc'));
		await vi.waitFor(() => {
			expect(suspend).toHaveBeenCalledTimes(2);
		});
	});
});

describe('the terminal given back and taken again', () => {
	/** The private modes a sequence sets (`h`) or resets (`l`), in order. */
	function modesOf(sequence: string): string[] {
		// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
		return [...sequence.matchAll(/\u001B\[\?(\d+)([hl])/g)].map(([, mode, set]) => `${mode}${set}`);
	}

	it('gives back every mode taking it turned on, in the reverse order, with and without the mouse', () => {
		for (const mouse of [true, false]) {
			const taken = modesOf(takeSequence(mouse));
			const given = modesOf(giveBackSequence(mouse));
			const opposite = (mode: string) => mode.slice(0, -1) + (mode.endsWith('h') ? 'l' : 'h');
			expect(given).toEqual(taken.map(mode => opposite(mode)).reverse());
			expect(taken).toEqual(mouse ? ['1049h', '25l', '2004h', '1000h', '1006h'] : ['1049h', '25l', '2004h']);
		}
	});
});
