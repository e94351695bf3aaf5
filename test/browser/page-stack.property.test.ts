import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {visibleRows} from '../../source/browser/stack/cells.js';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {makePage} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {PageStackState, StackAction} from '../../source/browser/stack/types.js';

/**
 * Random key presses, and answers to any request ever made (current, stale or
 * aborted) arriving in any order: the page stack's invariants hold throughout.
 */

const base = 'http://x.test/v2/accounts';
const ids = Array.from({length: 20}, (_, index) => `id-${String(index).padStart(2, '0')}`);

/** A tiny server: pages of the list above by limit, order and cursor. */
function serve(url: string) {
	const parsed = new URL(url);
	const limit = Number(parsed.searchParams.get('limit') ?? 3);
	const order = parsed.searchParams.get('order') === 'asc' ? 'asc' : 'desc';
	const list = order === 'asc' ? ids : [...ids].reverse();
	const after = parsed.searchParams.get('starting_after');
	const start = after ? list.indexOf(after) + 1 : 0;
	const page = list.slice(start, start + Math.max(limit, 0));
	const last = page.at(-1);
	const more = last !== undefined && list.indexOf(last) < list.length - 1;
	const next = new URL(base);
	next.searchParams.set('limit', String(limit));
	next.searchParams.set('order', order);
	if (last) {
		next.searchParams.set('starting_after', last);
	}

	return makePage({url, ids: page, next: more ? next.href : null, previous: null, limit, order});
}

const key = fc.constantFrom<StackAction>(
	{type: 'next'},
	{type: 'previous'},
	{type: 'first'},
	{type: 'toggle-order'},
	{type: 'change-limit', delta: 5},
	{type: 'change-limit', delta: -5},
	{type: 'set-limit', limit: 2},
	{type: 'refresh'},
	{type: 'move', delta: 1},
	{type: 'move', delta: -1},
	{type: 'move-to', position: 'bottom'},
	{type: 'set-filter', filter: '1'},
	{type: 'set-filter', filter: ''},
);

// Mostly the answer the state is waiting for (so walks get deep and pages get
// evicted), sometimes an old one (stale), sometimes a failure.
type Step = {kind: 'key'; action: StackAction} | {kind: 'answer'; pick: number | 'current'; fail: boolean};
const step: fc.Arbitrary<Step> = fc.oneof(
	{weight: 3, arbitrary: key.map(action => ({kind: 'key' as const, action}))},
	{weight: 3, arbitrary: fc.constant({kind: 'key' as const, action: {type: 'next'} as StackAction})},
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('answer' as const),
			pick: fc.oneof({weight: 4, arbitrary: fc.constant('current' as const)}, {weight: 1, arbitrary: fc.nat()}),
			fail: fc.nat(7).map(n => n === 0),
		}),
	},
);

function checkInvariants(state: PageStackState) {
	expect(wantedRequests(state).length).toBeLessThanOrEqual(1);
	const entry = top(state);
	if (entry) {
		expect(entry.page).not.toBeNull();
		expect(entry.page!.requestUrl).toBe(entry.url);
		const count = visibleRows(entry.page!.objects, state.filter).length;
		expect(entry.selected).toBeGreaterThanOrEqual(0);
		expect(entry.selected).toBeLessThanOrEqual(Math.max(0, count - 1));
	}

	const cached = state.entries.filter(item => item.page !== null).length;
	expect(cached).toBeLessThanOrEqual(state.maxCachedPages);
	expect(state.settings.limit).toBeGreaterThanOrEqual(0);
	expect(state.settings.limit).toBeLessThanOrEqual(100);
	if (state.prefetch?.page) {
		expect(state.prefetch.page.requestUrl).toBe(state.prefetch.url);
	}

	// Every id seen came from a page of the current walk's list.
	for (const id of state.seen) {
		expect(ids).toContain(id);
	}
}

describe('page stack under random keys and answers', () => {
	it('keeps its invariants whatever the order of keys and (stale) answers', () => {
		fc.assert(
			fc.property(fc.array(step, {maxLength: 120}), steps => {
				let state = initialState({startUrl: `${base}?limit=3`, settings: {order: 'desc', limit: 3}, maxCachedPages: 3});
				const asked: Array<{requestId: number; url: string}> = [];
				const remember = () => {
					for (const request of wantedRequests(state)) {
						if (!asked.some(known => known.requestId === request.requestId)) {
							asked.push(request);
						}
					}
				};

				remember();
				for (const item of steps) {
					if (item.kind === 'key') {
						state = reduce(state, item.action);
					} else if (asked.length > 0) {
						const request = item.pick === 'current' ? (wantedRequests(state)[0] ?? asked.at(-1)!) : asked[item.pick % asked.length]!;
						state = item.fail
							? reduce(state, {type: 'failed', requestId: request.requestId, message: 'boom'})
							: reduce(state, {type: 'loaded', requestId: request.requestId, page: serve(request.url)});
					}

					remember();
					checkInvariants(state);
				}
			}),
			{numRuns: 300},
		);
	});
});
