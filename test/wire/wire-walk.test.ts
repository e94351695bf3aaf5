/**
 * Wire faults end to end, in process, beyond what the fault table asserts:
 * where relative links lead, that a refused link sends nothing, that the
 * printed resume hint resumes, and that progress never lands inside data
 * when stdout and stderr are the same terminal.
 */
import {execFileSync} from 'node:child_process';
import {describe, expect, test} from 'vitest';
import {runDump} from '../../source/commands/dump/dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {canary, canaryEnv, dumpInProcess} from '../support/run-dump.js';
import {testIo, type CaptureOptions} from '../support/test-io.js';

const faultyServer = useFaultyServer();

describe('links', () => {
	test('query-only and path-relative next_uri: resolved against the request, the base prefix kept', async () => {
		for (const fault of ['query-only-next', 'path-relative-next'] as const) {
			faultyServer().reset();
			// One chain: the requests are counted.
			// eslint-disable-next-line no-await-in-loop -- faultyServer().received is reset and read for each fault in turn
			const result = await dumpInProcess(['accounts', `--base-url=${faultyServer().base(fault)}`, '--all', '--one-chain']);
			expect(result.code, result.stderr).toBe(0);
			expect(faultyServer().received.map(request => request.path)).toEqual([
				`/f/${fault}/v2/accounts`,
				`/f/${fault}/v2/accounts?limit=3&starting_after=p1`,
				`/f/${fault}/v2/accounts?limit=3&starting_after=p2`,
			]);
		}
	});

	test('a link carrying a credential-like parameter or the credential itself: one request in all', async () => {
		for (const [fault, flag] of [['echo-in-link', '--base-url'], ['credential-param-next', '--commerce-url']] as const) {
			faultyServer().reset();
			// eslint-disable-next-line no-await-in-loop -- faultyServer().received is reset and read for each fault in turn
			const result = await dumpInProcess([fault === 'echo-in-link' ? 'accounts' : 'checkouts', `${flag}=${faultyServer().base(fault)}`, '--all', '--one-chain']);
			expect(result.code).toBe(1);
			expect(faultyServer().received).toHaveLength(1);
			expect(`${result.stdout}${result.stderr}`).not.toContain(canary);
		}
	});

	test('a page that repeats the previous one is not written twice', async () => {
		const result = await dumpInProcess(['accounts', `--base-url=${faultyServer().base('repeat-previous')}`, '--all']);
		const ids = result.stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id);
		expect(ids).toEqual(['obj-1-0', 'obj-1-1', 'obj-1-2']);
	});
});

test('the resume hint, run through sh as printed, resumes after the last id', async () => {
	const base = `--base-url=${faultyServer().base('awkward-ids')}`;
	const failed = await dumpInProcess(['accounts', base, '--all']);
	expect(failed.code).toBe(1);
	const hint = /run the same command with (--starting-after=.+)\.\n/.exec(failed.stderr)![1]!;
	const argv = execFileSync('sh', ['-c', `printf '%s\\0' ${hint}`], {encoding: 'utf8'}).split('\0').slice(0, -1);
	expect(argv).toEqual(['--starting-after=--all \'q\' "$HOME" x']);
	faultyServer().reset();
	const resumed = await dumpInProcess(['accounts', base, ...argv]);
	expect(resumed.code, resumed.stderr).toBe(0);
	expect(resumed.stdout).toBe('{"id":"after"}\n');
	expect(new URL(faultyServer().received[0]!.path, 'http://x').searchParams.get('starting_after')).toBe('--all \'q\' "$HOME" x');
});

/** stdout and stderr as one terminal: a log of who wrote what, in order. */
class Terminal {
	log: Array<{stream: 'out' | 'err'; text: string}> = [];
	stream(name: 'out' | 'err'): CaptureOptions {
		return {tty: true, columns: 200, onWrite: text => this.log.push({stream: name, text})};
	}
}

test('one terminal for data and progress: data is never written while the progress line is up', async () => {
	const terminal = new Terminal();
	const code = await runDump(['accounts', `--base-url=${faultyServer().base('good-account')}`, '--all', '--format', 'ndjson'], testIo({
		stdout: terminal.stream('out'),
		stderr: terminal.stream('err'),
		env: canaryEnv,
	}));
	expect(code).toBe(0);
	expect(terminal.log.some(entry => entry.stream === 'err' && entry.text.includes('page 1 ·'))).toBe(true);
	let progressUp = false;
	for (const entry of terminal.log) {
		if (entry.stream === 'out') {
			expect(progressUp, `data written over the progress line: ${JSON.stringify(entry.text.slice(0, 40))}`).toBe(false);
		} else {
			// Our progress writes start with CR + erase line; an erase alone takes it down; a full line leaves the cursor at column 0.
			progressUp = !entry.text.endsWith('\n') && entry.text !== '\r\u001B[2K';
		}
	}
});
