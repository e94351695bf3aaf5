import {describe, expect, it} from 'vitest';
import {initialState, pageStackReducer} from '../../source/browser/page-stack.js';
import {joinSegments, statusModel} from '../../source/browser/status-model.js';
import {makePage, url} from './pages.js';

function withPage(page: Parameters<typeof makePage>[0], startUrl = url()) {
	const state = initialState({startUrl, settings: {order: 'desc', limit: 25}});
	return pageStackReducer(state, {type: 'loaded', requestId: 1, page: makePage(page)});
}

const input = {api: 'account', endpoint: '/v2/accounts', spinner: '⠋', filter: '', visible: 0};

describe('status line model', () => {
	it('shows where we are and that a short page is not the end', () => {
		const state = withPage({url: url(), ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], next: url('g')});
		const model = statusModel({...input, state});
		expect(joinSegments(model.location)).toBe('account /v2/accounts · page 1 · desc · limit 25 · seen 7 · 12 ms');
		expect(joinSegments(model.page)).toBe('7/25 short · more pages follow · total/yielded not provided');
		expect(model.page[0]!.tone).toBe('warn');
		expect(model.message).toBeNull();
	});

	it('says end of list only on an empty next_uri, and marks empty pages', () => {
		expect(joinSegments(statusModel({...input, state: withPage({url: url(), ids: ['a'], next: null})}).page)).toBe(
			'1/25 short · end of list · total/yielded not provided',
		);
		expect(joinSegments(statusModel({...input, state: withPage({url: url(), ids: [], next: url('z')})}).page)).toBe(
			'0/25 empty · more pages follow · total/yielded not provided',
		);
	});

	it('shows commerce total and yielded', () => {
		const state = withPage({url: url(), ids: ['a'], next: null, api: 'commerce', limit: 1});
		expect(joinSegments(statusModel({...input, state}).page)).toBe('1/1 · end of list · total 100 · yielded 1');
	});

	it('spins while loading, marks a walk from a cursor, and shows errors inert with how to retry', () => {
		let state = withPage({url: url('c'), ids: ['d'], next: url('d')}, url('c'));
		state = pageStackReducer(state, {type: 'refresh'});
		let model = statusModel({...input, state});
		expect(joinSegments(model.location)).toBe('account /v2/accounts · page +1 · desc · limit 25 · seen 1 · ⠋ refreshing');
		state = pageStackReducer(state, {type: 'failed', requestId: state.pending!.requestId, message: 'HTTP 503 \u001B[2J'});
		model = statusModel({...input, state, filter: 'bt', visible: 0});
		expect(model.message).toEqual({id: 'error', text: 'error, r retries: HTTP 503 \\x1b[2J', tone: 'bad'});
		expect(model.page[2]!.text).toBe('filter "bt": 0 shown');
	});

	it('says what an order toggle did', () => {
		const state = pageStackReducer(withPage({url: url(), ids: ['a'], next: null}), {type: 'toggle-order'});
		expect(statusModel({...input, state}).message?.text).toBe('order asc: new walk from the first page');
	});
});
