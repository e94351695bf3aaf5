/**
 * The terminal closed under the browser (a hang-up): pagewalk ends with the
 * hang-up's status, 129, without a stack trace, whether the browser was up
 * or only its first page painted. Node 20 then aborts in its own exit
 * (node.cc ResetStdio asserts when it cannot reset a terminal that is gone;
 * any Node 20 program that outlives its terminal does, fixed in Node 22), so
 * there the status is not checked, only that nothing of ours went wrong.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {patience} from '../support/patience.js';
import {builtCli, HeldBrowser, pollUntil, requireTmux, TmuxServer} from './support/tmux.js';

const server = new TmuxServer('hang-up', {columns: 100, rows: 24});
const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-hang-up-'));
const supervise = path.resolve('test/e2e/support/supervise.mjs');
const node20 = process.version.startsWith('v20.');

beforeAll(requireTmux);
afterAll(() => {
	server.kill();
	rmSync(directory, {recursive: true, force: true});
});

type Ended = {code: number | null; signal: string | null; stderr: string};

async function ended(result: string): Promise<Ended> {
	await pollUntil(() => existsSync(result), () => `pagewalk did not end within ${patience / 1000} s of the hang-up`);
	return JSON.parse(readFileSync(result, 'utf8')) as Ended;
}

function expectQuietHangUp(end: Ended) {
	// A JavaScript error or stack frame, not Node 20's native assertion (its lines start with `  #` or a number).
	expect(end.stderr).not.toMatch(/Unhandled|EIO|Error: |\n\s+at \S/);
	if (!node20) {
		expect(end).toMatchObject({code: 129, signal: null});
	}
}

/** The first child of `pid`. */
function childOf(pid: number): number {
	return Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], {encoding: 'utf8'}).trim().split(/\s+/)[0]);
}

/** Whether `pid` has a handler for SIGHUP (signal 1: the mask's lowest bit). */
function catchesHangUp(pid: number): boolean {
	const caught = execFileSync('ps', ['-o', 'caught=', '-p', String(pid)], {encoding: 'utf8'}).trim();
	return (BigInt(`0x${caught}`) & 1n) === 1n;
}

describe('the terminal closed under the browser (tmux)', () => {
	it('after the first paint, before the browser is up: 129, no stack trace', async () => {
		const result = path.join(directory, 'painted.json');
		const held = new HeldBrowser(directory, 'painted');
		server.start('painted', {program: held.program(`${process.execPath} ${supervise} '${result}' -- `)});
		await server.waitForScreen(text => text.includes('page 1 ·'));
		const pagewalk = childOf(childOf(Number(server.flag('pane_pid'))));
		expect(catchesHangUp(pagewalk)).toBe(true);
		server.tmux('kill-session', '-t', 'painted');
		// The paint's handler has run (it listens once) while the browser is still held; then the browser may load.
		await pollUntil(() => !catchesHangUp(pagewalk), () => `pagewalk (${pagewalk}) still catches SIGHUP within ${patience / 1000} s of the hang-up`);
		held.release();
		expectQuietHangUp(await ended(result));
	});

	it('with the browser up: 129, no stack trace', async () => {
		const result = path.join(directory, 'up.json');
		server.start('up', {program: `${process.execPath} ${supervise} '${result}' -- ${process.execPath} ${builtCli()}`});
		await server.waitForScreen(text => text.includes('page 1 ·'));
		await server.waitForFlag('mouse_standard_flag', '1');
		server.tmux('kill-session', '-t', 'up');
		expectQuietHangUp(await ended(result));
	});
});
