import {describe, expect, it} from 'vitest';
import {jumpUrl, parseJump} from '../../source/browser/stack/jump.js';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {routeKey} from '../../source/browser/keys/router.js';
import {noticeText, statusModel, walkStart} from '../../source/browser/view/status-model.js';
import {Secret} from '../../source/text/secret.js';
import {url, answer} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {PageStackState, StackAction} from '../../source/browser/stack/types.js';

/**
 * Jump to a cursor (`:`): the syntax, the URL it builds (percent-encoded,
 * same order and limit), and that the walk on screen survives an empty,
 * malformed or refused jump.
 */

describe('the : syntax', () => {
	it('an id starts after it, <id before it', () => {
		expect(parseJump('abc-1')).toEqual({ok: true, cursor: 'starting_after', id: 'abc-1'});
		expect(parseJump('  <abc-1 ')).toEqual({ok: true, cursor: 'ending_before', id: 'abc-1'});
	});

	it('empty and malformed input are told apart', () => {
		expect(parseJump('')).toEqual({ok: false, reason: 'empty'});
		expect(parseJump('   ')).toEqual({ok: false, reason: 'empty'});
		for (const bad of ['<', 'two ids', '<<x', 'a\u0007b']) {
			expect(parseJump(bad)).toEqual({ok: false, reason: 'malformed'});
		}

		// One word, only too long: said apart, with its length (it was "without spaces" before).
		expect(parseJump('x'.repeat(201))).toEqual({ok: false, reason: 'too-long', length: 201});
		expect(parseJump(`<${'é'.repeat(250)}`)).toEqual({ok: false, reason: 'too-long', length: 250});
		expect(parseJump('x'.repeat(200))).toMatchObject({ok: true});
	});
});

describe('the jump URL', () => {
	it('is the walk\'s first URL with the cursor, order and limit kept, any other cursor dropped', () => {
		const first = 'https://api.test/v2/accounts?limit=10&order=asc';
		expect(jumpUrl(first, {cursor: 'starting_after', id: 'a1'})).toBe('https://api.test/v2/accounts?limit=10&order=asc&starting_after=a1');
		expect(jumpUrl(`${first}&starting_after=old`, {cursor: 'ending_before', id: 'a1'})).toBe('https://api.test/v2/accounts?limit=10&order=asc&ending_before=a1');
	});

	it('percent-encodes the id: it cannot add a parameter or a fragment', () => {
		const jumped = new URL(jumpUrl('https://api.test/v2/accounts?limit=10', {cursor: 'starting_after', id: 'x&limit=100#frag/é'}));
		expect(jumped.searchParams.get('starting_after')).toBe('x&limit=100#frag/é');
		expect(jumped.searchParams.getAll('limit')).toEqual(['10']);
		expect(jumped.hash).toBe('');
		expect(jumped.search).toContain('x%26limit%3D100%23frag%2F%C3%A9');
	});
});

const settings = {order: 'desc' as const, limit: 3};
const p1 = {url: url(undefined, '?limit=3'), ids: ['a', 'b', 'c'], next: url('c', '&limit=3')};
const p2 = {url: url('c', '&limit=3'), ids: ['d', 'e', 'f'], next: url('f', '&limit=3')};

function onPage2(): PageStackState {
	let state = initialState({startUrl: p1.url, settings});
	state = answer(state, p1);
	state = answer(state, p2); // The prefetch.
	return reduce(state, {type: 'next'});
}

const apply = (state: PageStackState, ...actions: StackAction[]) => actions.reduce(reduce, state);

