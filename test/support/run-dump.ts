/**
 * Runs `pagewalk dump` in this process (fast, for most tests) or as a
 * subprocess of the built bundle (exit codes, stderr, pipes), capturing
 * stdout and stderr as text.
 */
import {spawn} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {cpSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {runDump} from '../../source/commands/dump/dump.js';
import type {Sandbox} from '../../source/sandbox/index.js';
import {runWithIo, testIo, type Result} from './test-io.js';

export const canary = 'CANARY-5f1d2c9e-do-not-leak';

export const canaryEnv: Record<string, string> = {
	COINBASE_ACCESS_TOKEN: canary,
	COINBASE_COMMERCE_API_KEY: canary,
	NO_COLOR: '1',
};

/**
 * A canary CDP key: a real P-256 private key under a canary name, written
 * (0600) as the key portal's JSON file. Its PEM's base64 lines must appear
 * in no byte of output, and neither may any JWT signed with it.
 */
export function writeCanaryKeyFile(): {path: string; name: string; pem: string; keyLines: string[]} {
	const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'});
	const pem = String(privateKey.export({format: 'pem', type: 'sec1'}));
	const name = `organizations/${canary}/apiKeys/canary-key`;
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'pagewalk-canary-')), 'canary-key.json');
	writeFileSync(file, JSON.stringify({name, privateKey: pem}), {mode: 0o600});
	const keyLines = pem.split('\n').filter(line => line !== '' && !line.startsWith('-----'));
	return {path: file, name, pem, keyLines};
}

export type {Result} from './test-io.js';

/** `pagewalk dump <argv>` in process; usage errors are reported as the CLI would (exit 2). */
export async function dumpInProcess(argv: string[], env: Record<string, string | undefined> = canaryEnv, options: {stdoutTty?: boolean; stderrTty?: boolean; stderrColumns?: number} = {}): Promise<Result> {
	return runWithIo(async io => runDump(argv, io), testIo({env, stdout: {tty: options.stdoutTty}, stderr: {tty: options.stderrTty, columns: options.stderrColumns}}));
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(root, 'dist/cli.js');
let privateCli: string | undefined;

/**
 * Copies the built CLI (and package.json, which meow reads for --version) to
 * a temporary directory and makes runCli use the copy: another build in the
 * shared tree empties dist/ for a moment, which must not fail these tests.
 */
export function usePrivateCli(): string {
	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-cli-'));
	cpSync(path.join(root, 'dist'), path.join(directory, 'dist'), {recursive: true});
	cpSync(path.join(root, 'package.json'), path.join(directory, 'package.json'));
	privateCli = path.join(directory, 'dist/cli.js');
	return privateCli;
}

/**
 * The built CLI as a subprocess. `readBytes` closes our end of its stdout
 * after that many bytes, like `| head -c`.
 */
export async function runCli(argv: string[], env: Record<string, string | undefined> = canaryEnv, options: {readBytes?: number} = {}): Promise<Result> {
	const child = spawn(process.execPath, [privateCli ?? cliPath, ...argv], {
		env: {PATH: process.env.PATH, ...env},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		if (options.readBytes !== undefined && stdout.length >= options.readBytes) {
			child.stdout.destroy();
		}
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number>(resolve => {
		child.on('close', (status, signal) => {
			resolve(status ?? (signal ? 128 : 1));
		});
	});
	return {code, stdout, stderr};
}

/** Environment that points pagewalk at `sandbox` with its full credentials. */
export function sandboxEnv(sandbox: Sandbox): Record<string, string> {
	return {
		PAGEWALK_BASE_URL: sandbox.accountUrl,
		PAGEWALK_COMMERCE_URL: sandbox.commerceUrl,
		COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full,
		COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce.full,
	};
}
