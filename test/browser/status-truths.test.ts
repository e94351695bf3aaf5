/**
 * What the status area says is true of the state, by construction: a wait
 * is worded once and always with its time left, a stale word does not stay,
 * a retry offer does not read as a count, and what the server reported
 * differs visibly from what was sent.
 */
import {describe, expect, it} from 'vitest';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {errorText, fitSegments, hintSegments, joinSegments, paneTitle, retryText, statusModel, waitingText} from '../../source/browser/view/status-model.js';
import {messageLine} from '../../source/browser/view/table-screen.js';
import {debugLines} from '../../source/browser/view/debug-lines.js';
import {makePage, url} from './pages.js';
import type {PageStackState} from '../../source/browser/stack/types.js';

const input = {api: 'account', endpoint: '/v2/accounts', spinner: '⠋', filter: '', visible: 0};

function landed(state: PageStackState, page: Parameters<typeof makePage>[0]): PageStackState {
	const [wanted] = wantedRequests(state);
	return reduce(state, {type: 'loaded', requestId: wanted!.requestId, page: makePage(page)});
}

describe('a wait for the request budget', () => {
	const budget = {attempt: 0, waitMs: 54_000, reason: '0 of 10 left', pacing: true as const, since: 1_000_000};

	it('is worded once: no doubled words, the time left counted down', () => {
		expect(waitingText(budget, 1_000_000)).toBe('request budget spent (0 of 10 left): next request in 54 s');
		expect(waitingText(budget, 1_010_000, true)).toBe('request budget spent (0 of 10 left): next request in 44 s (← stops)');
		// The debug view's words are the same words.
		expect(retryText(budget)).toBe('request budget spent (0 of 10 left): next request in 54 s');
	});

	it('what a key did during the wait is said before it, not hidden by it', () => {
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 3}});
		state = landed(state, {url: url(), ids: ['a', 'b', 'c'], next: url('c')});
		// → → ← while page 2 waits for the budget: the second → is taken back.
		state = reduce(state, {type: 'next'});
		state = reduce(state, {type: 'retrying', requestId: state.pending!.requestId, retry: budget});
		state = reduce(state, {type: 'next'});
		state = reduce(state, {type: 'previous'});
		expect(state.notice).toEqual({kind: 'took-back', stopsAt: 2});
		expect(statusModel({...input, state, now: 1_004_000}).message).toEqual({
			id: 'waiting', tone: 'warn',
			text: '← took back a waiting →: stopping at page 2, not 3 · request budget spent (0 of 10 left): next request in 50 s (← stops)',
		});
	});

	it('the debug pane counts the same wait down as the message line', () => {
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 3}});
		state = reduce(state, {type: 'retrying', requestId: 1, retry: budget});
		const inFlight = (now?: number) => debugLines(state, now).find(line => line.startsWith('in flight: '));
		expect(inFlight(1_009_000)).toBe(`in flight: ${url()} (request budget spent (0 of 10 left): next request in 45 s)`);
		expect(statusModel({...input, state, now: 1_009_000}).message?.text).toBe('request budget spent (0 of 10 left): next request in 45 s');
		// Without a time (the reducer counting the pane's rows): the whole wait.
		expect(inFlight()).toContain('next request in 54 s');
	});

	it('that the prefetch is in is said, with its time, once → adopts it (not a bare spinner)', () => {
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 3}});
		state = landed(state, {url: url(), ids: ['a', 'b', 'c'], next: url('c')});
		const prefetch = state.prefetch!.requestId;
		state = reduce(state, {type: 'retrying', requestId: prefetch, retry: budget});
		state = reduce(state, {type: 'next'});
		expect(state.pending).toMatchObject({requestId: prefetch, kind: 'push'});
		const model = statusModel({...input, state, now: 1_004_000});
		expect(model.message).toEqual({id: 'waiting', text: 'request budget spent (0 of 10 left): next request in 50 s (← stops)', tone: 'warn'});
		// Said once: the location line does not repeat it.
		expect(model.location.at(-1)!.text).toBe('⠋ loading page 2…');
		// A note over the message line: the location line counts the same wait down, not the time it had when it began.
		const noted = statusModel({...input, state: {...state, notice: {kind: 'nothing-to-write'}}, now: 1_004_000});
		expect(noted.message?.id).toBe('notice');
		expect(noted.location.at(-1)!.text).toBe('⠋ loading page 2… (next request in 50 s)');
	});
});

describe('words that go stale', () => {
	it('"retrying" goes once the retried page is here', () => {
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 3}});
		state = reduce(state, {type: 'failed', requestId: 1, message: '503'});
		state = reduce(state, {type: 'refresh'});
		expect(statusModel({...input, state}).message?.text).toBe('retrying');
		state = landed(state, {url: url(), ids: ['a'], next: null});
		expect(state.notice).toBeNull();
		expect(statusModel({...input, state, visible: 1}).message).toBeNull();
	});
});

describe('an error banner', () => {
	it('offers r as a key and what it does, never "r retries" (a count)', () => {
		const error = {message: 'The account API failed (503); try again later.', url: url(), kind: 'push' as const, retryable: true};
		expect(errorText(error, false)).toBe('error (r: retry): The account API failed (503); try again later.');
		expect(errorText({...error, retryable: false}, false)).toBe('error: The account API failed (503); try again later.');
	});
});

