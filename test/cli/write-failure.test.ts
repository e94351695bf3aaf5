/**
 * Every command's stdout (help, reports, scripts, a token, the sandbox's
 * settings) written as dump's is, by the built CLI with stdout a real file:
 * a file size limit partway through (`ulimit -f`, EFBIG after a short write)
 * and /dev/full (ENOSPC) give exit 1 and one sentence naming the cause, never
 * a stack trace and never a file cut short in silence (the part written is
 * taken off again); a reader that goes away (`| head -c 1`) is a quiet exit 0.
 * dump's own: test/dump/write-failure.test.ts.
 */
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {commands} from '../../source/config/flags.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {cliPath, sandboxEnv, usePrivateCli} from '../support/run-dump.js';

let sandbox: Sandbox;
let cli: string;
let directory: string;
let env: Record<string, string>;

beforeAll(async () => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	cli = usePrivateCli();
	sandbox = await startSandbox({port: 0, records: 60, keyFiles: false});
	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-write-'));
	// Enough profiles, with names long enough, that every listing is longer than one 512-byte block.
	const config = path.join(directory, 'config.json');
	const profiles = Object.fromEntries(Array.from({length: 30}, (_, index) => [`profile-with-a-long-name-${index}`, {account: {env: 'SOME_TOKEN'}}]));
	writeFileSync(config, JSON.stringify({profiles}));
	env = {
		...sandboxEnv(sandbox),
		NO_COLOR: '1',
		PAGEWALK_CONFIG: config,
		PAGEWALK_STATE_DIR: path.join(directory, 'state'),
		// A token longer than one block, so that its write is cut short by the limit.
		SOME_TOKEN: 't'.repeat(3000),
	};
});

afterAll(async () => {
	rmSync(directory, {recursive: true, force: true});
	await sandbox?.close();
});

/** `pagewalk ARGV > OUT` through sh, with `ulimit -f BLOCKS` (512 bytes each) when given; `2>&1` too when `shared`. */
async function runTo(out: string, argv: string[], blocks?: number, shared = false): Promise<{code: number; stderr: string}> {
	const limit = blocks === undefined ? '' : `ulimit -f ${blocks}; `;
	const child = spawn('sh', ['-c', `${limit}exec "$0" "$@" > "$OUT"${shared ? ' 2>&1' : ''}`, process.execPath, cli, ...argv], {
		env: {PATH: process.env['PATH'], ...env, OUT: out},
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	// A server that went on serving after its settings failed would never end: stopped, and the test fails.
	const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
	const code = await new Promise<number>(resolve => {
		child.on('close', status => {
			clearTimeout(deadline);
			resolve(status ?? 1);
		});
	});
	return {code, stderr};
}

const failure = (cause: string) => `pagewalk: could not write the output (${cause}, write); run the same command again where the output fits.\n`;

/** Each command whose output is longer than one block, as a user runs it. */
const outputs: Array<[string, string[]]> = [
	...Object.values(commands).map(command => [`${command.name} --help`, [...command.name.split(' ').slice(1), '--help']] as [string, string[]]),
	['profiles', ['profiles']],
	['profiles --json', ['profiles', '--json']],
	['completion bash', ['completion', 'bash']],
	['completion --profiles', ['completion', '--profiles']],
	['audit --json', ['audit', 'accounts', '--json', '--limit', '20']],
	['audit', ['audit', 'accounts', '--limit', '20']],
	['token', ['token', 'accounts', '--profile', 'profile-with-a-long-name-0']],
	['serve', ['serve', '--port', '0']],
	['serve --json', ['serve', '--json', '--port', '0']],
];

describe('stdout a file that fills up', () => {
	test.each(outputs)('%s: whole or nothing', async (_name, argv) => {
		const whole = path.join(directory, `whole-${argv.join('-')}`);
		if (argv[0] !== 'serve') {
			expect(await runTo(whole, argv)).toEqual({code: 0, stderr: ''});
			expect(statSync(whole).size).toBeGreaterThan(512);
		}

		const out = path.join(directory, `cut-${argv.join('-')}`);
		const cut = await runTo(out, argv, 1);
		expect(cut).toEqual({code: 1, stderr: failure('EFBIG: file too large')});
		// Not a silent short file: what went out of the failed write is taken off again.
		expect(readFileSync(out).length).toBe(0);
	});

	// A cut would leave the descriptor's offset past the end, shared with stderr: its sentence would land after a gap of zeros.
	test.each(outputs)('%s > file 2>&1: nothing taken off the file stderr shares', async (_name, argv) => {
		const out = path.join(directory, `shared-cut-${argv.join('-')}`);
		expect((await runTo(out, argv, 1, true)).code).toBe(1);
		const kept = readFileSync(out);
		expect(kept.length).toBe(512);
		expect(kept.includes(0)).toBe(false);
	});

	test.each([...outputs, ['--version', ['--version']] as [string, string[]]])('%s to /dev/full: one sentence, exit 1', async (_name, argv) => {
		expect(await runTo('/dev/full', argv)).toEqual({code: 1, stderr: failure('ENOSPC: no space left on device')});
	});

	test('a stderr that cannot be written changes no exit status: a usage error is still 2', async () => {
		const child = spawn('sh', ['-c', 'exec "$0" "$@" 2>/dev/full', process.execPath, cli, '--no-such-flag'], {env: {PATH: process.env['PATH'], ...env}, stdio: 'ignore'});
		expect(await new Promise(resolve => {
			child.on('close', resolve);
		})).toBe(2);
	});
});

describe('stdout a pipe whose reader went away', () => {
	/** `pagewalk ARGV | true`: our end of the pipe is closed as soon as the child is started, long before it writes. */
	async function toClosedPipe(argv: string[]): Promise<{code: number | null; stderr: string}> {
		const child = spawn(process.execPath, [cli, ...argv], {env: {PATH: process.env['PATH'], ...env}, stdio: ['ignore', 'pipe', 'pipe']});
		child.stdout.destroy();
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const code = await new Promise<number | null>(resolve => {
			child.on('close', resolve);
		});
		return {code, stderr};
	}

	test.each(outputs.filter(([, argv]) => argv[0] !== 'serve'))('%s | true: exit 0, nothing on stderr', async (_name, argv) => {
		expect(await toClosedPipe(argv)).toEqual({code: 0, stderr: ''});
	});
});
