/**
 * `dump transactions` and `dump addresses` (commands/dump-lists.ts over
 * http/account-lists.ts) against the sandbox, in process: the bytes of the
 * single-list dumps of every account, one after the other, whatever the
 * concurrency, format, order or chains; --max-items across lists, without
 * --all the first page of each, csv's account column, the progress line,
 * the flags it refuses; and the lists that fail (the faulty server's
 * `account-lists`, an account removed mid-walk) said one by one while the
 * others are written, exit 4.
 */
import {existsSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../source/sandbox/index.js';
import {exitCodes} from '../../source/text/errors.js';
import {startRecordingProxy} from '../support/recording-proxy.js';
import {dumpInProcess, type Result} from '../support/run-dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {useAccountsSandbox, type Viewer} from '../support/use-accounts-sandbox.js';

const {sandbox, env} = useAccountsSandbox();

/** What a dump of each account's list alone writes, one after the other, accounts in list order: what the walk of them all must write. */
async function oneByOne(each: 'transactions' | 'addresses', flags: string[], viewer: Viewer = 'full'): Promise<string> {
	const order = flags.includes('asc') ? 'asc' : 'desc';
	let text = '';
	for (const id of sandbox().store.ids('accounts', {order, viewer})) {
		// eslint-disable-next-line no-await-in-loop -- one list after the other, as a user would
		const single = await dumpInProcess([`/v2/accounts/${id}/${each}`, ...flags], env(viewer));
		expect(single.code).toBe(0);
		text += single.stdout;
	}

	return text;
}

const ok = (result: Result) => {
	expect(result.stderr).toBe('');
	expect(result.code).toBe(0);
	return result.stdout;
};

describe('every account\'s list: the single lists\' bytes, one after the other', () => {
	it('transactions --all, ndjson: the same bytes at concurrency 1 and 8, from one chain or both ends', async () => {
		const expected = await oneByOne('transactions', ['--all']);
		expect(expected.split('\n').length).toBeGreaterThan(1000);
		const byTen = await oneByOne('transactions', ['--all', '--limit', '10']);
		for (const flags of [['--concurrency', '1'], ['--concurrency', '8'], ['--concurrency', '8', '--both-ends', '--limit', '10'], ['--one-chain']]) {
			// eslint-disable-next-line no-await-in-loop -- one walk at a time
			const stdout = ok(await dumpInProcess(['transactions', '--all', ...flags], env()));
			expect(stdout, flags.join(' ')).toBe(flags.includes('--limit') ? byTen : expected);
		}
	});

	it('--order asc applies to every list, the accounts list included; addresses too; the restricted credential', async () => {
		expect(ok(await dumpInProcess(['transactions', '--all', '--order', 'asc', '--limit', '50'], env()))).toBe(await oneByOne('transactions', ['--all', '--order', 'asc', '--limit', '50']));
		expect(ok(await dumpInProcess(['addresses', '--all', '--concurrency', '3'], env()))).toBe(await oneByOne('addresses', ['--all']));
		expect(ok(await dumpInProcess(['transactions', '--all', '--limit', '25'], env('restricted')))).toBe(await oneByOne('transactions', ['--all', '--limit', '25'], 'restricted'));
	});

	it('json: one array of the same objects, the same bytes at any concurrency', async () => {
		const lines = (await oneByOne('transactions', ['--all'])).trimEnd().split('\n');
		const expected = `[\n${lines.join(',\n')}\n]\n`;
		for (const concurrency of ['1', '8']) {
			// eslint-disable-next-line no-await-in-loop -- one walk at a time
			expect(ok(await dumpInProcess(['transactions', '--all', '--format', 'json', '--concurrency', concurrency, '--both-ends'], env()))).toBe(expected);
		}
	});

	it('csv: an account_id column first, each row its account\'s; the same bytes at any concurrency', async () => {
		const one = ok(await dumpInProcess(['transactions', '--all', '--format', 'csv', '--concurrency', '1'], env()));
		const eight = ok(await dumpInProcess(['transactions', '--all', '--format', 'csv', '--concurrency', '8'], env()));
		expect(eight).toBe(one);
		const rows = one.trimEnd().split('\r\n');
		expect(rows[0]!.startsWith('account_id,id,')).toBe(true);
		const objects = (await oneByOne('transactions', ['--all'])).trimEnd().split('\n').map(line => JSON.parse(line) as {id: string; resource_path: string});
		expect(rows).toHaveLength(objects.length + 1);
		for (const [index, object] of objects.entries()) {
			const account = object.resource_path.split('/')[3]!;
			expect(rows[index + 1]!.startsWith(`${account},${object.id},`)).toBe(true);
		}

		// The table too: the same bytes at any concurrency.
		const table = ok(await dumpInProcess(['transactions', '--all', '--format', 'table', '--concurrency', '1'], env()));
		expect(ok(await dumpInProcess(['transactions', '--all', '--format', 'table', '--concurrency', '8'], env()))).toBe(table);
		expect(table.split('\n')).toHaveLength(objects.length + 2);

		// --columns names it where it is wanted.
		const chosen = ok(await dumpInProcess(['transactions', '--all', '--format', 'csv', '--columns', 'id,account_id'], env()));
		expect(chosen.split('\r\n')[1]).toBe(`${objects[0]!.id},${objects[0]!.resource_path.split('/')[3]!}`);
	});

	it('--max-items counts the objects of all lists; without --all the first page of each list, and how many have more', async () => {
		const all = (await oneByOne('transactions', ['--all'])).split('\n');
		const capped = await dumpInProcess(['transactions', '--all', '--max-items', '300', '--concurrency', '8'], env());
		expect(capped.code).toBe(0);
		expect(capped.stdout).toBe(`${all.slice(0, 300).join('\n')}\n`);
		expect(capped.stderr).toBe('pagewalk: stopped after 300 objects (--max-items); more lists or pages follow.\n');
		const first = await dumpInProcess(['transactions', '--limit', '20'], env());
		expect(first.code).toBe(0);
		expect(first.stdout).toBe(await oneByOne('transactions', ['--limit', '20']));
		const more = sandbox().store.ids('accounts').filter(id => sandbox().store.transactionIds(id)!.length > 20).length;
		expect(first.stderr).toBe(`pagewalk: more pages follow in ${more} lists: add --all to walk them.\n`);
	});

	it('from both ends, a list costs its pages while lists wait to start; the long ones left at the end go from both ends', async () => {
		const proxy = await startRecordingProxy(sandbox().accountUrl);
		try {
			const result = await dumpInProcess(['transactions', '--all', '--base-url', proxy.origin, '--both-ends', '--limit', '25'], env());
			expect(result.code).toBe(0);
			expect(result.stdout).toBe(await oneByOne('transactions', ['--all', '--limit', '25']));
			const asked = (id: string) => proxy.recorded.filter(record => record.path.startsWith(`/v2/accounts/${id}/transactions`));
			const ids = sandbox().store.ids('accounts');
			const short = ids.filter(id => sandbox().store.transactionIds(id)!.length <= 25);
			const long = ids.filter(id => sandbox().store.transactionIds(id)!.length > 75);
			expect(short.length).toBeGreaterThan(5);
			expect(long.length).toBeGreaterThan(5);
			expect(short.map(id => asked(id).length)).toEqual(short.map(() => 1));
			// Of the long ones, those still walked once every account's list had started took their other end too.
			const first = proxy.recorded.findIndex(record => record.path.startsWith(`/v2/accounts/${ids.at(-1)!}/transactions`));
			const backward = proxy.recorded.flatMap((record, index) => (record.path.includes('order=asc') && record.path.includes('/transactions') ? [index] : []));
			expect(backward.length).toBeGreaterThan(0);
			expect(backward.every(index => index > first)).toBe(true);
		} finally {
			await proxy.close();
		}
	});

	it('a terminal\'s progress line: lists done of all, objects, requests; then the summary', async () => {
		const result = await dumpInProcess(['transactions', '--all', '--concurrency', '4'], env(), {stderrTty: true});
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(/lists \d+\/(?:\d+\+?) · [\d,]+ objects · [\d,]+ requests/);
		const count = result.stdout.split('\n').length - 1;
		expect(result.stderr).toMatch(new RegExp(`${count.toLocaleString('en-US')} objects in 40 lists \\([\\d,]+ requests\\) in [\\d.]+ s\\n$`));
	});
});

describe('under the sandbox\'s rate limit, every list through the one budget', () => {
	for (const headers of [true, false]) {
		it(headers ? 'with budget headers: every object, never a 429, only the budget\'s waits' : 'without them (the real API): every object, and only the waits Retry-After asks for', async () => {
			const limited = await startSandbox({records: 12, keyFiles: false, rateLimit: {count: 8, perMs: 1000, headers}});
			const proxy = await startRecordingProxy(limited.accountUrl);
			try {
				const result = await dumpInProcess(['transactions', '--all', '--base-url', proxy.origin, '--concurrency', '4', '--both-ends'], {COINBASE_ACCESS_TOKEN: limited.credentials.account.full, NO_COLOR: '1'}, {stderrTty: true, stderrColumns: 1000});
				expect(result.code).toBe(0);
				// The same data as the unlimited sandbox's first 12 accounts (the same seed).
				const objects = result.stdout.trimEnd().split('\n').map(line => JSON.parse(line) as {resource_path: string});
				const accounts = limited.store.ids('accounts');
				expect(objects).toHaveLength(accounts.reduce((sum, id) => sum + limited.store.transactionIds(id)!.length, 0));
				const waits = [...result.stderr.matchAll(/waiting [\d.]+ s ([^·\r\n]*)/g)].map(match => match[1]!);
				const refused = proxy.recorded.filter(record => record.status === 429);
				if (headers) {
					expect(refused).toEqual([]);
					expect(waits.length).toBeGreaterThan(0);
					expect(waits.every(wait => wait.startsWith('for the server\'s request budget (0 of 8 left)'))).toBe(true);
				} else {
					expect(refused.length).toBeGreaterThan(0);
					expect(waits.length).toBeGreaterThan(0);
					expect(waits.filter(wait => !wait.includes('as the server\'s Retry-After asks'))).toEqual([]);
				}
			} finally {
				await proxy.close();
				await limited.close();
			}
		});
	}
});

describe('flags a walk of every account refuses, before anything is sent', () => {
	it.each([
		[['transactions', '--all', '--max-pages', '2'], 'pagewalk: --max-pages bounds one list; with every account\'s lists, give --max-items (objects in all) instead.\n'],
		[['transactions', '--all', '--resume'], 'pagewalk: --resume goes on with a walk written to a file: give the --output FILE it was started with.\n'],
		[['transactions', '--concurrency', '0'], 'pagewalk: --concurrency must be a whole number from 1 to 64, not \'0\'.\n'],
		[['accounts', '--concurrency', '4'], 'pagewalk: --concurrency applies to transactions and addresses, which walk a list of every account; one list is walked page after page.\n'],
		[['accounts', '--all', '--resume', '-o', '/dev/null'], 'pagewalk: --resume goes on with a walk of every account\'s list (transactions, addresses); a walk of one list goes on with --starting-after.\n'],
	])('%j', async (argv, stderr) => {
		const result = await dumpInProcess(argv, env());
		expect(result).toEqual({code: exitCodes.usage, stdout: '', stderr});
	});
});

describe('-o to a device', () => {
	it.runIf(existsSync('/dev/full'))('written as stdout is, no state beside it: a full device fails with the --starting-after that goes on; --resume is refused', async () => {
		const full = await dumpInProcess(['transactions', '--all', '--concurrency', '2', '-o', '/dev/full'], env());
		expect(full.code).toBe(exitCodes.failure);
		expect(full.stderr).toMatch(/^pagewalk: could not write the output \(ENOSPC[^\n]*\)\.\npagewalk: \d+ of (at least )?\d+ lists \([\d,]+ objects\) were written whole before the failure[^\n]*; to resume, run the same command (with --starting-after=\S+ \(the accounts after it\)|again), or with --output FILE to go on later with --resume exactly where it stopped\.\n$/);
		expect(existsSync('/dev/full.pagewalk')).toBe(false);
		const resumed = await dumpInProcess(['transactions', '--all', '-o', '/dev/null', '--resume'], env());
		expect(resumed).toEqual({code: exitCodes.usage, stdout: '', stderr: 'pagewalk: --resume goes on with a walk written to a file, and /dev/null is not one (a device or a pipe); run the command without --resume.\n'});
		expect(existsSync('/dev/null.pagewalk')).toBe(false);
	});
});

describe('a list that fails does not stop the others', () => {
	const faulty = useFaultyServer();

	it('403, 404 and a 503 past the retries: each said with its account, the others written, exit 4', async () => {
		const base = faulty().base('account-lists', {size: 6});
		const environment = {PAGEWALK_BASE_URL: base, COINBASE_ACCESS_TOKEN: 'token', NO_COLOR: '1'};
		const result = await dumpInProcess(['transactions', '--all', '--limit', '10', '--retries', '1', '--concurrency', '3'], environment);
		expect(result.code).toBe(exitCodes.listsFailed);
		const written = result.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id);
		let expected: string[] = [];
		for (const n of [1, 5, 6]) {
			// eslint-disable-next-line no-await-in-loop -- one list after the other
			const single = await dumpInProcess([`/v2/accounts/item-000${n}/transactions`, '--all', '--limit', '10'], environment);
			expected = [...expected, ...single.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id)];
		}

		expect(written).toEqual(expected);
		expect(result.stderr).toBe([
			'pagewalk: account item-0002: The account API refused access (403 invalid_scope: Forbidden: the credential may not read this account); use a credential in COINBASE_ACCESS_TOKEN with permission to read this list.',
			'pagewalk: account item-0003: The account API has no such list (404 not_found: There is no account item-0003).',
			'pagewalk: account item-0004: The account API failed (503 service_unavailable: Try again later) after 1 retry; try again later.',
			'pagewalk: 3 of 6 lists failed (accounts item-0002, item-0003, item-0004; each said above) and the others were written; the first alone: pagewalk dump /v2/accounts/item-0002/transactions --all --limit=10 --retries=1.',
			'',
		].join('\n'));
	});

	it('an account removed while the walk runs: its list answers 404, the walk goes on', async () => {
		const proxy = await startRecordingProxy(sandbox().accountUrl);
		const victim = sandbox().store.ids('accounts')[5]!;
		const held = proxy.hold(path => path.startsWith(`/v2/accounts/${victim}/transactions`));
		const expected = (await oneByOne('transactions', ['--all'])).split('\n').filter(line => !line.includes(`/v2/accounts/${victim}/`)).join('\n');
		try {
			const walking = dumpInProcess(['transactions', '--all', '--base-url', proxy.origin, '--concurrency', '4'], env());
			await expect.poll(() => held.arrived.length, {timeout: 30_000}).toBeGreaterThan(0);
			sandbox().store.remove('accounts', victim);
			held.release();
			const result = await walking;
			expect(result.code).toBe(exitCodes.listsFailed);
			expect(result.stdout).toBe(expected);
			expect(result.stderr).toMatch(new RegExp(`^pagewalk: account ${victim}: The account API has no such list \\(404 not_found: There is no account ${victim}\\.\\)\\.\\npagewalk: 1 of 40 lists failed`));
		} finally {
			await proxy.close();
		}
	});
});
