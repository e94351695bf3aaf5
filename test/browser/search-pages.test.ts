/**
 * Search across pages (`n`, `N`) as a pure async loop over the real client
 * and the sandbox over HTTP: where it lands, what it keeps, when it stops
 * (a match, the end of the list, a bound, Esc through the AbortSignal, an
 * error), and how the page stack takes its one landing.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {searchPages, throttled, type LoadPage, type SearchOptions} from '../../source/browser/search/search-pages.js';
import {noticeText, walkStart} from '../../source/browser/view/status-model.js';
import {createClient, type PageClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import type {Page} from '../../source/contract/types.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {startFaultyServer, type FaultName} from '../support/faulty-server.js';
import {searchStart} from '../../source/browser/stack/search-landing.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {Bounds, PageStackState, StackAction, SearchDirection, SearchProgress} from '../../source/browser/stack/types.js';

const limit = 10;
const records = 300;
let sandbox: Sandbox;
let client: PageClient;
/** The list as a walk by hand reads it: the ids of page 1, 2, ... (30 pages of 10). */
let pageIds: string[][];

beforeAll(async () => {
	sandbox = await startSandbox({port: 0, records});
	const config = await resolveConfig({
		input: ['accounts'],
		flags: {baseUrl: sandbox.accountUrl, limit: String(limit), order: 'desc', retries: '0'},
		env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full},
	});
	client = createClient(config);
	pageIds = [];
	let next: string | null = client.firstUrl;
	while (next !== null) {
		// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
		const page: Page = await client.fetchPage(next);
		pageIds.push(page.objects.map(object => object.id));
		next = page.nextUrl;
	}
});

afterAll(async () => {
	await client.close();
	await sandbox.close();
});

/** The real client, counting the requests it is asked for. */
function counting(): {loadPage: LoadPage; urls: string[]} {
	const urls: string[] = [];
	return {
		urls,
		loadPage: async (url, options) => {
			urls.push(url);
			return client.fetchPage(url, options);
		},
	};
}

/** Answers every request the stack wants (and the prefetch) with the real client, until it wants none. */
async function settle(state: PageStackState): Promise<PageStackState> {
	let current = state;
	for (;;) {
		const [wanted] = wantedRequests(current);
		if (!wanted) {
			return current;
		}

		// eslint-disable-next-line no-await-in-loop -- one request at a time, as the app runs them
		const page = await client.fetchPage(wanted.url);
		current = reduce(current, {type: 'loaded', requestId: wanted.requestId, page});
	}
}

async function act(state: PageStackState, ...actions: StackAction[]): Promise<PageStackState> {
	let current = state;
	for (const action of actions) {
		// eslint-disable-next-line no-await-in-loop -- each action sees the state the one before left
		current = await settle(reduce(current, action));
	}

	return current;
}

/** A stack on page `n` of the list, walked with →, the filter set. */
async function stackOn(n: number, options: {filter?: string; bounds?: Bounds; maxCachedPages?: number} = {}): Promise<PageStackState> {
	let state = initialState({startUrl: client.firstUrl, settings: {order: 'desc', limit}, bounds: options.bounds, maxCachedPages: options.maxCachedPages});
	state = await settle(state);
	for (let page = 1; page < n; page++) {
		// eslint-disable-next-line no-await-in-loop -- one page after another
		state = await act(state, {type: 'next'});
	}

	return reduce(state, {type: 'set-filter', filter: options.filter ?? ''});
}

async function search(state: PageStackState, direction: SearchDirection, options: Partial<SearchOptions> = {}) {
	const {loadPage, urls} = counting();
	const outcome = await searchPages(state, direction, state.filter, {loadPage, signal: new AbortController().signal, ...options});
	const landed = reduce(state, {type: 'searched', outcome, from: searchStart(state)});
	return {outcome, landed, urls};
}

const ids = (state: PageStackState) => top(state)?.page?.objects.map(object => object.id);
const notice = (state: PageStackState) => (state.notice ? noticeText(state.notice) : null);

