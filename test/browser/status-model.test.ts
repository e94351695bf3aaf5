import {describe, expect, it} from 'vitest';
import {initialState, pageStackReducer, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {overlayLines} from '../../source/browser/view/pane-lines.js';
import {startState} from '../../source/browser/state/browser-state.js';
import {matchesOffScreen} from '../../source/browser/stack/cells.js';
import {errorText, joinSegments, limitText, offScreenText, statusLegend, statusModel, walkStart} from '../../source/browser/view/status-model.js';
import {makePage, url} from './pages.js';
import type {PageStackState} from '../../source/browser/stack/types.js';

function withPage(page: Parameters<typeof makePage>[0], startUrl = url()) {
	const state = initialState({startUrl, settings: {order: 'desc', limit: 25}});
	return pageStackReducer(state, {type: 'loaded', requestId: 1, page: makePage(page)});
}

const input = {api: 'account', endpoint: '/v2/accounts', spinner: '⠋', filter: '', visible: 0};

describe('status line model', () => {
	it('shows where we are and that a short page is not the end', () => {
		const state = withPage({url: url(), ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], next: url('g')});
		const model = statusModel({...input, state, visible: 7});
		expect(joinSegments(model.location)).toBe('account /v2/accounts · page 1 · from the start · desc · limit 25 · seen 7 · 12 ms');
		expect(joinSegments(model.page)).toBe('row 1/7 · 7/25 short · more pages follow · total/yielded not provided');
		expect(model.page[1]!.tone).toBe('warn');
		expect(model.message).toBeNull();
	});

	it('says end of list only on an empty next_uri, and marks empty pages', () => {
		expect(joinSegments(statusModel({...input, state: withPage({url: url(), ids: ['a'], next: null})}).page)).toBe(
			'row – · 1/25 short · end of list · total/yielded not provided',
		);
		expect(joinSegments(statusModel({...input, state: withPage({url: url(), ids: [], next: url('z')})}).page)).toBe(
			'row – · 0/25 empty · more pages follow · total/yielded not provided',
		);
	});

	it('shows commerce total and yielded', () => {
		const state = withPage({url: url(), ids: ['a'], next: null, api: 'commerce', limit: 1});
		expect(joinSegments(statusModel({...input, state}).page)).toBe('row – · 1/1 · end of list · total 100 · yielded 1');
	});

	it('a copy or save note is the message, inert, ahead of a running search, and never over an error', () => {
		const state = withPage({url: url(), ids: ['a'], next: url('a')});
		const note = {kind: 'write-failed' as const, message: 'copied \u001B[2Jthe id'};
		const search = {direction: 'forward' as const, page: 3, searched: 2};
		expect(statusModel({...input, state: {...state, notice: note}, search}).message).toEqual({id: 'notice', text: 'copied \\x1b[2Jthe id', tone: 'warn'});
		const refreshing = pageStackReducer(state, {type: 'refresh'});
		const failed = pageStackReducer(refreshing, {type: 'failed', requestId: refreshing.pending!.requestId, message: 'boom'});
		expect(statusModel({...input, state: {...failed, notice: note}}).message?.id).toBe('error');
	});

	it('spins while loading, marks a walk from a cursor, and shows errors inert with how to retry', () => {
		let state = withPage({url: url('c'), ids: ['d'], next: url('d')}, url('c'));
		state = pageStackReducer(state, {type: 'refresh'});
		let model = statusModel({...input, state});
		expect(joinSegments(model.location)).toBe('account /v2/accounts · page 1 · started after c · desc · limit 25 · seen 1 · ⠋ refreshing');
		state = pageStackReducer(state, {type: 'failed', requestId: state.pending!.requestId, message: 'HTTP 503 \u001B[2J'});
		model = statusModel({...input, state, filter: 'bt', visible: 0});
		expect(model.message).toEqual({id: 'error', text: 'error (r: retry): HTTP 503 \\x1b[2J', tone: 'bad'});
		expect(model.page[3]!.text).toBe('filter "bt": 0 shown');
	});

	it('says which columns off screen let rows through the filter, and counts only rows with no match in sight', () => {
		const rows = [
			{cells: new Map([['id', 'a'], ['name', 'USD Wallet'], ['note', 'wallet one']])},
			{cells: new Map([['id', 'b'], ['name', 'Savings'], ['note', 'a wallet'], ['memo', 'Wallet']])},
			{cells: new Map([['id', 'c'], ['name', 'Savings'], ['tag', 'WALLET']])},
		];
		const matches = matchesOffScreen(rows, ' Wallet ', new Set(['id', 'name']));
		expect(matches).toEqual({rows: 2, columns: ['note', 'memo', 'tag']});
		expect(offScreenText(matches)).toBe(' (2 matched only in hidden columns note, memo +1)');
		expect(offScreenText(matchesOffScreen(rows, 'savings', new Set(['id', 'name'])))).toBe('');
		expect(offScreenText(matchesOffScreen(rows.slice(2), 'wallet', new Set(['id'])))).toBe(' (1 matched only in hidden column tag)');
		expect(matchesOffScreen(rows, '', new Set(['id']))).toEqual({rows: 0, columns: []});
		const state = withPage({url: url(), ids: ['a', 'b'], next: null});
		expect(joinSegments(statusModel({...input, state, filter: 'wallet', visible: 3, offScreenMatches: matches}).page)).toContain('filter "wallet": 3 shown (2 matched only in hidden columns note, memo +1)');
	});

	it('says what an order toggle did', () => {
		const state = pageStackReducer(withPage({url: url(), ids: ['a'], next: null}), {type: 'toggle-order'});
		expect(statusModel({...input, state}).message?.text).toBe('order asc: new walk from the first page');
	});

	it('while a new walk loads, shows the order of the page on screen and what is coming', () => {
		const state = pageStackReducer(withPage({url: url(), ids: ['a'], next: null}), {type: 'toggle-order'});
		const model = statusModel({...input, state});
		expect(joinSegments(model.location)).toBe('account /v2/accounts · page 1 · from the start · desc · limit 25 · seen 0 · ⠋ → loading asc from the start…');
	});

	it('says which page is loading on → and ←', () => {
		const state = pageStackReducer(withPage({url: url(), ids: ['a'], next: url('a')}), {type: 'next'});
		expect(statusModel({...input, state}).location.at(-1)?.text).toBe('⠋ loading page 2…');
	});

	it('shows the limit as the server reports it, and why when that is not what was sent', () => {
		expect(limitText(makePage({url: url(undefined, '?limit=0'), ids: ['a'], limit: 25}), 25)).toBe('limit 25 (sent 0; server default)');
		expect(limitText(makePage({url: url(undefined, '?limit=25'), ids: ['a'], limit: 26}), 26)).toBe('limit 26 (sent 25)');
		expect(limitText(makePage({url: url(), ids: ['a'], limit: 25}), 25)).toBe('limit 25');
	});

	it('names where a walk started', () => {
		expect(walkStart(url())).toBe('from the start');
		expect(walkStart(url('abc'))).toBe('started after abc');
		expect(walkStart(url(undefined, '?ending_before=xyz'))).toBe('started before xyz');
	});

	it('stops at --max-pages with a sentence, not following next_uri', () => {
		let state = initialState({startUrl: url(), settings: {order: 'desc', limit: 1}, bounds: {maxPages: 1, maxItems: null}});
		state = pageStackReducer(state, {type: 'loaded', requestId: state.pending!.requestId, page: makePage({url: url(), ids: ['a'], next: url('a'), limit: 1})});
		expect(state.prefetch).toBeNull();
		state = pageStackReducer(state, {type: 'next'});
		expect(state.pending).toBeNull();
		expect(statusModel({...input, state}).message?.text).toBe('stopped at --max-pages 1: → follows next_uri no further (the list goes on)');
	});
});

