/**
 * E, the export of every account's lists, as the browser state has it
 * (pure): the key on the accounts list to a prompt and a task, the key
 * elsewhere to a sentence, Ctrl-C to the task asked to stop (the browser
 * stays), the figures to the status line at every width, and each way it
 * can end to its message, its question or the debug view's log.
 */
import {describe, expect, it} from 'vitest';
import {browserReducer, startState, type BrowserAction} from '../../source/browser/state/browser-state.js';
import type {KeyFlags} from '../../source/browser/keys/keymap.js';
import {taskKey, wantedTasks, type Task} from '../../source/browser/state/tasks.js';
import type {BrowserState} from '../../source/browser/state/types.js';
import {overlayLines} from '../../source/browser/view/pane-lines.js';
import {promptLine} from '../../source/browser/view/prompt-line.js';
import {flash} from '../../source/browser/view/status-model.js';
import {tableScreen} from '../../source/browser/view/table-screen.js';
import type {ExportResult} from '../../source/browser/actions/save-path.js';
import type {ListsState} from '../../source/text/lists-progress.js';
import type {ListObject} from '../../source/contract/types.js';
import {makePage} from './pages.js';

const origin = 'http://x.test';
const startUrl = `${origin}/v2/accounts?limit=3`;
const account = (id: string): ListObject => ({id, name: `${id} Wallet`, resource: 'account', resource_path: `/v2/accounts/${id}`});
const accounts = makePage({url: startUrl, objects: [account('a1'), account('a2'), account('a3')], next: null});

const flags: Record<string, KeyFlags> = {return: {return: true}, escape: {escape: true}, tab: {tab: true}, backspace: {backspace: true}, 'ctrl+c': {ctrl: true}};

function press(state: BrowserState, ...keys: string[]): BrowserState {
	return keys.reduce((current, key) => browserReducer(current, {type: 'key', input: key === 'ctrl+c' ? 'c' : flags[key] ? '' : key, key: flags[key] ?? {}, bodyRows: 10, columns: 100} satisfies BrowserAction), state);
}

function start(endpoint = '/v2/accounts', api: 'account' | 'commerce' = 'account'): BrowserState {
	const url = `${origin}${endpoint}?limit=3`;
	return startState({startUrl: url, settings: {order: 'desc', limit: 3}, firstPage: makePage({url, objects: accounts.objects, next: null, api}), endpoint, api, compareLabels: null});
}

const exportTask = (state: BrowserState) => wantedTasks(state).find((task): task is Extract<Task, {kind: 'export'}> => task.kind === 'export');
const message = (state: BrowserState) => (state.stack.notice ? flash(state.stack.notice) : undefined);
const figures: ListsState = {done: 2, total: 6, known: 6, objects: 1234, requests: 812, budget: {remaining: 80, limit: 100}};

/** The export started from the accounts list, the name offered taken. */
const exporting = () => press(start(), 'E', 'return');

function answered(state: BrowserState, result: ExportResult): BrowserState {
	const task = exportTask(state)!;
	return browserReducer(state, {type: 'exported', id: task.id, job: task.job, result});
}

function progressed(state: BrowserState, since = 1_000_000): BrowserState {
	return browserReducer(state, {type: 'export-progress', id: exportTask(state)!.id, progress: {figures, since, doneBefore: 0}});
}

/** The status area's message line at `columns`, the frame's time `now`. */
const messageAt = (state: BrowserState, columns: number, now = 1_030_000) => {
	const {message} = tableScreen(state, {size: {columns, rows: 24}, api: 'account', endpoint: '/v2/accounts', spinner: '⠋', now}).status;
	return 'text' in message ? message.text : message.lines.join('\n');
};

