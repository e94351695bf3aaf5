/**
 * Walks inside walks, as a pure reducer: Enter in the detail view opens a
 * related list as a new walk, Backspace returns to the parent exactly as it
 * was; request ids never repeat across walks.
 */
import {describe, expect, it} from 'vitest';
import {browserReducer, startState} from '../../source/browser/state/browser-state.js';
import type {BrowserAction} from '../../source/browser/state/browser-state.js';
import {overlayLines} from '../../source/browser/view/pane-lines.js';
import type {KeyFlags} from '../../source/browser/keys/keymap.js';
import {wantedRequests} from '../../source/browser/stack/page-stack.js';
import {breadcrumb, maxParents, openRelated, returnToParent} from '../../source/browser/related/related-walks.js';
import type {ListObject} from '../../source/contract/types.js';
import {makePage} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {BrowserState} from '../../source/browser/state/types.js';

const origin = 'http://x.test';
const startUrl = `${origin}/v2/accounts?limit=25&order=desc`;

function account(id: string, name: string | null = `${id} Wallet`): ListObject {
	return {id, name, resource: 'account', resource_path: `/v2/accounts/${id}`};
}

const accounts = [account('a1', 'BTC Wallet'), account('a2', null), account('a3')];
const firstPage = makePage({url: startUrl, objects: accounts, next: `${startUrl}&starting_after=a3`});

function start(options: {settings?: {order: 'asc' | 'desc'; limit: number}} = {}): BrowserState {
	return startState({startUrl, settings: options.settings ?? {order: 'desc', limit: 25}, firstPage, endpoint: '/v2/accounts', api: 'account'});
}

const flags: Record<string, KeyFlags> = {
	return: {return: true},
	backspace: {backspace: true},
	right: {rightArrow: true},
	left: {leftArrow: true},
	tab: {tab: true},
	shiftTab: {tab: true, shift: true},
	escape: {escape: true},
};

function press(state: BrowserState, ...keys: string[]): BrowserState {
	return keys.reduce((current, key) => browserReducer(current, {type: 'key', input: flags[key] ? '' : key, key: flags[key] ?? {}, bodyRows: 10, columns: 100} satisfies BrowserAction), state);
}

/** Answers the request the current walk is waiting on with `page`. */
function land(state: BrowserState, page: ReturnType<typeof makePage>): BrowserState {
	const requestId = state.stack.pending!.requestId;
	return browserReducer(state, {type: 'stack', action: {type: 'loaded', requestId, page}});
}

