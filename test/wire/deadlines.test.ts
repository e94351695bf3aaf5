/**
 * The whole-page deadline (--timeout) when several requests of one client
 * are in flight at once, as in the browser (the page shown, its prefetch,
 * the compare view): they share one timer, and each still gets its own
 * deadline, counted from its own start.
 */
import {expect, test} from 'vitest';
import {createClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import {canary} from '../support/run-dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';

const faulty = useFaultyServer();

test('requests in flight together: each ends at its own deadline, the others are not cut short', async () => {
	const config = await resolveConfig({
		input: ['accounts'],
		// Long enough for the good page between the hanging ones on a loaded machine.
		flags: {baseUrl: faulty().base('hang-after-first'), timeout: '3', retries: '0'},
		env: {COINBASE_ACCESS_TOKEN: canary},
	});
	const client = createClient(config);
	try {
		// The fault answers its first page and never a later one.
		const hanging = client.urlFor({startingAfter: 'obj-1-2'});
		const ended: string[] = [];
		const first = client.fetchPage(hanging).catch((error: unknown) => {
			ended.push('first');
			return error;
		});
		const good = await client.fetchPage(client.firstUrl);
		expect(good.objects.length).toBeGreaterThan(0);
		const second = client.fetchPage(hanging).catch((error: unknown) => {
			ended.push('second');
			return error;
		});
		for (const error of await Promise.all([first, second])) {
			expect((error as Error).message).toMatch(/did not answer within 3 s \(--timeout\)/);
		}

		// The second started after the first: its deadline comes later.
		expect(ended).toEqual(['first', 'second']);
		// With nothing in flight, a fresh request gets a whole deadline again.
		await expect(client.fetchPage(hanging)).rejects.toThrow(/did not answer within 3 s/);
	} finally {
		await client.close();
	}
});