describe('searching forward (n)', () => {
	it('walks to the next page holding a match and lands there, the pages passed kept as URLs', async () => {
		const target = pageIds[5]![3]!;
		const state = await stackOn(1, {filter: target});
		const {outcome, landed} = await search(state, 'forward');
		expect(outcome.result).toBe('found');
		expect(outcome.searched).toBe(5);
		expect(landed.entries).toHaveLength(6);
		expect(ids(landed)).toEqual(pageIds[5]);
		// Pages passed are entries without their page (re-fetched on ←), with their fill mark.
		expect(landed.entries.slice(1, 5).map(entry => entry.page)).toEqual([null, null, null, null]);
		expect(landed.entries.slice(1, 5).every(entry => entry.fill?.kind === 'full')).toBe(true);
		expect(top(landed)!.selected).toBe(0);
		expect(landed.seen.size).toBe(60);
		expect(notice(landed)).toBe('match on page 6 (5 pages searched; ← walks back)');
		// → from the match is the page after it; ← re-fetches the page passed.
		const back = await act(landed, {type: 'previous'});
		expect(back.entries).toHaveLength(5);
		expect(ids(back)).toEqual(pageIds[4]);
	});

	it('uses the prefetched next page instead of asking for it again', async () => {
		const target = pageIds[3]![0]!;
		const state = await stackOn(1, {filter: target});
		expect(state.prefetch?.page).not.toBeNull();
		const {outcome, urls} = await search(state, 'forward');
		expect(outcome.result).toBe('found');
		expect(outcome.searched).toBe(3);
		// Pages 3 and 4, and page 5 read ahead while page 4 was matched (then aborted).
		expect(urls).toHaveLength(3);
		expect(urls).not.toContain(state.prefetch!.url);
	});

	it('says so when the list ends with no match, with the pages searched, and does not move', async () => {
		const state = await stackOn(2, {filter: 'no such text anywhere'});
		const {outcome, landed} = await search(state, 'forward');
		expect(outcome).toMatchObject({result: 'end', end: 'no-next-uri', searched: 28, landing: null});
		expect(landed.entries).toHaveLength(2);
		expect(ids(landed)).toEqual(pageIds[1]);
		expect(notice(landed)).toBe('no match for "no such text anywhere" in the 28 pages after this one: the list ends there');
	});

	it('stops at its own bound without --max-pages, on the last page searched, and n goes on from there', async () => {
		const target = pageIds[8]![0]!;
		const state = await stackOn(1, {filter: target});
		const first = await search(state, 'forward', {maxSearchPages: 3});
		expect(first.outcome).toMatchObject({result: 'bound', searched: 3, bound: {flag: 'search', limit: 3}});
		expect(first.landed.entries).toHaveLength(4);
		expect(ids(first.landed)).toEqual(pageIds[3]);
		expect(notice(first.landed)).toContain('(a search walks at most 3): n searches on from here');
		const again = await search(await settle(first.landed), 'forward', {maxSearchPages: 10});
		expect(again.outcome.result).toBe('found');
		expect(again.landed.entries).toHaveLength(9);
		expect(ids(again.landed)).toEqual(pageIds[8]);
	});

	it('stops at --max-pages: the walk goes no further than → would', async () => {
		const state = await stackOn(1, {filter: pageIds[20]![0]!, bounds: {maxPages: 5, maxItems: null}});
		const {outcome, landed} = await search(state, 'forward');
		expect(outcome).toMatchObject({result: 'bound', searched: 4, bound: {flag: 'max-pages', limit: 5}});
		expect(landed.entries).toHaveLength(5);
		expect(notice(landed)).toContain('stopped at --max-pages 5 (the list goes on)');
	});

	it('Esc (the signal) stops it on the page reached, between pages or during a request', async () => {
		const state = await stackOn(1, {filter: 'no such text anywhere'});
		for (const during of [false, true]) {
			const controller = new AbortController();
			let count = 0;
			const loadPage: LoadPage = async (url, options) => {
				// This request's own number: the next page may be asked for before this one lands.
				const number = ++count;
				if (during && number === 3) {
					// Aborted with this request on its way: it never lands.
					const request = client.fetchPage(url, options);
					controller.abort();
					return request;
				}

				const page = await client.fetchPage(url, options);
				if (!during && number === 3) {
					controller.abort();
				}

				return page;
			};

			// eslint-disable-next-line no-await-in-loop -- two cases, one after the other
			const outcome = await searchPages(state, 'forward', state.filter, {loadPage, signal: controller.signal});
			const landed = reduce(state, {type: 'searched', outcome, from: searchStart(state)});
			// The prefetched page 2 cost no request: the third request is page 5's.
			const reached = during ? 4 : 5;
			expect(outcome.result).toBe('cancelled');
			expect(landed.entries).toHaveLength(reached);
			expect(ids(landed)).toEqual(pageIds[reached - 1]);
			expect(notice(landed)).toBe(`search stopped (Esc) after ${reached - 1} pages with no match: n goes on from here`);
		}
	});

	it('asks for the next page from the first bytes of the page it waits for, before that page lands', async () => {
		const state = await stackOn(1, {filter: pageIds[4]![0]!});
		const events: string[] = [];
		const loadPage: LoadPage = async (url, options) => {
			// Page n+1 is the one after the last object of page n.
			const after = new URL(url).searchParams.get('starting_after');
			const number = pageIds.findIndex(ids => ids.at(-1) === after) + 2;
			events.push(`ask ${number}`);
			const page = await client.fetchPage(url, options);
			events.push(`got ${number}`);
			return page;
		};

		const {outcome} = await search(state, 'forward', {loadPage});
		expect(outcome.result).toBe('found');
		// Page 2 was prefetched; each later page is asked for while the one before is still on its way.
		expect(events.slice(0, 5)).toEqual(['ask 3', 'ask 4', 'got 3', 'ask 5', 'got 4']);
	});

	it('reports progress with the page it looks at', async () => {
		const state = await stackOn(1, {filter: pageIds[4]![0]!});
		const seen: SearchProgress[] = [];
		await search(state, 'forward', {onProgress(progress) {
			seen.push(progress);
		}});
		expect(seen.map(progress => progress.page)).toEqual([2, 3, 4, 5]);
	});

	it('a page that fails stops the search on the page before it, and r retries that page', async () => {
		const state = await stackOn(1, {filter: 'no such text anywhere'});
		let count = 0;
		const loadPage: LoadPage = async (url, options) => {
			count += 1;
			// A cursor the server does not know: a real 400 from the sandbox.
			return client.fetchPage(count === 3 ? url.replace(/starting_after=[^&]+/, 'starting_after=00000000-0000-4000-8000-000000000000') : url, options);
		};

		const outcome = await searchPages(state, 'forward', state.filter, {loadPage, signal: new AbortController().signal});
		const landed = reduce(state, {type: 'searched', outcome, from: searchStart(state)});
		expect(outcome.result).toBe('failed');
		// Page 2 was prefetched, 3 and 4 fetched; page 5 failed.
		expect(landed.entries).toHaveLength(4);
		expect(landed.error).toMatchObject({kind: 'push', retryable: false});
		expect(landed.error!.message).toContain('400');
		const retried = await act(landed, {type: 'refresh'});
		expect(retried.entries).toHaveLength(5);
		expect(ids(retried)).toEqual(pageIds[4]);
	});

	it('an outcome for a stack that moved on meanwhile changes nothing', async () => {
		const state = await stackOn(1, {filter: pageIds[2]![0]!});
		const {outcome} = await search(state, 'forward');
		const moved = await act(state, {type: 'next'});
		expect(reduce(moved, {type: 'searched', outcome, from: searchStart(state)})).toBe(moved);
	});
});