describe('E opens the export of every account\'s lists, from the accounts list only', () => {
	it('a prompt offering transactions.ndjson; Tab switches to addresses and back, the name offered with it; Esc writes nothing', () => {
		let state = press(start(), 'E');
		expect(state.screen).toEqual({kind: 'export', draft: '', each: 'transactions', suggested: 'transactions.ndjson'});
		expect(promptLine(state)).toBe('export transactions (Tab: addresses) to file: (Enter: transactions.ndjson) ');
		state = press(state, 'tab');
		expect(state.screen).toMatchObject({each: 'addresses', suggested: 'addresses.ndjson'});
		state = press(state, 'x', 'tab');
		expect(state.screen).toMatchObject({each: 'transactions', draft: 'x'});
		state = press(state, 'escape');
		expect(state.screen.kind).toBe('table');
		expect(exportTask(state)).toBeUndefined();
	});

	it('Enter asks for one task: the list, the name (offered or typed), a new file', () => {
		expect(exportTask(exporting())).toMatchObject({kind: 'export', job: {each: 'transactions', name: 'transactions.ndjson', mode: 'new'}, stop: false});
		expect(exportTask(press(start(), 'E', 'tab', ...'a.nd', 'return'))).toMatchObject({job: {each: 'addresses', name: 'a.nd', mode: 'new'}});
	});

	it('off the accounts list (commerce, another account list, a related list) E says where it works, and asks nothing', () => {
		for (const state of [start('/checkouts', 'commerce'), start('/v2/accounts/a1/transactions')]) {
			const after = press(state, 'E');
			expect(after.screen.kind).toBe('table');
			expect(exportTask(after)).toBeUndefined();
			expect(message(after)).toEqual({level: 'warn', text: 'E exports every account\'s lists from the account API\'s accounts list (/v2/accounts), which this list is not.'});
		}

		// A related list opened from the accounts list: Enter on an account, Enter on its first list.
		const related = press(start(), 'return', 'return');
		expect(related.walks.parents).toHaveLength(1);
		expect(message(press(related, 'E'))?.text).toContain('which this list is not');
	});

	it('opening a related list and coming back leaves the export running (its task is not the walk\'s)', () => {
		const running = exporting();
		const task = exportTask(running)!;
		const related = press(running, 'return', 'return');
		expect(related.walks.parents).toHaveLength(1);
		expect(exportTask(related)).toEqual(task);
		expect(exportTask(press(related, 'backspace'))).toEqual(task);
	});

	it('one at a time: E while one runs says so; the browser keeps walking meanwhile', () => {
		const state = press(exporting(), 'E');
		expect(state.screen.kind).toBe('table');
		expect(message(state)).toEqual({level: 'warn', text: 'An export is running (Ctrl-C stops it); press E again once it is done.'});
		expect(wantedTasks(state).filter(task => task.kind === 'export')).toHaveLength(1);
		expect(press(state, 'j').stack.entries[0]!.selected).toBe(1);
	});
});

describe('Ctrl-C stops the export, not the browser', () => {
	it('the task is asked to stop (a new wish about the same run), the browser stays; without an export Ctrl-C quits', () => {
		const running = exporting();
		const task = exportTask(running)!;
		const stopping = press(running, 'ctrl+c');
		expect(stopping.quit).toBe(false);
		expect(exportTask(stopping)).toMatchObject({id: task.id, stop: true});
		expect(taskKey(exportTask(stopping)!)).toBe(`${task.id}!`);
		// Again while it stops: nothing more (it answers soon).
		expect(press(stopping, 'ctrl+c')).toBe(stopping);
		// From a prompt too: the line typed stays.
		const typing = press(running, '/', 'a', 'ctrl+c');
		expect(typing.quit).toBe(false);
		expect(typing.screen).toMatchObject({kind: 'filter', draft: 'a'});
		expect(press(start(), 'ctrl+c').quit).toBe(true);
	});
});

describe('its progress in the status line', () => {
	it('the figures of dump\'s progress line, the time left at its pace, and how to stop it', () => {
		expect(messageAt(progressed(exporting()), 200)).toBe('export transactions · to transactions.ndjson · lists 2/6 · 1,234 objects · 812 requests · budget 80/100 · 60 s left · Ctrl-C stops');
		// Before the first figures: the accounts list is read.
		expect(messageAt(exporting(), 200)).toBe('export transactions · to transactions.ndjson · reading the accounts list… · Ctrl-C stops');
		expect(messageAt(press(progressed(exporting()), 'ctrl+c'), 200)).toMatch(/ · stopping…$/);
	});

	it('narrower, the least needed go first: requests, the budget, the file, the objects, the time left; lists done of all stay', () => {
		const state = progressed(exporting());
		expect(messageAt(state, 80)).toBe('export transactions · lists 2/6 · 1,234 objects · 60 s left · Ctrl-C stops');
		expect(messageAt(state, 60)).toBe('export transactions · lists 2/6 · 60 s left · Ctrl-C stops');
		expect(messageAt(state, 40)).toBe('export transactions · lists 2/6');
		for (const columns of [32, 40, 60, 80, 120]) {
			expect(messageAt(state, columns).length, String(columns)).toBeLessThanOrEqual(columns);
		}
	});

	it('what a key just did is said before it; the next key gives the line back to the export', () => {
		const state = press(progressed(exporting()), 'o');
		expect(messageAt(state, 200)).toMatch(/^order asc/);
		expect(messageAt(press(state, 'j'), 200)).toMatch(/^export transactions/);
	});

	it('an answer for an export no longer running is dropped', () => {
		const state = exporting();
		const stale = browserReducer(state, {type: 'export-progress', id: exportTask(state)!.id + 99, progress: {figures, since: 0, doneBefore: 0}});
		expect(stale).toBe(state);
	});
});

