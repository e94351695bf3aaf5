import {describe, expect, it} from 'vitest';
import {browserReducer, startState} from '../../source/browser/state/browser-state.js';
import type {BrowserState} from '../../source/browser/state/types.js';
import type {Notice} from '../../source/browser/stack/types.js';
import {flash, levelTone, statusModel} from '../../source/browser/view/status-model.js';
import {tableScreen} from '../../source/browser/view/table-screen.js';
import {makePage, url} from './pages.js';

/**
 * The status line's one message: what a key did and what a copy, a write or
 * a find came to are one kind of thing, worded with a level in one place,
 * held in one place, cleared by one rule and drawn in one order.
 */

/** One message of every kind: a kind left out does not compile. */
const every: {[Kind in Notice['kind']]: Extract<Notice, {kind: Kind}>} = {
	'end-of-list': {kind: 'end-of-list', reason: 'no-next-uri'},
	refreshed: {kind: 'refreshed', changed: false},
	'keys-dropped': {kind: 'keys-dropped', count: 2},
	'stopped-loading': {kind: 'stopped-loading'},
	'took-back': {kind: 'took-back', stopsAt: 2},
	'already-first': {kind: 'already-first'},
	'no-previous': {kind: 'no-previous'},
	'following-previous': {kind: 'following-previous'},
	'new-walk': {kind: 'new-walk', change: 'limit', limit: 10},
	'limit-stays': {kind: 'limit-stays', limit: 25, maximum: 100},
	retrying: {kind: 'retrying'},
	bound: {kind: 'bound', flag: 'max-pages', limit: 3},
	jump: {kind: 'jump', cursor: 'starting_after'},
	'jump-empty': {kind: 'jump-empty'},
	'jump-malformed': {kind: 'jump-malformed'},
	'jump-too-long': {kind: 'jump-too-long', length: 300},
	'search-no-filter': {kind: 'search-no-filter'},
	'search-busy': {kind: 'search-busy'},
	'search-found': {kind: 'search-found', direction: 'forward', searched: 2, page: 3, before: false},
	'search-end': {kind: 'search-end', direction: 'forward', searched: 2, filter: 'x', end: 'no-next-uri'},
	'search-bound': {kind: 'search-bound', direction: 'forward', searched: 2, filter: 'x', bound: {flag: 'search', limit: 9}},
	'search-stopped': {kind: 'search-stopped', direction: 'forward', searched: 2, moved: false, by: 'escape'},
	'follow-stopped': {kind: 'follow-stopped', count: 1},
	copied: {kind: 'copied', words: 'id', label: 'a', write: {ok: true, sequence: '', bytes: 1}, caveat: false},
	'nothing-to-copy': {kind: 'nothing-to-copy'},
	cannot: {kind: 'cannot', what: 'write'},
	'no-file-name': {kind: 'no-file-name', what: 'page'},
	'nothing-to-write': {kind: 'nothing-to-write'},
	wrote: {kind: 'wrote', name: 'f', counts: {objects: 1, pages: 1, refetched: 0}, walk: false},
	kept: {kind: 'kept', name: 'f'},
	exists: {kind: 'exists', name: 'f'},
	'write-failed': {kind: 'write-failed', message: 'Cannot write f.'},
	found: {kind: 'found', text: 'x', line: 1, lines: 2},
	'not-found': {kind: 'not-found', text: 'x'},
	'export-where': {kind: 'export-where'},
	'export-busy': {kind: 'export-busy'},
	exported: {kind: 'exported', name: 'f', objects: 1, lists: 1, failed: [], failedCount: 0},
	'export-stopped': {kind: 'export-stopped', name: 'f', why: null, objects: 1, lists: 1, total: 2, known: 2, resume: null},
};
const messages: Notice[] = Object.values(every);

// A short page (3 of a limit of 25, more follow): why it is short has a sentence of its own.
const page = makePage({url: url(), ids: ['a', 'b', 'c'], next: url('c')});
const size = {columns: 400, rows: 24};

function onPage(): BrowserState {
	return startState({startUrl: url(), settings: {order: 'desc', limit: 25}, firstPage: page, compareLabels: null, endpoint: '/v2/accounts', api: 'account'});
}

function saying(message: Notice): BrowserState {
	const state = onPage();
	return {...state, stack: {...state.stack, notice: message}};
}

describe('the status line\'s one message', () => {
	it('every kind is worded in one place, with a level whose colour it is drawn in', () => {
		for (const message of messages) {
			const {text, level} = flash(message);
			expect(text, message.kind).not.toBe('');
			const model = statusModel({state: saying(message).stack, api: 'account', endpoint: '/v2/accounts', spinner: '⠋', filter: '', visible: 3});
			expect(model.message, message.kind).toEqual({id: 'notice', text: expect.any(String) as string, tone: levelTone[level]});
		}

		expect(flash(every.copied).level).toBe('success');
		expect(flash({...every.copied, write: {ok: false, bytes: 80_000}}).level).toBe('warn');
		expect(flash(every['already-first']).level).toBe('info');
	});

	it('every kind is cleared by the next key, whichever reducer set it', () => {
		for (const message of messages) {
			const moved = browserReducer(saying(message), {type: 'key', input: 'j', key: {}, bodyRows: 10, columns: 80});
			expect(moved.stack.notice, message.kind).toBeNull();
		}
	});

	it('every kind takes its place on the message line by its level: information gives way to a search, a success or a warning does not, and none to an error', () => {
		const search = {direction: 'forward' as const, page: 2, searched: 1};
		const input = {api: 'account', endpoint: '/v2/accounts', spinner: '⠋', filter: '', visible: 3};
		for (const message of messages) {
			const {stack} = saying(message);
			const searching = statusModel({...input, state: stack, search}).message?.id;
			expect(searching, message.kind).toBe(flash(message).level === 'info' ? 'search' : 'notice');
			const failed = {...stack, error: {message: 'HTTP 503', url: url(), kind: 'refresh' as const, retryable: true}};
			expect(statusModel({...input, state: failed, search}).message?.id, message.kind).toBe('search');
			expect(statusModel({...input, state: failed}).message?.id, message.kind).toBe('error');
		}
	});

	it('every kind takes the message line by its level: why the page is short stays beside all but information', () => {
		for (const message of messages) {
			const line = tableScreen(saying(message), {size, api: 'account', endpoint: '/v2/accounts', spinner: '⠋', now: 0}).status.message;
			const short = flash(message).level === 'info' ? null : expect.stringContaining('3 of 25: fewer than limit') as string;
			expect(line, message.kind).toMatchObject({kind: 'message', short});
		}
	});
});
