import {describe, expect, it} from 'vitest';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {makePage, url, answer, apply, notice} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';

/**
 * The page stack at a loop (→ and F judge the next page by the walk rules
 * dump stops with), and what following counts as new: an id this walk has
 * not seen, once.
 */

const asc = {order: 'asc' as const, limit: 3};
const p1 = {url: url(), ids: ['a', 'b', 'c'], next: url('c'), order: 'asc' as const};

describe('→ at a loop stops where the walk rules stop dump', () => {
	it('a next_uri back to a page of the stack (its URL or its cursor): no request, the walk rules\' note', () => {
		let state = answer(initialState({startUrl: url(), settings: asc}), p1);
		// Page 2's link leads back to page 1 under the same URL, its query in another order.
		state = answer(state, {url: url('c'), ids: ['d', 'e', 'f'], next: `${url()}?limit=3`.replace('?limit=3', ''), order: 'asc'});
		state = reduce(state, {type: 'next'});
		expect(state.entries).toHaveLength(2);
		// Not even fetched ahead.
		expect(state.prefetch).toBeNull();
		expect(wantedRequests(state)).toEqual([]);
		state = reduce(state, {type: 'next'});
		expect(state.pending).toBeNull();
		expect(state.entries).toHaveLength(2);
		expect(notice(state)).toBe('stopped: the next_uri of page 2 leads back to page 1, so following it would loop');
		// A fresh URL repeating a cursor of the stack.
		state = answer(initialState({startUrl: url(), settings: asc}), p1);
		state = answer(state, {url: url('c'), ids: ['d', 'e', 'f'], next: url('c', '&limit=3'), order: 'asc'});
		state = apply(state, {type: 'next'}, {type: 'next'});
		expect(notice(state)).toBe('stopped: the next_uri of page 2 repeats the cursor starting_after=c of page 2, so following it would not advance');
	});

	it('a fresh next_uri whose page repeats one of the stack: not pushed, kept as the next page, asked for no more', () => {
		let state = answer(initialState({startUrl: url(), settings: asc}), p1);
		state = answer(state, {url: url('c'), ids: ['d', 'e', 'f'], next: url('f'), order: 'asc'});
		state = reduce(state, {type: 'next'});
		// Page 2's link is new; the page it brings is page 1 again.
		state = answer(state, {url: url('f'), ids: ['a', 'b', 'c'], next: url('c'), order: 'asc'});
		state = reduce(state, {type: 'next'});
		expect(state.entries.map(entry => entry.url)).toEqual([url(), url('c')]);
		expect(notice(state)).toBe('stopped: the next_uri of page 2 leads back: page 3 holds the same objects as page 1, so following it would loop');
		state = reduce(state, {type: 'next'});
		expect(state.pending).toBeNull();
		expect(wantedRequests(state)).toEqual([]);
		// The same when the page comes as the answer to → itself (no prefetch).
		state = answer(initialState({startUrl: url(), settings: asc}), p1);
		state = reduce(state, {type: 'failed', requestId: state.prefetch!.requestId, message: 'x'});
		state = reduce(state, {type: 'next'});
		state = answer(state, {url: url('c'), ids: ['b', 'c'], next: url('x'), order: 'asc'});
		expect(state.entries).toHaveLength(1);
		expect(notice(state)).toBe('stopped: the next_uri of page 1 leads back: every object of page 2 was already on page 1, so following it would loop');
		expect(wantedRequests(state)).toEqual([]);
		state = reduce(state, {type: 'next'});
		expect(wantedRequests(state)).toEqual([]);
	});

	it('F in asc stops following at the loop, saying so: no page more on the stack, no poll more', () => {
		let state = answer(initialState({startUrl: url(), settings: asc}), p1);
		state = answer(state, {url: url('c'), ids: ['d', 'e', 'f'], next: url('f'), order: 'asc'});
		state = reduce(state, {type: 'next'});
		state = answer(state, {url: url('f'), ids: ['a', 'b', 'c'], next: url('c'), order: 'asc'});
		state = apply(state, {type: 'follow'}, {type: 'follow-poll'});
		expect(new URL(state.pending!.url).searchParams.get('starting_after')).toBe('f');
		// Something after f: the next page, asked for again (the one fetched ahead is older than the poll), is page 1 again.
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['a'], order: 'asc'})});
		expect(state.pending).toMatchObject({kind: 'push', url: url('f')});
		state = answer(state, {url: url('f'), ids: ['a', 'b', 'c'], next: url('c'), order: 'asc'});
		expect(state.follow).toBeNull();
		expect(state.entries).toHaveLength(2);
		expect(state.pending).toBeNull();
		expect(notice(state)).toBe('stopped: the next_uri of page 2 leads back: page 3 holds the same objects as page 1, so following it would loop; stopped following (0 new objects arrived)');
		expect(reduce(state, {type: 'follow-poll'})).toBe(state);
	});
});

describe('F counts an object new once: an id this walk has not seen', () => {
	const desc = {order: 'desc' as const, limit: 5};
	const page1 = {url: url(), ids: ['a', 'b', 'c', 'd', 'e'], next: url('e')};
	const page2 = {url: url('e'), ids: ['f', 'g', 'h', 'i', 'j'], next: url('j')};

	/** Following page 1 after page 2 was seen, and polled once: the probe found `probe`; the page reloads. */
	function followed(probe: string[]) {
		let state = answer(initialState({startUrl: url(), settings: desc}), page1);
		state = answer(state, page2);
		state = apply(state, {type: 'next'}, {type: 'previous'}, {type: 'follow'}, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: probe})});
		expect(state.pending).toMatchObject({kind: 'refresh', url: url()});
		return state;
	}

	it('two objects of the page removed and one inserted: one new, not the ones moved up from page 2', () => {
		let state = followed(['n']);
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['n', 'a', 'b', 'e', 'f'], next: url('f')})});
		expect(state.follow).toEqual({count: 1, fresh: ['n'], failures: 0});
	});

	it('only the page fetched ahead seen of page 2: its objects moving up are not new either', () => {
		let state = answer(initialState({startUrl: url(), settings: desc}), page1);
		state = answer(state, page2);
		state = apply(state, {type: 'follow'}, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['n']})});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['n', 'a', 'b', 'e', 'f'], next: url('f')})});
		expect(state.follow).toEqual({count: 1, fresh: ['n'], failures: 0});
	});

	it('an id twice on the page counts once, and an id seen at an earlier poll never again', () => {
		let state = followed(['n']);
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['n', 'n', 'a', 'b', 'c'], next: url('c')})});
		expect(state.follow).toEqual({count: 1, fresh: ['n'], failures: 0});
		// n goes and comes back with m: only m is new.
		state = reduce(state, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['m']})});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['m', 'n', 'a', 'b', 'c'], next: url('c')})});
		expect(state.follow).toEqual({count: 2, fresh: ['m'], failures: 0});
	});

	it('in asc, the next page an arrival brings counts its objects never seen', () => {
		let state = answer(initialState({startUrl: url(), settings: asc}), p1);
		state = reduce(state, {type: 'failed', requestId: state.prefetch!.requestId, message: 'x'});
		state = apply(state, {type: 'follow'}, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['d'], order: 'asc'})});
		expect(state.pending).toMatchObject({kind: 'push', url: url('c')});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url('c'), ids: ['d', 'd', 'e'], next: url('e'), order: 'asc'})});
		expect(top(state)?.url).toBe(url('c'));
		expect(state.follow).toEqual({count: 2, fresh: ['d', 'e'], failures: 0});
	});
});
