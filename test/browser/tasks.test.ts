/**
 * The tasks a browser state wants (browser/state/tasks.ts), as data: which ones for
 * a given state, that a task no longer wanted leaves the list (the runner
 * then aborts it), and that ids come from one counter, never repeating across
 * kinds or walks.
 */
import {describe, expect, it} from 'vitest';
import {browserReducer, startState} from '../../source/browser/state/browser-state.js';
import type {BrowserAction} from '../../source/browser/state/browser-state.js';
import type {KeyFlags} from '../../source/browser/keys/keymap.js';
import {wantedTasks} from '../../source/browser/state/tasks.js';
import type {Task} from '../../source/browser/state/tasks.js';
import type {ListObject} from '../../source/contract/types.js';
import {makePage} from './pages.js';
import type {BrowserState} from '../../source/browser/state/types.js';

const origin = 'http://x.test';
const startUrl = `${origin}/v2/accounts?limit=3&order=desc`;
const account = (id: string): ListObject => ({id, name: `${id} Wallet`, resource: 'account', resource_path: `/v2/accounts/${id}`});
const page1 = makePage({url: startUrl, objects: [account('a1'), account('a2'), account('a3')], next: `${startUrl}&starting_after=a3`});
const page2 = makePage({url: `${startUrl}&starting_after=a3`, objects: [account('a4')], next: null});

const flags: Record<string, KeyFlags> = {return: {return: true}, backspace: {backspace: true}, right: {rightArrow: true}, escape: {escape: true}};

function press(state: BrowserState, ...keys: string[]): BrowserState {
	return keys.reduce((current, key) => browserReducer(current, {type: 'key', input: flags[key] ? '' : key, key: flags[key] ?? {}, bodyRows: 10, columns: 100} satisfies BrowserAction), state);
}

function start(options: {firstPage?: boolean; compare?: boolean} = {}): BrowserState {
	return startState({
		startUrl,
		settings: {order: 'desc', limit: 3},
		firstPage: options.firstPage === false ? undefined : page1,
		endpoint: '/v2/accounts',
		api: 'account',
		compareLabels: options.compare ? {a: 'A', b: 'B'} : null,
	});
}

function answer(state: BrowserState, task: Task, page: typeof page1): BrowserState {
	return browserReducer(state, {type: 'stack', action: {type: 'loaded', requestId: task.id, page}});
}

const kinds = (state: BrowserState) => wantedTasks(state).map(task => task.kind);

describe('the tasks a state wants', () => {
	it('the first page, then the next page ahead of time, then nothing', () => {
		let state = start({firstPage: false});
		expect(wantedTasks(state)).toEqual([{id: 1, kind: 'load', url: startUrl}]);
		state = answer(state, wantedTasks(state)[0]!, page1);
		expect(wantedTasks(state)).toEqual([{id: 2, kind: 'prefetch', url: page2.requestUrl}]);
		state = answer(state, wantedTasks(state)[0]!, page2);
		expect(wantedTasks(state)).toEqual([]);
	});

	it('a copy and a write are tasks until they answer', () => {
		let state = press(start(), 'y');
		const copy = wantedTasks(state).find(task => task.kind === 'copy');
		expect(copy).toMatchObject({kind: 'copy', what: 'id', text: 'a1'});
		state = browserReducer(state, {type: 'done', id: copy!.id, notice: {kind: 'kept', name: 'copied'}});
		expect(kinds(state)).toEqual(['prefetch']);
		state = press(state, 'w', 'f', 'return');
		const save = wantedTasks(state).find(task => task.kind === 'save');
		expect(save).toMatchObject({kind: 'save', job: {what: 'page', name: 'f'}});
		state = browserReducer(state, {type: 'saved', id: save!.id, job: (save as Extract<Task, {kind: 'save'}>).job, result: {kind: 'written', objects: 3, pages: 1}, refetched: 0});
		expect(kinds(state)).toEqual(['prefetch']);
	});

	it('a search replaces the prefetch, is asked to stop by Esc, and ends with its answer', () => {
		let state = browserReducer(start(), {type: 'stack', action: {type: 'set-filter', filter: 'a'}});
		state = press(state, 'n');
		const [search] = wantedTasks(state);
		expect(search).toMatchObject({kind: 'search', direction: 'forward', filter: 'a', stop: false});
		expect(kinds(state)).toEqual(['search']);
		state = press(state, 'escape');
		expect(wantedTasks(state)).toEqual([{...search, stop: true}]);
		state = browserReducer(state, {type: 'search-done', id: search!.id, outcome: {direction: 'forward', filter: 'a', result: 'cancelled', searched: 0, landing: null, seen: null}});
		expect(kinds(state)).toEqual(['prefetch']);
	});

	it('the compare view asks for the page on screen once, and stops wanting it when closed', () => {
		let state = press(start({compare: true}), 'c');
		const compare = wantedTasks(state).find(task => task.kind === 'compare');
		expect(compare).toMatchObject({kind: 'compare', url: page1.requestUrl});
		// Another key in the view keeps the same request (same id): it is not asked again.
		expect(wantedTasks(press(state, 'j')).find(task => task.kind === 'compare')?.id).toBe(compare!.id);
		expect(kinds(press(state, 'q'))).toEqual(['prefetch']);
		state = browserReducer(state, {type: 'compared', id: compare!.id, result: {url: page1.requestUrl, rows: []}});
		expect(kinds(state)).toEqual(['prefetch']);
		// A late answer under an id no longer wanted changes nothing.
		expect(browserReducer(press(state, 'q', 'c'), {type: 'compared', id: compare!.id, result: {url: page1.requestUrl, error: new Error('late')}}).compare).toMatchObject({rows: []});
	});

	it('following arms a poll while no request is on its way, a new one after each answer', () => {
		let state = answer(start({firstPage: false}), {id: 1, kind: 'load', url: startUrl}, page2);
		expect(kinds(state)).toEqual([]);
		state = press(state, 'F');
		const [poll] = wantedTasks(state).filter(task => task.kind === 'follow-poll');
		expect(poll).toMatchObject({kind: 'follow-poll', failures: 0});
		state = browserReducer(state, {type: 'stack', action: {type: 'follow-poll'}});
		const [probe] = wantedTasks(state);
		expect(probe).toMatchObject({kind: 'load'});
		expect(kinds(state)).toEqual(['load']);
		state = browserReducer(state, {type: 'stack', action: {type: 'failed', requestId: probe!.id, message: 'down'}});
		const [again] = wantedTasks(state).filter(task => task.kind === 'follow-poll');
		expect(again).toMatchObject({kind: 'follow-poll', failures: 1});
		expect(again!.id).toBeGreaterThan(probe!.id);
		// Any key stops following: the poll is no longer wanted.
		expect(kinds(press(state, 'j'))).toEqual([]);
	});
});