describe('a jump on the page stack', () => {
	it('asks for the cursor URL and, once it lands, is a new walk that says where it started', () => {
		const before = onPage2();
		const jumping = apply(before, {type: 'jump', cursor: 'starting_after', id: 'q'});
		expect(wantedRequests(jumping)).toEqual([{requestId: expect.any(Number) as number, url: `${url(undefined, '?limit=3')}&starting_after=q`}]);
		// Until it lands, the walk on screen is untouched.
		expect(top(jumping)).toBe(top(before));
		expect(jumping.seen).toBe(before.seen);
		const landed = answer(jumping, {url: `${url(undefined, '?limit=3')}&starting_after=q`, ids: ['r', 's', 't'], next: url('t', '&limit=3')});
		expect(landed.entries).toHaveLength(1);
		expect([...landed.seen]).toEqual(['r', 's', 't']);
		expect(walkStart(landed.entries[0]!.url)).toBe('started after q');
		expect(noticeText(landed.notice!)).toBe('jump: a new walk after that id (0 returns to the start)');
	});

	it('a refused cursor is one sentence and the page on screen stays', () => {
		const before = onPage2();
		const jumping = apply(before, {type: 'jump', cursor: 'ending_before', id: 'nope'});
		const [wanted] = wantedRequests(jumping);
		const failed = reduce(jumping, {type: 'failed', requestId: wanted!.requestId, message: 'The account API rejected the request (400 validation_error: ending_before nope is not the id of an object in this list.)', retryable: false});
		expect(failed.entries).toEqual(before.entries);
		expect(failed.seen).toBe(before.seen);
		const model = statusModel({state: failed, api: 'account', endpoint: '/v2/accounts', spinner: '', filter: '', visible: 3});
		expect(model.message?.text).toBe('jump failed, the page stays (: tries another id): The account API rejected the request (400 validation_error: ending_before nope is not the id of an object in this list.)');
		expect(model.location.map(segment => segment.text)).toContain('page 2');
	});
});

describe('the : prompt', () => {
	const context = {bodyRows: 10, overlayLines: 0, filter: '', hasSelection: true};

	it(': opens it; text, Backspace; Enter jumps', () => {
		let routed = routeKey({kind: 'table'}, ':', ':', context);
		expect(routed.screen).toEqual({kind: 'jump', draft: ''});
		routed = routeKey(routed.screen!, '<', '<', context);
		routed = routeKey(routed.screen!, 'x', 'x', context);
		routed = routeKey(routed.screen!, 'y', 'y', context);
		routed = routeKey(routed.screen!, 'backspace', '', context);
		expect(routed.screen).toEqual({kind: 'jump', draft: '<x'});
		expect(routeKey(routed.screen!, 'return', '\r', context)).toEqual({screen: {kind: 'table'}, stack: [{type: 'jump', cursor: 'ending_before', id: 'x'}]});
	});

	it('Enter on nothing or on two words says so and keeps the walk; Esc just closes', () => {
		expect(routeKey({kind: 'jump', draft: ''}, 'return', '\r', context)).toEqual({screen: {kind: 'table'}, stack: [{type: 'notice', notice: {kind: 'jump-empty'}}]});
		expect(routeKey({kind: 'jump', draft: 'a b'}, 'return', '\r', context)).toEqual({screen: {kind: 'table'}, stack: [{type: 'notice', notice: {kind: 'jump-malformed'}}]});
		expect(routeKey({kind: 'jump', draft: 'abc'}, 'escape', '', context)).toEqual({screen: {kind: 'table'}});
		expect(noticeText({kind: 'jump-empty'})).toBe('no id typed: press : and type an id to start after it, or <id to start before it');
		expect(noticeText({kind: 'jump-malformed'})).toBe('not an id: press : and type one id, without spaces, to start after it, or <id to start before it');
		expect(routeKey({kind: 'jump', draft: 'x'.repeat(250)}, 'return', '\r', context).stack).toEqual([{type: 'notice', notice: {kind: 'jump-too-long', length: 250}}]);
		expect(noticeText({kind: 'jump-too-long', length: 250})).toBe('not an id: 250 characters, over the most, 200; press : and type one id to start after it, or <id to start before it');
	});

	it('n and N in the table start a search; in detail they stay next and previous object', () => {
		expect(routeKey({kind: 'table'}, 'n', 'n', context)).toEqual({search: 'forward'});
		expect(routeKey({kind: 'table'}, 'N', 'N', context)).toEqual({search: 'backward'});
		expect(routeKey({kind: 'detail', scroll: 0}, 'n', 'n', context).stack).toEqual([{type: 'move', delta: 1}]);
	});
});

describe('a credential typed as a cursor', () => {
	it('shows as the redaction mark in the status line, never a prefix of it', () => {
		const token = new Secret('jump-canary-7c1e9f0a2b3d4e5f');
		const state = apply(onPage2(), {type: 'jump', cursor: 'starting_after', id: token.reveal()});
		const model = statusModel({state, api: 'account', endpoint: '/v2/accounts', spinner: '', filter: '', visible: 3});
		const text = [...model.location, ...model.page].map(segment => segment.text).join(' ');
		expect(text).toContain('loading the page after [redacted]');
		expect(text).not.toContain('jump-canary');
	});
});
