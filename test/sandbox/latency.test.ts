/**
 * serve --latency: the model (parse, delay per request) tested with an
 * injected random draw, and the server holding answers over real HTTP,
 * checked by a lower bound only (a wait can be longer on a loaded machine,
 * never shorter).
 */
import {describe, expect, it} from 'vitest';
import {delayFor, parseLatency} from '../../source/sandbox/routes/latency.js';
import {startSandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl} from './helpers.js';
import {dumpInProcess} from '../support/run-dump.js';

describe('parseLatency', () => {
	it.each([
		['50', {ms: 50, jitterMs: 0, perObjectMs: 0.2}],
		['80±20', {ms: 80, jitterMs: 20, perObjectMs: 0.2}],
		['80+-20', {ms: 80, jitterMs: 20, perObjectMs: 0.2}],
		['80 +/- 20', {ms: 80, jitterMs: 20, perObjectMs: 0.2}],
		['80±20/0.5', {ms: 80, jitterMs: 20, perObjectMs: 0.5}],
		['0', {ms: 0, jitterMs: 0, perObjectMs: 0.2}],
		['150/0', {ms: 150, jitterMs: 0, perObjectMs: 0}],
	])('%s', (text, value) => {
		expect(parseLatency(text)).toEqual({ok: true, value});
	});

	it.each(['', 'fast', '-5', '50±60', '70000', '50ms', '50±', '1e3', '50/abc'])('refuses %j', (text) => {
		expect(parseLatency(text).ok).toBe(false);
	});
});

describe('delayFor', () => {
	const latency = {ms: 80, jitterMs: 20, perObjectMs: 0.2};

	it('grows with the page size asked for: a page of 100 costs more than a page of 5; no limit is 25', () => {
		const middle = () => 0.5;
		expect(delayFor(latency, '/v2/accounts?limit=100', middle)).toBeCloseTo(100);
		expect(delayFor(latency, '/v2/accounts?limit=5', middle)).toBeCloseTo(81);
		expect(delayFor(latency, '/v2/accounts', middle)).toBeCloseTo(85);
		expect(delayFor(latency, '/v2/accounts?limit=500', middle)).toBeCloseTo(85);
	});

	it('draws the jitter within ms ± jitter', () => {
		expect(delayFor({...latency, perObjectMs: 0}, '/x', () => 0)).toBe(60);
		expect(delayFor({...latency, perObjectMs: 0}, '/x', () => 0.999_999)).toBeCloseTo(100, 3);
		expect(delayFor({ms: 0, jitterMs: 0, perObjectMs: 0}, '/x', () => 0.7)).toBe(0);
	});
});

describe('a sandbox with latency', () => {
	it('holds every answer at least its time: a sequential 10-page walk takes at least 10 x 20 ms', async () => {
		const sandbox = await startSandbox({records: 50, latency: {ms: 20, jitterMs: 0, perObjectMs: 0}});
		try {
			const headers = authHeaders(sandbox, 'account');
			let url: string | null = listUrl(sandbox, 'account', 'limit=5');
			let pages = 0;
			const started = performance.now();
			while (url !== null) {
				// eslint-disable-next-line no-await-in-loop -- a sequential client: each page's link is in the one before
				const reply = await get(url, headers);
				pages += 1;
				url = reply.body.pagination.next_uri === null ? null : new URL(reply.body.pagination.next_uri as string, sandbox.accountUrl).href;
			}

			expect(pages).toBe(10);
			expect(performance.now() - started).toBeGreaterThanOrEqual(10 * 20);
		} finally {
			await sandbox.close();
		}
	});

	it('closes at once with answers still held', async () => {
		// The rate limit reads the sandbox's clock as a request arrives, just before its answer is held.
		let arrived!: () => void;
		const held = new Promise<void>((resolve) => {
			arrived = resolve;
		});
		const sandbox = await startSandbox({records: 5, latency: {ms: 60_000, jitterMs: 0, perObjectMs: 0}, rateLimit: {count: 1000, perMs: 60_000}, now() {
			arrived();
			return Date.now();
		}});
		const pending = fetch(listUrl(sandbox, 'account'), {headers: authHeaders(sandbox, 'account')}).then(async (response) => response.text(), () => 'closed');
		await held;
		await sandbox.close();
		expect(await pending).toBe('closed');
	});
});

describe('--latency with the walk commands', () => {
	it('--demo --latency: the demo sandbox holds its answers, and the dump is as without it', async () => {
		const slow = await dumpInProcess(['accounts', '--demo', '--latency', '30±10', '--limit', '5', '--max-pages', '3']);
		const fast = await dumpInProcess(['accounts', '--demo', '--limit', '5', '--max-pages', '3']);
		expect(slow.code).toBe(0);
		expect(slow.stdout).toBe(fast.stdout);
	});

	it('without --demo it is a usage error naming why; a value it cannot read names the forms', async () => {
		const real = await dumpInProcess(['accounts', '--latency', '30', '--base-url', 'http://127.0.0.1:9']);
		expect(real.code).toBe(2);
		expect(real.stderr).toBe('pagewalk: --latency only applies with --demo (or to pagewalk serve): it slows the sandbox, not a real server.\n');
		const bad = await dumpInProcess(['accounts', '--demo', '--latency', 'slow']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/^pagewalk: --latency must be milliseconds up to 60000/);
	});
});