describe('related walks', () => {
	it('Enter on a row shows the related lists at the top of the detail; ← → and Tab choose one', () => {
		let state = press(start(), 'return');
		expect(state.screen).toEqual({kind: 'detail', scroll: 0});
		expect(overlayLines(state)[0]).toBe('related: [transactions] addresses deposits withdrawals buys sells  (← → Enter)');
		state = press(state, 'right', 'tab');
		expect(overlayLines(state)[0]).toMatch(/^related: transactions addresses \[deposits\]/);
		state = press(state, 'left', 'left', 'left');
		expect(overlayLines(state)[0]).toMatch(/^related: transactions addresses deposits withdrawals buys \[sells\]/);
		state = press(state, 'shiftTab');
		expect(overlayLines(state)[0]).toMatch(/\[buys\]/);
		// The stack did not move: ← → chose a list instead of a page.
		expect(state.stack.entries).toHaveLength(1);
		expect(state.stack.pending).toBeNull();
	});

	it('Enter in the detail opens the chosen list as a new walk, with its own stack in the browser\'s order and limit', () => {
		let state = press(start({settings: {order: 'asc', limit: 10}}), 'j', 'return', 'right', 'return');
		expect(state.screen).toEqual({kind: 'table'});
		expect(state.stack.entries).toEqual([]);
		expect(state.stack.pending).toMatchObject({kind: 'reset', url: `${origin}/v2/accounts/a2/addresses?limit=10&order=asc`});
		expect(state.stack.settings).toEqual({order: 'asc', limit: 10});
		expect(state.walks.place).toEqual({name: 'addresses', endpoint: '/v2/accounts/a2/addresses', columnsKey: '/v2/accounts/:id/addresses'});
		// a2 has no name: its id stands in for it.
		expect(breadcrumb(state.walks)).toBe('accounts › a2 › addresses');
		state = land(state, makePage({url: state.stack.pending!.url, ids: ['x1', 'x2']}));
		expect(top(state.stack)?.page?.objects.map(object => object.id)).toEqual(['x1', 'x2']);
	});

	it('Backspace returns to the parent exactly as it was: page, row, filter, columns, view', () => {
		let state = start();
		state = browserReducer(state, {type: 'stack', action: {type: 'set-filter', filter: 'Wallet'}});
		state = press(state, 'j', '>');
		const before = state;
		state = press(state, 'return', 'return');
		expect(breadcrumb(state.walks)).toBe('accounts › a3 Wallet › transactions');
		expect(state.stack.filter).toBe('');
		state = land(state, makePage({url: state.stack.pending!.url, ids: ['t1'], next: `${origin}/v2/accounts/a3/transactions?starting_after=t1`}));
		state = press(state, 'escape');
		state = press(state, 'backspace');
		expect(state.screen).toEqual({kind: 'table'});
		expect(state.walks.parents).toEqual([]);
		expect(state.walks.place).toEqual(before.walks.place);
		expect(state.view).toBe(before.view);
		expect(state.stack.entries).toBe(before.stack.entries);
		expect(state.stack.filter).toBe('Wallet');
		expect(top(state.stack)?.selected).toBe(1);
		// Backspace at the first walk does nothing.
		expect(press(state, 'backspace')).toBe(state);
	});

	it('keeps request ids unique across walks, and asks again what the parent still wanted', () => {
		let state = start();
		// The parent prefetches its next page; the child opens meanwhile.
		const parentWanted = wantedRequests(state.stack);
		expect(parentWanted).toHaveLength(1);
		state = press(state, 'return', 'return');
		const childWanted = wantedRequests(state.stack);
		expect(childWanted).toHaveLength(1);
		expect(childWanted[0]!.requestId).toBeGreaterThan(parentWanted[0]!.requestId);
		// The child walks on: its ids keep growing.
		state = land(state, makePage({url: childWanted[0]!.url, ids: ['t1'], next: `${origin}/v2/accounts/a1/transactions?starting_after=t1`}));
		const childPrefetch = wantedRequests(state.stack)[0]!;
		state = press(state, 'backspace');
		const again = wantedRequests(state.stack);
		expect(again).toHaveLength(1);
		expect(again[0]!.url).toBe(parentWanted[0]!.url);
		expect(again[0]!.requestId).toBeGreaterThan(childPrefetch.requestId);
		// An answer to the aborted child request changes nothing in the parent.
		const stale = browserReducer(state, {type: 'stack', action: {type: 'loaded', requestId: childPrefetch.requestId, page: makePage({url: childPrefetch.url, ids: ['t2']})}});
		expect(stale).toBe(state);
	});

	it('a parent still loading a page asks for it again, under a new id, on return', () => {
		let state = start();
		state = press(state, 'l');
		const pending = state.stack.pending;
		expect(pending).toMatchObject({kind: 'push'});
		// Enter opens detail on the row still shown; keys wait for the page, but Enter in detail is no page key.
		state = {...state, screen: {kind: 'detail', scroll: 0}};
		state = press(state, 'return');
		expect(state.walks.parents).toHaveLength(1);
		const child = state.stack.nextRequestId;
		state = press(state, 'backspace');
		expect(state.stack.pending).toMatchObject({kind: 'push', url: pending!.url});
		expect(state.stack.pending!.requestId).toBeGreaterThanOrEqual(child);
	});

	it('starts from the command\'s columns: the choice for the endpoint, and those remembered for related lists', () => {
		const initial = {order: ['id', 'name'], hidden: []};
		const remembered = {order: ['id', 'amount.value'], hidden: []};
		let state = startState({startUrl, settings: {order: 'desc', limit: 25}, firstPage, endpoint: '/v2/accounts', api: 'account', compareLabels: null, columns: {initial, remembered: {'/v2/accounts/:id/transactions': remembered}}});
		expect(state.view.choice).toBe(initial);
		state = press(state, 'return', 'return');
		expect(state.walks.place.columnsKey).toBe('/v2/accounts/:id/transactions');
		expect(state.view.choice).toBe(remembered);
	});

	it('remembers the columns chosen in a related list for the next list of its kind', () => {
		let state = press(start(), 'return', 'return');
		state = land(state, makePage({url: state.stack.pending!.url, objects: [{id: 't1', type: 'send', status: 'done'}]}));
		state = press(state, 'C', ' ', 'return');
		expect(state.view.chosen).toBe(1);
		const choice = state.view.choice;
		state = press(state, 'backspace', 'j', 'return', 'return');
		expect(state.walks.place.columnsKey).toBe('/v2/accounts/:id/transactions');
		expect(state.view.choice).toBe(choice);
		expect(state.view.chosen).toBe(0);
	});

	it('offers nothing on the commerce API, and there ← → page and Enter closes the detail as before', () => {
		const url = 'http://c.test/checkouts?limit=25&order=desc';
		const page = makePage({url, api: 'commerce', objects: [{id: 'c1', resource: 'checkout', resource_path: '/v2/accounts/c1'}], next: `${url}&starting_after=c1`});
		let state = startState({startUrl: url, settings: {order: 'desc', limit: 25}, firstPage: page, endpoint: '/checkouts', api: 'commerce'});
		state = press(state, 'return');
		expect(overlayLines(state)[0]).toBe('{');
		expect(press(state, 'return').screen).toEqual({kind: 'table'});
		const paged = press(state, 'right');
		expect(paged.screen).toEqual({kind: 'table'});
		expect(paged.stack.pending ?? paged.stack.entries.length).toBeTruthy();
		expect(paged.walks.parents).toEqual([]);
	});

	it('never offers a resource_path off the walk\'s origin', () => {
		const hostile = makePage({url: startUrl, objects: [{...account('e1'), resource_path: '//evil.test/v2/accounts/e1'}]});
		let state = startState({startUrl, settings: {order: 'desc', limit: 25}, firstPage: hostile, endpoint: '/v2/accounts', api: 'account'});
		state = press(state, 'return', 'return');
		expect(state.screen).toEqual({kind: 'table'});
		expect(state.walks.parents).toEqual([]);
	});

	it(`opens related lists at most ${maxParents} deep`, () => {
		let state = start();
		for (let depth = 0; depth < maxParents + 2; depth++) {
			// Each child's first page holds an account again: the bound, not the table, stops it.
			state = openRelated(state, accounts[0], 0);
			if (state.stack.pending) {
				state = land(state, makePage({url: state.stack.pending.url, objects: accounts}));
			}
		}

		expect(state.walks.parents).toHaveLength(maxParents);
		state = press(state, 'return');
		expect(overlayLines(state)[0]).toContain(`${maxParents} lists deep: Backspace first`);
		for (let depth = 0; depth < maxParents; depth++) {
			state = returnToParent(state);
		}

		expect(state.walks.parents).toEqual([]);
		expect(state.walks.place.name).toBe('accounts');
	});
});