describe('searching backward (N)', () => {
	it('walks down the stack, re-fetching evicted pages, and lands on the match', async () => {
		const target = pageIds[1]![2]!;
		const state = await stackOn(8, {filter: target, maxCachedPages: 3});
		expect(state.entries.filter(entry => entry.page === null).length).toBeGreaterThan(0);
		const {outcome, landed, urls} = await search(state, 'backward');
		expect(outcome).toMatchObject({result: 'found', searched: 6});
		// Pages 8 (on screen), 7 and 6 were in memory; 5 to 2 were fetched again (nothing read ahead going back).
		expect(urls).toHaveLength(4);
		expect(landed.entries).toHaveLength(2);
		expect(ids(landed)).toEqual(pageIds[1]);
		expect(notice(landed)).toBe('match on page 2 (6 pages searched back)');
	});

	it('goes on below the bottom of the stack through previous_uri', async () => {
		const target = pageIds[2]![4]!;
		// A walk that starts after the last object of page 5 (a jump): its page 1 is the list's page 6.
		let state = await stackOn(1);
		state = await act(state, {type: 'jump', cursor: 'starting_after', id: pageIds[4]!.at(-1)!});
		expect(ids(state)).toEqual(pageIds[5]);
		state = await act(state, {type: 'next'});
		state = reduce(state, {type: 'set-filter', filter: target});
		const {outcome, landed} = await search(state, 'backward');
		expect(outcome).toMatchObject({result: 'found', searched: 4});
		expect(landed.entries).toHaveLength(1);
		expect(ids(landed)).toEqual(pageIds[2]);
		expect(landed.entries[0]!.url).toContain(`ending_before=${pageIds[3]![0]!}`);
		expect(walkStart(landed.entries[0]!.url)).toMatch(/^started before [\da-f-]+…$/);
		expect(notice(landed)).toBe('match 4 pages back, before where this walk started (through previous_uri)');
	});

	it('says so at the start of the list with no match, and does not move', async () => {
		const state = await stackOn(4, {filter: 'no such text anywhere'});
		const {outcome, landed} = await search(state, 'backward');
		expect(outcome).toMatchObject({result: 'end', end: 'start-of-list', searched: 3});
		expect(landed.entries).toHaveLength(4);
		expect(notice(landed)).toBe('no match for "no such text anywhere" in the 3 pages before this one: the list starts there');
	});

	it('is bounded too: pages fetched again count', async () => {
		const state = await stackOn(9, {filter: 'no such text anywhere', maxCachedPages: 2});
		const {outcome, landed} = await search(state, 'backward', {maxSearchPages: 2});
		expect(outcome).toMatchObject({result: 'bound', bound: {flag: 'search', limit: 2}});
		// Page 8 from memory, 7 and 6 fetched: it stops on 6.
		expect(landed.entries).toHaveLength(6);
		expect(ids(landed)).toEqual(pageIds[5]);
	});
});

