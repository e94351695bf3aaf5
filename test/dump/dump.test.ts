/**
 * `pagewalk dump` against the sandbox, in process: every format, one page
 * against --all, the restricted credential, --demo, bare mode, and the
 * canary credential (rejected, and never printed).
 */
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {canary, dumpInProcess, sandboxEnv} from '../support/run-dump.js';

let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
	sandbox = await startSandbox({port: 0, records: 120});
	env = sandboxEnv(sandbox);
});

afterAll(async () => {
	await sandbox.close();
});

const ndjson = (text: string) => text.split('\n').filter(Boolean).map(line => JSON.parse(line) as Record<string, unknown>);

describe('dump formats', () => {
	test('ndjson: one page by default, exactly the API objects, and a hint that more follow', async () => {
		const result = await dumpInProcess(['accounts', '--limit', '7'], env);
		expect(result.code).toBe(0);
		const objects = ndjson(result.stdout);
		expect(objects.map(object => object.id)).toEqual(sandbox.store.ids('accounts').slice(0, 7));
		expect(objects[0]).toEqual(sandbox.store.get('accounts', objects[0]!.id as string));
		expect(result.stderr).toBe(`pagewalk: more pages follow: add --all to walk them, or add --starting-after=${objects[6]!.id as string} for the next page.\n`);
	});

	test('ndjson --all walks the whole list and prints nothing else', async () => {
		const result = await dumpInProcess(['checkouts', '--all', '--limit', '50', '--order', 'asc'], env);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe('');
		expect(ndjson(result.stdout).map(object => object.id)).toEqual(sandbox.store.ids('checkouts', {order: 'asc'}));
	});

	test('json: one valid array for the whole walk', async () => {
		const result = await dumpInProcess(['charges', '--all', '--limit', '100', '--format', 'json'], env);
		expect(result.code).toBe(0);
		const array = JSON.parse(result.stdout) as Array<{id: string}>;
		expect(array.map(object => object.id)).toEqual(sandbox.store.ids('charges'));
	});

	test('json of an empty walk is an empty array', async () => {
		const last = sandbox.store.ids('charges').at(-1)!;
		const result = await dumpInProcess(['charges', '--format', 'json', '--starting-after', last], env);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual([]);
	});

	test('csv: flattened columns with id first, nested objects as paths, RFC 4180 quoting', async () => {
		const result = await dumpInProcess(['accounts', '--all', '--limit', '100', '--format', 'csv'], env);
		expect(result.code).toBe(0);
		const rows = result.stdout.trimEnd().split('\r\n');
		const header = rows[0]!.split(',');
		expect(header[0]).toBe('id');
		expect(header).toContain('balance.amount');
		expect(header).toContain('currency.code');
		expect(rows).toHaveLength(sandbox.store.count('accounts') + 1);
		const first = sandbox.store.get('accounts', sandbox.store.ids('accounts')[0]!)!;
		expect(rows[1]!.startsWith(`${first.id},`)).toBe(true);
		expect(rows[1]).toContain((first.balance as {amount: string}).amount);
	});

	test('--columns: csv and table write exactly those columns, in that order; a name no object has is an empty column', async () => {
		const csv = await dumpInProcess(['accounts', '--limit', '3', '--format', 'csv', '--columns', 'created_at,balance.amount,id,not.yet'], env);
		expect(csv.code).toBe(0);
		const rows = csv.stdout.trimEnd().split('\r\n');
		expect(rows[0]).toBe('created_at,balance.amount,id,not.yet');
		const first = sandbox.store.get('accounts', sandbox.store.ids('accounts')[0]!) as {id: string; created_at: string; balance: {amount: string}};
		expect(rows[1]).toBe(`${first.created_at},${first.balance.amount},${first.id},`);
		// The fields left out were chosen, not lost: no note about them.
		expect(csv.stderr).not.toContain('left out');
		const table = await dumpInProcess(['accounts', '--limit', '3', '--format', 'table', '--columns', 'name,id'], env);
		expect(table.stdout.split('\n')[0]).toMatch(/^name\s+id$/);
		const refused = await dumpInProcess(['accounts', '--columns', 'id,id'], env);
		expect(refused).toEqual({code: 2, stdout: '', stderr: 'pagewalk: --columns names \'id\' twice; give each column once.\n'});
		const ndjson = await dumpInProcess(['accounts', '--columns', 'id'], env);
		expect(ndjson.code).toBe(2);
		expect(ndjson.stderr).toBe('pagewalk: --columns applies to --format csv and table (and the browser); ndjson writes every field as sent.\n');
	});

	test('table: a header and one row per object', async () => {
		const result = await dumpInProcess(['checkouts', '--limit', '5', '--format', 'table'], env);
		expect(result.code).toBe(0);
		const lines = result.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(6);
		// The reading order of the browser: names and prices first, the resource type last.
		expect(lines[0]).toMatch(/^id\s+name\s+local_price\.amount\s+local_price\.currency\s.*\sresource$/);
		expect(lines[1]!.startsWith(sandbox.store.ids('checkouts')[0]!)).toBe(true);
	});

	test('--max-items cuts the output at exactly that many objects and says how to continue', async () => {
		const result = await dumpInProcess(['accounts', '--all', '--limit', '10', '--max-items', '25'], env);
		expect(result.code).toBe(0);
		const ids = ndjson(result.stdout).map(object => object.id);
		expect(ids).toEqual(sandbox.store.ids('accounts').slice(0, 25));
		expect(result.stderr).toBe(`pagewalk: stopped after 25 objects (--max-items); more pages follow; to continue, run the same command with --starting-after=${ids[24] as string}.\n`);
	});

	test('--max-items without --all walks as many pages as it takes, short pages included (the restricted credential)', async () => {
		const restricted = {...env, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.restricted};
		const first = ndjson((await dumpInProcess(['accounts', '--limit', '25'], restricted)).stdout);
		expect(first.length).toBeLessThan(25);
		const result = await dumpInProcess(['accounts', '--limit', '25', '--max-items', '30'], restricted);
		expect(result.code).toBe(0);
		expect(ndjson(result.stdout)).toHaveLength(30);
		expect(result.stderr).toMatch(/^pagewalk: stopped after 30 objects \(--max-items\); more pages follow/);
		// A list shorter than the count: all of it, and the end said as the end.
		const everything = await dumpInProcess(['accounts', '--limit', '100', '--max-items', '100000'], env);
		expect(ndjson(everything.stdout)).toHaveLength(120);
	});

	test('--max-pages says so', async () => {
		const result = await dumpInProcess(['accounts', '--all', '--limit', '10', '--max-pages', '2'], env);
		expect(ndjson(result.stdout)).toHaveLength(20);
		expect(result.stderr).toMatch(/^pagewalk: stopped after 2 pages \(--max-pages\); more pages follow; to continue, run the same command with --starting-after=/);
	});

	test('a wrong --format is a usage error', async () => {
		const result = await dumpInProcess(['--format', 'xml'], env);
		expect(result).toEqual({code: 2, stdout: '', stderr: 'pagewalk: --format must be one of ndjson, json, csv, table, not \'xml\'.\n'});
	});
});

