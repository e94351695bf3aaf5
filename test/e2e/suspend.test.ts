/**
 * Ctrl-Z and `fg` in a real terminal (tmux), pagewalk run as a job of an
 * interactive shell: stopped, by the key or by `kill -TSTP`, it gives the
 * terminal back (the shell's prompt on the user's own screen, the cursor
 * shown, the mouse the terminal's, line mode); continued, it takes the
 * terminal again, draws the whole frame, and answers keys one by one.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {pollUntil, requireTmux, selectedRow, TmuxServer, HeldBrowser} from './support/tmux.js';
import {giveBackSequence, takeSequence} from '../../source/commands/browse/terminal-screen.js';

const server = new TmuxServer('suspend', {columns: 100, rows: 24});
const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-suspend-'));

beforeAll(requireTmux);
afterAll(() => {
	server.kill();
	rmSync(directory, {recursive: true, force: true});
});

/** pagewalk's process: the shell's child. */
function pagewalkPid(): number {
	const shell = server.flag('pane_pid');
	return Number(execFileSync('ps', ['-o', 'pid=', '--ppid', shell], {encoding: 'utf8'}).trim().split(/\s+/)[0]);
}

function isUp(text: string): boolean {
	return text.includes('page 1 ·') && text.includes('more pages follow');
}

/** Starts pagewalk in `shell` and waits until the browser is up (the mouse reports once it reads keys). */
async function startInShell(name: string, shell: 'bash' | 'dash'): Promise<string> {
	server.startShell(name, shell);
	await server.waitForScreen(text => text.startsWith('$'));
	server.type(server.pagewalkLine());
	const text = await server.waitForScreen(isUp);
	await server.waitForFlag('mouse_standard_flag', '1');
	return selectedRow(text);
}

/** Stopped: the shell's prompt on the user's own screen, the cursor shown, the mouse reporting nothing. */
async function expectGivenBack(): Promise<string> {
	const text = await server.waitForScreen(screen => screen.includes('Stopped') && /^\$$/m.test(screen));
	expect(text).not.toContain('page 1 ·');
	expect(server.flag('alternate_on')).toBe('0');
	expect(server.flag('cursor_flag')).toBe('1');
	expect(server.flag('mouse_any_flag')).toBe('0');
	expect(server.flag('mouse_standard_flag')).toBe('0');
	return text;
}

/** `fg`: the whole frame again, as it was; keys answered without Enter; q quits with status 0. */
async function expectBackWithFg(selected: string): Promise<void> {
	server.type('fg');
	// The whole frame: nothing of the shell's left on it (after kill -STOP its lines are drawn over the frame).
	const text = await server.waitForScreen(screen => isUp(screen) && !screen.includes('Stopped') && /^› /m.test(screen));
	expect(selectedRow(text)).toBe(selected);
	expect(server.flag('alternate_on')).toBe('1');
	expect(server.flag('cursor_flag')).toBe('0');
	await server.waitForFlag('mouse_standard_flag', '1');
	// keys() waits for raw mode: a terminal left in line mode would hold `j` until Enter, and echo it.
	await server.keys('j');
	const moved = await server.waitForScreen(screen => screen.includes('row 2/'));
	expect(selectedRow(moved)).not.toBe(selected);
	await server.keys('q');
	// The shell's prompt once the job has ended (typed sooner, the line may be dropped as pagewalk exits).
	await server.waitForScreen(screen => /^\$$/m.test(screen));
	expect(server.flag('alternate_on')).toBe('0');
	server.type('echo "rc=$?"');
	await server.waitForScreen(screen => screen.includes('rc=0'));
}

describe('Ctrl-Z and fg (tmux, pagewalk a job of an interactive shell)', () => {
	it('kill -TSTP gives the terminal back to the shell; fg takes it again and redraws the frame', async () => {
		const selected = await startInShell('tstp', 'bash');
		process.kill(pagewalkPid(), 'SIGTSTP');
		await expectGivenBack();
		await expectBackWithFg(selected);
	});

	it('kill -STOP, which cannot be caught: nothing is given back, but after fg the frame is drawn again and keys answered at once', async () => {
		const selected = await startInShell('sigstop', 'bash');
		process.kill(pagewalkPid(), 'SIGSTOP');
		// The shell says so over the browser's screen, and sets the terminal its own way.
		await server.waitForScreen(screen => screen.includes('Stopped'));
		await expectBackWithFg(selected);
	});

	it('the key Ctrl-Z does the same', async () => {
		const selected = await startInShell('key', 'bash');
		await server.keys('C-z');
		await expectGivenBack();
		await expectBackWithFg(selected);
	});

	it('the terminal is back in line mode while stopped (dash, which leaves the modes as a job left them)', async () => {
		const selected = await startInShell('line-mode', 'dash');
		await server.keys('C-z');
		await expectGivenBack();
		expect(server.rawMode()).toBe(false);
		await expectBackWithFg(selected);
	});

	it('stopped after the first paint, before the browser is up: the shell gets the terminal; fg paints again, then the browser takes over', async () => {
		const held = new HeldBrowser(directory, 'paint');
		server.startShell('paint', 'dash');
		await server.waitForScreen(text => text.startsWith('$'));
		server.type(`${held.program()} --demo`);
		const painted = await server.waitForScreen(isUp);
		const selected = selectedRow(painted);
		process.kill(pagewalkPid(), 'SIGTSTP');
		await expectGivenBack();
		expect(server.rawMode()).toBe(false);
		// Continued before the browser is up: the paint comes back as it was, in raw mode.
		server.type('fg');
		expect(selectedRow(await server.waitForScreen(isUp))).toBe(selected);
		expect(server.flag('alternate_on')).toBe('1');
		await pollUntil(() => server.rawMode(), () => 'raw mode not back after fg');
		held.release();
		await server.waitForFlag('mouse_standard_flag', '1');
		// The browser's first frame, then a stop and fg again, now with the browser up.
		await server.keys('C-z');
		await expectGivenBack();
		await expectBackWithFg(selected);
	});
});

describe('Ctrl-Z with no shell to go back to (tmux runs pagewalk itself: no job control)', () => {
	it('gives the terminal back and takes it again at once, and the browser goes on', async () => {
		const log = path.join(directory, 'orphan.log');
		writeFileSync(log, '');
		server.start('orphan', {log});
		const text = await server.waitForScreen(isUp);
		await server.waitForFlag('mouse_standard_flag', '1');
		const selected = selectedRow(text);
		await server.keys('C-z');
		// The system drops a stop signal to a process group no shell watches; the screen came straight back.
		const given = giveBackSequence(true) + takeSequence(true);
		await pollUntil(() => existsSync(log) && readFileSync(log, 'latin1').includes(given), () => 'the terminal was not given back and taken again');
		expect(server.flag('alternate_on')).toBe('1');
		expect(server.flag('mouse_standard_flag')).toBe('1');
		expect(selectedRow(await server.waitForScreen(isUp))).toBe(selected);
		await server.keys('j');
		await server.waitForScreen(screen => screen.includes('row 2/'));
		await server.keys('q');
		expect(await server.waitForScreen(screen => screen.includes('AFTER rc='))).toContain('AFTER rc=0');
	});
});
