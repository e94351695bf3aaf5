/**
 * A rate-limited walk on a stderr that is not a terminal (a pipe, a CI log):
 * no progress line there, so a long wait is said as one plain line when it
 * starts. The built CLI twice over: `serve --rate-limit` as the server, and
 * `dump` (and `audit`) against it with stderr piped.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {createInterface} from 'node:readline';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {dumpInProcess, usePrivateCli} from '../support/run-dump.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {longWaitMs} from '../../source/output/progress.js';

let cli: string;
let faulty: FaultyServer;
const running: ChildProcess[] = [];

beforeAll(async () => {
	if (!existsSync('dist/cli.js')) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	cli = usePrivateCli();
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty?.close();
});

afterEach(() => {
	for (const child of running.splice(0)) {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGKILL');
		}
	}
});

function start(args: string[], env: Record<string, string> = {}) {
	const child = spawn(process.execPath, [cli, ...args], {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, ...env}});
	running.push(child);
	let stderr = '';
	child.stderr!.setEncoding('utf8');
	const waiters: Array<() => void> = [];
	child.stderr!.on('data', (chunk: string) => {
		stderr += chunk;
		for (const wake of waiters.splice(0)) {
			wake();
		}
	});
	const closed = new Promise<number | null>(resolve => {
		child.on('close', (code, signal) => {
			resolve(code ?? (signal === 'SIGTERM' ? 143 : null));
		});
	});
	/**
	 * Resolves with stderr so far once it matches `pattern`; an exit first, or
	 * 20 s of silence (the wait itself lasts up to a minute), fails with what it said.
	 */
	const stderrMatches = async (pattern: RegExp) => new Promise<string>((resolve, reject) => {
		const deadline = setTimeout(() => {
			reject(new Error(`stderr did not match ${String(pattern)} within 20 s:\n${stderr}`));
		}, 20_000);
		const check = () => {
			if (pattern.test(stderr)) {
				clearTimeout(deadline);
				resolve(stderr);
			} else {
				waiters.push(check);
			}
		};

		void closed.then(() => {
			clearTimeout(deadline);
			reject(new Error(`exited before stderr matched ${String(pattern)}:\n${stderr}`));
		});
		check();
	});
	return {child, closed, stderrMatches, stderr: () => stderr};
}

/** `serve --json --rate-limit 1/m`: after one request per credential, a wait of up to a minute. */
async function limitedServer(extra: string[] = []) {
	const server = start(['serve', '--json', '--port', '0', '--records', '40', '--rate-limit', '1/m', ...extra]);
	const line = await new Promise<string>(resolve => {
		createInterface({input: server.child.stdout!}).once('line', resolve);
	});
	const info = JSON.parse(line) as {accountUrl: string; credentials: {account: {full: string}}};
	return {server, env: {COINBASE_ACCESS_TOKEN: info.credentials.account.full, PAGEWALK_BASE_URL: info.accountUrl}};
}

describe('a long wait on a stderr that is not a terminal', () => {
	it.each([
		['the budget headers (paced before the 429)', [], /^pagewalk: waiting \d+\.\d s for the server's request budget \(0 of 1 left\)…$/m],
		['Retry-After only (--no-budget-headers)', ['--no-budget-headers'], /^pagewalk: waiting \d+\.\d s before retry 1 \(429 rate_limit_exceeded\) as the server's Retry-After asks…$/m],
	])('dump says it on one plain line as it starts: %s', async (_name, serveFlags, line) => {
		const {server, env} = await limitedServer(serveFlags);
		const dump = start(['dump', 'accounts', '--all', '--limit', '5', '--one-chain'], env);
		const said = await dump.stderrMatches(line);
		expect(said).not.toContain('\r');
		expect(said).not.toContain('\u001B');
		expect(said.split('\n').filter(text => text.includes('waiting'))).toHaveLength(1);
		// The wait is long (up to the minute's end): stopped here, the dump still says how to resume.
		dump.child.kill('SIGTERM');
		expect(await dump.closed).toBe(143);
		expect(dump.stderr()).toMatch(/--starting-after=/);
		server.child.kill('SIGTERM');
		await server.closed;
	});

	it('audit says it too', async () => {
		const {server, env} = await limitedServer();
		const audit = start(['audit', 'accounts', '--limit', '5'], env);
		const said = await audit.stderrMatches(/^pagewalk: waiting \d+\.\d s for the server's request budget/m);
		expect(said).not.toContain('\r');
		audit.child.kill('SIGTERM');
		await audit.closed;
		server.child.kill('SIGTERM');
		await server.closed;
	});

	it(`a wait shorter than ${longWaitMs / 1000} s is not worth a line: a 1 s Retry-After passes in silence`, async () => {
		const result = await dumpInProcess([`--base-url=${faulty.base('rate-limit')}`, 'accounts', '--all', '--quiet', '--one-chain', '--retries', '1', '--max-wait', '2']);
		expect(result.code).toBe(0);
		expect(result.stderr).not.toContain('waiting');
	});
});
