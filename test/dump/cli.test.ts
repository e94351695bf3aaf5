/**
 * The built bundle as users run it (`node dist/cli.js dump …`; `npm test`
 * builds first): exit codes, the one-sentence stderr, help, an early-closed
 * stdout, and the canary credential through a subprocess.
 */
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {afterAll, beforeAll, beforeEach, describe, expect, test} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {canary, canaryEnv, cliPath, runCli, usePrivateCli, sandboxEnv, writeCanaryKeyFile} from '../support/run-dump.js';

let sandbox: Sandbox;
let faulty: FaultyServer;
let env: Record<string, string>;
let cli: string;

beforeAll(async () => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	cli = usePrivateCli();

	[sandbox, faulty] = await Promise.all([startSandbox({port: 0, records: 3000}), startFaultyServer()]);
	env = sandboxEnv(sandbox);
});

afterAll(async () => {
	await Promise.all([sandbox?.close(), faulty?.close()]);
});

// The faulty server records requests and counts attempts: each test starts from none.
beforeEach(() => {
	faulty.reset();
});

describe('pagewalk dump (built CLI)', () => {
	test('--help documents the exit codes and the credential variables', async () => {
		const result = await runCli(['dump', '--help']);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/Exit status\n\s+0 {2}done/);
		expect(result.stdout).toMatch(/1 {2}the walk failed/);
		expect(result.stdout).toMatch(/2 {2}wrong flags or arguments/);
		expect(result.stdout).toContain('COINBASE_ACCESS_TOKEN');
		expect(result.stdout).toContain('COINBASE_COMMERCE_API_KEY');
	});

	test('--no-csv-guard: csv cells that look like formulas are written unchanged; without it they are guarded', async () => {
		const argv = ['dump', 'accounts', `--base-url=${faulty.base('exact')}`, '--format', 'csv'];
		const guarded = await runCli(argv);
		const raw = await runCli([...argv, '--no-csv-guard']);
		expect(guarded.code).toBe(0);
		expect(raw.code).toBe(0);
		expect(guarded.stdout.split('\r\n')[3]).toMatch(/,'=1\+1,-5$/);
		expect(raw.stdout.split('\r\n')[3]).toMatch(/,=1\+1,-5$/);
		expect(raw.stdout.replace('\'=1+1', '=1+1')).toBe(guarded.stdout.replace('\'=1+1', '=1+1'));
		const help = await runCli(['dump', '--help']);
		expect(help.stdout).toContain('--no-csv-guard');
		const typo = await runCli([...argv, '--no-csv-guard=yes']);
		expect(typo.code).toBe(2);
		expect(typo.stderr).toBe('pagewalk: --no-csv-guard is a switch and takes no value, not \'yes\'; see pagewalk dump --help.\n');
	});

	test('a wrong flag value: exit 2, one sentence, nothing on stdout', async () => {
		const result = await runCli(['dump', '--limit', '500']);
		expect(result).toEqual({code: 2, stdout: '', stderr: 'pagewalk: --limit must be a whole number from 0 to 100, not \'500\'.\n'});
	});

	test('a missing credential: exit 2, naming the variable to set', async () => {
		const result = await runCli(['dump', 'checkouts'], {});
		expect(result.code).toBe(2);
		expect(result.stderr).toBe('pagewalk: Set COINBASE_COMMERCE_API_KEY to an API key for the commerce API (or try the same command with --demo); credentials are read only from the environment.\n');
	});

	test('an unknown flag: exit 2', async () => {
		const result = await runCli(['dump', '--pages', '3']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
	});

	test('a whole walk: exit 0, NDJSON only on stdout', async () => {
		const result = await runCli(['dump', 'checkouts', '--all', '--limit', '100'], env);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe('');
		expect(result.stdout.trimEnd().split('\n')).toHaveLength(3000);
	});

	test('stdout closed early (| head): quiet exit 0', async () => {
		const result = await runCli(['dump', 'accounts', '--all', '--limit', '100'], env, {readBytes: 2000});
		expect(result.code).toBe(0);
		expect(result.stderr).toBe('');
	});

	test('a failure mid-walk: exit 1, what was read is kept, and how to resume', async () => {
		const result = await runCli(['dump', 'checkouts', '--all', `--commerce-url=${faulty.base('fail-midway')}`, '--retries', '0', '--quiet'], canaryEnv);
		expect(result.code).toBe(1);
		expect(result.stdout.trimEnd().split('\n')).toHaveLength(6);
		expect(result.stderr).toBe([
			'pagewalk: The commerce API failed (500 internal_server_error: Something went wrong); try again later.',
			'pagewalk: 6 objects were written before the failure; to resume, run the same command with --starting-after=obj-2-2.',
			'',
		].join('\n'));
	});

	test('the canary credential: never printed, never sent to another origin', async () => {
		faulty.reset();
		for (const fault of ['foreign-next', 'redirect', 'protocol-relative-next', 'escape-error', 'unauthorized-account'] as const) {
			const flag = fault === 'foreign-next' ? `--commerce-url=${faulty.base(fault)}` : `--base-url=${faulty.base(fault)}`;
			// eslint-disable-next-line no-await-in-loop -- faulty.received is checked for the whole sequence
			const result = await runCli(['dump', fault === 'foreign-next' ? 'checkouts' : 'accounts', '--all', flag], canaryEnv);
			expect(result.code).toBe(1);
			expect(result.stdout + result.stderr).not.toContain(canary);
			expect(result.stderr).not.toContain('\u001B');
		}

		expect(faulty.received.filter(request => request.server === 'evil')).toEqual([]);
		expect(faulty.received.every(request => (request.authorization ?? `Bearer ${canary}`) === `Bearer ${canary}` && (request.apiKey ?? canary) === canary)).toBe(true);
	});

	test('the canary private key through the built CLI: neither the key nor any JWT in any byte of output, nothing to another origin', async () => {
		faulty.reset();
		const key = writeCanaryKeyFile();
		let output = '';
		for (const fault of ['echo-in-error', 'echo-in-body', 'redirect', 'protocol-relative-next', 'unauthorized-account'] as const) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const result = await runCli(['dump', 'accounts', '--all', `--base-url=${faulty.base(fault)}`, '--key-file', key.path], {NO_COLOR: '1'});
			expect(result.code).toBe(1);
			output += result.stdout + result.stderr;
		}

		expect(faulty.received.filter(request => request.server === 'evil')).toEqual([]);
		const jwts = faulty.received.map(request => request.authorization!.replace('Bearer ', ''));
		expect(jwts.length).toBeGreaterThanOrEqual(5);
		expect(output).not.toContain('eyJhbGci');
		for (const jwt of jwts) {
			expect(output).not.toContain(jwt.split('.')[2]!);
		}

		for (const line of key.keyLines) {
			expect(output).not.toContain(line);
		}
	});

	test('bare `pagewalk [endpoint]` with stdout not a terminal is a dump of one page', async () => {
		const result = await runCli(['checkouts', '--limit', '4'], env);
		expect(result.code).toBe(0);
		expect(result.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id)).toEqual(sandbox.store.ids('checkouts').slice(0, 4));
		// The browser on a pipe writes one page; dump is the command that walks them all.
		expect(result.stderr).toMatch(/^pagewalk: more pages follow: run pagewalk dump checkouts --limit=4 --all to walk them, or add --starting-after=\S+ for the next page\.\n$/);
	});

	test('Ctrl-C mid-walk: exit 130, the JSON array closed, and how to resume', async () => {
		const child = spawn(process.execPath, [cli, 'dump', 'accounts', '--all', '--format', 'json', `--base-url=${faulty.base('hang-after-first')}`, '--timeout', '30', '--quiet'], {
			env: {PATH: process.env.PATH, ...canaryEnv},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		let interrupted = false;
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (!interrupted && stdout.includes('obj-1-2')) {
				interrupted = true;
				child.kill('SIGINT');
			}
		});
		const code = await new Promise<number | null>(resolve => {
			child.on('close', resolve);
		});
		expect(code).toBe(130);
		expect((JSON.parse(stdout) as Array<{id: string}>).map(object => object.id)).toEqual(['obj-1-0', 'obj-1-1', 'obj-1-2']);
		expect(stderr).toBe('pagewalk: 3 objects were written before the interruption; to resume, run the same command with --starting-after=obj-1-2.\n');
	});

	test('--demo works with no environment at all', async () => {
		const result = await runCli(['dump', '--demo', 'checkouts', '--limit', '3', '--demo-credential', 'full'], {});
		expect(result.code).toBe(0);
		expect(result.stdout.trimEnd().split('\n')).toHaveLength(3);
	});
});
