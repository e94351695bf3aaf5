import {describe, expect, it, vi} from 'vitest';
import {parseWalkArgs} from '../../source/commands/browse/browse.js';
import {earlyFirstPage} from '../../source/commands/browse/browse-terminal.js';
import {UsageError} from '../../source/text/errors.js';
import type {Page, RetryNotice} from '../../source/contract/types.js';
import {wantedRequests} from '../../source/browser/stack/page-stack.js';
import {makePage, url} from './pages.js';
import {startState} from '../../source/browser/state/browser-state.js';

describe('browse flags', () => {
	it('parses the shared walk flags in their kebab-case spelling', () => {
		expect(
			parseWalkArgs(['checkouts', '--limit', '50', '--order=asc', '--commerce-url', 'http://x', '--header', 'A: 1', '--header', 'B: 2', '--demo']),
		).toEqual({
			input: ['checkouts'],
			flags: {limit: '50', order: 'asc', commerceUrl: 'http://x', header: ['A: 1', 'B: 2'], demo: true},
		});
	});

	it('takes --compare-env for the compare view', () => {
		expect(parseWalkArgs(['--demo', '--compare-env', 'OTHER_TOKEN'])).toEqual({input: [], flags: {demo: true, compareEnv: 'OTHER_TOKEN'}});
	});

	it('refuses unknown flags with one sentence and exit status 2', () => {
		expect(() => parseWalkArgs(['--bogus'])).toThrow(UsageError);
		expect(() => parseWalkArgs(['--bogus'])).toThrow('Unknown flag --bogus; see pagewalk --help.');
	});
});

describe('the first page fetched before Ink loads', () => {
	function fakeFetch() {
		const calls: Array<{url: string; signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void; resolve(page: Page): void}> = [];
		const fetchPage = async (url: string, options: {signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void}) =>
			new Promise<Page>(resolve => {
				calls.push({url, ...options, resolve});
			});
		return {calls, fetchPage};
	}

	it('asks at once, and hands that same request to the app with abort and retry notices forwarded', async () => {
		const {calls, fetchPage} = fakeFetch();
		const early = earlyFirstPage(url(), fetchPage);
		expect(calls.map(call => call.url)).toEqual([url()]);
		expect(early.arrived()).toBeUndefined();
		const controller = new AbortController();
		const notices: RetryNotice[] = [];
		const loading = early.loadPage(url(), {signal: controller.signal, onRetry: notice => notices.push(notice)});
		expect(calls).toHaveLength(1);
		calls[0]!.onRetry!({attempt: 1, waitMs: 10, reason: '503'});
		expect(notices).toEqual([{attempt: 1, waitMs: 10, reason: '503'}]);
		controller.abort();
		expect(calls[0]!.signal!.aborted).toBe(true);
		const page = makePage({url: url(), ids: ['a']});
		calls[0]!.resolve(page);
		await expect(loading).resolves.toBe(page);
		// Asked again (refresh): a new request.
		void early.loadPage(url(), {signal: new AbortController().signal});
		expect(calls).toHaveLength(2);
	});

	it('a wait that began before the app took the request is handed over with it, stamped when it began', async () => {
		const {calls, fetchPage} = fakeFetch();
		const early = earlyFirstPage(url(), fetchPage);
		const before = Date.now();
		calls[0]!.onRetry!({attempt: 0, waitMs: 57_000, reason: '0 of 3 left', pacing: true});
		const notices: RetryNotice[] = [];
		const loading = early.loadPage(url(), {signal: new AbortController().signal, onRetry: notice => notices.push(notice)});
		expect(notices).toEqual([{attempt: 0, waitMs: 57_000, reason: '0 of 3 left', pacing: true, since: expect.any(Number) as number}]);
		expect(notices[0]!.since).toBeGreaterThanOrEqual(before);
		expect(notices[0]!.since).toBeLessThanOrEqual(Date.now());
		const page = makePage({url: url(), ids: ['a']});
		calls[0]!.resolve(page);
		await expect(loading).resolves.toBe(page);

		// Once answered, nothing is handed over: the wait is over.
		const answered = fakeFetch();
		const late = earlyFirstPage(url(), answered.fetchPage);
		answered.calls[0]!.onRetry!({attempt: 1, waitMs: 10, reason: '503'});
		answered.calls[0]!.resolve(page);
		await late.arrival;
		const none: RetryNotice[] = [];
		await late.loadPage(url(), {signal: new AbortController().signal, onRetry: notice => none.push(notice)});
		expect(none).toEqual([]);
	});

	it('settled(ms): waits for the first answer, a page or a failure, and no longer than ms', async () => {
		vi.useFakeTimers();
		try {
			const {calls, fetchPage} = fakeFetch();
			const early = earlyFirstPage(url(), fetchPage);
			let done = false;
			void early.settled(150).then(() => {
				done = true;
			});
			await vi.advanceTimersByTimeAsync(149);
			expect(done).toBe(false);
			const page = makePage({url: url(), ids: ['a']});
			calls[0]!.resolve(page);
			await vi.advanceTimersByTimeAsync(0);
			expect(done).toBe(true);
			expect(early.arrived()).toBe(page);

			// No answer: it gives up at the deadline, and the request goes on.
			const slow = fakeFetch();
			const late = earlyFirstPage(url(), slow.fetchPage);
			let gaveUp = false;
			void late.settled(150).then(() => {
				gaveUp = true;
			});
			await vi.advanceTimersByTimeAsync(150);
			expect(gaveUp).toBe(true);
			expect(late.arrived()).toBeUndefined();
			expect(vi.getTimerCount()).toBe(0);

			// A failure is an answer too (the app shows it when it asks).
			const failing = earlyFirstPage(url(), async () => Promise.reject(new Error('refused')));
			let failed = false;
			void failing.settled(150).then(() => {
				failed = true;
			});
			await vi.advanceTimersByTimeAsync(0);
			expect(failed).toBe(true);
			await expect(failing.loadPage(url(), {signal: new AbortController().signal})).rejects.toThrow('refused');
		} finally {
			vi.useRealTimers();
		}
	});

	it('when the page is already here, the first frame shows it and no request is repeated', async () => {
		const {calls, fetchPage} = fakeFetch();
		const early = earlyFirstPage(url(), fetchPage);
		const page = makePage({url: url(), ids: ['a', 'b'], next: url('b')});
		calls[0]!.resolve(page);
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		expect(early.arrived()).toBe(page);
		const state = startState({startUrl: url(), settings: {order: 'desc', limit: 25}, firstPage: early.arrived()});
		expect(state.stack.entries).toHaveLength(1);
		expect(state.stack.pending).toBeNull();
		// Only the prefetch of page 2 is wanted.
		expect(wantedRequests(state.stack).map(request => request.url)).toEqual([url('b')]);
		void early.loadPage(url(), {signal: new AbortController().signal});
		expect(calls).toHaveLength(2);
	});
});
