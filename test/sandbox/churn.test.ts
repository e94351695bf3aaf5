/** `churn`: background inserts and removals while clients walk, and the walk stays consistent (docs/contract.md#consistent-under-change). */
import {expect, it, vi} from 'vitest';
import {startSandbox} from '../../source/sandbox/index.js';
import {redactTarget} from '../../source/sandbox/routes/server.js';
import {patience, pollUntil} from '../support/patience.js';
import {authHeaders, get, type Api} from './helpers.js';

it.each([
	['account', 'desc', 'full'],
	['account', 'asc', 'restricted'],
	['commerce', 'desc', 'restricted'],
	['commerce', 'asc', 'full'],
] as Array<[Api, 'asc' | 'desc', 'full' | 'restricted']>)('%s %s walk by a %s credential under churn: no repeats, no skips, order monotone', async (api, order, viewer) => {
	const sandbox = await startSandbox({records: 150, churn: 400, seed: 9});
	try {
		const name = api === 'account' ? ('accounts' as const) : ('checkouts' as const);
		// Between pages, wait until churn has changed what this credential sees, so churn lands in the
		// middle of the walk however slow or fast the machine is (a fixed pause would leave that to chance).
		const slow: string[] = [];
		const start = sandbox.store.ids(name, {order, viewer});
		let url: string | null = `${api === 'account' ? sandbox.accountUrl + '/v2/accounts' : sandbox.commerceUrl + '/checkouts'}?limit=8&order=${order}`;
		const times: number[] = [];
		let before: string | undefined;
		while (url !== null) {
			// eslint-disable-next-line no-await-in-loop -- polling until churn changes the list, one page after another
			await pollUntil(() => before === undefined || sandbox.store.ids(name, {viewer}).join() !== before, () => `churn changed nothing within ${patience / 1000} s`, 2);

			before = sandbox.store.ids(name, {viewer}).join();
			// eslint-disable-next-line no-await-in-loop -- one page after another; each needs the one before
			const reply = await get(url, authHeaders(sandbox, api, viewer));
			expect(reply.status).toBe(200);
			for (const object of reply.body.data) {
				slow.push(object.id);
				times.push(Date.parse(object.created_at));
			}

			const next: string | null = reply.body.pagination.next_uri;
			url = next === null ? null : api === 'account' ? sandbox.accountUrl + next : next;
			// Every object there at the start met, or removed since: nothing is left for the walk to
			// prove. Past that point an ascending walk only chases the inserts, which churn makes by
			// the clock: on a loaded machine they arrive faster than a page a tick, and it never ends.
			const live = new Set(sandbox.store.ids(name, {viewer}));
			const met = new Set(slow);
			if (start.every((id) => met.has(id) || !live.has(id))) {
				break;
			}
		}

		const end = new Set(sandbox.store.ids(name, {viewer}));
		expect(end).not.toEqual(new Set(start));
		expect(new Set(slow).size).toBe(slow.length);
		for (let index = 1; index < times.length; index++) {
			expect(order === 'asc' ? times[index]! >= times[index - 1]! : times[index]! <= times[index - 1]!).toBe(true);
		}

		const seen = new Set(slow);
		for (const id of start) {
			if (end.has(id)) {
				expect(seen.has(id)).toBe(true);
			}
		}

		expect(slow.length).toBeGreaterThan(0);
	} finally {
		await sandbox.close();
	}
});

it('churn 0 changes nothing; close stops churn', async () => {
	// Churn's clock (its interval and performance.now) is the test's: seconds pass at once, none by chance.
	vi.useFakeTimers({toFake: ['setInterval', 'clearInterval', 'performance']});
	try {
		const sandbox = await startSandbox({records: 20, churn: 0});
		const ids = sandbox.store.ids('charges');
		vi.advanceTimersByTime(5000);
		expect(sandbox.store.ids('charges')).toEqual(ids);
		await sandbox.close();
		const churning = await startSandbox({records: 20, churn: 1000});
		// That clock drives churn: a second of it changes the lists.
		const started = churning.store.ids('charges');
		vi.advanceTimersByTime(1000);
		expect(churning.store.ids('charges')).not.toEqual(started);
		await churning.close();
		const after = churning.store.ids('charges');
		vi.advanceTimersByTime(5000);
		expect(churning.store.ids('charges')).toEqual(after);
	} finally {
		vi.useRealTimers();
	}
});

it('logs redact credentials, encoded or not', () => {
	expect(redactTarget('/v2/accounts?limit=1&access_token=secret&x=1')).toBe('/v2/accounts?limit=1&access_token=[redacted]&x=1');
	expect(redactTarget('/v2/accounts?access%5Ftoken=secret')).toBe('/v2/accounts?access%5Ftoken=[redacted]');
});

it('a repeated access_token with different values is refused without echoing either', async () => {
	const sandbox = await startSandbox({records: 5});
	try {
		const reply = await get(`${sandbox.accountUrl}/v2/accounts?access_token=${sandbox.credentials.account.full}&access_token=other-secret`);
		expect(reply.status).toBe(400);
		expect(reply.body.errors[0].message).toContain('access_token');
		expect(JSON.stringify(reply.body)).not.toContain('other-secret');
		expect(JSON.stringify(reply.body)).not.toContain(sandbox.credentials.account.full);
	} finally {
		await sandbox.close();
	}
});
