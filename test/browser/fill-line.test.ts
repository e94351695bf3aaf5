import {describe, expect, it} from 'vitest';
import {fillLine, shortNote} from '../../source/browser/view/fill-line.js';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {makePage, url} from './pages.js';
import type {PageStackState} from '../../source/browser/stack/types.js';

const settings = {order: 'desc' as const, limit: 4};

/** Walks pages holding `sizes[i]` objects each (limit 4), the last one ending the list. */
function walk(sizes: number[], maxCachedPages?: number): PageStackState {
	let state = initialState({startUrl: url(), settings, maxCachedPages});
	let cursor: string | undefined;
	for (const [index, size] of sizes.entries()) {
		const ids = Array.from({length: size}, (_, i) => `p${index}-${i}`);
		const next = index === sizes.length - 1 ? null : url(`c${index}`);
		const page = makePage({url: url(cursor), ids, next, limit: 4});
		for (const wanted of wantedRequests(state)) {
			if (wanted.url === page.requestUrl) {
				state = reduce(state, {type: 'loaded', requestId: wanted.requestId, page});
			}
		}

		if (next !== null) {
			state = reduce(state, {type: 'next'});
		}

		cursor = `c${index}`;
	}

	return state;
}

describe('fill strip', () => {
	it('draws one cell per page walked, by fill, with short and empty pages counted', () => {
		const state = walk([4, 2, 0, 3, 4]);
		expect(fillLine(state, 80)).toBe('fill █▄·▆█ · 2 short · 1 empty');
	});

	it('keeps counting pages whose data was evicted from memory', () => {
		const state = walk([4, 2, 0, 3, 4, 1], 2);
		expect(state.entries.filter(entry => entry.page === null).length).toBeGreaterThan(0);
		expect(fillLine(state, 80)).toBe('fill █▄·▆█▂ · 3 short · 1 empty');
	});

	it('keeps the newest pages when the strip is wider than the terminal', () => {
		const state = walk([4, 4, 4, 4, 4, 4, 4, 4, 0, 1]);
		const line = fillLine(state, 'fill '.length + 4 + ' · 1 short · 1 empty'.length);
		expect(line).toBe('fill …█·▂ · 1 short · 1 empty');
	});

	it('keeps every page walked when ← goes back, and → over them changes nothing', () => {
		let state = walk([4, 2, 0, 3, 4]);
		state = reduce(reduce(state, {type: 'previous'}), {type: 'previous'});
		expect(state.entries).toHaveLength(3);
		expect(fillLine(state, 80)).toBe('fill █▄·▆█ · 2 short · 1 empty');
		state = reduce(state, {type: 'next'});
		expect(state.entries).toHaveLength(4);
		expect(fillLine(state, 80)).toBe('fill █▄·▆█ · 2 short · 1 empty');
		// 0 goes back to the first page of the same walk: still this walk's pages.
		state = reduce(state, {type: 'first'});
		expect(fillLine(state, 80)).toBe('fill █▄·▆█ · 2 short · 1 empty');
		// Bounded by the walk: one mark per page reached, however often walked.
		expect(state.walked).toHaveLength(5);
	});

	it('a page walked again after ← shows as it came the second time', () => {
		let state = walk([4, 2, 0, 3, 4]);
		state = reduce(reduce(state, {type: 'previous'}), {type: 'refresh'});
		const [wanted] = wantedRequests(state);
		// Page 4 again, now with one object more.
		state = reduce(state, {type: 'loaded', requestId: wanted!.requestId, page: makePage({url: wanted!.url, ids: ['a', 'b', 'c', 'd'], next: url('c3'), limit: 4})});
		expect(fillLine(state, 80)).toBe('fill █▄·██ · 1 short · 1 empty');
	});

	it('a new walk starts it over', () => {
		let state = reduce(walk([4, 2, 0, 3, 4]), {type: 'change-limit', delta: 1});
		const [wanted] = wantedRequests(state);
		state = reduce(state, {type: 'loaded', requestId: wanted!.requestId, page: makePage({url: wanted!.url, ids: ['a', 'b'], next: url('b'), limit: 5})});
		expect(fillLine(state, 80)).toBe('fill ▄ · 1 short · 0 empty');
	});

	it('the page previous_uri leads to below the first page goes in front: it is the new page 1', () => {
		let state = initialState({startUrl: url('c0'), settings});
		const [first] = wantedRequests(state);
		state = reduce(state, {type: 'loaded', requestId: first!.requestId, page: makePage({url: url('c0'), ids: ['x', 'y'], next: url('y'), previous: url('p'), limit: 4})});
		state = reduce(state, {type: 'previous'});
		const [below] = wantedRequests(state);
		state = reduce(state, {type: 'loaded', requestId: below!.requestId, page: makePage({url: below!.url, ids: ['a', 'b', 'c', 'd'], next: url('c0'), limit: 4})});
		expect(state.entries).toHaveLength(1);
		expect(fillLine(state, 80)).toBe('fill █▄ · 1 short · 0 empty');
	});

	it('is empty before the first page', () => {
		expect(fillLine(initialState({startUrl: url(), settings}), 80)).toBe('');
	});
});

/** A stack showing one page of `size` objects (limit 4), with or without a next_uri. */
function showing(size: number, next: string | null): PageStackState {
	const state = initialState({startUrl: url(), settings});
	const [wanted] = wantedRequests(state);
	const ids = Array.from({length: size}, (_, i) => `id-${i}`);
	// A page that keeps the contract: limit 4 sent, echoed, and carried by next_uri.
	const page = makePage({url: url(undefined, '?limit=4'), ids, next: next === null ? null : `${next}&limit=4`, limit: 4});
	return reduce(state, {type: 'loaded', requestId: wanted!.requestId, page});
}

describe('short-page note', () => {
	it('explains a short or empty page that has a next_uri: the list continues', () => {
		expect(shortNote(showing(2, url('x')))).toBe('2 of 4: fewer than limit: permissions or access level; the list continues.');
		expect(shortNote(showing(0, url('x')))).toBe('No objects: fewer than limit: permissions or access level; the list continues.');
	});

	it('says nothing about permissions on a page that breaks the contract: the status area names the break instead', () => {
		const state = initialState({startUrl: url(), settings});
		const [wanted] = wantedRequests(state);
		// limit=4 sent, 5 reported: a short page for its own reason.
		const page = makePage({url: url(undefined, '?limit=4'), ids: ['a', 'b'], next: url('b', '&limit=4'), limit: 5});
		const shown = reduce(state, {type: 'loaded', requestId: wanted!.requestId, page});
		expect(shown.entries[0]?.findings).toEqual([{check: 'echo-limit', sent: '4', reported: 5}]);
		expect(shortNote(shown)).toBeNull();
	});

	it('says nothing for a full page, or for a short page that ends the list (the status line says end of list)', () => {
		expect(shortNote(showing(4, url('x')))).toBeNull();
		expect(shortNote(showing(2, null))).toBeNull();
	});
});
