/** The client's reading of a server's stated request budget, on an injected clock. */
import {describe, expect, it} from 'vitest';
import {RateBudget} from '../../source/http/rate-budget.js';

describe('RateBudget', () => {
	it('without budget headers never waits', () => {
		const budget = new RateBudget(() => 0);
		budget.update({'retry-after': '5'});
		budget.spend();
		expect(budget.waitMs()).toBe(0);
		expect(budget.snapshot()).toBeUndefined();
	});

	it('a hold (a 429\'s Retry-After) keeps every request back until it ends, budget or none', () => {
		let now = 5000;
		const budget = new RateBudget(() => now);
		budget.hold(2000);
		expect(budget.heldMs()).toBe(2000);
		expect(budget.waitMs()).toBe(2000);
		// A shorter hold after it does not shorten it.
		budget.hold(500);
		now += 1500;
		expect(budget.waitMs()).toBe(500);
		now += 500;
		expect(budget.waitMs()).toBe(0);
		expect(budget.heldMs()).toBe(0);
		// Held longer than the stated budget's wait: the hold's is the wait.
		budget.update({'ratelimit-remaining': '0', 'ratelimit-reset': '1'});
		budget.hold(3000);
		expect(budget.waitMs()).toBe(3000);
	});

	it('in a new window no answer has stated yet, no more than the last stated limit go', () => {
		let now = 0;
		const budget = new RateBudget(() => now);
		budget.update({'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '2'});
		expect(budget.waitMs()).toBe(2000);
		now = 2000;
		// The reset: three go at once (requests that waited for it together), the fourth waits for an answer or the window's end.
		for (let sent = 0; sent < 3; sent++) {
			expect(budget.waitMs()).toBe(0);
			budget.spend();
		}

		expect(budget.waitMs()).toBe(2000);
		expect(budget.snapshot()).toBeUndefined();
		// An answer states the new window (less the two still in flight): the server has the last word.
		budget.update({'ratelimit-limit': '5', 'ratelimit-remaining': '3', 'ratelimit-reset': '2'});
		expect(budget.waitMs()).toBe(0);
	});

	it('waits for the reset once the stated budget, less the requests sent since, is spent', () => {
		let now = 1_000_000;
		const budget = new RateBudget(() => now);
		budget.update({'ratelimit-limit': '10', 'ratelimit-remaining': '2', 'ratelimit-reset': '30'});
		expect(budget.waitMs()).toBe(0);
		budget.spend();
		expect(budget.waitMs()).toBe(0);
		budget.spend();
		// Two sent, no answer yet: both spent the two left.
		expect(budget.waitMs()).toBe(30_000);
		expect(budget.snapshot()).toEqual({limit: 10, remaining: 0, resetAt: now + 30_000});
		now += 10_000;
		expect(budget.waitMs()).toBe(20_000);
		now += 20_000;
		// A new window: unknown until the next answer says.
		expect(budget.waitMs()).toBe(0);
		expect(budget.snapshot()).toBeUndefined();
	});

	it('an answer replaces what was counted: the server has the last word', () => {
		const budget = new RateBudget(() => 0);
		budget.update({'ratelimit-remaining': '1', 'ratelimit-reset': '5'});
		budget.spend();
		expect(budget.waitMs()).toBe(5000);
		budget.update({'ratelimit-remaining': '4', 'ratelimit-reset': '4'});
		expect(budget.waitMs()).toBe(0);
	});

	it('reads X-RateLimit-* too, a large reset as a time in epoch seconds, and ignores what is not a number', () => {
		const now = 1_700_000_000_000;
		const budget = new RateBudget(() => now);
		budget.update({'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String((now / 1000) + 12)});
		expect(budget.waitMs()).toBe(12_000);
		const odd = new RateBudget(() => now);
		odd.update({'ratelimit-remaining': 'lots', 'ratelimit-reset': '5'});
		odd.update({'ratelimit-remaining': '0', 'ratelimit-reset': '-5'});
		expect(odd.waitMs()).toBe(0);
	});

	it('an answer leaves out the requests still in flight (two chains): they spend from what it states', () => {
		const budget = new RateBudget(() => 0);
		// Two chains' first requests, sent before any answer.
		budget.spend();
		budget.spend();
		budget.update({'ratelimit-remaining': '1', 'ratelimit-reset': '5'});
		// The other chain's request may not be counted in that 1 yet.
		expect(budget.waitMs()).toBe(5000);
		budget.update({'ratelimit-remaining': '2', 'ratelimit-reset': '5'});
		expect(budget.waitMs()).toBe(0);
		budget.spend();
		budget.lost();
		// A request given up (a read-ahead cancelled) may reach the server after this answer: it spends one too, until the window ends.
		budget.update({'ratelimit-remaining': '1', 'ratelimit-reset': '5'});
		expect(budget.waitMs()).toBe(5000);
		budget.update({'ratelimit-remaining': '2', 'ratelimit-reset': '5'});
		expect(budget.waitMs()).toBe(0);
	});
});