describe('error advice that fits where it happened', () => {
	const problem = 'The account API has no such list (404 not_found: There is no /v2/accounts/a1/deposits)';
	const failure = {message: `${problem}; check the endpoint path and the base URL.`, url: 'http://h/v2/accounts/a1/deposits', kind: 'reset' as const, retryable: false, problem};

	it('a related list the server does not serve: not "check the endpoint path", which the user never typed', () => {
		expect(errorText(failure, true)).toBe(`error: ${problem}; this server does not serve that list for this object (Esc goes back)`);
		expect(errorText(failure, false)).toBe(`error: ${problem}; check the endpoint path and the base URL.`);
	});

	it('a refused jump: the id typed, without the endpoint and query advice', () => {
		const refused = {message: 'The account API rejected the request (400 validation_error: bad id); check the endpoint and the query flags.', url: 'u', kind: 'reset' as const, retryable: false, problem: 'The account API rejected the request (400 validation_error: bad id)', jump: true as const};
		expect(errorText(refused, false)).toBe('jump failed, the page stays (: tries another id): The account API rejected the request (400 validation_error: bad id)');
	});
});

/** Lands every page asked for from `pages` (by URL) until none is wanted, then returns the state. */
function answer(state: PageStackState, pages: Record<string, string[]>): PageStackState {
	for (let wanted = wantedRequests(state); wanted.length > 0; wanted = wantedRequests(state)) {
		const [request] = wanted;
		const cursor = new URL(request!.url).searchParams.get('starting_after');
		const ids = pages[cursor ?? ''] ?? [];
		state = pageStackReducer(state, {type: 'loaded', requestId: request!.requestId, page: makePage({url: request!.url, ids, next: ids.length > 0 && cursor !== 'c' ? url(ids.at(-1)) : null, limit: 3})});
	}

	return state;
}

describe('the status line\'s legend (help pane)', () => {
	it('is in the help pane, after the keys', () => {
		const state = {...startState({startUrl: url(), settings: {order: 'desc', limit: 3}, compareLabels: null, endpoint: '/v2/accounts', api: 'account'}), screen: {kind: 'help' as const, scroll: 0}};
		const lines = overlayLines(state);
		expect(lines.slice(-statusLegend().length)).toEqual(statusLegend());
		expect(lines).toContain('  seen N         distinct objects this walk has shown, each id counted once however often it is shown; a new walk (o + - L :) starts again from 0');
	});

	it('seen N is what it says: each id once, kept by ← → and 0, from 0 again on a new walk', () => {
		// Page 2 repeats b: seen once.
		const pages = {'': ['a', 'b', 'c'], c: ['b', 'd', 'e']};
		const seen = (state: PageStackState) => joinSegments(statusModel({...input, state}).location).match(/seen \d+/)![0];
		let state = answer(initialState({startUrl: url(), settings: {order: 'desc', limit: 3}}), pages);
		expect(seen(state)).toBe('seen 3');
		state = answer(pageStackReducer(state, {type: 'next'}), pages);
		expect(seen(state)).toBe('seen 5');
		state = answer(pageStackReducer(state, {type: 'previous'}), pages);
		state = answer(pageStackReducer(state, {type: 'next'}), pages);
		state = answer(pageStackReducer(state, {type: 'first'}), pages);
		expect(seen(state)).toBe('seen 5');
		state = answer(pageStackReducer(state, {type: 'change-limit', delta: 1}), pages);
		expect(seen(state)).toBe('seen 3');
	});
});
