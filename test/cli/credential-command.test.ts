import {spawn, spawnSync} from 'node:child_process';
import {chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {runCredentialCommand} from '../../source/commands/setup/credential-command.js';
import {UsageError} from '../../source/text/errors.js';
import {cliPath} from '../support/run-dump.js';
import {pollUntil} from '../e2e/support/tmux.js';

const place = 'profile \'work\' (\'/c/config.json\' line 7)';
const canary = 'CANARY-stderr-secret-5f1e';

/** A node one-liner as a credential command: real processes, no shell. */
function node(script: string): string[] {
	return [process.execPath, '-e', script];
}

async function failure(argv: string[], options: {timeoutMs?: number; maxBytes?: number; stopGraceMs?: number} = {}): Promise<string> {
	const promise = runCredentialCommand(argv, {place, ...options});
	await expect(promise).rejects.toBeInstanceOf(UsageError);
	const message = await promise.then(() => '', (error: unknown) => (error as Error).message);
	// One sentence naming the profile and the program, never what the command printed.
	expect(message).not.toContain('\n');
	expect(message).toContain(place);
	expect(message).not.toContain(canary);
	return message;
}

describe('credential commands', () => {
	test('what the command prints, trimmed, is the secret', async () => {
		await expect(runCredentialCommand(node('process.stdout.write("  tok-abc \\n")'), {place})).resolves.toBe('tok-abc');
	});

	test('the arguments reach the program as they are: no shell expands or splits them', async () => {
		const argv = node('process.stdout.write(JSON.stringify(process.argv.slice(1)))');
		const words = ['$HOME', 'a b', '*', '`id`;'];
		await expect(runCredentialCommand([...argv, ...words], {place})).resolves.toBe(JSON.stringify(words));
	});

	test('a command that fails names its status, not its stderr', async () => {
		const message = await failure(node(`process.stderr.write(${JSON.stringify(canary)}); process.stdout.write(${JSON.stringify(canary)}); process.exit(1)`));
		expect(message).toMatch(/^The credential command 'node' of profile 'work' \('\/c\/config\.json' line 7\) exited with status 1; run it yourself to see why, or fix the profile\.$/);
	});

	test('a command that hangs is stopped at its deadline', async () => {
		const message = await failure(node('setTimeout(() => {}, 600_000)'), {timeoutMs: 300});
		expect(message).toMatch(/did not finish within 300 ms and was stopped/);
	});

	test('a command that exits at once but leaves a background child holding its stdout: its output, at once, within the bound', async () => {
		// As agents started by secret tools do: the command is done, a process it left keeps the pipe open.
		const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-credential-'));
		const pidFile = path.join(directory, 'pid');
		const leftBehind = () => Number(readFileSync(pidFile, 'utf8'));
		try {
			await expect(runCredentialCommand(['sh', '-c', `sleep 600 & echo $! > '${pidFile}'; echo tok`], {place, timeoutMs: 10_000})).resolves.toBe('tok');
			// The process left behind still holds the pipe, and the answer came below the bound: the command's exit ended the wait.
			expect(() => process.kill(leftBehind(), 0)).not.toThrow();
		} finally {
			try {
				process.kill(leftBehind(), 'SIGKILL');
			} catch {
				// Gone already, or never started.
			}

			rmSync(directory, {recursive: true, force: true});
		}
	});

	test('a command that prints nothing is refused', async () => {
		expect(await failure(node('process.stdout.write(" \\n\\t")'))).toMatch(/printed nothing/);
	});

	test('a command that prints too much is stopped', async () => {
		const message = await failure(node(`process.stdout.write(${JSON.stringify(canary)}.repeat(10_000))`), {maxBytes: 1024});
		expect(message).toMatch(/printed more than 1 KiB, far more than a credential/);
	});

	test('a program that does not exist', async () => {
		expect(await failure(['pagewalk-no-such-program-3c9a', 'x'])).toMatch(/'pagewalk-no-such-program-3c9a' of .* could not be started: no such program on PATH/);
	});

	test('a path with a slash is not looked up on PATH: a missing file, or a missing #! interpreter, says so', async () => {
		expect(await failure(['/nonexistent/pagewalk-prog', 'x'])).toMatch(/'pagewalk-prog' of .* could not be started: the file the profile names does not exist;/);
		const script = path.join(directory, 'lost-interpreter');
		writeFileSync(script, '#!/nonexistent/interpreter\n', {mode: 0o755});
		expect(await failure([script])).toMatch(/'lost-interpreter' of .* could not be started: the interpreter its #! line names does not exist;/);
	});
});

let directory: string;
beforeAll(() => {
	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-credential-command-'));
});
afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

/** Whether `pid` is a live process (a zombie, ended but not yet reaped, is not). */
function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}

	const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], {encoding: 'utf8'}).stdout.trim();
	return state !== '' && !state.startsWith('Z');
}

/**
 * A shell script that ignores SIGTERM (so do the children it starts, which
 * inherit that), starts two `sleep 1000` in the background, writes its own
 * pid and theirs to a file, then waits for them.
 */
function stubborn(name: string): {script: string; pids: () => number[]} {
	const script = path.join(directory, name);
	const file = `${script}.pids`;
	writeFileSync(script, `#!/bin/sh\ntrap '' TERM\nsleep 1000 &\necho $! >> '${file}'\nsleep 1000 &\necho $! >> '${file}'\necho $$ >> '${file}'\nwait\n`);
	chmodSync(script, 0o755);
	return {script, pids: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [])};
}

async function allGone(pids: number[]): Promise<void> {
	// They are sent SIGKILL by then; the system takes a moment to end them.
	await pollUntil(() => pids.every(pid => !running(pid)), () => `still running: ${pids.filter(pid => running(pid)).join(', ')}`);
}

describe('a credential command stopped by pagewalk takes every process it started with it', () => {
	const killAll = (pids: number[]) => {
		for (const pid of pids) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Gone, as it should be.
			}
		}
	};

	test('at its deadline: SIGTERM to its process group, then SIGKILL to what ignored it', async () => {
		const {script, pids} = stubborn('deadline');
		try {
			const message = await failure([script], {timeoutMs: 3000, stopGraceMs: 200});
			expect(message).toMatch(/did not finish within 3 seconds and was stopped/);
			expect(pids()).toHaveLength(3);
			await allGone(pids());
		} finally {
			killAll(pids());
		}
	});

	test('when pagewalk is interrupted (SIGINT) while it runs: the group is stopped and pagewalk ends by the signal', async () => {
		const {script, pids} = stubborn('interrupted');
		const config = path.join(directory, 'config.json');
		writeFileSync(config, JSON.stringify({default: 'p', profiles: {p: {base_url: 'http://127.0.0.1:9', account: {command: [script]}}}}));
		const child = spawn(process.execPath, [cliPath, 'token', 'accounts'], {env: {PATH: process.env['PATH'], PAGEWALK_CONFIG: config}, stdio: ['ignore', 'ignore', 'pipe']});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>(resolve => {
			child.on('close', (code, signal) => {
				resolve({code, signal});
			});
		});
		try {
			await pollUntil(() => pids().length === 3, () => `the command never started its children: ${stderr}`);
			child.kill('SIGINT');
			expect(await ended).toEqual({code: null, signal: 'SIGINT'});
			await allGone(pids());
		} finally {
			child.kill('SIGKILL');
			killAll(pids());
		}
	});
});
