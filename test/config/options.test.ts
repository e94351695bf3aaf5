import {inspect} from 'node:util';
import {describe, expect, test} from 'vitest';
import {UsageError} from '../../source/text/errors.js';
import {openConfig} from '../../source/commands/setup/demo.js';
import type {Credential} from '../../source/config/credentials.js';
import {demoPlan, firstPageUrl, resolveConfig, type WalkFlagValues} from '../../source/config/options.js';

const env = {COINBASE_ACCESS_TOKEN: 'tok-1', COINBASE_COMMERCE_API_KEY: 'key-1'};

function secretOf(credential: Credential): string | undefined {
	return credential.kind === 'cdp-key' ? undefined : credential.secret.reveal();
}

async function config(input: string[], flags: WalkFlagValues = {}, environment: Record<string, string | undefined> = env, command?: 'dump' | 'token') {
	return resolveConfig({input, flags, env: environment, ...(command ? {command} : {})});
}

async function usage(input: string[], flags: WalkFlagValues, message: RegExp | string, environment: Record<string, string | undefined> = env, command?: 'dump' | 'token') {
	const promise = config(input, flags, environment, command);
	await expect(promise).rejects.toThrow(UsageError);
	await expect(promise).rejects.toThrow(message);
}

describe('endpoints', () => {
	test('accounts is the default and the account API', async () => {
		const c = await config([]);
		expect(c.api).toBe('account');
		expect(firstPageUrl(c)).toBe('https://api.coinbase.com/v2/accounts');
		expect(c.credential).toMatchObject({kind: 'bearer', from: 'COINBASE_ACCESS_TOKEN'});
		expect(secretOf(c.credential)).toBe('tok-1');
		expect(c.headers['CB-VERSION']).toBe('2018-03-22');
	});

	test('checkouts and charges are the commerce API', async () => {
		const c = await config(['charges']);
		expect(c.api).toBe('commerce');
		expect(firstPageUrl(c)).toBe('https://api.commerce.coinbase.com/charges');
		expect(c.credential).toMatchObject({kind: 'api-key', from: 'COINBASE_COMMERCE_API_KEY'});
		expect(secretOf(c.credential)).toBe('key-1');
		expect(c.headers['X-CC-Version']).toBe('2018-03-22');
	});

	test('a /v2/ path is the account API, any other path commerce, --api overrides', async () => {
		expect((await config(['/v2/accounts/abc/transactions'])).api).toBe('account');
		expect((await config(['/invoices'])).api).toBe('commerce');
		expect((await config(['/v2/things'], {api: 'commerce'})).api).toBe('commerce');
		const named = await config(['transactions'], {api: 'account'});
		expect(firstPageUrl(named)).toBe('https://api.coinbase.com/v2/transactions');
	});

	test('transactions and addresses, with no --api, are that list of every account: dump and audit take them, the others refuse them', async () => {
		for (const each of ['transactions', 'addresses'] as const) {
			const walk = resolveConfig({input: [each], flags: {limit: '50'}, env, everyAccount: true});
			expect({api: walk.api, endpoint: walk.endpoint, each: walk.each, first: firstPageUrl(walk)}).toEqual({api: 'account', endpoint: '/v2/accounts', each, first: 'https://api.coinbase.com/v2/accounts?limit=50'});
			expect(() => resolveConfig({input: [each], flags: {}, env})).toThrow(`${each} walks that list of every account, which dump writes and audit checks; for one account's list give /v2/accounts/ID/${each}.`);
		}

		// One account's list stays one list.
		expect(resolveConfig({input: ['/v2/accounts/abc/transactions'], flags: {}, env, everyAccount: true}).each).toBeUndefined();
	});

	test('a full URL is matched to the base with the same origin; its query counts as flags', async () => {
		const c = await config(['http://127.0.0.1:9/p/v2/accounts?limit=5&order=asc&expand=all'], {baseUrl: 'http://127.0.0.1:9/p', limit: '7'});
		expect(c.api).toBe('account');
		expect(c.query).toEqual({limit: 7, order: 'asc'});
		expect(firstPageUrl(c)).toBe('http://127.0.0.1:9/p/v2/accounts?expand=all&limit=7&order=asc');
		const commerce = await config(['https://api.commerce.coinbase.com/checkouts']);
		expect(commerce.api).toBe('commerce');
	});

	test('a base with a path prefix keeps it; bases come from flags, then the environment', async () => {
		const c = await config(['accounts'], {}, {...env, PAGEWALK_BASE_URL: 'https://proxy.example/cb/'});
		expect(firstPageUrl(c)).toBe('https://proxy.example/cb/v2/accounts');
		const flagged = await config(['checkouts'], {commerceUrl: 'http://localhost:3000'}, {...env, PAGEWALK_COMMERCE_URL: 'https://ignored'});
		expect(firstPageUrl(flagged)).toBe('http://localhost:3000/checkouts');
	});

	test('query flags go into the first URL', async () => {
		const c = await config(['checkouts'], {limit: '100', order: 'asc', startingAfter: 'abc'});
		expect(firstPageUrl(c)).toBe('https://api.commerce.coinbase.com/checkouts?limit=100&order=asc&starting_after=abc');
		expect(firstPageUrl(c, {limit: 0, order: 'desc'})).toBe('https://api.commerce.coinbase.com/checkouts?limit=0&order=desc');
	});

	test('limits and bounds', async () => {
		const c = await config([], {timeout: '0.25', retries: '0', maxWait: '5', maxPages: '3', maxItems: '10'});
		expect(c).toMatchObject({timeoutMs: 250, retries: 0, maxWaitMs: 5000, maxPages: 3, maxItems: 10});
		const d = await config([]);
		expect(d).toMatchObject({timeoutMs: 30_000, retries: 3, maxWaitMs: 60_000, maxPages: null, maxItems: null});
	});

	test('--header adds headers; --api-version sets the version header', async () => {
		const c = await config(['checkouts'], {header: ['X-Trace: 1', 'Accept-Language:  fr '], apiVersion: '2023-01-31'});
		expect(c.headers).toMatchObject({'X-Trace': '1', 'Accept-Language': 'fr', 'X-CC-Version': '2023-01-31'});
	});

	test('the credential never shows in a printed config', async () => {
		const c = await config([]);
		const shown = `${inspect(c, {depth: 5})} ${JSON.stringify(c)} ${String(secretOf(c.credential) === undefined ? '' : (c.credential as {secret: object}).secret)}`;
		expect(shown).not.toContain('tok-1');
		expect(shown).toContain('[redacted]');
	});
});

