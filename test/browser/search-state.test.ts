import {describe, expect, it} from 'vitest';
import {browserReducer, startState} from '../../source/browser/state/browser-state.js';
import type {BrowserAction} from '../../source/browser/state/browser-state.js';
import {wantedRequests} from '../../source/browser/stack/page-stack.js';
import type {SearchOutcome} from '../../source/browser/stack/types.js';
import {noticeText} from '../../source/browser/view/status-model.js';
import {makePage, url} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {BrowserState} from '../../source/browser/state/types.js';

/**
 * The browser state's side of a search (`n`, `N`): when it starts, what keys
 * do while it runs, and that only the running search's answers count. The
 * search loop itself is tested against the sandbox in search-pages.test.ts.
 */

const settings = {order: 'desc' as const, limit: 3};
const p1 = {url: url(), ids: ['a', 'b', 'c'], next: url('c')};
const p2 = {url: url('c'), ids: ['d', 'e', 'f'], next: url('f')};

function key(input: string, flags: {escape?: boolean; ctrl?: boolean} = {}): BrowserAction {
	return {type: 'key', input, key: flags, bodyRows: 10};
}

function onPage1(filter = ''): BrowserState {
	let state = startState({startUrl: p1.url, settings, firstPage: makePage(p1)});
	if (filter !== '') {
		state = browserReducer(state, {type: 'stack', action: {type: 'set-filter', filter}});
	}

	return state;
}

const notice = (state: BrowserState) => (state.stack.notice ? noticeText(state.stack.notice) : null);

describe('starting a search', () => {
	it('needs a filter: n without one says to type / first', () => {
		const state = browserReducer(onPage1(), key('n'));
		expect(state.tasks.search).toBeNull();
		expect(notice(state)).toContain('press / and type a filter first');
	});

	it('waits for a page that is loading', () => {
		let state = onPage1('e');
		state = browserReducer(state, {type: 'stack', action: {type: 'refresh'}});
		state = browserReducer(state, key('n'));
		expect(state.tasks.search).toBeNull();
		expect(notice(state)).toBe('a page is loading: press n or N again once it is shown');
	});

	it('starts with the page it will look at first, and drops a prefetch still on its way', () => {
		const before = onPage1('e');
		expect(before.stack.prefetch?.page).toBeNull();
		const state = browserReducer(before, key('n'));
		expect(state.tasks.search).toMatchObject({id: expect.any(Number) as number, direction: 'forward', filter: 'e', progress: {page: 2, searched: 0}, cancelling: false});
		expect(state.stack.prefetch).toBeNull();
		expect(wantedRequests(state.stack)).toEqual([]);
	});
});

describe('while a search runs', () => {
	it('Esc, q and Ctrl-C (as in less) ask it to stop, Q quits, other keys are dropped', () => {
		const running = browserReducer(onPage1('e'), key('n'));
		expect(browserReducer(running, key('j'))).toBe(running);
		expect(browserReducer(running, key('/'))).toBe(running);
		const stopping = browserReducer(running, key('', {escape: true}));
		expect(stopping.tasks.search?.cancelling).toBe(true);
		// Esc did not clear the filter: it stopped the search.
		expect(stopping.stack.filter).toBe('e');
		expect(browserReducer(running, key('q')).tasks.search?.cancelling).toBe(true);
		const interrupted = browserReducer(running, key('c', {ctrl: true}));
		expect(interrupted.tasks.search?.cancelling).toBe(true);
		expect(interrupted.quit).toBe(false);
		expect(browserReducer(running, key('Q')).quit).toBe(true);
	});

	it('progress and the outcome count only for the running search; the outcome lands once', () => {
		const running = browserReducer(onPage1('e'), key('n'));
		const progressed = browserReducer(running, {type: 'search-progress', id: running.tasks.search!.id, progress: {direction: 'forward', page: 7, searched: 5}});
		expect(progressed.tasks.search?.progress.page).toBe(7);
		expect(browserReducer(running, {type: 'search-progress', id: running.tasks.search!.id + 1, progress: {direction: 'forward', page: 7, searched: 5}})).toBe(running);
		const outcome: SearchOutcome = {
			direction: 'forward',
			filter: 'e',
			result: 'found',
			searched: 1,
			landing: {kind: 'forward', passed: [], url: p2.url, page: makePage(p2)},
			seen: new Set(['a', 'b', 'c', 'd', 'e', 'f']),
		};
		const landed = browserReducer(progressed, {type: 'search-done', id: running.tasks.search!.id, outcome});
		expect(landed.tasks.search).toBeNull();
		expect(landed.stack.entries).toHaveLength(2);
		expect(top(landed.stack)?.page?.objects.map(object => object.id)).toEqual(['d', 'e', 'f']);
		expect(notice(landed)).toBe('match on page 2 (1 page searched; ← walks back)');
		// The same answer again (or a late one) changes nothing.
		expect(browserReducer(landed, {type: 'search-done', id: running.tasks.search!.id, outcome})).toBe(landed);
		// Keys work again, and the next one clears how the search ended (g, G, 0, Esc: any key).
		expect(top(browserReducer(landed, key('j')).stack)?.selected).toBe(1);
		for (const next of [key('g'), key('G'), key('0'), key('', {escape: true}), key('x')]) {
			expect(notice(browserReducer(landed, next))).toBeNull();
		}
	});

	it('a search that ends where it started asks for the next page again', () => {
		const running = browserReducer(onPage1('zz'), key('n'));
		const outcome: SearchOutcome = {direction: 'forward', filter: 'zz', result: 'end', searched: 4, landing: null, seen: null, end: 'no-next-uri'};
		const ended = browserReducer(running, {type: 'search-done', id: running.tasks.search!.id, outcome});
		expect(notice(ended)).toBe('no match for "zz" in the 4 pages after this one: the list ends there');
		expect(wantedRequests(ended.stack)).toEqual([{requestId: expect.any(Number) as number, url: p2.url}]);
	});
});
