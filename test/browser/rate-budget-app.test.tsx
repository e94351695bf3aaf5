/**
 * The browser shows the request budget a server states (the sandbox's
 * --rate-limit answers carry RateLimit-* headers), and nothing when it does not.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {budgetSegment} from '../../source/browser/status-model.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {makePage, url} from './pages.js';
import {renderApp} from './support/render-app.js';

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
		expect(frame).toMatch(/budget 4[89]\/50/);
	});
});
