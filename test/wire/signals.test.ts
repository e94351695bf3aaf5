/**
 * SIGINT, SIGTERM and SIGHUP through the built CLI (`npm test` builds first):
 * a dump closes its document, says how to resume and exits 130, 143 or 129;
 * an audit prints its partial report marked as interrupted, with the same
 * statuses. Each signal is sent once the first page is in: for the dump when
 * its objects are on stdout, for the audit when the server sees the request
 * for page 2 (the walker asks for it only after page 1 was audited).
 */
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {afterAll, beforeAll, beforeEach, describe, expect, test} from 'vitest';
import {schema} from '../audit/run-audit.js';
import {validate} from '../audit/json-schema.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {canary, canaryEnv, cliPath, usePrivateCli} from '../support/run-dump.js';

let faulty: FaultyServer;
let cli: string;

beforeAll(async () => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	cli = usePrivateCli();
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty?.close();
});

beforeEach(() => {
	faulty.reset();
});

type Run = {code: number | null; stdout: string; stderr: string};

async function interrupt(argv: string[], signal: NodeJS.Signals, ready: (stdout: string) => boolean): Promise<Run> {
	const child = spawn(process.execPath, [cli, ...argv], {env: {PATH: process.env.PATH, ...canaryEnv}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	let sent = false;
	const poke = () => {
		if (!sent && ready(stdout)) {
			sent = true;
			child.kill(signal);
		}
	};

	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		poke();
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	// The audit writes nothing until the end: wait for the server to see page 2's request.
	const watch = setInterval(poke, 10);
	const code = await new Promise<number | null>(resolve => {
		child.on('close', resolve);
	});
	clearInterval(watch);
	expect(`${stdout}${stderr}`).not.toContain(canary);
	return {code, stdout, stderr};
}

const secondPageAsked = () => faulty.received.length >= 2;

describe('dump', () => {
	for (const [signal, status] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
		test(`${signal}: exit ${status}, the JSON array closed, and how to resume`, async () => {
			const run = await interrupt(['dump', 'accounts', '--all', '--format', 'json', `--base-url=${faulty.base('hang-after-first')}`, '--timeout', '60', '--quiet'], signal, stdout => stdout.includes('obj-1-2'));
			expect(run.code, run.stderr).toBe(status);
			expect((JSON.parse(run.stdout) as Array<{id: string}>).map(object => object.id)).toEqual(['obj-1-0', 'obj-1-1', 'obj-1-2']);
			expect(run.stderr).toBe('pagewalk: 3 objects were written before the interruption; to resume, run the same command with --starting-after=obj-1-2.\n');
		});
	}

	test('--help documents the three statuses', async () => {
		const run = await interrupt(['dump', '--help'], 'SIGINT', () => false);
		expect(run.stdout).toMatch(/130, 143, 129\n\s+interrupted by SIGINT \(Ctrl-C\), SIGTERM or SIGHUP/);
	});
});

describe('audit', () => {
	for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
		test(`${signal}: the partial report, marked as interrupted, exit ${status}`, async () => {
			const run = await interrupt(['audit', 'accounts', `--base-url=${faulty.base('hang-after-first')}`, '--timeout', '60'], signal, secondPageAsked);
			expect(run.code, run.stderr).toBe(status);
			expect(run.stdout).toMatch(new RegExp(`^pagewalk audit of .+ — interrupted by ${signal}, partial report\\n`));
			// The sandbox-less fault server echoes limit 3 for no limit sent: that finding stays in the partial report.
			expect(run.stdout).toContain(`Result: interrupted by ${signal} before the audit finished; this report covers only what was read until then; in it a contract check failed: echo-limit (desc) (exit ${status}).`);
			expect(run.stderr).toBe(`pagewalk: interrupted by ${signal} before the end of the list.\n`);
		});
	}

	test('--json: result "interrupted", the signal, the status, one page read, valid against the schema', async () => {
		const run = await interrupt(['audit', 'accounts', '--json', `--base-url=${faulty.base('hang-after-first')}`, '--timeout', '60'], 'SIGTERM', secondPageAsked);
		expect(run.code).toBe(143);
		const report = JSON.parse(run.stdout) as {result: string; interrupted: string; exitCode: number; walks: Array<{pages: number}>};
		expect(report).toMatchObject({result: 'interrupted', interrupted: 'SIGTERM', exitCode: 143});
		expect(report.walks[0]!.pages).toBe(1);
		expect(validate(schema, report)).toEqual([]);
	});

	test('--help documents the three statuses', async () => {
		const run = await interrupt(['audit', '--help'], 'SIGINT', () => false);
		expect(run.stdout).toMatch(/130, 143, 129\n\s+interrupted by SIGINT \(Ctrl-C\), SIGTERM or SIGHUP/);
	});
});

