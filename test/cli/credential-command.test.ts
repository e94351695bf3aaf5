import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {describe, expect, test} from 'vitest';
import {runCredentialCommand} from '../../source/commands/credential-command.js';
import {UsageError} from '../../source/text/errors.js';

const place = 'profile \'work\' (\'/c/config.json\' line 7)';
const canary = 'CANARY-stderr-secret-5f1e';

/** A node one-liner as a credential command: real processes, no shell. */
function node(script: string): string[] {
	return [process.execPath, '-e', script];
}

async function failure(argv: string[], options: {timeoutMs?: number; maxBytes?: number} = {}): Promise<string> {
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
});
