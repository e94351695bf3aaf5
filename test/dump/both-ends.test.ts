/**
 * `dump --all` from both ends (http/both-ends.ts) against the sandbox: the
 * same bytes as --one-chain in every format it applies to, an interruption
 * before and after the meeting that leaves a whole document and a resume
 * flag that finishes the list, a server that lists in one order only, two
 * chains under the sandbox's rate limit, and the built CLI stopped by SIGTERM
 * or a closed pipe (no temporary file left).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, readdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runDump} from '../../source/commands/dump/dump.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import type {FaultName} from '../support/faulty-server.js';
import {startRecordingProxy} from '../support/recording-proxy.js';
import {canaryEnv, dumpInProcess, usePrivateCli, type Result} from '../support/run-dump.js';
import {testIo} from '../support/test-io.js';
import {useFaultyServer} from '../support/use-faulty-server.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 230, keyFiles: false});
});
afterAll(async () => {
	await sandbox.close();
});

type Viewer = 'full' | 'restricted';

function env(viewer: Viewer): Record<string, string> {
	return {
		COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer],
		COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce[viewer],
		NO_COLOR: '1',
	};
}

/** A whole walk of the sandbox; from both ends (--both-ends: a local server answers too fast for them by default) unless --one-chain. */
function args(endpoint: string, ...more: string[]): string[] {
	const chains = more.includes('--one-chain') ? [] : ['--both-ends'];
	return [endpoint, '--base-url', sandbox.accountUrl, '--commerce-url', sandbox.commerceUrl, '--all', '--limit', '10', '--quiet', ...chains, ...more];
}

describe('the same bytes as one chain', () => {
	for (const endpoint of ['accounts', 'checkouts']) {
		for (const viewer of ['full', 'restricted'] as const) {
			for (const format of ['ndjson', 'json']) {
				for (const order of [[], ['--order', 'asc']]) {
					it(`${endpoint}, ${viewer}, ${format}, ${order.join(' ') || 'default order'}`, async () => {
						const both = await dumpInProcess(args(endpoint, '--format', format, ...order), env(viewer), {stderrTty: true});
						const one = await dumpInProcess(args(endpoint, '--format', format, '--one-chain', ...order), env(viewer));
						expect(both.code).toBe(0);
						expect(both.stdout).toBe(one.stdout);
						expect(both.stdout.length).toBeGreaterThan(100);
						// Both chains walked: the summary counts each one's pages.
						expect(both.stderr).toMatch(/objects in [↓↑] \d+ pages · [↓↑] [1-9]\d* pages/);
					});
				}
			}
		}
	}
});

describe('interrupted', () => {
	// 50 objects: within the forward chain's first pages; 180: while the back chain's objects are written.
	for (const after of [25, 180]) {
		it(`after ${after} objects: a whole document, and the resume flag finishes the list`, async () => {
			const full = await dumpInProcess(args('accounts', '--one-chain'), env('full'));
			const controller = new AbortController();
			// stdout aborts the run once `after` objects have been written.
			const io = testIo({env: env('full'), stdout: {onWrite(_text, stdout) {
				if (stdout.text.split('\n').length > after) {
					controller.abort();
				}
			}}});
			const {stdout, stderr} = io;
			const code = await runDump(args('accounts', '--format', 'json'), io, {signal: controller.signal});
			expect(code).toBe(130);
			const written = JSON.parse(stdout.text) as Array<{id: string}>;
			const resume = /run the same command with (--starting-after=\S+) in place of --both-ends\.\n/.exec(stderr.text)?.[1];
			expect(resume, stderr.text).toBeDefined();
			// --both-ends is refused beside a cursor: the hint says to leave it out.
			expect(stderr.text).toContain(' in place of --both-ends.\n');
			// One chain, as a cursor walks (--both-ends beside it is refused).
			const rest = await dumpInProcess(args('accounts', '--one-chain', resume!.replaceAll('\'', '')), env('full'));
			const ids = [...written.map(object => object.id), ...rest.stdout.trim().split('\n').map(line => (JSON.parse(line) as {id: string}).id)];
			expect(ids).toEqual(full.stdout.trim().split('\n').map(line => (JSON.parse(line) as {id: string}).id));
		});
	}
});