describe('one loop, both directions', () => {
	const nothing = 'no such text anywhere';
	/** Forward: from the list's page 1. Backward: from a walk that starts after page 15 (a jump), past its bottom through previous_uri. */
	async function from(direction: SearchDirection): Promise<PageStackState> {
		if (direction === 'forward') {
			return stackOn(1, {filter: nothing});
		}

		const state = await act(await stackOn(1), {type: 'jump', cursor: 'starting_after', id: pageIds[14]!.at(-1)!});
		return reduce(state, {type: 'set-filter', filter: nothing});
	}

	/** The list's pages a search reaches first, in its direction. */
	const reachedFirst = {forward: [1, 2, 3], backward: [14, 13, 12]};

	it.each(['forward', 'backward'] as const)('%s: at its bound, it lands on the last page it reached, and says so', async direction => {
		const {outcome, landed} = await search(await from(direction), direction, {maxSearchPages: 3});
		expect(outcome).toMatchObject({direction, result: 'bound', searched: 3, bound: {flag: 'search', limit: 3}});
		expect(ids(landed)).toEqual(pageIds[reachedFirst[direction][2]!]);
		expect(notice(landed)).toMatch(/^no match for "no such text anywhere" in 3 pages/);
	});

	it.each(['forward', 'backward'] as const)('%s: a page that fails stops it on the page before, and r asks for that page again', async direction => {
		const state = await from(direction);
		let calls = 0;
		const loadPage: LoadPage = async (url, options) => {
			calls += 1;
			if (calls === 2) {
				throw new Error('HTTP 503 from the test');
			}

			return client.fetchPage(url, options);
		};

		const outcome = await searchPages(state, direction, state.filter, {loadPage, signal: new AbortController().signal});
		const landed = reduce(state, {type: 'searched', outcome, from: searchStart(state)});
		// Forward, the page fetched ahead (page 2) is handed over without a request: the second request is page 4.
		const reached = direction === 'forward' ? 2 : 1;
		expect(outcome).toMatchObject({direction, result: 'failed', searched: reached});
		expect(ids(landed)).toEqual(pageIds[reachedFirst[direction][reached - 1]!]);
		expect(landed.error).toMatchObject({kind: direction === 'forward' ? 'push' : 'reset'});
		const retried = await act(landed, {type: 'refresh'});
		expect(ids(retried)).toEqual(pageIds[reachedFirst[direction][reached]!]);
	});

	it('backward: a page past the bottom that fails stops it on the bottom of the stack, the last page it reached', async () => {
		let state = await act(await from('backward'), {type: 'next'});
		expect(ids(state)).toEqual(pageIds[16]);
		state = reduce(state, {type: 'set-filter', filter: nothing});
		const loadPage: LoadPage = async () => {
			throw new Error('HTTP 503 from the test');
		};

		const outcome = await searchPages(state, 'backward', state.filter, {loadPage, signal: new AbortController().signal});
		expect(outcome).toMatchObject({result: 'failed', searched: 1, landing: {kind: 'stack', index: 0}});
		const landed = reduce(state, {type: 'searched', outcome, from: searchStart(state)});
		expect(landed.entries).toHaveLength(1);
		expect(ids(landed)).toEqual(pageIds[15]);
	});
});

