/**
 * Pacing against the sandbox's --rate-limit: where the server states its
 * budget (RateLimit-* headers), a walk that would run into 429 waits for the
 * reset instead, and says so; where it does not (as the real API), the walk
 * meets the 429 and honours Retry-After, as before.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {createClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import type {RetryNotice} from '../../source/contract/types.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {dumpInProcess} from '../support/run-dump.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
});

async function walkAll(headers: boolean) {
	sandbox = await startSandbox({records: 30, rateLimit: {count: 4, perMs: 1000, headers}});
	const config = resolveConfig({input: ['accounts'], flags: {baseUrl: sandbox.accountUrl, limit: '5'}, env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full}});
	const client = createClient(config);
	const notices: RetryNotice[] = [];
	const ids: string[] = [];
	let url: string | null = client.firstUrl;
	try {
		while (url !== null) {
			// eslint-disable-next-line no-await-in-loop -- each page's link is in the one before
			const page = await client.fetchPage(url, {onRetry: notice => notices.push(notice)});
			ids.push(...page.objects.map(object => String(object['id'])));
			url = page.nextUrl;
		}
	} finally {
		await client.close();
	}

	return {ids, notices};
}

describe('a walk under the sandbox\'s rate limit', () => {
	it('with budget headers: paces itself, never meets a 429, reads every object', async () => {
		const {ids, notices} = await walkAll(true);
		expect(ids).toHaveLength(30);
		expect(new Set(ids).size).toBe(30);
		expect(notices.length).toBeGreaterThan(0);
		expect(notices.every(notice => notice.pacing === true)).toBe(true);
		expect(notices[0]!.reason).toBe('0 of 4 left');
	});

	it('without them (as the real API): the same walk meets 429 and waits Retry-After', async () => {
		const {ids, notices} = await walkAll(false);
		expect(ids).toHaveLength(30);
		expect(notices.some(notice => notice.reason === '429 rate_limit_exceeded')).toBe(true);
	});

	it('without them, a 429\'s Retry-After holds every request of the client, not only the one refused', async () => {
		sandbox = await startSandbox({records: 30, rateLimit: {count: 2, perMs: 1500, headers: false}});
		const config = resolveConfig({input: ['accounts'], flags: {baseUrl: sandbox.accountUrl, limit: '5'}, env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full}});
		const client = createClient(config);
		try {
			await client.fetchPage(client.firstUrl);
			await client.fetchPage(client.firstUrl);
			const refused: RetryNotice[] = [];
			let answered!: () => void;
			const told = new Promise<void>(resolve => {
				answered = resolve;
			});
			const second = client.fetchPage(client.firstUrl, {onRetry(notice) {
				refused.push(notice);
				answered();
			}});
			await told;
			// Sent after the 429: it waits with the one refused instead of meeting a 429 of its own; then both go, within the new window.
			const held: RetryNotice[] = [];
			const third = client.fetchPage(client.urlFor({limit: 7}), {onRetry: notice => held.push(notice)});
			await Promise.all([second, third]);
			expect(refused.map(notice => notice.reason)).toEqual(['429 rate_limit_exceeded']);
			expect(held).toHaveLength(1);
			expect(held[0]).toMatchObject({pacing: true, retryAfter: true, reason: 'another request was answered 429'});
		} finally {
			await client.close();
		}
	});

	it('dump says the wait on stderr; a reset past --max-wait ends it with that advice, the pages before kept', async () => {
		sandbox = await startSandbox({records: 30, rateLimit: {count: 2, perMs: 3_600_000}});
		const env = {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full};
		const {code, stdout, stderr} = await dumpInProcess(['accounts', '--all', '--limit', '5', '--base-url', sandbox.accountUrl, '--max-wait', '5', '--one-chain'], env);
		expect(code).toBe(1);
		expect(stdout.trim().split('\n')).toHaveLength(10);
		expect(stderr).toMatch(/The account API says its request budget is spent \(0 of 2 left\) for 60 min, longer than --max-wait allows \(5 s\); run again once it has passed, or raise --max-wait\./);
	});
});