describe('a server that lists in one order only', () => {
	it('is noticed on its first page in the other order: one chain, the same bytes', async () => {
		const proxy = await startRecordingProxy(sandbox.accountUrl);
		proxy.mode = 'ignore-order';
		try {
			const both = await dumpInProcess(['accounts', '--base-url', proxy.origin, '--all', '--limit', '10', '--quiet', '--both-ends'], env('full'));
			proxy.mode = 'pass';
			const one = await dumpInProcess(['accounts', '--base-url', sandbox.accountUrl, '--all', '--limit', '10', '--one-chain'], env('full'));
			expect(both.code).toBe(0);
			expect(both.stdout).toBe(one.stdout);
			expect(both.stderr).toBe('');
		} finally {
			await proxy.close();
		}
	});
});

describe('a server that ignores order (the faulty server counts the requests)', () => {
	const faulty = useFaultyServer();

	it('the other end stops at its first page, which reports desc: one request, not its page 2 read ahead', async () => {
		// The forward chain's first page held 300 ms: the other end's first page is read by then, and what it read ahead sent.
		const argv = ['accounts', '--base-url', faulty().base('ignores-order', {size: 40, holdFirst: 300}), '--all', '--limit', '10'];
		const both = await dumpInProcess([...argv, '--both-ends'], canaryEnv);
		const bothRequests = faulty().received.map(request => request.path);
		faulty().reset();
		const one = await dumpInProcess([...argv, '--one-chain'], canaryEnv);
		const oneRequests = faulty().received.map(request => request.path);
		expect(both.code).toBe(0);
		expect(both.stdout).toBe(one.stdout);
		expect(both.stderr).toBe('');
		expect(oneRequests).toHaveLength(4);
		// The forward chain's four pages and the other end's first: page 2 is asked for once, by the forward chain.
		expect(bothRequests).toHaveLength(5);
		expect(bothRequests.filter(path => path.includes('starting_after=item-0010'))).toHaveLength(1);
	});
});

/** The walk gave up the other end and finished as one chain, saying what disagreed. */
const disagreed = /pagewalk: contract: from both ends, .+; the rest of the list is walked from the first end alone, as --one-chain walks it\.\n/;

/** The other end's objects were not written: the summary counts one chain's pages, not both chains'. */
function finishedAsOneChain(result: Result): boolean {
	return !/objects in [↓↑] \d+ pages · [↓↑]/.test(result.stderr);
}

