/** Exit statuses of the built bundle: `node dist/cli.js audit …`. */
import {createServer} from 'node:net';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {prepareCli, runCli, sandboxTarget, spawnCli} from './run-audit.js';

let sandbox: Sandbox;

beforeAll(async () => {
	prepareCli();

	sandbox = await startSandbox({port: 0, records: 120});
});

afterAll(async () => {
	await sandbox?.close();
});

/**
 * A loopback server of our own that accepts each connection and resets it at
 * once. Closing a port and expecting it refused races other workers, which
 * may be handed the same port by the kernel in the meantime.
 */
async function resettingServer(): Promise<{port: number; close(): Promise<void>}> {
	const server = createServer(socket => {
		socket.resetAndDestroy();
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address() as {port: number};
	return {
		port,
		close: async () => new Promise<void>(resolve => {
			server.close(() => {
				resolve();
			});
		}),
	};
}

describe('pagewalk audit exit status', () => {
	test('0: every check passed', async () => {
		const target = sandboxTarget(sandbox, 'restricted');
		const result = await runCli(['audit', 'accounts', ...target.flags, '--limit', '10'], target.env);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('Result: all checks passed (exit 0).');
		expect(result.stderr).toBe('');
	});

	test('1: a contract check failed (the demo with a faulty scenario)', async () => {
		const result = await runCli(['audit', 'checkouts', '--demo', '--demo-credential', 'full', '--scenario', 'yielded-mismatch'], {NO_COLOR: '1'});
		expect(result.code).toBe(1);
		expect(result.stdout).toContain('✗ commerce yielded equals the number of objects in data (commerce counts describe the page and the list): 1 failure');
		expect(result.stdout).toContain('page 2: yielded is 26 but data holds 25 objects');
		expect(result.stdout).toContain('Result: a contract check failed: yielded (desc) (exit 1).');
		expect(result.stderr).toBe('');
	});

	test('1: pagewalk serve --scenario, audited from another process', async () => {
		const server = spawnCli(['serve', '--port', '0', '--json', '--scenario', 'duplicate'], {});
		try {
			const line = await new Promise<string>((resolve, reject) => {
				let text = '';
				server.stdout.on('data', (chunk: Buffer) => {
					text += chunk.toString();
					if (text.includes('\n')) {
						resolve(text.split('\n')[0]!);
					}
				});
				server.on('close', () => {
					reject(new Error(`serve ended before printing its URLs: ${text}`));
				});
			});
			const served = JSON.parse(line) as {accountUrl: string; commerceUrl: string; credentials: {account: {full: string}}};
			const result = await runCli(['audit', 'accounts', '--base-url', served.accountUrl, '--commerce-url', served.commerceUrl, '--json'], {COINBASE_ACCESS_TOKEN: served.credentials.account.full});
			expect(result.code).toBe(1);
			const report = JSON.parse(result.stdout) as {walks: Array<{checks: Array<{id: string; status: string; evidence: Array<{page: number; message: string}>}>}>};
			// Page 2 repeats page 1's last object on top of a full page: an id twice, and one object more than the limit (page-size).
			expect(report.walks[0]!.checks.filter((check) => check.status === 'failed').map((check) => [check.id, check.evidence[0]!.page])).toEqual([['unique-ids', 2], ['over-limit', 2]]);
			expect(report.walks[0]!.checks.find((check) => check.id === 'over-limit')!.evidence).toEqual([{page: 2, message: 'data holds 26 objects, more than the limit of 25'}]);
		} finally {
			server.kill('SIGTERM');
		}
	});

	test.each([
		[['--limit', '500'], '--limit must be a whole number from 0 to 100'],
		[['--order', 'sideways'], '--order must be asc or desc'],
		[['--compare-env', 'UNSET_VARIABLE'], 'set UNSET_VARIABLE to the second token'],
		[['--both-orders', '--starting-after', 'abc'], '--both-orders walks the whole list each way'],
	])('2: usage %j', async (extra, message) => {
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', ...target.flags, ...extra], target.env);
		expect(result).toMatchObject({code: 2, stdout: ''});
		expect(result.stderr).toContain(message);
		expect(result.stderr.trim().split('\n')).toHaveLength(1);
	});

	test('2: a missing credential, nothing sent', async () => {
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', ...target.flags], {NO_COLOR: '1'});
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('Set a credential for the account API');
	});

	test('3: a bound reached before the end', async () => {
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', ...target.flags, '--limit', '10', '--max-pages', '2'], target.env);
		expect(result.code).toBe(3);
		expect(result.stdout).toContain('end: stopped at --max-pages 2 before the end of the list.');
	});

	test('3: the walk could not finish (connection reset); the credential is never printed', async () => {
		const server = await resettingServer();
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', '--base-url', `http://127.0.0.1:${server.port}`, '--json', '--retries', '0'], target.env).finally(async () => server.close());
		expect(result.code).toBe(3);
		const report = JSON.parse(result.stdout) as {result: string; walks: Array<{end: {kind: string; detail: string}}>};
		expect(report.result).toBe('incomplete');
		expect(report.walks[0]!.end.kind).toBe('error');
		expect(report.walks[0]!.end.detail).toMatch(/^the walk could not finish: /);
		expect(result.stdout + result.stderr).not.toContain(target.env.COINBASE_ACCESS_TOKEN);
	});

	test('--help documents the exit statuses', async () => {
		const result = await runCli(['audit', '--help'], {});
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('Exit status');
		expect(result.stdout).toMatch(/3 {2}a walk could not finish/);
	});
});