describe('restricted credential and progress', () => {
	test('short pages are walked through; the progress line counts them on a terminal', async () => {
		const result = await dumpInProcess(['accounts', '--all', '--limit', '10'], {
			...env,
			COINBASE_ACCESS_TOKEN: sandbox.credentials.account.restricted,
		}, {stderrTty: true});
		expect(result.code).toBe(0);
		expect(ndjson(result.stdout).map(object => object.id)).toEqual(sandbox.store.ids('accounts', {viewer: 'restricted'}));
		// --all walks one chain from a server this quick, or both ends when its first page was slow
		// (a loaded machine): each chain's pages are counted then.
		expect(result.stderr).toMatch(/\d+ objects in (?:\d+ pages|↓ \d+ pages · ↑ \d+ pages) \(\d+ short\) in [\d.]+ s\n$/);
	});
});

describe('--demo and bare mode', () => {
	test('--demo walks the built-in sandbox with the restricted credential, no environment needed', async () => {
		const result = await dumpInProcess(['--demo', '--limit', '25'], {});
		expect(result.code).toBe(0);
		const objects = ndjson(result.stdout);
		expect(objects.length).toBeGreaterThan(0);
		expect(objects.length).toBeLessThan(25);
	});

	test('--demo --demo-credential full gives full pages', async () => {
		const result = await dumpInProcess(['checkouts', '--demo', '--demo-credential', 'full', '--limit', '25'], {});
		expect(ndjson(result.stdout)).toHaveLength(25);
	});
});

describe('canary credential', () => {
	test('a credential the server rejects: the error names the variable, the value is never printed', async () => {
		for (const endpoint of ['accounts', 'checkouts']) {
			// eslint-disable-next-line no-await-in-loop -- one dump at a time against the shared sandbox
			const result = await dumpInProcess([endpoint, '--all'], {...env, COINBASE_ACCESS_TOKEN: canary, COINBASE_COMMERCE_API_KEY: canary});
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(endpoint === 'accounts' ? /401 invalid_token.*set COINBASE_ACCESS_TOKEN/ : /401 authentication_error.*set COINBASE_COMMERCE_API_KEY/);
			expect(result.stdout + result.stderr).not.toContain(canary);
		}
	});
});
