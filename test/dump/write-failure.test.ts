/**
 * A write that fails midway (the built CLI, stdout a real file): a file size
 * limit (`ulimit -f`: EFBIG after a short write, as a disk filling up gives
 * ENOSPC), /dev/full (ENOSPC on every write), a real full tmpfs where it can
 * be mounted, and streams that fail (in process). The file ends with whole
 * lines (a closed JSON array, whole CSV rows), stderr names the cause and
 * gives the flag that resumes, and the resumed dump appended to the file
 * completes it byte for byte.
 */
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {runDump} from '../../source/commands/dump/dump.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {cliPath, sandboxEnv, usePrivateCli} from '../support/run-dump.js';
import {testIo} from '../support/test-io.js';

let sandbox: Sandbox;
let cli: string;
let env: Record<string, string>;
let directory: string;
/** A 64 KiB tmpfs, where this runs as root and may mount one; else undefined and its test skipped. */
let tmpfs: string | undefined;

beforeAll(async () => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	cli = usePrivateCli();
	sandbox = await startSandbox({port: 0, records: 1500, keyFiles: false});
	env = {...sandboxEnv(sandbox), NO_COLOR: '1'};
	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-full-'));
	const mountPoint = path.join(directory, 'tmpfs');
	mkdirSync(mountPoint);
	try {
		execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], {stdio: 'ignore'});
		tmpfs = mountPoint;
	} catch {
		tmpfs = undefined;
	}
});

afterAll(async () => {
	if (tmpfs !== undefined) {
		execFileSync('umount', [tmpfs], {stdio: 'ignore'});
	}

	rmSync(directory, {recursive: true, force: true});
	await sandbox?.close();
});

/**
 * `pagewalk dump ARGV > OUT` (or `>> OUT`) through sh, with `ulimit -f
 * BLOCKS` when given: a file size limit the kernel enforces as it would a
 * full disk, partway through a write (Node ignores SIGXFSZ, so the write
 * fails with EFBIG instead of killing the process).
 */
