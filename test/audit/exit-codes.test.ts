/** Exit statuses of the built bundle: `node dist/cli.js audit …`. */
import {execFileSync} from 'node:child_process';
import {createServer} from 'node:net';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {bundleExists, runCli, sandboxTarget} from './run-audit.js';

let sandbox: Sandbox;

beforeAll(async () => {
	if (!bundleExists()) {
		execFileSync(process.execPath, ['scripts/build.mjs'], {stdio: 'ignore'});
	}

	sandbox = await startSandbox({port: 0, records: 120});
}, 60_000);

afterAll(async () => {
	await sandbox?.close();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address() as {port: number};
	await new Promise((resolve) => {
		server.close(resolve);
	});
	return port;
}

describe('pagewalk audit exit status', () => {
	test('0: every check passed', async () => {
		const target = sandboxTarget(sandbox, 'restricted');
		const result = await runCli(['audit', 'accounts', ...target.flags, '--limit', '10'], target.env);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('Result: all checks passed (exit 0).');
		expect(result.stderr).toBe('');
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
		expect(result.stderr).toContain('Set COINBASE_ACCESS_TOKEN');
	});

	test('3: a bound reached before the end', async () => {
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', ...target.flags, '--limit', '10', '--max-pages', '2'], target.env);
		expect(result.code).toBe(3);
		expect(result.stdout).toContain('end: stopped at --max-pages 2 before the end of the list.');
	});

	test('3: the walk could not finish (connection refused); the credential is never printed', async () => {
		const port = await closedPort();
		const target = sandboxTarget(sandbox);
		const result = await runCli(['audit', 'accounts', '--base-url', `http://127.0.0.1:${port}`, '--json', '--retries', '0'], target.env);
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
