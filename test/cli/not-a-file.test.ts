/**
 * A path that names no regular file, where pagewalk reads one: a device that
 * never ends (/dev/zero, /dev/urandom), a named pipe no one writes to, a
 * directory, a file far too large. Through each way a path reaches pagewalk
 * (--key-file, COINBASE_API_KEY_FILE, a profile's key_file, the config file),
 * the built CLI says what the file is in one sentence and exits 2 at once:
 * it neither reads for ever nor waits on the pipe.
 */
import {execFile} from 'node:child_process';
import {execFileSync} from 'node:child_process';
import {closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath} from '../support/run-dump.js';

let directory: string;
const files: Record<string, string> = {'/dev/zero': '/dev/zero', '/dev/urandom': '/dev/urandom'};

beforeAll(() => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing; run npm run build first (npm test does it).');
	}

	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-not-a-file-'));
	files['a named pipe'] = path.join(directory, 'pipe');
	execFileSync('mkfifo', [files['a named pipe']]);
	files['a directory'] = path.join(directory, 'folder');
	mkdirSync(files['a directory']);
	// 1 GiB, sparse: it takes no disk, and must not be read.
	files['a 1 GiB file'] = path.join(directory, 'huge.json');
	const huge = openSync(files['a 1 GiB file'], 'w');
	ftruncateSync(huge, 1024 ** 3);
	closeSync(huge);
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

const problems: Record<string, RegExp> = {
	'/dev/zero': /is a device, not a file/,
	'/dev/urandom': /is a device, not a file/,
	'a named pipe': /is a named pipe, not a file/,
	'a directory': /is a directory/,
	'a 1 GiB file': /is 1073741824 bytes|is larger than 1 MiB/,
};

/** The built CLI with a deadline: a read that never ends fails the test instead of hanging it. */
async function run(argv: string[], env: Record<string, string>): Promise<{code: number | null; stderr: string; stdout: string}> {
	return new Promise(resolve => {
		execFile(process.execPath, [cliPath, ...argv], {env: {PATH: process.env['PATH'], HOME: directory, ...env}, timeout: 20_000, maxBuffer: 1024 * 1024}, (error, stdout, stderr) => {
			resolve({code: error ? (error.code as number | null) ?? null : 0, stdout, stderr});
		});
	});
}

function profileConfig(keyFile: string): string {
	const file = path.join(directory, `config-${Math.random().toString(36).slice(2)}.json`);
	writeFileSync(file, JSON.stringify({default: 'p', profiles: {p: {base_url: 'http://127.0.0.1:9', account: {key_file: keyFile}}}}));
	return file;
}

const sources: Record<string, (file: string) => {argv: string[]; env: Record<string, string>; names: string}> = {
	'--key-file': file => ({argv: ['token', 'accounts', '--key-file', file, '--base-url', 'http://127.0.0.1:9'], env: {}, names: `The key file '${file}'`}),
	'COINBASE_API_KEY_FILE': file => ({argv: ['token', 'accounts', '--base-url', 'http://127.0.0.1:9'], env: {COINBASE_API_KEY_FILE: file}, names: `The key file '${file}'`}),
	'a profile\'s key_file': file => ({argv: ['token', 'accounts'], env: {PAGEWALK_CONFIG: profileConfig(file)}, names: `The key file '${file}'`}),
	'the config file': file => ({argv: ['token', 'accounts'], env: {PAGEWALK_CONFIG: file}, names: `The config file '${file}'`}),
};

describe('a path that is not a regular file is refused at once, in one sentence, exit 2', () => {
	const cases = Object.keys(sources).flatMap(source => Object.keys(problems).map(kind => [source, kind] as const));
	it.each(cases)('%s naming %s', async (source, kind) => {
		const file = files[kind]!;
		const {argv, env, names} = sources[source]!(file);
		const {code, stdout, stderr} = await run(argv, env);
		expect(stdout).toBe('');
		expect(stderr.startsWith(`pagewalk: ${names} `), stderr).toBe(true);
		expect(stderr).toMatch(problems[kind]!);
		expect(stderr.trimEnd().split('\n')).toHaveLength(1);
		expect(code).toBe(2);
	});
});
