/**
 * `dump transactions -o FILE` stopped and gone on with `--resume`, the built
 * CLI against the sandbox through a recording proxy: killed with SIGKILL at
 * moments chosen by what the proxy has seen (before the first list, inside
 * a list, between lists, while lists finish before the list ahead of them,
 * which the proxy holds), once or twice, then resumed: the file ends as an
 * uninterrupted walk's, byte for byte, in ndjson and json, no finished list
 * asked for again (a property, fast-check). Then SIGTERM and a lost
 * connection, each with the sentence that says how to go on; and a resume
 * refused for another command or server, with one sentence (exit 2).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {hostname, tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {exitCodes} from '../../source/text/errors.js';
import {startRecordingProxy, type RecordingProxy} from '../support/recording-proxy.js';
import {usePrivateCli} from '../support/run-dump.js';

let sandbox: Sandbox;
let proxy: RecordingProxy;
let cli: string;
const folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-resume-'));

beforeAll(async () => {
	cli = usePrivateCli();
	// Two pages of accounts at --limit 25, three at 10: a walk can be stopped with the accounts list half read.
	sandbox = await startSandbox({records: 30, keyFiles: false});
	proxy = await startRecordingProxy(sandbox.accountUrl);
});
afterAll(async () => {
	await proxy.close();
	await sandbox.close();
});

type Run = {code: number | null; signal: NodeJS.Signals | null; stderr: string};

function start(argv: string[]): {child: ChildProcess; done: Promise<Run>} {
	const child = spawn(process.execPath, [cli, 'dump', 'transactions', ...argv], {
		env: {PATH: process.env['PATH'], PAGEWALK_BASE_URL: proxy.origin, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full, NO_COLOR: '1'},
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const done = new Promise<Run>(resolve => {
		child.on('close', (code, signal) => {
			resolve({code, signal, stderr});
		});
	});
	return {child, done};
}

let files = 0;
const fileName = (format: string) => path.join(folder, `out-${++files}.${format}`);

/** What an uninterrupted walk writes with these flags, and how many requests it sends. */
const references = new Map<string, {bytes: Buffer; requests: number}>();
async function reference(flags: string[]): Promise<{bytes: Buffer; requests: number}> {
	const key = flags.join(' ');
	let known = references.get(key);
	if (known === undefined) {
		const file = fileName('ref');
		const before = proxy.seen;
		const run = await start([...flags, '-o', file]).done;
		expect(run).toEqual({code: 0, signal: null, stderr: ''});
		known = {bytes: readFileSync(file), requests: proxy.seen - before};
		references.set(key, known);
	}

	return known;
}

/** The paths of the lists a run asked for, from the proxy's record since `from`. */
const listsAsked = (from: number) => proxy.recorded.slice(from).map(record => /^\/v2\/accounts\/([^/]+)\/transactions/.exec(record.path)?.[1]).filter(id => id !== undefined);

type Kill = {
	/** Kill once the proxy has seen this share of the requests an uninterrupted walk sends (0: before any). */
	at: number;
	/**
	 * What the proxy holds meanwhile: the first account's list (`head`: the
	 * lists after it finish first and wait on disk), or the accounts list's
	 * pages after the first (`accounts`: the walk is stopped with the
	 * accounts list half read).
	 */
	hold: 'none' | 'head' | 'accounts';
};

