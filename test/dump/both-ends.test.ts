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
import {Writable} from 'node:stream';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runDump} from '../../source/commands/dump.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {startRecordingProxy} from '../support/recording-proxy.js';
import {dumpInProcess, usePrivateCli} from '../support/run-dump.js';

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

/** Collects stdout, and aborts the run once `after` objects have been written. */
class Interrupting extends Writable {
	text = '';
	constructor(readonly controller: AbortController, readonly after: number) {
		super();
	}

	override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
		this.text += chunk.toString();
		if (this.text.split('\n').length > this.after) {
			this.controller.abort();
		}

		callback();
	}
}

class Capture extends Writable {
	text = '';
	override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
		this.text += chunk.toString();
		callback();
	}
}

describe('interrupted', () => {
	// 50 objects: within the forward chain's first pages; 180: while the back chain's objects are written.
	for (const after of [25, 180]) {
		it(`after ${after} objects: a whole document, and the resume flag finishes the list`, async () => {
			const full = await dumpInProcess(args('accounts', '--one-chain'), env('full'));
			const controller = new AbortController();
			const stdout = new Interrupting(controller, after);
			const stderr = new Capture();
			const code = await runDump(args('accounts', '--format', 'json'), {stdout, stderr, env: env('full')}, {signal: controller.signal});
			expect(code).toBe(130);
			const written = JSON.parse(stdout.text) as Array<{id: string}>;
			const resume = /run the same command with (--starting-after=\S+?)\.\n/.exec(stderr.text)?.[1];
			expect(resume, stderr.text).toBeDefined();
			const rest = await dumpInProcess(args('accounts', resume!.replaceAll('\'', '')), env('full'));
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
		expect(stderr).toMatch(/to resume, run the same command with --starting-after=\S+\.\n$/);
		expect(left).toEqual([]);
	});

	it('a reader that goes away: exit 0, quietly, no temporary file left', async () => {
		const {code, stderr, left} = await dumpChild([], child => child.stdout!.destroy());
		expect(code).toBe(0);
		expect(stderr).toBe('');
		expect(left).toEqual([]);
	});
});