describe('the walker\'s rules, in the search', () => {
	/** A stack on the first page of a faulty server's list, and a search over it with a real client. */
	async function faultySearch(fault: FaultName, filter: string, maxSearchPages?: number) {
		const faulty = await startFaultyServer();
		const config = await resolveConfig({
			input: ['accounts'],
			flags: {baseUrl: faulty.base(fault), retries: '0'},
			env: {COINBASE_ACCESS_TOKEN: 'token'},
		});
		const faultyClient = createClient(config);
		try {
			let state = initialState({startUrl: faultyClient.firstUrl, settings: {order: 'desc', limit: 3}});
			const [wanted] = wantedRequests(state);
			state = reduce(state, {type: 'loaded', requestId: wanted!.requestId, page: await faultyClient.fetchPage(wanted!.url)});
			state = reduce(state, {type: 'set-filter', filter});
			const urls: string[] = [];
			const outcome = await searchPages(state, 'forward', filter, {
				signal: new AbortController().signal,
				...(maxSearchPages === undefined ? {} : {maxSearchPages}),
				loadPage: async (url, options) => {
					urls.push(url);
					return faultyClient.fetchPage(url, options);
				},
			});
			return {outcome, urls};
		} finally {
			await faultyClient.close();
			await faulty.close();
		}
	}

	it('a next_uri leading back to a page of the stack ends the search as a loop, as it ends a walk', async () => {
		// 1 → 2 → 3 → 1 again, under a cursor not seen before: the walker knows page 1 by its objects.
		const {outcome, urls} = await faultySearch('cycle', 'no such text anywhere');
		expect(outcome).toMatchObject({result: 'end', end: 'loops-back', landing: null});
		expect(outcome.searched).toBe(2);
		// Pages 2 and 3, and the link back to page 1 read ahead from page 3's first bytes (then let go).
		expect(urls.length).toBeLessThanOrEqual(3);
	});

	it('endless empty pages with fresh cursors stop at the search\'s bound, not never', async () => {
		const {outcome} = await faultySearch('empty-fresh', 'anything', 40);
		expect(outcome).toMatchObject({result: 'bound', bound: {flag: 'search', limit: 40}});
		expect(outcome.searched).toBe(40);
	});
});

describe('throttled progress', () => {
	/** A clock the test moves by hand: `advance` runs what came due. */
	function manualClock() {
		let time = 0;
		let timers: Array<{at: number; run: () => void; id: number}> = [];
		let ids = 0;
		return {
			now: () => time,
			setTimeout(run: () => void, ms: number) {
				ids += 1;
				timers.push({at: time + ms, run, id: ids});
				return ids;
			},
			clearTimeout(id: unknown) {
				timers = timers.filter(timer => timer.id !== id);
			},
			/** Moves time on, running each timer that comes due at its own time. */
			advance(ms: number) {
				const target = time + ms;
				for (;;) {
					const due = timers.filter(timer => timer.at <= target).sort((a, b) => a.at - b.at)[0];
					if (!due) {
						break;
					}

					timers = timers.filter(timer => timer !== due);
					time = due.at;
					due.run();
				}

				time = target;
			},
			pending: () => timers.length,
		};
	}

	it('passes the first call, then at most one per interval, the last one held back made when it is over', () => {
		const clock = manualClock();
		const calls: number[] = [];
		const call = throttled((value: number) => {
			calls.push(value);
		}, 100, clock);
		for (let value = 0; value < 10; value++) {
			call(value);
			clock.advance(30);
		}

		// 0 at once; then 3 at 100 (held since 90), 6 at 200, 9 at 300: the last value is never lost.
		expect(calls).toEqual([0, 3, 6, 9]);
		expect(clock.pending()).toBe(0);
		call(10);
		expect(calls).toEqual([0, 3, 6, 9]);
		clock.advance(100);
		expect(calls).toEqual([0, 3, 6, 9, 10]);
	});

	it('without the leading call, the first one waits an interval', () => {
		const clock = manualClock();
		const calls: number[] = [];
		const call = throttled((value: number) => {
			calls.push(value);
		}, 100, clock, {leading: false});
		clock.advance(40);
		call(1);
		call(2);
		expect(calls).toEqual([]);
		clock.advance(60);
		expect(calls).toEqual([2]);
	});

	it('cancel drops the call held back', () => {
		const clock = manualClock();
		const calls: number[] = [];
		const call = throttled((value: number) => {
			calls.push(value);
		}, 100, clock);
		call(1);
		call(2);
		call.cancel();
		clock.advance(500);
		expect(calls).toEqual([1]);
	});
});
