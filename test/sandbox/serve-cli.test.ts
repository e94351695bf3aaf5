/** `pagewalk serve` as users and scripts run it: the built bundle in a subprocess. */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {createInterface} from 'node:readline';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {parseKeyFile} from '../../source/config/cdp-key.js';
import {signRequestJwt} from '../../source/config/jwt-sign.js';
import {defaults} from '../../source/config/config-defaults.js';
import {startSandbox} from '../../source/sandbox/index.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const running: ChildProcess[] = [];

beforeAll(() => {
	if (!existsSync(cli)) {
		throw new Error('dist/cli.js is missing; run npm run build first (npm test does it).');
	}
});

afterEach(() => {
	for (const child of running.splice(0)) {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGKILL');
		}
	}
});

function start(args: string[]) {
	const child = spawn(process.execPath, [cli, 'serve', ...args], {stdio: ['ignore', 'pipe', 'pipe']});
	running.push(child);
	let stderr = '';
	child.stderr!.setEncoding('utf8');
	child.stderr!.on('data', (chunk: string) => {
		stderr += chunk;
	});
	// 'close', not 'exit': only then are stdout and stderr drained.
	const exited = new Promise<number | null>((resolve) => {
		child.on('close', (code) => {
			resolve(code);
		});
	});
	const lines: string[] = [];
	const waiters: Array<() => void> = [];
	createInterface({input: child.stdout!}).on('line', (line) => {
		lines.push(line);
		for (const wake of waiters.splice(0)) {
			wake();
		}
	});
	/** Resolves with the output so far once a line matches `pattern`. */
	const waitFor = async (pattern: RegExp) =>
		new Promise<string[]>((resolve, reject) => {
			const check = () => {
				if (lines.some((line) => pattern.test(line))) {
					resolve(lines);
				} else {
					waiters.push(check);
				}
			};

			child.once('close', () => {
				reject(new Error(`serve exited before printing ${String(pattern)}: ${stderr}`));
			});
			check();
		});
	const firstLine = waitFor(/./).then((output) => output[0]!);
	return {child, firstLine, waitFor, exited, stderr: () => stderr};
}

async function run(args: string[]) {
	const process = start(args);
	process.firstLine.catch(() => {});
	const code = await process.exited;
	return {code, stderr: process.stderr()};
}

