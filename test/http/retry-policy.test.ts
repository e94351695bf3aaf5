/**
 * The retry decision, timed exactly: the clock and the jitter are arguments,
 * so every wait below is a number, never a range (as ky tests its retry timing).
 */
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {backoffMs, decideRetry, retryAfterMs, type Failure, type RetryInput} from '../../source/http/retry-policy.js';

const now = Date.parse('2026-03-01T12:00:00Z');

function input(failure: Failure, overrides: Partial<RetryInput> = {}): RetryInput {
	return {failure, attempt: 0, retries: 3, maxWaitMs: 30_000, baseMs: 500, now, random: () => 0.5, ...overrides};
}

function after(retryAfter: string | string[] | undefined, overrides: Partial<RetryInput> = {}) {
	return decideRetry(input({status: 429, retryAfter}, overrides));
}

describe('retryAfterMs', () => {
	it('reads delta seconds, decimals included, and ignores surrounding spaces', () => {
		expect(retryAfterMs('0', now)).toBe(0);
		expect(retryAfterMs('3', now)).toBe(3000);
		expect(retryAfterMs(' 12 ', now)).toBe(12_000);
		expect(retryAfterMs('1.5', now)).toBe(1500);
		expect(retryAfterMs('0.0004', now)).toBe(0);
	});

	it('reads HTTP dates: the time left until them, 0 once passed', () => {
		expect(retryAfterMs(new Date(now + 7000).toUTCString(), now)).toBe(7000);
		expect(retryAfterMs('Sun, 01 Mar 2026 12:01:00 GMT', now)).toBe(60_000);
		// The two obsolete forms HTTP still accepts: RFC 850 and asctime.
		expect(retryAfterMs('Sunday, 01-Mar-26 12:00:30 GMT', now)).toBe(30_000);
		expect(retryAfterMs('Sun Mar  1 12:00:05 2026 GMT', now)).toBe(5000);
		expect(retryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
		expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(0);
	});

	it('treats a negative number as absent (not a year, not "at once")', () => {
		expect(retryAfterMs('-5', now)).toBeUndefined();
		expect(retryAfterMs('-0.5', now)).toBeUndefined();
		expect(retryAfterMs(' -1 ', now)).toBeUndefined();
	});

	it('treats garbage as absent', () => {
		for (const value of ['', '   ', 'soon', '1e3', '0x10', 'Infinity', 'NaN', '5 seconds', '12abc', '1.', '.5', '1,5', 'Mon, 99 Foo 2026']) {
			expect(retryAfterMs(value, now), value).toBeUndefined();
		}

		expect(retryAfterMs(undefined, now)).toBeUndefined();
	});

	it('keeps huge values huge but finite', () => {
		expect(retryAfterMs('999999999', now)).toBe(999_999_999_000);
		expect(retryAfterMs('9'.repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
	});

	it('reads the first of repeated headers', () => {
		expect(retryAfterMs(['2', '90'], now)).toBe(2000);
		expect(retryAfterMs([], now)).toBeUndefined();
	});

	it('never returns a negative, fractional or non-finite wait for any string', () => {
		fc.assert(fc.property(fc.string(), value => {
			const ms = retryAfterMs(value, now);
			return ms === undefined || (Number.isSafeInteger(ms) && ms >= 0);
		}));
	});
});

describe('decideRetry: which failures are retried', () => {
	it('retries 429, 502, 503 and 504', () => {
		for (const status of [429, 502, 503, 504]) {
			expect(decideRetry(input({status})), String(status)).toEqual({kind: 'wait', ms: 375, reason: 'backoff'});
		}
	});

	it('stops at once on other statuses, even with a Retry-After', () => {
		for (const status of [400, 401, 403, 404, 409, 422, 500, 501, 505]) {
			expect(decideRetry(input({status, retryAfter: '1'})), String(status)).toEqual({kind: 'stop', why: 'not-retryable'});
		}
	});

	it('retries a connection cut short, and nothing else below HTTP', () => {
		expect(decideRetry(input({connection: 'reset'}))).toEqual({kind: 'wait', ms: 375, reason: 'backoff'});
		expect(decideRetry(input({connection: 'truncated'}))).toEqual({kind: 'wait', ms: 375, reason: 'backoff'});
		for (const connection of ['connect-timeout', 'headers-timeout', 'body-timeout', 'too-large', 'refused', 'dns', 'other'] as const) {
			expect(decideRetry(input({connection})), connection).toEqual({kind: 'stop', why: 'not-retryable'});
		}
	});

	it('stops when the retries are used up, whatever the server asks', () => {
		expect(decideRetry(input({status: 503}, {attempt: 2, retries: 3})).kind).toBe('wait');
		expect(decideRetry(input({status: 503}, {attempt: 3, retries: 3}))).toEqual({kind: 'stop', why: 'attempts-exhausted'});
		expect(decideRetry(input({connection: 'reset'}, {attempt: 0, retries: 0}))).toEqual({kind: 'stop', why: 'attempts-exhausted'});
		expect(after('1', {attempt: 3, retries: 3})).toEqual({kind: 'stop', why: 'attempts-exhausted'});
	});
});

describe('decideRetry: how long to wait', () => {
	it('waits what Retry-After asks, in seconds, decimals or as a date', () => {
		expect(after('2')).toEqual({kind: 'wait', ms: 2000, reason: 'retry-after'});
		expect(after('1.5')).toEqual({kind: 'wait', ms: 1500, reason: 'retry-after'});
		expect(after(new Date(now + 4000).toUTCString())).toEqual({kind: 'wait', ms: 4000, reason: 'retry-after'});
		// A date already passed: try again at once.
		expect(after(new Date(now - 60_000).toUTCString())).toEqual({kind: 'wait', ms: 0, reason: 'retry-after'});
		// Retry-After on a 503 counts as on a 429.
		expect(decideRetry(input({status: 503, retryAfter: '3'}))).toEqual({kind: 'wait', ms: 3000, reason: 'retry-after'});
	});

	it('falls back to the backoff for a negative or unreadable Retry-After', () => {
		expect(after('-5')).toEqual({kind: 'wait', ms: 375, reason: 'backoff'});
		expect(after('tomorrow-ish')).toEqual({kind: 'wait', ms: 375, reason: 'backoff'});
	});

	it('waits exactly --max-wait, and stops with the asked wait one millisecond above it', () => {
		expect(after('30', {maxWaitMs: 30_000})).toEqual({kind: 'wait', ms: 30_000, reason: 'retry-after'});
		expect(after('30.001', {maxWaitMs: 30_000})).toEqual({kind: 'stop', why: 'retry-after-beyond-max-wait', retryAfterMs: 30_001});
		expect(after(new Date(now + 30_000).toUTCString(), {maxWaitMs: 30_000}).kind).toBe('wait');
		expect(after(new Date(now + 31_000).toUTCString(), {maxWaitMs: 30_000}))
			.toEqual({kind: 'stop', why: 'retry-after-beyond-max-wait', retryAfterMs: 31_000});
	});

	it('stops on a huge Retry-After instead of sleeping through it', () => {
		expect(after('999999999')).toEqual({kind: 'stop', why: 'retry-after-beyond-max-wait', retryAfterMs: 999_999_999_000});
	});

	it('backs off exponentially with equal jitter, capped at --max-wait', () => {
		const waits = (random: number) => [0, 1, 2, 3, 4, 5, 6].map(attempt => {
			const decision = decideRetry(input({status: 502}, {attempt, retries: 10, baseMs: 500, maxWaitMs: 10_000, random: () => random}));
			return decision.kind === 'wait' ? decision.ms : decision.why;
		});
		// Steps 500, 1000, 2000, 4000, 8000, then the cap 10000.
		expect(waits(0)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
		expect(waits(0.5)).toEqual([375, 750, 1500, 3000, 6000, 7500, 7500]);
		expect(waits(0.999_999)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
	});

	it('keeps every backoff within half a step and the step, never above --max-wait', () => {
		fc.assert(fc.property(
			fc.integer({min: 1, max: 60}), fc.integer({min: 1, max: 5000}), fc.integer({min: 1, max: 120_000}), fc.double({min: 0, max: 1, maxExcluded: true, noNaN: true}),
			(attempt, baseMs, capMs, random) => {
				const step = Math.min(capMs, baseMs * 2 ** (attempt - 1));
				const ms = backoffMs(attempt, baseMs, capMs, () => random);
				return ms >= Math.floor(step / 2) && ms <= step && ms <= capMs;
			},
		));
	});

	it('asks for the jitter only when it backs off', () => {
		let calls = 0;
		const random = () => {
			calls++;
			return 0;
		};

		decideRetry(input({status: 429, retryAfter: '1'}, {random}));
		decideRetry(input({status: 404}, {random}));
		expect(calls).toBe(0);
		decideRetry(input({status: 429}, {random}));
		expect(calls).toBe(1);
	});
});