describe('usage errors, before any request', () => {
	const cases: Array<[string, string[], WalkFlagValues, RegExp | string]> = [
		['limit above 100', [], {limit: '101'}, '--limit must be a whole number from 0 to 100, not \'101\'.'],
		['limit negative', [], {limit: '-1'}, /--limit must be a whole number from 0 to 100/],
		['limit not a number', [], {limit: 'ten'}, /--limit must be a whole number/],
		['limit in the URL', ['/v2/accounts?limit=500'], {}, /--limit must be a whole number from 0 to 100, not '500'/],
		['order', [], {order: 'newest'}, '--order must be asc or desc, not \'newest\'.'],
		['both cursors', [], {startingAfter: 'a', endingBefore: 'b'}, /Give --starting-after or --ending-before, not both/],
		['a cursor with a control character', [], {startingAfter: 'a\u001Bb'}, /--starting-after must be an object id \(up to 4096 characters, no control characters\)/],
		['a cursor longer than 4096', [], {startingAfter: 'x'.repeat(4097)}, /--starting-after must be an object id/],
		['a malformed base URL', [], {baseUrl: 'not a url'}, /--base-url must be an http or https URL/],
		['a base URL with another scheme', [], {baseUrl: 'ftp://x'}, /--base-url must be an http or https URL/],
		['a base URL with userinfo', [], {baseUrl: 'https://u:p@x'}, /must not carry a user name or password/],
		['a base URL with a query', ['checkouts'], {commerceUrl: 'https://x/?a=1'}, /--commerce-url must be a base URL without a query/],
		['an api that does not exist', [], {api: 'billing'}, '--api must be account or commerce, not \'billing\'.'],
		['an unknown endpoint name', ['wallets'], {}, /Unknown endpoint 'wallets': use accounts, checkouts or charges \(or, with dump or audit, transactions or addresses\)/],
		['a protocol-relative endpoint', ['//evil/v2/accounts'], {}, /must be a path such as \/v2\/accounts/],
		['an endpoint URL on another origin', ['https://evil.example/v2/accounts'], {}, /is on https:\/\/evil\.example, which is neither --base-url/],
		['an endpoint URL with userinfo', ['https://u:p@api.coinbase.com/v2/accounts'], {}, /must not carry a user name or password/],
		['a token in the endpoint', ['/v2/accounts?access_token=x'], {}, /must not carry access_token/],
		['two endpoints', ['accounts', 'checkouts'], {}, /Give at most one endpoint, not 2/],
		['a header without a colon', [], {header: ['X-Trace']}, /--header must look like 'Name: value'/],
		['a header with a line break', [], {header: ['X-A: 1\r\nX-B: 2']}, /--header must look like 'Name: value' on one line/],
		['a credential header', [], {header: ['Authorization: Bearer x']}, /credentials come only from the environment/],
		['a Host header', [], {header: ['Host: evil']}, /--header cannot set Host/],
		['an api version that is not a date', [], {apiVersion: '2018-13-45'}, /--api-version must be a date in the form YYYY-MM-DD/],
		['a zero timeout', [], {timeout: '0'}, /--timeout must be a number of seconds above 0/],
		// It was 0 ms, unsaid: "did not answer within 0 s".
		['a timeout under a millisecond', [], {timeout: '0.0001'}, '--timeout must be at least 0.001 seconds (one millisecond, the least it can wait), not \'0.0001\'.'],
		['a max wait under a millisecond', [], {maxWait: '0.0004'}, /--max-wait must be at least 0.001 seconds/],
		['too many retries', [], {retries: '50'}, /--retries must be a whole number from 0 to 10/],
		['zero max pages', [], {maxPages: '0'}, /--max-pages must be a whole number from 1/],
		['a bad demo credential', [], {demo: true, demoCredential: 'admin'}, /--demo-credential must be full or restricted/],
		['a demo credential without demo', [], {demoCredential: 'full'}, /--demo-credential only applies with --demo/],
		['demo with a base URL', [], {demo: true, baseUrl: 'https://x'}, /--demo runs its own sandbox/],
	];
	for (const [name, input, flags, message] of cases) {
		test(name, async () => {
			await usage(input, flags, message);
		});
	}

	test('a missing credential names the variable to set', async () => {
		await usage([], {}, 'Set a credential for the account API (or try the same command with --demo): --key-file PATH or COINBASE_API_KEY_FILE for a CDP key file, COINBASE_API_KEY_NAME with COINBASE_API_PRIVATE_KEY, or COINBASE_ACCESS_TOKEN for an access token.', {}, 'dump');
		// pagewalk token takes no --demo: its sentence offers none.
		await usage([], {}, 'Set a credential for the account API: --key-file PATH or COINBASE_API_KEY_FILE for a CDP key file, COINBASE_API_KEY_NAME with COINBASE_API_PRIVATE_KEY, or COINBASE_ACCESS_TOKEN for an access token.', {}, 'token');
		await usage(['checkouts'], {}, /^Set COINBASE_COMMERCE_API_KEY to an API key for the commerce API/, {COINBASE_ACCESS_TOKEN: 'x'});
		await usage([], {}, /Set a credential for the account API/, {COINBASE_ACCESS_TOKEN: '  '});
		await usage([], {}, /COINBASE_ACCESS_TOKEN contains a line break/, {COINBASE_ACCESS_TOKEN: 'a\nInjected: 1'});
	});

	test('user input quoted in a usage error is made inert', async () => {
		await usage([], {order: '\u001B[2J'}, '--order must be asc or desc, not \'\\x1b[2J\'.');
	});
});