describe('one record of each task', () => {
	it('the page tasks are the stack\'s own records (pending, prefetch), under their ids; the state holds no other copy', () => {
		const pageTasks = (state: BrowserState) => wantedTasks(state).filter(task => task.kind === 'load' || task.kind === 'prefetch');
		const records = ({stack}: BrowserState) => [
			...(stack.pending ? [{id: stack.pending.requestId, kind: 'load', url: stack.pending.url}] : []),
			...(!stack.pending && stack.prefetch && !stack.prefetch.page ? [{id: stack.prefetch.requestId, kind: 'prefetch', url: stack.prefetch.url}] : []),
		];
		let state = start({firstPage: false});
		const states = [state];
		for (const step of [
			(current: BrowserState) => answer(current, pageTasks(current)[0]!, page1),
			(current: BrowserState) => press(current, 'right'),
			(current: BrowserState) => press(current, 'o'),
			(current: BrowserState) => press(current, 'y'),
			(current: BrowserState) => browserReducer(current, {type: 'stack', action: {type: 'set-filter', filter: 'a'}}),
		]) {
			state = step(state);
			states.push(state);
		}

		for (const each of states) {
			expect(pageTasks(each)).toEqual(records(each));
			expect(Object.keys(each.tasks).sort()).toEqual(['compare', 'effects', 'export', 'poll', 'search']);
		}

		expect(states.flatMap(each => pageTasks(each).map(task => task.kind))).toEqual(expect.arrayContaining(['load', 'prefetch']));
	});
});

describe('a superseded task is no longer wanted', () => {
	it('a new walk (o) drops the load on its way for the one it asks', () => {
		let state = press(start(), 'right');
		const [load] = wantedTasks(state);
		expect(load).toMatchObject({kind: 'load', url: page2.requestUrl});
		state = press(state, 'o');
		const [next] = wantedTasks(state);
		expect(next).toMatchObject({kind: 'load'});
		expect(next!.id).not.toBe(load!.id);
		expect(wantedTasks(state).map(task => task.id)).not.toContain(load!.id);
		// Its answer, should it race the abort, lands nowhere.
		expect(answer(state, load!, page2)).toBe(state);
	});
});

describe('one counter', () => {
	it('ids never repeat across kinds and walks', () => {
		const taken: number[] = [];
		const take = (next: BrowserState) => {
			for (const task of wantedTasks(next)) {
				if (!taken.includes(task.id)) {
					taken.push(task.id);
				}
			}

			return next;
		};

		let state = take(start({compare: true}));
		state = take(press(state, 'y'));
		state = take(press(state, 'c'));
		state = take(press(state, 'q', 'return', 'return'));
		// In the related list: its first page, then a copy there.
		state = take(press(state, 'y'));
		state = take(press(state, 'backspace'));
		take(press(state, 'w', 'f', 'return'));
		expect(new Set(taken).size).toBe(taken.length);
		expect(taken.length).toBeGreaterThanOrEqual(6);
		// Ids grow in the order the tasks were asked for.
		expect(taken).toEqual([...taken].sort((a, b) => a - b));
	});
});

describe('one place for work in flight', () => {
	/** The ids of the work the state holds in `tasks`: all it wants but the stack's page requests. */
	const held = (state: BrowserState) => [state.tasks.compare?.id, state.tasks.poll?.id, state.tasks.search?.id, ...state.tasks.effects.map(effect => effect.id), state.tasks.export?.id].filter(id => id !== undefined).sort((a, b) => a - b);
	const beyondPages = (state: BrowserState) => wantedTasks(state).filter(task => task.kind !== 'load' && task.kind !== 'prefetch').map(task => task.id).sort((a, b) => a - b);

	it('every task but a page request is one the state holds in tasks, and nothing else', () => {
		const copyAndCompare = press(start({compare: true}), 'y', 'c');
		const copyThenSearch = press(browserReducer(start(), {type: 'stack', action: {type: 'set-filter', filter: 'a'}}), 'y', 'n');
		const following = press(answer(start(), wantedTasks(start())[0]!, page2), 'F');
		const writing = press(start(), 'w', 'f', 'return', 'W', 'g', 'return');
		for (const [name, state] of Object.entries({copyAndCompare, copyThenSearch, following, writing})) {
			expect(held(state).length, name).toBeGreaterThan(0);
			expect(beyondPages(state), name).toEqual(held(state));
			// Without what it holds, a state wants only what its stack asks for.
			expect(kinds({...state, tasks: {compare: null, poll: null, search: null, effects: [], export: null}}).every(kind => kind === 'load' || kind === 'prefetch'), name).toBe(true);
		}
	});
});