describe('pagewalk serve', () => {
	it('--json --port 0 prints one JSON line, serves, and exits 0 on SIGTERM', async () => {
		const server = start(['--json', '--port', '0', '--records', '40']);
		const info = JSON.parse(await server.firstLine);
		expect(Object.keys(info)).toEqual(['accountUrl', 'commerceUrl', 'credentials', 'keys', 'settings']);
		expect(info.settings).toEqual({scenario: 'restricted', records: 40, longTail: 5000, transactionsPerAccount: null, seed: 1, churnPerSecond: 0, latency: null, rateLimit: null});
		expect(Object.keys(info.credentials.account)).toEqual(['full', 'restricted']);
		const account = await fetch(`${info.accountUrl}/v2/accounts?limit=3`, {headers: {authorization: `Bearer ${info.credentials.account.full}`}});
		expect(account.status).toBe(200);
		expect(((await account.json()) as {data: unknown[]}).data).toHaveLength(3);
		const commerce = await fetch(`${info.commerceUrl}/checkouts`, {headers: {'x-cc-api-key': info.credentials.commerce.restricted}});
		expect(commerce.status).toBe(200);
		const body = (await commerce.json()) as {pagination: {next_uri: string}};
		expect(body.pagination.next_uri.startsWith(`${info.commerceUrl}/checkouts?`)).toBe(true);
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		expect(server.stderr()).toBe('');
	});

	it('--json gives each CDP key file\'s JSON and a private path to it in the state directory, usable to sign, kept and the same on the next start with the seed', async () => {
		const server = start(['--json', '--port', '0', '--records', '10', '--seed', '7']);
		const info = JSON.parse(await server.firstLine) as {accountUrl: string; keys: Array<{name: string; algorithm: string; viewer: string; path: string; keyFile: unknown; files: Array<{form: string; path: string; keyFile: unknown}>}>};
		expect(info.keys.map(({viewer, algorithm}) => `${viewer} ${algorithm}`).sort()).toEqual(['full ES256', 'full EdDSA', 'restricted ES256', 'restricted EdDSA']);
		await Promise.all(info.keys.map(async key => {
			expect(statSync(key.path).mode & 0o777).toBe(0o600);
			expect(statSync(path.dirname(key.path)).mode & 0o777).toBe(0o700);
			expect(JSON.parse(readFileSync(key.path, 'utf8'))).toEqual(key.keyFile);
			const url = `${info.accountUrl}/v2/accounts?limit=2`;
			const response = await fetch(url, {headers: {authorization: `Bearer ${signRequestJwt(parseKeyFile(JSON.stringify(key.keyFile), key.path), {method: 'GET', url})}`}});
			await response.text();
			expect(response.status).toBe(200);
		}));

		expect(path.dirname(info.keys[0]!.path)).toBe(path.join(process.env['PAGEWALK_STATE_DIR']!, 'sandbox-keys', 'seed-7'));
		expect(info.keys.flatMap((key) => key.files.map((file) => file.form)).sort()).toEqual(['base64', 'base64', 'pkcs8', 'pkcs8', 'sec1', 'sec1']);
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		expect(info.keys.every((key) => existsSync(key.path))).toBe(true);
		const again = start(['--json', '--port', '0', '--records', '10', '--seed', '7']);
		const second = JSON.parse(await again.firstLine) as typeof info;
		expect(second.keys).toEqual(info.keys);
		again.child.kill('SIGTERM');
		expect(await again.exited).toBe(0);
	});

	it('--rate-limit N/h: past N requests per credential, 429 with Retry-After and the API\'s error body', async () => {
		const server = start(['--json', '--port', '0', '--records', '10', '--rate-limit', '2/h']);
		const info = JSON.parse(await server.firstLine) as {accountUrl: string; credentials: {account: {full: string; restricted: string}}};
		const ask = async (token: string) => {
			const response = await fetch(`${info.accountUrl}/v2/accounts?limit=1`, {headers: {authorization: `Bearer ${token}`}});
			return {status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() as unknown};
		};

		expect((await ask(info.credentials.account.full)).status).toBe(200);
		expect((await ask(info.credentials.account.full)).status).toBe(200);
		const limited = await ask(info.credentials.account.full);
		expect(limited.status).toBe(429);
		expect(Number(limited.retryAfter)).toBeGreaterThan(3000);
		expect(limited.body).toEqual({errors: [{id: 'rate_limit_exceeded', message: 'Too many requests'}]});
		// Per credential: the other one still has its own budget.
		expect((await ask(info.credentials.account.restricted)).status).toBe(200);
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('--rate-limit: every answer states the budget left (RateLimit-*), unless --no-budget-headers', async () => {
		const ask = async (args: string[]) => {
			const server = start(['--json', '--port', '0', '--records', '10', '--rate-limit', '5/h', ...args]);
			const info = JSON.parse(await server.firstLine) as {accountUrl: string; credentials: {account: {full: string}}};
			const response = await fetch(`${info.accountUrl}/v2/accounts?limit=1`, {headers: {authorization: `Bearer ${info.credentials.account.full}`}});
			await response.text();
			server.child.kill('SIGTERM');
			expect(await server.exited).toBe(0);
			return ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map(name => response.headers.get(name));
		};

		const [limit, remaining, reset] = await ask([]);
		expect([limit, remaining]).toEqual(['5', '4']);
		expect(Number(reset)).toBeGreaterThan(3500);
		expect(await ask(['--no-budget-headers'])).toEqual([null, null, null]);
	});

	it('--host 0.0.0.0: says on stderr that other machines can reach it with public credentials, and prints URLs a client can connect to', async () => {
		const server = start(['--host', '0.0.0.0', '--port', '0']);
		const text = (await server.waitFor(/^Ctrl-C/)).join('\n');
		expect(text).not.toContain('0.0.0.0');
		const account = /account API +(http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1]!;
		const token = /sbx-acct-full-[\da-f]+/.exec(text)![0];
		const response = await fetch(`${account}/v2/accounts?limit=1`, {headers: {authorization: `Bearer ${token}`}});
		await response.text();
		expect(response.status).toBe(200);
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		expect(server.stderr()).toBe('pagewalk: the sandbox listens on 0.0.0.0, so other machines can reach it, and its credentials and keys are public (printed here, derived from --seed); bind 127.0.0.1 (the default) unless that is what you want.\n');
	});

	it('--latency MS holds each answer at least MS before its first byte', async () => {
		const server = start(['--json', '--port', '0', '--records', '10', '--latency', '150']);
		const info = JSON.parse(await server.firstLine) as {accountUrl: string; credentials: {account: {full: string}}};
		const started = performance.now();
		const response = await fetch(`${info.accountUrl}/v2/accounts?limit=1`, {headers: {authorization: `Bearer ${info.credentials.account.full}`}});
		await response.text();
		expect(performance.now() - started).toBeGreaterThanOrEqual(150);
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('confirms its scenario, records, long tail, latency and rate limit at start, in the text and in --json, as the sandbox applies them', async () => {
		const flags = ['--port', '0', '--records', '30', '--long-tail', '20000', '--scenario', 'churn', '--latency', '80±20', '--rate-limit', '100/m', '--no-budget-headers'];
		const server = start(flags);
		const text = (await server.waitFor(/^Ctrl-C/)).join('\n');
		expect(text).toContain('  scenario    churn: clean, with 5 inserts and removals a second while you walk\n');
		// The churn scenario's own churn, which --churn did not set: what the sandbox does, not what was typed.
		expect(text).toContain('  records     30 objects per list, seed 1, churn: about 5 inserts and removals a second\n');
		expect(text).toContain('  long tail   about one account in thirty holds 4000 to 20000 transactions (--long-tail N sets the most)\n');
		expect(text).toContain('  latency     80 ms ± 20 ms before each answer\'s first byte, + 0.2 ms per object asked for\n');
		expect(text).toContain('  rate limit  100 requests a minute per credential on the account API, then 429 with Retry-After; only 429 and Retry-After, as the real API (--no-budget-headers)\n');
		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		const json = start(['--json', ...flags]);
		const info = JSON.parse(await json.firstLine) as {settings: unknown};
		expect(info.settings).toEqual({scenario: 'churn', records: 30, longTail: 20_000, transactionsPerAccount: null, seed: 1, churnPerSecond: 5, latency: {ms: 80, jitterMs: 20, perObjectMs: 0.2}, rateLimit: {count: 100, perMs: 60_000, headers: false}});
		json.child.kill('SIGTERM');
		expect(await json.exited).toBe(0);
		const plain = start(['--port', '0', '--records', '5']);
		const defaultsText = (await plain.waitFor(/^Ctrl-C/)).join('\n');
		expect(defaultsText).toContain('  scenario    restricted: clean; the restricted credential sees clumps of the list (the default)\n');
		expect(defaultsText).toContain('  records     5 objects per list, seed 1, no churn\n');
		expect(defaultsText).toContain('  long tail   about one account in thirty holds 1000 to 5000 transactions (--long-tail N sets the most)\n');
		expect(defaultsText).toContain('  latency     none: answers come at once (--latency MS[±J][/P] holds them as a real link would)\n');
		expect(defaultsText).toContain('  rate limit  off (--rate-limit N/h, N/m or N/s sets one)\n');
		plain.child.kill('SIGTERM');
		expect(await plain.exited).toBe(0);
	});

	it('its sample curl lines send the API version pagewalk sends, which the sandbox takes without a warning', async () => {
		const server = start(['--port', '0', '--records', '5']);
		const text = (await server.waitFor(/^Ctrl-C/)).join('\n');
		const curls = text.split('\n').filter(line => line.trimStart().startsWith('curl '));
		expect(curls).toHaveLength(2);
		await Promise.all(curls.map(async line => {
			const [, name, version] = /-H '(CB-VERSION|X-CC-Version): ([^']*)'/.exec(line)!;
			expect(version).toBe(defaults.apiVersion);
			const headers = Object.fromEntries([...line.matchAll(/-H '([^:]+): ([^']*)'/g)].map(match => [match[1]!, match[2]!]));
			const url = /'(http:[^']+)'$/.exec(line)![1]!;
			const response = await fetch(url, {headers});
			const body = await response.json() as {warnings?: unknown};
			expect([name, response.status, body.warnings]).toEqual([name, 200, undefined]);
		}));

		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	it('prints both URLs, the four credentials and a curl line; --verbose logs requests without tokens', async () => {
		const server = start(['--port', '0', '--verbose']);
		const text = (await server.waitFor(/^Ctrl-C/)).join('\n');
		const urls = [...text.matchAll(/http:\/\/127\.0\.0\.1:\d+/g)].map((match) => match[0]);
		expect(new Set(urls).size).toBe(2);
		for (const token of ['sbx-acct-full-', 'sbx-acct-rstr-', 'sbx-comm-full-', 'sbx-comm-rstr-']) {
			expect(text).toContain(token);
		}

		expect(text).toContain('curl ');
		const keyFiles = [...text.matchAll(/key file {2}(\S+\.json)/g)].map((match) => match[1]!);
		expect(keyFiles).toHaveLength(6);
		expect(text).toContain('SEC1 PEM, as the key portal downloads it');
		expect(text).toContain('PKCS#8 PEM, the same key as the Node CDP SDK (@coinbase/cdp-sdk) reads it');
		expect(keyFiles.every((file) => existsSync(file))).toBe(true);
		expect(text).toMatch(/full +ES256 +organizations\/sandbox-00000001\/apiKeys\/account-full-es256/);
		expect(text).not.toContain('PRIVATE KEY');
		const token = /sbx-acct-full-[\da-f]+/.exec(text)![0];
		const response = await fetch(`${urls[0]}/v2/accounts?limit=1&access_token=${token}`);
		await response.text();
		server.child.kill('SIGINT');
		expect(await server.exited).toBe(0);
		expect(server.stderr()).toMatch(/^account GET \/v2\/accounts\?limit=1&access_token=\[redacted\] 200 /);
		expect(server.stderr()).not.toContain(token);
	});

	it.each([
		[['--port', 'abc'], /--port/],
		[['--records', '2000000'], /--records/],
		[['--bogus'], /--bogus/],
		[['--rate-limit', '5/fortnight'], /^pagewalk: --rate-limit must be a number of requests per hour, minute or second, such as 10000\/h or 5\/s, not '5\/fortnight'\.\n$/],
		[['extra'], /^pagewalk: pagewalk serve takes flags only, not the argument 'extra'; see pagewalk serve --help\.\n$/],
		[['--latency', 'fast'], /^pagewalk: --latency must be milliseconds up to 60000, optionally ± a jitter no larger than it and \/ms per object asked for, such as 50, 80±20 or 80\+-20\/0\.5, not 'fast'\.\n$/],
		[['--no-budget-headers'], /^pagewalk: --no-budget-headers applies with --rate-limit, which sets the budget\.\n$/],
	])('bad flags %j: one sentence, exit 2', async (args, mention) => {
		const {code, stderr} = await run(args);
		expect(code).toBe(2);
		expect(stderr).toMatch(mention);
		expect(stderr.trim().split('\n')).toHaveLength(1);
	});

	it('--help lists every option and exits 0', async () => {
		const server = start(['--help']);
		const output = (await server.waitFor(/pagewalk serve --json/)).join('\n');
		for (const flag of ['--port', '--commerce-port', '--host', '--records', '--long-tail', '--transactions', '--seed', '--churn', '--rate-limit', '--no-budget-headers', '--latency', '--json', '--verbose']) {
			expect(output).toContain(flag);
		}

		expect(await server.exited).toBe(0);
	});

	it('--transactions N gives every account exactly N transactions; a bad count, or --long-tail beside it, is one sentence, exit 2', async () => {
		const server = start(['--json', '--port', '0', '--records', '6', '--transactions', '3']);
		const info = JSON.parse(await server.firstLine) as {accountUrl: string; credentials: {account: {full: string}}; settings: {transactionsPerAccount: unknown}};
		expect(info.settings.transactionsPerAccount).toBe(3);
		const headers = {authorization: `Bearer ${info.credentials.account.full}`};
		const accounts = (await (await fetch(`${info.accountUrl}/v2/accounts?limit=100`, {headers})).json()) as {data: Array<{id: string}>};
		expect(accounts.data).toHaveLength(6);
		for (const {id} of accounts.data) {
			// eslint-disable-next-line no-await-in-loop -- one account after another
			const page = (await (await fetch(`${info.accountUrl}/v2/accounts/${id}/transactions?limit=100`, {headers})).json()) as {data: unknown[]};
			expect(page.data).toHaveLength(3);
		}

		server.child.kill('SIGTERM');
		expect(await server.exited).toBe(0);
		for (const [flags, message] of [
			[['--long-tail', 'many'], /^pagewalk: --long-tail must be a whole number from 0 to 1000000, not 'many'\.\n$/],
			[['--transactions', '1000001'], /^pagewalk: --transactions must be a whole number from 0 to 1000000, not '1000001'\.\n$/],
			[['--transactions', '5', '--long-tail', '50'], /^pagewalk: --long-tail shapes the varied transactions that --transactions replaces; give one of them\.\n$/],
		] as const) {
			// eslint-disable-next-line no-await-in-loop -- one refusal after another
			const {code, stderr} = await run(['--port', '0', ...flags]);
			expect(code).toBe(2);
			expect(stderr).toMatch(message);
		}
	});

	it('a port in use: one clear sentence, exit 1', async () => {
		const busy = await startSandbox({records: 1});
		try {
			const {code, stderr} = await run(['--port', new URL(busy.accountUrl).port]);
			expect(code).toBe(1);
			expect(stderr).toMatch(/already in use/);
			expect(stderr.trim().split('\n')).toHaveLength(1);
		} finally {
			await busy.close();
		}
	});
});