describe('--demo', () => {
	test('starts the sandbox with the restricted credential by default, and close() stops it once', async () => {
		let closed = 0;
		const sandbox = {
			accountUrl: 'http://127.0.0.1:5001',
			commerceUrl: 'http://127.0.0.1:5002',
			credentials: {account: {full: 'af', restricted: 'ar'}, commerce: {full: 'cf', restricted: 'cr'}},
			keys: [],
			async close() {
				closed += 1;
			},
		};
		const c = await openConfig({input: ['checkouts'], flags: {demo: true}, env: {}, startDemo: async () => sandbox});
		expect(firstPageUrl(c)).toBe('http://127.0.0.1:5002/checkouts');
		expect(secretOf(c.credential)).toBe('cr');
		await c.close();
		await c.close();
		expect(closed).toBe(1);
		// No keys issued: the account API falls back to the token.
		const full = await openConfig({input: [], flags: {demo: true, demoCredential: 'full'}, env: {}, startDemo: async () => sandbox});
		expect(secretOf(full.credential)).toBe('af');
	});

	test('resolving is synchronous: the plan names the scenario and credential, and a wrong flag starts nothing', async () => {
		expect(demoPlan({input: [], flags: {}, env})).toBeNull();
		expect(demoPlan({input: [], flags: {demo: true, scenario: 'duplicate'}, env: {}})).toEqual({scenario: 'duplicate', credential: 'restricted', auth: 'key'});
		expect(() => demoPlan({input: [], flags: {demo: true, scenario: 'nope'}, env: {}})).toThrow(UsageError);
		let started = 0;
		const promise = openConfig({input: [], flags: {demo: true, limit: '500'}, env: {}, async startDemo() {
			started += 1;
			throw new Error('must not start');
		}});
		await expect(promise).rejects.toThrow('--limit must be a whole number from 0 to 100, not \'500\'.');
		expect(started).toBe(0);
		const sandbox = {accountUrl: 'http://127.0.0.1:5001', commerceUrl: 'http://127.0.0.1:5002', credentials: {account: {full: 'af', restricted: 'ar'}, commerce: {full: 'cf', restricted: 'cr'}}, keys: []};
		const c = resolveConfig({input: ['checkouts'], flags: {demo: true}, env: {}, demo: sandbox});
		expect(c.demoCredentials?.using).toBe('demo restricted API key');
		expect(c.demoCredentials?.other).toMatchObject({kind: 'api-key', from: 'demo full API key'});
		expect(secretOf(c.demoCredentials!.other)).toBe('cf');
	});
});