describe('how it ends', () => {
	it('written: the notice counts objects and lists, and the task is over', () => {
		const state = answered(exporting(), {kind: 'written', objects: 1234, lists: 6, failed: [], said: []});
		expect(exportTask(state)).toBeUndefined();
		expect(message(state)).toEqual({level: 'success', text: 'wrote 1,234 objects of 6 lists to transactions.ndjson'});
	});

	it('some lists failed: counted and named in the notice, each said in the debug view with why', () => {
		const said = ['account a2: the account API answered 403 invalid_scope.', 'account a3: the account API answered 404 not_found.'];
		const state = answered(exporting(), {kind: 'written', objects: 30, lists: 3, failed: [{account: 'a2', reason: 'x'}, {account: 'a3', reason: 'y'}], said});
		expect(message(state)).toEqual({level: 'warn', text: 'wrote 30 objects of 3 lists to transactions.ndjson; 2 lists failed (accounts a2, a3; d says why), the others written'});
		const debug = overlayLines({...press(state, 'd')});
		expect(debug.slice(0, 4)).toEqual(['the export to transactions.ndjson said:', `  ${said[0]}`, `  ${said[1]}`, '']);
	});

	it('stopped: what was written whole, kept, and how to go on: E and the same name, or the dump line', () => {
		const resume = 'pagewalk dump transactions --all --output=/tmp/transactions.ndjson --resume';
		const state = answered(press(exporting(), 'ctrl+c'), {kind: 'stopped', why: null, objects: 30, lists: 2, total: 6, known: 6, resume, said: []});
		expect(message(state)).toEqual({level: 'warn', text: `export stopped (Ctrl-C); 2 of 6 lists (30 objects) written whole to transactions.ndjson, kept to go on with: E and the same name goes on with it, or run ${resume}`});
		const failed = answered(exporting(), {kind: 'stopped', why: 'The server is gone.', objects: 0, lists: 0, total: undefined, known: 4, resume: null, said: []});
		expect(message(failed)?.text).toBe('export stopped: The server is gone; 0 of at least 4 lists (0 objects) written whole to transactions.ndjson, kept to go on with: E and the same name goes on with it');
	});

	it('the file is there: asked (y goes on with an unfinished export, or writes over a file); any other key keeps it', () => {
		const resumable = answered(exporting(), {kind: 'exists', resumable: true});
		expect(resumable.screen).toMatchObject({kind: 'export-exists', resumable: true});
		expect(promptLine(resumable)).toBe('transactions.ndjson holds an unfinished export: go on with it? y/n ');
		expect(exportTask(press(resumable, 'y'))).toMatchObject({job: {name: 'transactions.ndjson', mode: 'resume'}});
		const file = answered(exporting(), {kind: 'exists', resumable: false});
		expect(promptLine(file)).toBe('overwrite transactions.ndjson? y/n ');
		expect(exportTask(press(file, 'Y'))).toMatchObject({job: {mode: 'overwrite'}});
		const kept = press(file, 'n');
		expect(exportTask(kept)).toBeUndefined();
		expect(message(kept)?.text).toBe('kept transactions.ndjson as it was; nothing written');
	});

	it('a failure that wrote nothing: its one sentence', () => {
		const state = answered(exporting(), {kind: 'failed', message: 'Cannot write transactions.ndjson: permission denied; choose a folder you can write to.'});
		expect(message(state)).toEqual({level: 'warn', text: 'Cannot write transactions.ndjson: permission denied; choose a folder you can write to.'});
	});
});