describe('killed with SIGKILL at any moment, then --resume: the bytes of a walk never stopped', () => {
	for (const format of ['ndjson', 'json'] as const) {
		it(format, async () => {
			await fc.assert(fc.asyncProperty(
				fc.record({
					concurrency: fc.integer({min: 1, max: 6}),
					bothEnds: fc.boolean(),
					limit: fc.constantFrom('10', '25'),
					kills: fc.array(fc.record({at: fc.double({min: 0, max: 0.95, noNaN: true}), hold: fc.constantFrom('none', 'head', 'accounts')}), {minLength: 1, maxLength: 2}),
				}),
				async ({concurrency, bothEnds, limit, kills}) => {
					const shape = ['--all', '--format', format, '--limit', limit];
					const expected = await reference(shape);
					const file = fileName(format);
					const flags = [...shape, '--concurrency', String(concurrency), ...(bothEnds ? ['--both-ends'] : []), '-o', file];
					const head = sandbox.store.ids('accounts')[0]!;
					let ended = false;
					for (const [index, kill] of kills.entries()) {
						// eslint-disable-next-line no-await-in-loop -- one run after the other, each going on from the one before
						const run = await killAt(index === 0 ? flags : [...flags, '--resume'], kill, expected.requests, head);
						// A walk that ended before the kill came (a late moment on a busy machine) has nothing left to resume.
						ended = run.signal === null;
						if (ended) {
							expect(run).toEqual({code: 0, signal: null, stderr: ''});
							break;
						}
					}

					const from = proxy.recorded.length;
					const finished = existsSync(`${file}.pagewalk`) ? readFileSync(`${file}.pagewalk/journal`, 'utf8') : '';
					if (!ended) {
						const last = await start([...flags, '--resume']).done;
						expect(last).toEqual({code: 0, signal: null, stderr: ''});
					}

					expect(readFileSync(file).equals(expected.bytes)).toBe(true);
					expect(existsSync(`${file}.pagewalk`)).toBe(false);
					// No list written whole or waiting before the last run was asked for again.
					const done = new Set([...finished.matchAll(/"(?:written|waiting)":\d+,"account":"([^"]+)"/g)].map(match => match[1]!));
					expect(listsAsked(from).filter(id => done.has(id))).toEqual([]);
				},
			), {
				numRuns: 5,
				endOnFailure: true,
				// Each kind of moment at least once: before any request, the accounts list half read, lists waiting behind a held head.
				examples: [
					[{concurrency: 3, bothEnds: false, limit: '10', kills: [{at: 0, hold: 'none'}]}],
					[{concurrency: 2, bothEnds: false, limit: '10', kills: [{at: 0.1, hold: 'accounts'}]}],
					[{concurrency: 4, bothEnds: true, limit: '25', kills: [{at: 0.5, hold: 'head'}, {at: 0.3, hold: 'none'}]}],
				],
			});
		});
	}
});

/** Runs the walk and kills it (SIGKILL) once the proxy has seen `kill.at` of `requests`, holding what `kill.hold` says meanwhile. */
async function killAt(flags: string[], kill: Kill, requests: number, head: string): Promise<Run> {
	const held = {
		none: undefined,
		head: (requestPath: string) => requestPath.startsWith(`/v2/accounts/${head}/transactions`),
		accounts: (requestPath: string) => requestPath.startsWith('/v2/accounts?') && requestPath.includes('starting_after='),
	}[kill.hold];
	const hold = held && proxy.hold(held);
	const before = proxy.seen;
	const wanted = Math.floor(kill.at * requests);
	// While something is held, the walk can go only so far: the moment is when what it can do went on a while.
	const most = kill.hold === 'head' ? requests / 3 : 5;
	const {child, done} = start(flags);
	try {
		await Promise.race([proxy.waitFor(() => proxy.seen >= before + wanted || (hold !== undefined && hold.arrived.length > 0 && proxy.seen >= before + Math.min(most, wanted))), done]);
		child.kill('SIGKILL');
		return await done;
	} finally {
		hold?.release();
	}
}

describe('csv and table go on as they began: the header written once, the same columns', () => {
	for (const format of ['csv', 'table']) {
		it(format, async () => {
			const shape = ['--all', '--format', format, '--limit', '10'];
			const expected = await reference(shape);
			const file = fileName(format);
			await killAt([...shape, '--concurrency', '3', '-o', file], {at: 0.5, hold: 'none'}, expected.requests, sandbox.store.ids('accounts')[0]!);
			const resumed = await start([...shape, '-o', file, '--resume']).done;
			expect(resumed).toEqual({code: 0, signal: null, stderr: ''});
			expect(readFileSync(file).equals(expected.bytes)).toBe(true);
		});
	}
});

describe('stopped otherwise', () => {
	it('SIGTERM: the document closed, exit 143, how to go on; --resume ends it byte for byte', async () => {
		const shape = ['--all', '--format', 'json', '--limit', '10'];
		const expected = await reference(shape);
		const file = fileName('json');
		const {child, done} = start([...shape, '-o', file]);
		const before = proxy.seen;
		await proxy.waitFor(() => proxy.seen >= before + Math.floor(expected.requests / 2));
		child.kill('SIGTERM');
		const stopped = await done;
		expect(stopped.code).toBe(143);
		expect(stopped.stderr).toMatch(/^pagewalk: \d+ of (at least )?\d+ lists \([\d,]+ objects\) were written whole before the interruption; to go on, run the same command with --resume\.\n$/);
		// Closed where it stopped: a whole JSON document.
		expect(Array.isArray(JSON.parse(readFileSync(file, 'utf8')))).toBe(true);
		const resumed = await start([...shape, '-o', file, '--resume']).done;
		expect(resumed).toEqual({code: 0, signal: null, stderr: ''});
		expect(readFileSync(file).equals(expected.bytes)).toBe(true);
	});

	it('SIGTERM before the accounts list answered: no count of lists to give, and how to go on', async () => {
		const file = fileName('ndjson');
		const hold = proxy.hold(requestPath => /^\/v2\/accounts(?:\?|$)/.test(requestPath));
		const {child, done} = start(['--all', '-o', file]);
		try {
			await proxy.waitFor(() => hold.arrived.length > 0);
			child.kill('SIGTERM');
			expect(await done).toEqual({code: 143, signal: null, stderr: 'pagewalk: 0 lists (0 objects) were written whole before the interruption; to go on, run the same command with --resume.\n'});
		} finally {
			hold.release();
		}
	});

	it('a lost connection: exit 1, the failure and how to go on; --resume once it is back ends it byte for byte', async () => {
		const shape = ['--all', '--limit', '10'];
		const expected = await reference(shape);
		const file = fileName('ndjson');
		const {done} = start([...shape, '--retries', '0', '-o', file]);
		const before = proxy.seen;
		await proxy.waitFor(() => proxy.seen >= before + Math.floor(expected.requests / 2));
		proxy.mode = 'drop';
		const failed = await done;
		proxy.mode = 'pass';
		expect(failed.code).toBe(exitCodes.failure);
		expect(failed.stderr).toMatch(/\npagewalk: \d+ of (at least )?\d+ lists \([\d,]+ objects\) were written whole before the failure; to go on, run the same command with --resume\.\n$/);
		const resumed = await start([...shape, '-o', file, '--resume']).done;
		expect(resumed).toEqual({code: 0, signal: null, stderr: ''});
		expect(readFileSync(file).equals(expected.bytes)).toBe(true);
	});

	it('without -o: an interruption says what was written whole and the --starting-after that goes on after it', async () => {
		const {child, done} = start(['--all', '--limit', '10', '--concurrency', '2']);
		const before = proxy.seen;
		await proxy.waitFor(() => proxy.seen >= before + 20);
		child.kill('SIGINT');
		const stopped = await done;
		expect(stopped.code).toBe(130);
		expect(stopped.stderr).toMatch(/^pagewalk: \d+ of (at least )?\d+ lists \([\d,]+ objects\) were written whole before the interruption(, and [\d,]+ objects? of the next list, which a resume writes again)?; to resume, run the same command (with --starting-after=[\w-]+ \(the accounts after it\)|again), or with --output FILE to go on later with --resume exactly where it stopped\.\n$/);
	});
});

describe('a state or a file changed between runs: one sentence, nothing of FILE lost', () => {
	it('a journal edited inside, FILE replaced: refused, FILE as it was', async () => {
		const shape = ['--all', '--limit', '10'];
		const expected = await reference(shape);
		const stoppedFile = fileName('ndjson');
		await killAt([...shape, '--concurrency', '3', '-o', stoppedFile], {at: 0.5, hold: 'none'}, expected.requests, sandbox.store.ids('accounts')[0]!);
		const journal = readFileSync(`${stoppedFile}.pagewalk/journal`, 'utf8').split('\n');
		const lastWritten = journal.findLastIndex(line => line.startsWith('{"written"'));
		expect(lastWritten).toBeGreaterThan(0);
		const edit = (change: (mark: Record<string, unknown>) => void) => journal.map((line, index) => {
			if (index !== lastWritten) {
				return line;
			}

			const mark = JSON.parse(line) as Record<string, unknown>;
			change(mark);
			return JSON.stringify(mark);
		}).join('\n');
		const damaged = (file: string) => `pagewalk: The state of the walk beside ${file} is damaged; remove ${file}.pagewalk and run the command again without --resume.\n`;
		const changed = (file: string) => `pagewalk: ${file} is not what its walk wrote (changed or replaced since the walk stopped); remove ${file}.pagewalk and run the command again without --resume.\n`;
		const cases: Array<{journal?: string; file?: Buffer; stderr: (file: string) => string}> = [
			// A list's mark says less was written than was: what follows it would be written over the middle of a list.
			{journal: edit(mark => {
				mark['bytes'] = (mark['bytes'] as number) - 10;
			}), stderr: changed},
			{journal: edit(mark => {
				delete mark['bytes'];
			}), stderr: damaged},
			{journal: journal.map((line, index) => (index === 1 ? 'null' : line)).join('\n'), stderr: damaged},
			{journal: edit(mark => {
				mark['account'] = 'another';
			}), stderr: damaged},
			// FILE replaced by another of at least the length the state names.
			{file: Buffer.concat([Buffer.from('x'.repeat(readFileSync(stoppedFile).length)), Buffer.from('\n')]), stderr: changed},
		];
		for (const {journal: text, file: bytes, stderr} of cases) {
			const file = fileName('ndjson');
			cpSync(`${stoppedFile}.pagewalk`, `${file}.pagewalk`, {recursive: true});
			writeFileSync(file, bytes ?? readFileSync(stoppedFile));
			if (text !== undefined) {
				writeFileSync(`${file}.pagewalk/journal`, text);
			}

			const before = readFileSync(file);
			// eslint-disable-next-line no-await-in-loop -- one case at a time
			const resumed = await start([...shape, '-o', file, '--resume']).done;
			expect(resumed).toEqual({code: exitCodes.usage, signal: null, stderr: stderr(file)});
			expect(readFileSync(file).equals(before)).toBe(true);
		}
	});

	it('FILE.pagewalk a file of the user\'s, or a folder holding others: refused, neither removed, FILE not emptied', async () => {
		for (const make of [(folder: string) => {
			writeFileSync(folder, 'precious\n');
		}, (folder: string) => {
			mkdirSync(folder);
			writeFileSync(path.join(folder, 'notes'), 'precious\n');
		}]) {
			const file = fileName('ndjson');
			writeFileSync(file, 'kept\n');
			make(`${file}.pagewalk`);
			// eslint-disable-next-line no-await-in-loop -- one case at a time
			const run = await start(['--all', '-o', file]).done;
			expect(run.code).toBe(exitCodes.usage);
			expect(run.stderr).toMatch(new RegExp(`^pagewalk: ${file.replaceAll('.', String.raw`\.`)}\\.pagewalk, where the walk would keep its state, (is not a folder|holds files pagewalk did not put there); move it away, or give --output another file\\.\\n$`));
			expect(readFileSync(file, 'utf8')).toBe('kept\n');
			expect(readFileSync(existsSync(path.join(`${file}.pagewalk`, 'notes')) ? path.join(`${file}.pagewalk`, 'notes') : `${file}.pagewalk`, 'utf8')).toBe('precious\n');
		}
	});
});

describe('the same walk in other words', () => {
	it('--format ndjson resumes a walk started without --format (the default, the same bytes)', async () => {
		const shape = ['--all', '--limit', '10'];
		const expected = await reference(shape);
		const file = fileName('ndjson');
		await killAt([...shape, '-o', file], {at: 0.3, hold: 'none'}, expected.requests, sandbox.store.ids('accounts')[0]!);
		const resumed = await start([...shape, '--format', 'ndjson', '-o', file, '--resume']).done;
		expect(resumed).toEqual({code: 0, signal: null, stderr: ''});
		expect(readFileSync(file).equals(expected.bytes)).toBe(true);
	});
});

describe('a state folder with no journal yet', () => {
	it('held by a running process: refused, its lock kept; left by one that is gone: taken over', async () => {
		const file = fileName('ndjson');
		mkdirSync(`${file}.pagewalk`);
		const lock = path.join(`${file}.pagewalk`, 'lock');
		// This process runs: a walk that has made its folder and lock, and not yet its journal.
		writeFileSync(lock, JSON.stringify({pid: process.pid, host: hostname()}));
		const held = await start(['--all', '--limit', '10', '-o', file]).done;
		expect(held).toEqual({code: exitCodes.usage, signal: null, stderr: `pagewalk: ${file} is being written by another pagewalk (process ${process.pid}); wait for it to end, or stop it, then run the command again (if no such process runs, remove ${lock}).\n`});
		expect(existsSync(lock)).toBe(true);
		const gone = spawn(process.execPath, ['-e', '']);
		await new Promise(resolve => {
			gone.on('close', resolve);
		});
		writeFileSync(lock, JSON.stringify({pid: gone.pid, host: hostname()}));
		writeFileSync(path.join(`${file}.pagewalk`, 'spool'), 'pages of a walk killed before its journal');
		const taken = await start(['--all', '--limit', '10', '-o', file]).done;
		expect(taken).toEqual({code: 0, signal: null, stderr: ''});
		expect(readFileSync(file).equals((await reference(['--all', '--limit', '10'])).bytes)).toBe(true);
	});
});

describe('two runs at once on one file', () => {
	it('the second is refused with one sentence while the first runs, which ends as it would have', async () => {
		const shape = ['--all', '--limit', '10'];
		const expected = await reference(shape);
		const file = fileName('ndjson');
		const head = sandbox.store.ids('accounts')[0]!;
		const hold = proxy.hold(requestPath => requestPath.startsWith(`/v2/accounts/${head}/transactions`));
		const first = start([...shape, '-o', file]);
		try {
			await proxy.waitFor(() => hold.arrived.length > 0 && existsSync(`${file}.pagewalk/journal`));
			const second = await start([...shape, '-o', file, '--resume']).done;
			expect(second).toEqual({code: exitCodes.usage, signal: null, stderr: `pagewalk: ${file} is being written by another pagewalk (process ${first.child.pid}); wait for it to end, or stop it, then run the command again (if no such process runs, remove ${path.join(`${file}.pagewalk`, 'lock')}).\n`});
		} finally {
			hold.release();
		}

		expect(await first.done).toEqual({code: 0, signal: null, stderr: ''});
		expect(readFileSync(file).equals(expected.bytes)).toBe(true);
		expect(existsSync(`${file}.pagewalk`)).toBe(false);
	});
});

describe('a resume that is not the same walk is refused, with one sentence', () => {
	it('another command, another server; a file with no walk beside it', async () => {
		const file = fileName('ndjson');
		const {child, done} = start(['--all', '--limit', '10', '-o', file]);
		const before = proxy.seen;
		await proxy.waitFor(() => proxy.seen >= before + 10);
		child.kill('SIGKILL');
		await done;
		const other = await start(['--all', '--limit', '25', '-o', file, '--resume']).done;
		expect(other).toEqual({code: exitCodes.usage, signal: null, stderr: `pagewalk: The unfinished walk beside ${file} is another walk (--limit was "10", now "25"); run the command it was started with and --resume, or remove ${file}.pagewalk to start over.\n`});
		const elsewhere = spawn(process.execPath, [cli, 'dump', 'transactions', '--all', '--limit', '10', '-o', file, '--resume'], {
			env: {PATH: process.env['PATH'], PAGEWALK_BASE_URL: sandbox.accountUrl, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full},
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		elsewhere.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const code = await new Promise(resolve => {
			elsewhere.on('close', resolve);
		});
		expect(code).toBe(exitCodes.usage);
		expect(stderr).toBe(`pagewalk: The unfinished walk beside ${file} is another walk (the server was ${proxy.origin}, now ${sandbox.accountUrl}); run the command it was started with and --resume, or remove ${file}.pagewalk to start over.\n`);
		// Started again without --resume over an unfinished walk: refused too, the walk kept.
		const again = await start(['--all', '--limit', '10', '-o', file]).done;
		expect(again).toEqual({code: exitCodes.usage, signal: null, stderr: `pagewalk: ${file} has an unfinished walk beside it (${file}.pagewalk); add --resume to go on with it, or remove that folder to start over.\n`});
		const written = fileName('ndjson');
		writeFileSync(written, 'something\n');
		const nothing = await start(['--all', '-o', written, '--resume']).done;
		expect(nothing).toEqual({code: exitCodes.usage, signal: null, stderr: `pagewalk: ${written} holds something, but no unfinished walk is beside it (no ${written}.pagewalk) to go on with; run the same command without --resume to write it again.\n`});
	});
});