describe('a server whose two orders disagree: never a silent difference from one chain', () => {
	const faulty = useFaultyServer();

	type Case = {fault: FaultName; settings: Record<string, number>; limit: string; why: string; named: boolean};
	const cases: Case[] = [
		// Commerce: total against the objects taken tells, wherever the chains meet. `named`: the two ends always meet
		// and disagree (the forward chain would need to walk the whole list before the other end's first page is taken).
		{fault: 'asc-lacks-one-commerce', settings: {size: 200, missing: 195}, limit: '10', why: 'asc lacks one object of the other end\'s first page', named: true},
		{fault: 'asc-lacks-one-commerce', settings: {size: 200, missing: 150}, limit: '10', why: 'asc lacks one object in the middle of its half', named: false},
		{fault: 'cursor-varies-commerce', settings: {size: 200, every: 5}, limit: '10', why: 'every fifth asc request skips 4 objects', named: true},
		// Account (no total): one page a half, so the page each end reads on past the meeting covers the other's.
		// Whether the ends meet depends on which page comes first; if the forward chain walks both pages first, it is one chain anyway.
		{fault: 'asc-lacks-one', settings: {size: 200}, limit: '100', why: 'asc lacks one object', named: false},
		{fault: 'cursor-varies', settings: {size: 200, every: 1}, limit: '100', why: 'every asc request skips 4 objects', named: false},
	];

	const target = (fault: FaultName, settings: Record<string, number>) => (fault.endsWith('-commerce')
		? ['checkouts', '--commerce-url', faulty().base(fault, settings)]
		: ['accounts', '--base-url', faulty().base(fault, settings)]);

	for (const {fault, settings, limit, why, named} of cases) {
		for (const format of ['ndjson', 'json']) {
			it(`${fault} (${why}), --limit ${limit}, ${format}: --both-ends writes what --one-chain writes`, async () => {
				const argv = [...target(fault, settings), '--all', '--limit', limit, '--format', format];
				const both = await dumpInProcess([...argv, '--both-ends'], canaryEnv, {stderrTty: true});
				const one = await dumpInProcess([...argv, '--one-chain'], canaryEnv);
				expect(both.code, both.stderr).toBe(0);
				expect(both.stdout).toBe(one.stdout);
				expect(finishedAsOneChain(both), both.stderr).toBe(true);
				if (named) {
					expect(both.stderr).toMatch(disagreed);
				}
			});
		}
	}

	it('a plain dump --all over a slow link (both ends by default): the same bytes, and the disagreement named', async () => {
		// 20 ms a page: slower than a second chain needs to help, so the dump walks from both ends unasked.
		const argv = [...target('asc-lacks-one-commerce', {size: 200, missing: 195, delay: 20}), '--all', '--limit', '10'];
		const plain = await dumpInProcess(argv, canaryEnv);
		const asked = faulty().received.filter(request => request.path.includes('order=asc'));
		const one = await dumpInProcess([...argv, '--one-chain'], canaryEnv);
		expect(asked.length).toBeGreaterThan(0);
		expect(plain.code).toBe(0);
		expect(plain.stdout).toBe(one.stdout);
		expect(plain.stdout.trim().split('\n')).toHaveLength(200);
		expect(plain.stderr).toMatch(disagreed);
		expect(plain.stderr).toMatch(/the two ends took 199 objects, where every page reports a total of 200/);
		expect(plain.stderr).toMatch(/pagewalk: contract findings in 20 pages: ends-agree 1 \(/);
	});

	it('--quiet: the same bytes, nothing on stderr', async () => {
		const argv = [...target('asc-lacks-one-commerce', {size: 200, missing: 195}), '--all', '--limit', '10', '--quiet'];
		const both = await dumpInProcess([...argv, '--both-ends'], canaryEnv);
		const one = await dumpInProcess([...argv, '--one-chain'], canaryEnv);
		expect(both.stdout).toBe(one.stdout);
		expect(both.stderr).toBe('');
	});

	it('a list whose orders agree: from both ends, no note', async () => {
		const argv = [...target('list-commerce', {size: 200}), '--all', '--limit', '10'];
		const both = await dumpInProcess([...argv, '--both-ends'], canaryEnv, {stderrTty: true});
		const one = await dumpInProcess([...argv, '--one-chain'], canaryEnv);
		expect(both.stdout).toBe(one.stdout);
		expect(both.stderr).not.toMatch(/contract/);
		expect(finishedAsOneChain(both)).toBe(false);
	});
});

describe('a temporary folder that cannot hold the other end', () => {
	it('a missing folder: the other end is let go, one chain, the same bytes, exit 0', async () => {
		const kept = process.env['TMPDIR'];
		process.env['TMPDIR'] = path.join(tmpdir(), 'pagewalk-no-such-folder', 'deeper');
		try {
			for (const format of ['ndjson', 'json']) {
				// eslint-disable-next-line no-await-in-loop -- one dump at a time, under the one TMPDIR
				const both = await dumpInProcess(args('accounts', '--format', format), env('restricted'));
				process.env['TMPDIR'] = kept ?? tmpdir();
				// eslint-disable-next-line no-await-in-loop -- the reference, with a folder
				const one = await dumpInProcess(args('accounts', '--format', format, '--one-chain'), env('restricted'));
				process.env['TMPDIR'] = path.join(tmpdir(), 'pagewalk-no-such-folder', 'deeper');
				expect(both.code).toBe(0);
				expect(both.stdout).toBe(one.stdout);
			}
		} finally {
			if (kept === undefined) {
				delete process.env['TMPDIR'];
			} else {
				process.env['TMPDIR'] = kept;
			}
		}
	});
});

describe('--fail-on-findings', () => {
	it('walks one chain, every page in order: page 2\'s fault is found (exit 1) where from both ends it would never be read', async () => {
		const slow = await startSandbox({records: 130, keyFiles: false, scenario: 'unordered', latency: {ms: 30, jitterMs: 0, perObjectMs: 0}});
		try {
			const target = ['checkouts', '--commerce-url', slow.commerceUrl, '--all', '--limit', '100', '--quiet'];
			const slowEnv = {COINBASE_COMMERCE_API_KEY: slow.credentials.commerce.full, NO_COLOR: '1'};
			const checked = await dumpInProcess([...target, '--fail-on-findings'], slowEnv);
			const one = await dumpInProcess([...target, '--one-chain'], slowEnv);
			expect(checked.code).toBe(1);
			expect(checked.stdout).toBe(one.stdout);
		} finally {
			await slow.close();
		}
	});
});

describe('the rate limit', () => {
	it('two chains spend one budget: paced, never a 429, every object', async () => {
		const limited = await startSandbox({records: 40, keyFiles: false, rateLimit: {count: 4, perMs: 1000, headers: true}});
		try {
			const result = await dumpInProcess(['accounts', '--base-url', limited.accountUrl, '--all', '--limit', '5', '--both-ends'], {COINBASE_ACCESS_TOKEN: limited.credentials.account.full}, {stderrTty: true});
			expect(result.code).toBe(0);
			expect(result.stdout.trim().split('\n').map(line => (JSON.parse(line) as {id: string}).id)).toEqual(limited.store.ids('accounts'));
			expect(result.stderr).toMatch(/request budget/);
			// A 429 as a status, not a rate on the progress line (`1,429/s`).
			expect(result.stderr).not.toMatch(/(?<![\d,])429(?![\d/])/);
			expect(result.stderr).toMatch(/[↓↑] \d+ pages · [↓↑] [1-9]\d* pages/);
		} finally {
			await limited.close();
		}
	});
});

describe('the built CLI, signals and a closed pipe', () => {
	let slow: Sandbox;
	let cli: string;
	beforeAll(async () => {
		cli = usePrivateCli();
		slow = await startSandbox({records: 400, keyFiles: false, latency: {ms: 5, jitterMs: 0, perObjectMs: 0}});
	});
	afterAll(async () => {
		await slow.close();
	});

	/** The dump as a subprocess with its own temporary folder; `stop` is told the child at its first output. */
	async function dumpChild(argv: string[], stop: (child: ChildProcess) => void) {
		const folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-tmp-test-'));
		const child = spawn(process.execPath, [cli, 'dump', 'accounts', '--base-url', slow.accountUrl, '--all', '--limit', '5', '--both-ends', ...argv], {
			env: {PATH: process.env['PATH'], TMPDIR: folder, COINBASE_ACCESS_TOKEN: slow.credentials.account.full},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.once('data', () => {
			stop(child);
		});
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const code = await new Promise<number | null>(resolve => {
			child.on('close', resolve);
		});
		return {code, stdout, stderr, left: readdirSync(folder)};
	}

	it('SIGTERM: exit 143, a whole JSON array, a resume flag, no temporary file left', async () => {
		const {code, stdout, stderr, left} = await dumpChild(['--format', 'json'], child => child.kill('SIGTERM'));
		expect(code, stderr).toBe(143);
		expect((JSON.parse(stdout) as unknown[]).length).toBeGreaterThan(0);
		// --both-ends is refused beside the cursor: the hint leaves it out.
		expect(stderr).toMatch(/to resume, run the same command with --starting-after=\S+ in place of --both-ends\.\n$/);
		expect(left).toEqual([]);
	});

	it('a reader that goes away: exit 0, quietly, no temporary file left', async () => {
		const {code, stderr, left} = await dumpChild([], child => child.stdout!.destroy());
		expect(code).toBe(0);
		expect(stderr).toBe('');
		expect(left).toEqual([]);
	});
});
