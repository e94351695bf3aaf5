/**
 * The browser shows the request budget a server states (the sandbox's
 * --rate-limit answers carry RateLimit-* headers), and nothing when it does not.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {budgetSegment, waitingText} from '../../source/browser/view/status-model.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {makePage, url} from './pages.js';
import {keys, renderApp} from './support/render-app.js';

let sandbox: Sandbox | undefined;
let open: Array<{close(): Promise<void>}> = [];
afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
	await sandbox?.close();
	sandbox = undefined;
});

describe('the request budget in the status line', () => {
	it('budgetSegment: remaining/limit, in warning tone at a tenth or less, absent without the headers', () => {
		const page = (responseHeaders: Record<string, string>) => ({...makePage({url: url(), ids: ['a']}), responseHeaders});
		expect(budgetSegment(page({'ratelimit-remaining': '97', 'ratelimit-limit': '100'}))).toEqual({id: 'budget', text: 'budget 97/100', tone: 'dim'});
		expect(budgetSegment(page({'x-ratelimit-remaining': '9', 'x-ratelimit-limit': '100'}))).toEqual({id: 'budget', text: 'budget 9/100', tone: 'warn'});
		expect(budgetSegment(page({'ratelimit-remaining': '0'}))).toEqual({id: 'budget', text: 'budget 0', tone: 'warn'});
		expect(budgetSegment(page({'ratelimit-remaining': '\u001B[2J'}))).toBeUndefined();
		expect(budgetSegment(page({}))).toBeUndefined();
	});

	it('against the sandbox with --rate-limit: the page says how many requests are left', async () => {
		sandbox = await startSandbox({records: 40, rateLimit: {count: 50, perMs: 3_600_000}});
		const app = await renderApp({baseUrl: sandbox.accountUrl, token: sandbox.credentials.account.full, size: {columns: 120, rows: 16}});
		open.push(app);
		// The first page and its prefetch have each spent one.
		const frame = await app.waitFor(text => /budget 4[89]\/50/.test(text));
		// On the page's own status line, its last segment.
		expect(frame.split('\n').find(line => line.includes('budget'))).toMatch(/^account \/v2\/accounts · page 1 · .* · budget 4[89]\/50$/);
	});

	it('a 429 wait is said on the message line with its countdown, not only a spinner', async () => {
		// No budget headers: the strictly faithful server, which only answers 429 with Retry-After.
		// Its clock stopped: the Retry-After is the whole window however long the pages before it
		// took on a loaded machine, so the countdown shown depends only on the frame's own delay.
		const stopped = Date.now();
		sandbox = await startSandbox({records: 40, rateLimit: {count: 2, perMs: 30_000, headers: false}, now: () => stopped});
		const app = await renderApp({baseUrl: sandbox.accountUrl, token: sandbox.credentials.account.full, size: {columns: 80, rows: 16}, limit: 5, retries: 3});
		open.push(app);
		await app.waitFor(text => text.includes('page 1 ') && !text.includes('loading'));
		// The first page and its prefetch spent the budget: → pushes page 2, whose prefetch meets the 429;
		// → again waits for that page.
		await app.press('l');
		await app.waitFor(text => text.includes('page 2 '));
		await app.press('l');
		const frame = await app.waitFor(text => /^429 rate_limit_exceeded: retry 1 in \d+ s \(← stops\)$/m.test(text));
		const seconds = Number(/retry 1 in (\d+) s/.exec(frame)![1]);
		expect(seconds).toBeGreaterThan(20);
		expect(seconds).toBeLessThanOrEqual(30);
		await app.press('h');
		await app.waitFor(text => text.includes('stopped loading the next page'));
	});

	it('→ onto a prefetch waiting for the spent budget says the wait, once worded, with its time (not only a spinner)', async () => {
		sandbox = await startSandbox({records: 40, rateLimit: {count: 2, perMs: 60_000}});
		// Told when a request starts waiting, so → comes once the prefetch waits (an event, not a pause).
		const waits: string[] = [];
		const app = await renderApp({
			baseUrl: sandbox.accountUrl,
			token: sandbox.credentials.account.full,
			size: {columns: 100, rows: 16},
			limit: 5,
			wrapLoad: load => async (url, options) => load(url, {...options, onRetry(notice) {
				waits.push(url);
				options.onRetry?.(notice);
			}}),
		});
		open.push(app);
		await app.waitFor(text => text.includes('budget 1/2'));
		// Page 2 was fetched ahead (the budget's last request); the prefetch of page 3 waits for the window to reset.
		await app.press('l');
		await app.waitFor(text => text.includes('page 2 ') && !text.includes('loading') && waits.length > 0);
		await app.press('l');
		const frame = await app.waitFor(text => /^request budget spent \(0 of 2 left\): next request in \d+ s \(← stops\)$/m.test(text));
		expect(frame).not.toContain('request budget spent (request budget spent');
		expect(Number(/next request in (\d+) s/.exec(frame)![1])).toBeGreaterThan(30);
		await app.press('h');
		await app.waitFor(text => text.includes('stopped loading the next page'));
	});

	it('a search across pages waiting for the spent budget says so, in the same words, with its time', async () => {
		sandbox = await startSandbox({records: 40, rateLimit: {count: 2, perMs: 60_000}});
		const app = await renderApp({baseUrl: sandbox.accountUrl, token: sandbox.credentials.account.full, size: {columns: 120, rows: 16}, limit: 5});
		open.push(app);
		// The first page and page 2, fetched ahead, spend the budget: the search hands page 2 over, then waits for page 3.
		await app.waitFor(text => text.includes('budget 0/2'));
		await app.press('/', 'zz-matches-nothing', keys.enter, 'n');
		const frame = await app.waitFor(text => /^searching page 3: request budget spent \(0 of 2 left\): next request in \d+ s \(Esc cancels\)$/m.test(text));
		expect(Number(/next request in (\d+) s/.exec(frame)![1])).toBeGreaterThan(30);
		await app.press(keys.escape);
		await app.waitFor(text => text.includes('search stopped'));
	});

	it('waitingText counts down from when the wait began', () => {
		const notice = {attempt: 2, waitMs: 38_000, reason: '429 rate_limit_exceeded', since: 1_000_000};
		expect(waitingText(notice, 1_000_000, true)).toBe('429 rate_limit_exceeded: retry 2 in 38 s (← stops)');
		expect(waitingText(notice, 1_010_500)).toBe('429 rate_limit_exceeded: retry 2 in 28 s');
		expect(waitingText(notice, 2_000_000)).toBe('429 rate_limit_exceeded: retry 2 in 0 s');
		expect(waitingText({attempt: 1, waitMs: 4000, reason: '0 of 50 left', pacing: true})).toBe('request budget spent (0 of 50 left): next request in 4 s');
	});
});