async function dumpTo(out: string, argv: string[], options: {blocks?: number; append?: boolean} = {}): Promise<{code: number; stderr: string}> {
	const limit = options.blocks === undefined ? '' : `ulimit -f ${options.blocks}; `;
	const child = spawn('sh', ['-c', `${limit}exec "$0" "$@" ${options.append ? '>>' : '>'} "$OUT"`, process.execPath, cli, 'dump', ...argv], {
		env: {PATH: process.env.PATH, ...env, OUT: out},
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number>(resolve => {
		child.on('close', status => {
			resolve(status ?? 1);
		});
	});
	return {code, stderr};
}

const walk = ['accounts', '--all', '--limit', '25'];

/** The id the resume hint names, and the rest of its sentence. */
function resumeOf(stderr: string): {id: string; how: string} {
	const match = /to resume, run the same command with --starting-after=([\w-]+)(.*)\.\n$/.exec(stderr);
	expect(match, stderr).not.toBeNull();
	return {id: match![1]!, how: match![2]!};
}

describe('stdout a file that fills up', () => {
	test('ndjson, a file size limit midway: whole lines, the cause, and a hint whose dump, appended, completes the file byte for byte', async () => {
		const full = path.join(directory, 'full.ndjson');
		expect((await dumpTo(full, walk)).code).toBe(0);
		const expected = readFileSync(full);
		const out = path.join(directory, 'cut.ndjson');
		const cut = await dumpTo(out, walk, {blocks: 64});
		expect(cut.code).toBe(1);
		const kept = readFileSync(out);
		expect(kept.length).toBeGreaterThan(0);
		expect(kept.length).toBeLessThan(expected.length);
		// Whole lines only: the file is a prefix of the full dump that ends with a line.
		expect(kept.at(-1)).toBe(0x0A);
		expect(expected.subarray(0, kept.length).equals(kept)).toBe(true);
		const lines = kept.toString().trimEnd().split('\n');
		const lastId = (JSON.parse(lines.at(-1)!) as {id: string}).id;
		expect(cut.stderr).toMatch(/^pagewalk: could not write the output \(EFBIG: file too large, write\)\.\n/);
		expect(resumeOf(cut.stderr)).toEqual({id: lastId, how: ', appending (>>) to the same file'});
		expect(cut.stderr).toContain(`pagewalk: ${lines.length.toLocaleString('en-US')} objects were written before the failure;`);

		const resumed = await dumpTo(out, [...walk, `--starting-after=${lastId}`], {append: true});
		expect(resumed.code).toBe(0);
		expect(readFileSync(out).equals(expected)).toBe(true);
	});

	test('json: the array is closed after the last whole object, and the hint starts after it', async () => {
		const full = path.join(directory, 'full.json');
		expect((await dumpTo(full, [...walk, '--format', 'json'])).code).toBe(0);
		const all = JSON.parse(readFileSync(full, 'utf8')) as Array<{id: string}>;
		const out = path.join(directory, 'cut.json');
		const cut = await dumpTo(out, [...walk, '--format', 'json'], {blocks: 64});
		expect(cut.code).toBe(1);
		const kept = JSON.parse(readFileSync(out, 'utf8')) as Array<{id: string}>;
		expect(kept.length).toBeGreaterThan(0);
		expect(kept).toEqual(all.slice(0, kept.length));
		expect(resumeOf(cut.stderr)).toEqual({id: kept.at(-1)!.id, how: ', writing to another file'});
		const rest = path.join(directory, 'rest.json');
		expect((await dumpTo(rest, [...walk, '--format', 'json', `--starting-after=${kept.at(-1)!.id}`])).code).toBe(0);
		expect([...kept, ...JSON.parse(readFileSync(rest, 'utf8')) as Array<{id: string}>]).toEqual(all);
	});

	test('csv: whole rows, the header first', async () => {
		const full = path.join(directory, 'full.csv');
		expect((await dumpTo(full, [...walk, '--format', 'csv'])).code).toBe(0);
		const expected = readFileSync(full, 'utf8');
		const out = path.join(directory, 'cut.csv');
		const cut = await dumpTo(out, [...walk, '--format', 'csv'], {blocks: 64});
		expect(cut.code).toBe(1);
		const kept = readFileSync(out, 'utf8');
		expect(kept.endsWith('\r\n')).toBe(true);
		expect(expected.startsWith(kept)).toBe(true);
		expect(resumeOf(cut.stderr).id).toBe(kept.trimEnd().split('\r\n').at(-1)!.split(',')[0]);
	});

	test('/dev/full: ENOSPC on the first write; nothing written, so the hint is to run it again', async () => {
		const result = await dumpTo('/dev/full', walk);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe('pagewalk: could not write the output (ENOSPC: no space left on device, write).\npagewalk: no objects were written; run the same command again to retry.\n');
	});

	test('-o /dev/full, one page: its only write fails after the walk ends, and still fails the dump', async () => {
		const result = await dumpTo('/dev/null', ['accounts', '--limit', '5', '-o', '/dev/full']);
		expect(result).toEqual({code: 1, stderr: 'pagewalk: could not write the output (ENOSPC: no space left on device, write).\npagewalk: no objects were written; run the same command again to retry.\n'});
	});

	test('a real disk full midway (a 64 KiB tmpfs; only where it can be mounted)', async context => {
		if (tmpfs === undefined) {
			context.skip();
			return;
		}

		const full = path.join(directory, 'full.ndjson');
		expect((await dumpTo(full, walk)).code).toBe(0);
		const out = path.join(tmpfs, 'out.ndjson');
		const cut = await dumpTo(out, walk);
		expect(cut.code).toBe(1);
		expect(cut.stderr).toMatch(/^pagewalk: could not write the output \(ENOSPC: no space left on device, write\)\.\n/);
		const kept = readFileSync(out);
		expect(kept.at(-1)).toBe(0x0A);
		const {id} = resumeOf(cut.stderr);
		expect((JSON.parse(kept.toString().trimEnd().split('\n').at(-1)!) as {id: string}).id).toBe(id);
		// The rest, appended where there is room: the whole dump.
		const moved = path.join(directory, 'moved.ndjson');
		execFileSync('cp', [out, moved]);
		expect((await dumpTo(moved, [...walk, `--starting-after=${id}`], {append: true})).code).toBe(0);
		expect(readFileSync(moved).equals(readFileSync(full))).toBe(true);
	});
});

describe('stdout a stream that fails', () => {
	for (const code of ['EIO', 'EBADF', 'ENOSPC']) {
		test(`${code}: exit 1, the cause, and the hint after the last page the stream took`, async () => {
			// A stdout that takes 30,000 bytes, then fails every write with `code`, as a broken device or a closed descriptor does.
			const io = testIo({env, stdout: {failAfter: {room: 30_000, code}}});
			const status = await runDump(walk, io);
			const received = io.stdout.text;
			const stderr = io.stderr.text;
			expect(status).toBe(1);
			const lines = received.trimEnd().split('\n');
			expect(received.endsWith('\n')).toBe(true);
			const lastId = (JSON.parse(lines.at(-1)!) as {id: string}).id;
			expect(stderr).toBe(`pagewalk: could not write the output (${code}: write failed).\npagewalk: ${lines.length} objects were written before the failure; to resume, run the same command with --starting-after=${lastId}.\n`);
		});
	}
});