describe('the order on the location line', () => {
	it('is what the server reported, and what was sent when that differs, as the limit says', () => {
		let state = initialState({startUrl: url(undefined, '?order=desc&limit=10'), settings: {order: 'desc', limit: 10}});
		state = landed(state, {url: url(undefined, '?order=desc&limit=10'), ids: ['a'], order: 'asc', limit: 25});
		expect(joinSegments(statusModel({...input, state, visible: 1}).location)).toBe('account /v2/accounts · page 1 · from the start · asc (sent desc) · limit 25 (sent 10) · seen 1 · 12 ms');
		state = initialState({startUrl: url(undefined, '?order=desc'), settings: {order: 'desc', limit: 25}});
		state = landed(state, {url: url(undefined, '?order=desc'), ids: ['a']});
		expect(statusModel({...input, state, visible: 1}).location.find(segment => segment.id === 'order')!.text).toBe('desc');
	});
});

describe('a line too narrow for its segments', () => {
	const segments = (...ids: string[]) => ids.map(id => ({id, text: `${id} text`, tone: 'plain' as const}));

	it('leaves out whole segments, the least needed first, never the limit or the order', () => {
		const line = segments('api', 'page', 'start', 'order', 'limit', 'seen', 'latency');
		expect(fitSegments(line, 1000).map(segment => segment.id)).toEqual(['api', 'page', 'start', 'order', 'limit', 'seen', 'latency']);
		expect(fitSegments(line, 80).map(segment => segment.id)).toEqual(['api', 'page', 'start', 'order', 'limit', 'seen']);
		expect(fitSegments(line, 60).map(segment => segment.id)).toEqual(['api', 'page', 'order', 'limit', 'seen']);
		expect(fitSegments(line, 50).map(segment => segment.id)).toEqual(['api', 'page', 'order', 'limit']);
		// The place's name is cut last, so what follows it stays whole.
		expect(joinSegments(fitSegments(line, 44))).toBe('api t… · page text · order text · limit text');
	});

	it('what is loading is said shorter before the place\'s name is cut (the first page at 60 columns)', () => {
		const state = initialState({startUrl: url(), settings: {order: 'desc', limit: 5}});
		const wide = statusModel({...input, state}).location;
		expect(joinSegments(fitSegments(wide, 200))).toBe('account /v2/accounts · page – · desc · limit 5 · seen 0 · ⠋ → loading desc from the start…');
		const narrow = joinSegments(fitSegments(wide, 60));
		expect(narrow).toBe('account /v2/accounts · page – · desc · limit 5 · ⠋ loading…');
		expect(narrow.length).toBeLessThanOrEqual(60);
		// Waiting: the wait is on the message line, the location line says it is loading.
		const waiting = reduce(state, {type: 'retrying', requestId: 1, retry: {attempt: 0, waitMs: 57_000, reason: '0 of 3 left', pacing: true, since: 0}});
		const model = statusModel({...input, state: waiting, now: 3000});
		expect(model.message?.text).toBe('request budget spent (0 of 3 left): next request in 54 s');
		expect(joinSegments(fitSegments(model.location, 60))).toBe('account /v2/accounts · page – · desc · limit 5 · ⠋ loading…');
	});

	it('the keys\' hint keeps Q quit, and ? help after it', () => {
		expect(joinSegments(hintSegments())).toBe('? help · ← → pages · Enter detail · d debug · Esc back · Q quit');
		expect(joinSegments(hintSegments(60))).toBe('? help · ← → pages · Enter detail · Esc back · Q quit');
		expect(joinSegments(hintSegments(20))).toBe('? help · Q quit');
	});

	it('a pane\'s title keeps how it closes and the wrap mode: the position goes, then its name is cut', () => {
		const parts = {title: 'compare: COINBASE_ACCESS_TOKEN against COMPARE_TOKEN', position: 'lines 1–8 of 30', mode: 'wrap off'};
		expect(paneTitle(parts)).toBe('compare: COINBASE_ACCESS_TOKEN against COMPARE_TOKEN · lines 1–8 of 30 · wrap off · q or Esc closes');
		expect(paneTitle(parts, 85)).toBe('compare: COINBASE_ACCESS_TOKEN against COMPARE_TOKEN · wrap off · q or Esc closes');
		expect(paneTitle(parts, 60)).toBe('compare: COINBASE_ACCESS_TOKEN… · wrap off · q or Esc closes');
	});
});

describe('the budget on the location line', () => {
	it('is the one the server stated last, not the one it stated when the page on screen came', () => {
		const page = (at: number, remaining: string, next: string | null, cursor?: string) => ({...makePage({url: url(cursor), ids: [`o${at}`], next}), startedAt: at, responseHeaders: {'ratelimit-remaining': remaining, 'ratelimit-limit': '10'}});
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 1}});
		state = reduce(state, {type: 'loaded', requestId: 1, page: page(1, '9', url('o1'))});
		state = reduce(state, {type: 'loaded', requestId: state.prefetch!.requestId, page: page(2, '8', url('o2'), 'o1')});
		state = reduce(state, {type: 'next'});
		state = reduce(state, {type: 'loaded', requestId: state.prefetch!.requestId, page: page(3, '7', null, 'o2')});
		state = reduce(state, {type: 'previous'});
		expect(state.entries).toHaveLength(1);
		expect(statusModel({...input, state, visible: 1}).location.find(segment => segment.id === 'budget')!.text).toBe('budget 7/10');
	});
});

describe('the message line', () => {
	it('a wait too long for one line is wrapped, not cut at "(←…"', () => {
		const model = {location: [], page: [], message: {id: 'waiting', text: 'request budget spent (0 of 4 left): next request in 55 s (← stops)', tone: 'warn' as const}};
		expect(messageLine(model, undefined, null, null, 60, 9)).toEqual({kind: 'wrapped', lines: ['request budget spent (0 of 4 left): next request in 55 s (←', 'stops)'], tone: 'warn'});
		expect(messageLine(model, undefined, null, null, 80, 9)).toMatchObject({kind: 'message', text: model.message.text});
	});
});
