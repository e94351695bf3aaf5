import {describe, expect, it} from 'vitest';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {answer, apply, makePage, notice, url} from './pages.js';
import {contractDefaults} from '../../source/contract/contract.js';
import {Secret} from '../../source/text/secret.js';
import {retryText} from '../../source/browser/view/status-model.js';
import {top, firstPageUrl} from '../../source/browser/stack/stack-steps.js';

const settings = {order: 'desc' as const, limit: 3};

function start(startUrl = url(), maxCachedPages?: number) {
	return initialState({startUrl, settings, maxCachedPages});
}

const p1 = {url: url(), ids: ['a', 'b', 'c'], next: url('c')};
const p2 = {url: url('c'), ids: ['d', 'e', 'f'], next: url('f'), previous: url(undefined, '?ending_before=d')};
const p3 = {url: url('f'), ids: ['g'], next: null};

function walkedTo3() {
	let state = answer(start(), p1); // prefetch p2 starts
	state = answer(state, p2); // prefetch answered
	state = reduce(state, {type: 'next'});
	state = answer(state, p3); // prefetch p3
	return reduce(state, {type: 'next'});
}

describe('page stack', () => {
	it('starts by wanting the first page and shows it when it lands', () => {
		let state = start();
		expect(wantedRequests(state)).toEqual([{requestId: 1, url: url()}]);
		state = answer(state, p1);
		expect(state.entries).toHaveLength(1);
		expect(top(state)?.page?.objects.map(o => o.id)).toEqual(['a', 'b', 'c']);
		expect(state.seen.size).toBe(3);
	});

	it('prefetches the next page, and → pushes it without a request', () => {
		let state = answer(start(), p1);
		expect(state.prefetch?.url).toBe(url('c'));
		state = answer(state, p2);
		expect(state.entries).toHaveLength(1);
		state = reduce(state, {type: 'next'});
		expect(state.pending).toBeNull();
		expect(state.entries.map(e => e.url)).toEqual([url(), url('c')]);
		expect(state.seen.size).toBe(6);
		// The next prefetch is already wanted.
		expect(wantedRequests(state)[0]?.url).toBe(url('f'));
	});

	it('→ while the prefetch is in flight adopts it instead of asking twice', () => {
		let state = answer(start(), p1);
		const prefetchId = state.prefetch!.requestId;
		state = reduce(state, {type: 'next'});
		expect(state.pending).toMatchObject({requestId: prefetchId, kind: 'push'});
		state = reduce(state, {type: 'loaded', requestId: prefetchId, page: makePage(p2)});
		expect(state.entries).toHaveLength(2);
	});

	it('← pops to the cached page instantly and keeps the page left as prefetch', () => {
		let state = walkedTo3();
		state = apply(state, {type: 'move', delta: 0});
		state = reduce(state, {type: 'previous'});
		expect(state.pending).toBeNull();
		expect(top(state)?.url).toBe(url('c'));
		expect(state.prefetch).toMatchObject({url: url('f')});
		expect(state.prefetch?.page).not.toBeNull();
		state = reduce(state, {type: 'next'});
		expect(top(state)?.url).toBe(url('f'));
		expect(state.pending).toBeNull();
	});

	it('← drops the in-flight prefetch of the page after the one left, keeping the page left as the prefetch', () => {
		let state = walkedTo3();
		// Page 3 changed on refresh: its next page is no longer the old one.
		state = reduce(state, {type: 'refresh'});
		state = answer(state, {...p3, next: url('g')});
		expect(state.prefetch?.url).toBe(url('g'));
		// Back to page 2, whose next page is the page left: that is the prefetch now, nothing to fetch.
		state = reduce(state, {type: 'previous'});
		expect(state.prefetch).toMatchObject({url: url('f')});
		expect(wantedRequests(state)).toEqual([]);
	});

	it('keeps each page its selected row across back and forth', () => {
		let state = answer(start(), p1);
		state = apply(state, {type: 'move', delta: 2});
		state = answer(state, p2);
		state = apply(state, {type: 'next'}, {type: 'move', delta: 1});
		expect(top(state)?.selected).toBe(1);
		state = reduce(state, {type: 'previous'});
		expect(top(state)?.selected).toBe(2);
	});

	it('clamps row moves to the page and g/G go to its ends', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'move', delta: 10});
		expect(top(state)?.selected).toBe(2);
		state = reduce(state, {type: 'move-to', position: 'top'});
		expect(top(state)?.selected).toBe(0);
		state = reduce(state, {type: 'move-to', position: 'bottom'});
		expect(top(state)?.selected).toBe(2);
		state = reduce(state, {type: 'move', delta: -99});
		expect(top(state)?.selected).toBe(0);
	});

	it('back at the bottom of a walk started from a cursor follows previous_uri', () => {
		let state = answer(start(url('c')), p2);
		state = reduce(state, {type: 'previous'});
		expect(notice(state)).toBe('following previous_uri');
		expect(state.pending).toMatchObject({url: url(undefined, '?ending_before=d'), kind: 'reset'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({...p1, url: url(undefined, '?ending_before=d')})});
		expect(state.entries.map(e => e.url)).toEqual([url(undefined, '?ending_before=d')]);
		// The page we came from is the next one: → is instant.
		expect(state.prefetch).toMatchObject({url: url('c')});
		expect(state.prefetch?.page?.objects.map(o => o.id)).toEqual(['d', 'e', 'f']);
	});

	it('back on the first page says so and sends nothing', () => {
		let state = answer(start(), {...p1, previous: url(undefined, '?ending_before=a')});
		state = reduce(state, {type: 'previous'});
		expect(notice(state)).toBe('already on the first page');
		expect(state.pending).toBeNull();
	});

	it('back at the bottom without previous_uri says there is nothing below', () => {
		let state = answer(start(url('c')), {...p2, previous: null});
		state = reduce(state, {type: 'previous'});
		expect(notice(state)).toBe('no page below: previous_uri is empty');
	});

	it('0 returns to the cached first page', () => {
		let state = walkedTo3();
		state = reduce(state, {type: 'first'});
		expect(state.entries.map(e => e.url)).toEqual([url()]);
		expect(state.pending).toBeNull();
		expect(state.prefetch).toMatchObject({url: url('c')});
		expect(state.prefetch?.page).not.toBeNull();
	});

	it('toggling order with no neighbour of the selected object known (the one object of a first page) starts a new walk from the first page and says so', () => {
		let state = answer(start(), {url: url(), ids: ['a'], next: null});
		state = reduce(state, {type: 'toggle-order'});
		expect(state.settings.order).toBe('asc');
		expect(notice(state)).toBe('order asc: new walk from the first page');
		expect(state.pending).toMatchObject({kind: 'reset', url: 'http://x.test/v2/accounts?limit=3&order=asc'});
		expect(state.seen.size).toBe(0);
		// The old page stays on screen until the new one lands.
		expect(top(state)?.url).toBe(url());
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['z']})});
		expect(state.entries).toHaveLength(1);
		expect(state.walk).toBe(2);
	});

	it('toggling order keeps the selected object: the walk in the other order starts at it, from a neighbour as cursor', () => {
		let state = answer(start(), p1);
		state = apply(state, {type: 'move', delta: 1});
		state = reduce(state, {type: 'toggle-order'});
		// b is selected: a, above it, is the cursor; in asc the page ends with b.
		expect(state.pending).toMatchObject({kind: 'reset', focus: 'b'});
		expect(new URL(state.pending!.url).searchParams.get('ending_before')).toBe('a');
		expect(new URL(state.pending!.url).searchParams.get('order')).toBe('asc');
		expect(notice(state)).toBe('order asc: new walk started at b (0: from the first page)');
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['c', 'b'], order: 'asc'})});
		expect(top(state)?.selected).toBe(1);
		// The first row: the one below is the cursor, and the page starts with it.
		state = answer(start(), p1);
		state = reduce(state, {type: 'toggle-order'});
		expect(new URL(state.pending!.url).searchParams.get('starting_after')).toBe('b');
		expect(state.pending).toMatchObject({focus: 'a'});
		// A page's own cursor is the neighbour beyond its first row.
		state = reduce(walkedTo3(), {type: 'toggle-order'});
		expect(new URL(state.pending!.url).searchParams.get('ending_before')).toBe('f');
		expect(state.pending).toMatchObject({focus: 'g'});
	});

	it('toggling order when the selected object is gone by then selects its nearest neighbour still on the new page, and says so', () => {
		// desc a b c d e, c selected: the asc walk asks ending_before=b, and c was removed meanwhile.
		let state = answer(start(), {url: url(), ids: ['a', 'b', 'c', 'd', 'e'], next: url('e')});
		state = apply(state, {type: 'move', delta: 2}, {type: 'toggle-order'});
		expect(state.pending).toMatchObject({focus: 'c', near: ['b', 'd', 'a', 'e']});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['f', 'e', 'd'], order: 'asc'})});
		// d, below c before, is where c would be: the end of the page, not its first row.
		expect(top(state)?.selected).toBe(2);
		expect(notice(state)).toBe('order asc: c is gone; selected its neighbour d (0: from the first page)');
		// Nothing of the old page on the new one: the first row, and the note names nothing it does not show.
		state = answer(start(), {url: url(), ids: ['a', 'b', 'c'], next: url('c')});
		state = apply(state, {type: 'move', delta: 1}, {type: 'toggle-order'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['x', 'y'], order: 'asc'})});
		expect(top(state)?.selected).toBe(0);
		expect(notice(state)).toBe('order asc: b is gone; new walk started where it was (0: from the first page)');
	});

	it('toggling order on a page that shows no row keeps its place in the list (its cursor turned round), and says so', () => {
		// Page 2 came back empty (permissions): before, o went back to the first page unsaid.
		let state = answer(start(), p1);
		state = answer(state, {url: url('c'), ids: [], next: url('x')});
		state = reduce(state, {type: 'next'});
		state = reduce(state, {type: 'toggle-order'});
		const asked = new URL(state.pending!.url).searchParams;
		expect(asked.get('order')).toBe('asc');
		expect(asked.get('ending_before')).toBe('c');
		expect(asked.get('starting_after')).toBeNull();
		expect(notice(state)).toBe('order asc: no row on this page to keep, so the new walk starts where it was, before c (0: from the first page)');
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: [], order: 'asc'})});
		expect(notice(state)).toBe('order asc: no row on this page to keep, so the new walk starts where it was, before c (0: from the first page)');
		// A page the filter hides whole is kept in place the same way; a page asked with ending_before turns into starting_after.
		state = answer(start(url(undefined, '?ending_before=d')), {url: url(undefined, '?ending_before=d'), ids: ['a', 'b'], next: url('b')});
		state = reduce(state, {type: 'set-filter', filter: 'no such text'});
		state = reduce(state, {type: 'toggle-order'});
		expect(new URL(state.pending!.url).searchParams.get('starting_after')).toBe('d');
		// An empty first page has no place but the start: from the first page, and why.
		state = answer(start(), {url: url(), ids: [], next: url('x')});
		state = reduce(state, {type: 'toggle-order'});
		expect(state.pending).toMatchObject({kind: 'reset', url: 'http://x.test/v2/accounts?limit=3&order=asc'});
		expect(notice(state)).toBe('order asc: no row on this page to keep; new walk from the first page');
	});

	it('changing the limit starts a new walk, clamps to 0–100 and rejects nonsense', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'change-limit', delta: 5});
		expect(state.settings.limit).toBe(8);
		expect(state.pending?.url).toBe('http://x.test/v2/accounts?limit=8&order=desc');
		expect(notice(state)).toBe('limit 8: new walk from the first page');
		state = reduce(state, {type: 'set-limit', limit: 500});
		expect(state.settings.limit).toBe(100);
		state = reduce(state, {type: 'change-limit', delta: -500});
		expect(state.settings.limit).toBe(0);
		const before = state;
		state = reduce(state, {type: 'set-limit', limit: Number.NaN});
		expect(state.settings).toEqual(before.settings);
		expect(notice(state)).toBe('limit stays 0 (0–100)');
	});

	it('a limit typed after L that is none is refused by name and the limit in use kept; + and - past a bound say so', () => {
		let state = answer(start(), p1);
		const refuse = (typed: string, why: 'empty' | 'not-whole' | 'over') => reduce(state, {type: 'set-limit', limit: Number.NaN, refused: {typed, why}});
		expect(notice(refuse('101', 'over'))).toBe(`101 is over the most, ${contractDefaults.maximumLimit}: limit stays 3`);
		expect(notice(refuse('-1', 'not-whole'))).toBe(`-1 is not a whole number from ${contractDefaults.minimumLimit} to ${contractDefaults.maximumLimit}: limit stays 3`);
		expect(notice(refuse('', 'empty'))).toBe('no limit typed: limit stays 3 (0–100)');
		// A credential pasted there by mistake is the redaction mark, never a prefix of it.
		const token = new Secret('limit-canary-7c1e9f0a2b3d');
		expect(notice(refuse(token.reveal(), 'not-whole'))).toBe(`${Secret.mark} is not a whole number from 0 to 100: limit stays 3`);
		expect(refuse('101', 'over').settings).toEqual(state.settings);
		expect(refuse('101', 'over').pending).toBeNull();
		// 98 and +5: 100, not 103, and the line says it is the most.
		state = reduce(state, {type: 'set-limit', limit: 98});
		state = reduce(state, {type: 'change-limit', delta: 5});
		expect(state.settings.limit).toBe(100);
		expect(notice(state)).toBe('limit 100 (the most): new walk from the first page');
		state = reduce(reduce(state, {type: 'set-limit', limit: 3}), {type: 'change-limit', delta: -5});
		expect(notice(state)).toBe('limit 0 (the least): new walk from the first page');
		expect(notice(reduce(state, {type: 'change-limit', delta: 5}))).toBe('limit 5: new walk from the first page');
	});

	it('a stale response never lands', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'toggle-order'});
		const oldId = state.pending!.requestId;
		state = reduce(state, {type: 'toggle-order'});
		const after = reduce(state, {type: 'loaded', requestId: oldId, page: makePage({url: 'x', ids: ['stale']})});
		expect(after).toBe(state);
		expect(reduce(state, {type: 'failed', requestId: oldId, message: 'aborted'})).toBe(state);
		// And an answer to a dropped prefetch is ignored too.
		expect(reduce(state, {type: 'loaded', requestId: 2, page: makePage(p2)})).toBe(state);
	});

	it('only the current navigation (or else the prefetch) is wanted: older requests get aborted', () => {
		let state = answer(start(), p1);
		expect(wantedRequests(state)).toEqual([{requestId: state.prefetch!.requestId, url: url('c')}]);
		state = reduce(state, {type: 'toggle-order'});
		expect(wantedRequests(state)).toEqual([{requestId: state.pending!.requestId, url: state.pending!.url}]);
	});

	it('keys pressed while a page loads are queued and replayed on the new page', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'failed', requestId: state.prefetch!.requestId, message: 'x'});
		expect(state.prefetch).toBeNull();
		state = apply(state, {type: 'next'}, {type: 'move', delta: 1}, {type: 'next'});
		expect(state.queue).toHaveLength(2);
		expect(top(state)?.selected).toBe(0);
		state = answer(state, p2);
		// The row move applied to page 2, then → asked for page 3.
		expect(state.entries[1]?.selected).toBe(1);
		expect(state.pending).toMatchObject({url: url('f'), kind: 'push'});
		expect(state.queue).toHaveLength(0);
	});

	it('← while → loads cancels the load and stays', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'failed', requestId: state.prefetch!.requestId, message: 'x'});
		state = apply(state, {type: 'next'}, {type: 'move', delta: 1}, {type: 'previous'});
		expect(state.pending).toBeNull();
		expect(state.queue).toEqual([]);
		expect(state.entries).toHaveLength(1);
		expect(notice(state)).toBe('stopped loading the next page');
	});

	it('← while → keys wait takes back the last of them, with the row moves meant for its page', () => {
		let state = answer(start(), p1);
		// → → j ← in one read, p2 still on its way: one → is left, and it lands on p2.
		state = apply(state, {type: 'next'}, {type: 'next'}, {type: 'move', delta: 1}, {type: 'previous'});
		expect(state.pending).toMatchObject({url: url('c'), kind: 'push'});
		expect(state.queue).toEqual([]);
		// Said (it was silent): the page the walk now stops at, still said once that page is here.
		expect(notice(state)).toBe('← took back a waiting →: stopping at page 2, not 3');
		state = answer(state, p2);
		expect(state.entries.map(entry => entry.url)).toEqual([url(), url('c')]);
		expect(notice(state)).toBe('← took back a waiting →: stopping at page 2, not 3');
		// → → → ← : two → left, page 3 the last.
		state = answer(start(), p1);
		state = apply(state, {type: 'next'}, {type: 'next'}, {type: 'next'}, {type: 'previous'});
		expect(notice(state)).toBe('← took back a waiting →: stopping at page 3, not 4');
		state = answer(state, p2);
		state = answer(state, p3);
		expect(state.entries).toHaveLength(3);
		expect(notice(state)).toBe('← took back a waiting →: stopping at page 3, not 4');
		// → → ← ← : back where it started, the load stopped.
		state = answer(start(), p1);
		state = apply(state, {type: 'next'}, {type: 'next'}, {type: 'previous'}, {type: 'previous'});
		expect(state.pending).toBeNull();
		expect(state.entries).toHaveLength(1);
		expect(notice(state)).toBe('stopped loading the next page');
		// A new order waiting after → keeps ← in line behind it.
		state = answer(start(), p1);
		state = apply(state, {type: 'next'}, {type: 'refresh'}, {type: 'previous'});
		expect(state.queue.map(action => action.type)).toEqual(['refresh', 'previous']);
	});

	it('← while the first page or a new walk loads waits for it instead of cancelling it', () => {
		let state = reduce(start(), {type: 'previous'});
		expect(state.pending).toMatchObject({kind: 'reset', url: url()});
		state = answer(state, p1);
		expect(notice(state)).toBe('already on the first page');
		state = apply(state, {type: 'toggle-order'}, {type: 'previous'});
		expect(state.pending?.kind).toBe('reset');
		expect(state.queue).toEqual([{type: 'previous'}]);
	});

	it('the end of the list is only an empty next_uri; short and empty pages continue', () => {
		let state = answer(start(), {url: url(), ids: [], next: url('x')});
		expect(state.prefetch?.url).toBe(url('x'));
		state = reduce(state, {type: 'next'});
		state = answer(state, {url: url('x'), ids: ['q'], next: null});
		expect(state.prefetch).toBeNull();
		state = reduce(state, {type: 'next'});
		expect(notice(state)).toBe('end of list: next_uri is empty');
		expect(state.pending).toBeNull();
	});

	it('a next_uri pointing at the same page ends instead of looping, in the words dump stops with', () => {
		let state = answer(start(), {url: url(), ids: [], next: url()});
		expect(state.prefetch).toBeNull();
		state = reduce(state, {type: 'next'});
		expect(notice(state)).toBe('stopped: page 1 was empty and its next_uri repeats its own request, so the list cannot advance');
		state = answer(start(), {url: url(), ids: ['a'], next: url()});
		expect(state.prefetch).toBeNull();
		state = reduce(state, {type: 'next'});
		expect(notice(state)).toBe('stopped: the next_uri of page 1 leads back to page 1, so following it would loop');
		expect(state.pending).toBeNull();
	});

	it('a failed load keeps the page on screen, and r retries the same request', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'failed', requestId: state.prefetch!.requestId, message: 'x'});
		state = apply(state, {type: 'next'}, {type: 'move', delta: 1});
		state = reduce(state, {type: 'failed', requestId: state.pending!.requestId, message: '503 service unavailable'});
		expect(state.error).toEqual({message: '503 service unavailable', url: url('c'), kind: 'push', retryable: true});
		expect(notice(state)).toBe('1 key pressed while loading dropped');
		expect(top(state)?.url).toBe(url());
		state = reduce(state, {type: 'refresh'});
		expect(state.pending).toMatchObject({url: url('c'), kind: 'push'});
		expect(state.error).toBeNull();
		state = answer(state, p2);
		expect(state.entries).toHaveLength(2);
	});

	it('r refetches the page and says whether it changed', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'refresh'});
		expect(state.pending?.kind).toBe('refresh');
		state = answer(state, p1);
		expect(notice(state)).toBe('refreshed: page unchanged');
		state = reduce(state, {type: 'refresh'});
		state = answer(state, {...p1, ids: ['new', 'a', 'b']});
		expect(notice(state)).toBe('refreshed: page changed (1 new, 1 gone)');
	});

	it('row keys during a refresh apply to the page on screen', () => {
		let state = answer(start(), p1);
		state = apply(state, {type: 'refresh'}, {type: 'move', delta: 1});
		expect(top(state)?.selected).toBe(1);
	});

	it('reports retries of the request in flight', () => {
		let state = start();
		state = reduce(state, {type: 'retrying', requestId: 1, retry: {attempt: 1, waitMs: 1000, reason: '429'}});
		expect(retryText(state.pending!.retrying!)).toBe('429: retry 1 in 1 s');
	});

	it('keeps only a bounded number of pages in memory and refetches evicted ones on the way back', () => {
		let state = answer(start(url(), 2), {url: url(), ids: ['a'], next: url('a')});
		for (const [from, to] of [['a', 'b'], ['b', 'c'], ['c', 'd']] as const) {
			state = answer(state, {url: url(from), ids: [to], next: url(to)});
			state = reduce(state, {type: 'next'});
		}

		expect(state.entries.map(e => e.page !== null)).toEqual([false, false, true, true]);
		state = reduce(state, {type: 'previous'});
		expect(state.pending).toBeNull();
		state = reduce(state, {type: 'previous'});
		expect(state.pending).toMatchObject({kind: 'pop', url: url('a')});
		state = answer(state, {url: url('a'), ids: ['b'], next: url('b')});
		expect(state.entries.map(e => e.url)).toEqual([url(), url('a')]);
	});

	it('filters count against the filtered rows', () => {
		let state = answer(start(), p1);
		state = apply(state, {type: 'move', delta: 2}, {type: 'set-filter', filter: 'object b'});
		expect(top(state)?.selected).toBe(0);
		state = reduce(state, {type: 'move', delta: 5});
		expect(top(state)?.selected).toBe(0);
	});

	it('a new filter keeps the selected object selected, or the first row after it', () => {
		let state = answer(start(), p1);
		state = apply(state, {type: 'move', delta: 2});
		expect(top(state)?.selected).toBe(2);
		state = reduce(state, {type: 'set-filter', filter: 'object c'});
		expect(top(state)?.selected).toBe(0);
		state = reduce(state, {type: 'set-filter', filter: ''});
		expect(top(state)?.selected).toBe(2);
		// Hidden by the new filter: the first row after it, else the last.
		state = reduce(state, {type: 'set-filter', filter: 'object a'});
		expect(top(state)?.selected).toBe(0);
	});

	it('F follows the newest end: a poll asks ending_before the first object; nothing new costs nothing more, an arrival loads the page again, counted and marked', () => {
		let state = answer(start(), p1);
		state = reduce(state, {type: 'follow'});
		expect(state.follow).toEqual({count: 0, fresh: [], failures: 0});
		state = reduce(state, {type: 'follow-poll'});
		expect(state.pending).toMatchObject({kind: 'probe'});
		expect(new URL(state.pending!.url).searchParams.get('ending_before')).toBe('a');
		// Nothing new: the page stays as it is.
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: []})});
		expect(state.pending).toBeNull();
		expect(top(state)?.page?.objects.map(object => object.id)).toEqual(['a', 'b', 'c']);
		// Two arrived: the first page again, with them on top.
		state = reduce(state, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: ['y', 'z']})});
		expect(state.pending).toMatchObject({kind: 'refresh', url: url()});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['y', 'z', 'a'], next: url('a')})});
		expect(state.follow).toEqual({count: 2, fresh: ['y', 'z'], failures: 0});
		expect(top(state)?.page?.objects.map(object => object.id)).toEqual(['y', 'z', 'a']);
		// The marks fade at the next poll that brings nothing.
		state = reduce(state, {type: 'follow-poll'});
		state = reduce(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: state.pending!.url, ids: []})});
		expect(state.follow?.fresh).toEqual([]);
		// A failure keeps following, counted so the next pause is longer.
		state = reduce(state, {type: 'follow-poll'});
		state = reduce(state, {type: 'failed', requestId: state.pending!.requestId, message: '429'});
		expect(state.follow?.failures).toBe(1);
		state = reduce(state, {type: 'unfollow'});
		expect(state.follow).toBeNull();
		expect(notice(state)).toBe('stopped following: 2 new objects arrived (F follows again)');
	});

	it('F from a deeper page in desc goes to the first page; in asc it follows the page on screen past its last object', () => {
		let state = reduce(walkedTo3(), {type: 'follow'});
		expect(state.entries).toHaveLength(1);
		expect(top(state)?.url).toBe(url());
		const asc = initialState({startUrl: url(), settings: {order: 'asc', limit: 3}});
		state = reduce(asc, {type: 'loaded', requestId: 1, page: makePage({url: url(), ids: ['a', 'b'], order: 'asc'})});
		state = apply(state, {type: 'follow'}, {type: 'follow-poll'});
		expect(new URL(state.pending!.url).searchParams.get('starting_after')).toBe('b');
	});

	it('firstPageUrl drops cursors and sets order and limit', () => {
		expect(firstPageUrl('http://x.test/v2/accounts?starting_after=a&limit=3', {order: 'asc', limit: 10})).toBe(
			'http://x.test/v2/accounts?limit=10&order=asc',
		);
	});
});
