/**
 * In a real terminal (tmux): the first page is on screen before Ink and React
 * have loaded (components/first-paint.ts). The browser's chunk is held back
 * here (support/hold-browser.mjs) so that the test acts in that time: keys
 * typed then are neither echoed nor lost, q quits once the browser is up,
 * and a signal gives the terminal back at once.
 */
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {HeldBrowser, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

const server = new TmuxServer('first-paint', {columns: 100, rows: 24});
const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-first-paint-'));

beforeAll(requireTmux);
afterAll(() => {
	server.kill();
	rmSync(directory, {recursive: true, force: true});
});

/** Starts pagewalk --demo with its browser held until `release()`. */
function startHeld(name: string) {
	const held = new HeldBrowser(directory, name);
	server.start(name, {program: held.program()});
	return (content: '' | 'fail' = '') => {
		held.release(content);
	};
}

describe('the first paint, before Ink has loaded (tmux)', () => {
	it('shows the first page; keys typed meanwhile are not echoed, and each one counts once the browser is up', async () => {
		const release = startHeld('keys');
		const painted = await server.waitForScreen(text => text.includes('page 1 ·') && text.includes('more pages follow'));
		const first = selectedRow(painted);
		expect(server.rawMode()).toBe(true);
		expect(server.flag('alternate_on')).toBe('1');
		// Mouse reporting waits for the browser: a report sent now would be the shell's if the start ended here.
		expect(server.flag('mouse_standard_flag')).toBe('0');
		server.tmux('send-keys', '-t', 'keys', 'j', 'j', 'j');
		// Nothing reads the keys yet: they wait in the terminal, which echoes none.
		await server.waitForQueued(3);
		expect(server.echoes()).toBe(false);
		expect(server.screen()).toBe(painted);
		release();
		const moved = await server.waitForScreen(text => text.includes('row 4/'));
		expect(selectedRow(moved)).not.toBe(first);
		await server.waitForFlag('mouse_standard_flag', '1');
		await server.keys('q');
		const after = await server.waitForScreen(text => text.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=0');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
	});

	it('control strings sent before the browser is up go through the same input parser: no key, and the j after them counts', async () => {
		const release = startHeld('strings');
		const painted = await server.waitForScreen(text => text.includes('page 1 ·') && text.includes('more pages follow'));
		// The row below the selected one: where j goes, and only j.
		const second = /^› .*\n {2}(\S+)/m.exec(painted)?.[1];
		const hex = (text: string) => [...Buffer.from(text, 'utf8')].map(byte => byte.toString(16));
		server.tmux('send-keys', '-t', 'strings', '-H', ...hex('\u001B]52;c;YWJj\u0007\u001B]11;rgb:0000/ffff/0000\u001B\\j'));
		release();
		const moved = await server.waitForScreen(text => /row 2\/\d+/.test(text) || text.includes('AFTER'));
		expect(moved).toContain('page 1 ·');
		expect(moved).not.toContain('as NDJSON to file');
		expect(moved).not.toContain('copied');
		expect(selectedRow(moved)).toBe(second);
		await server.waitForFlag('mouse_standard_flag', '1');
		await server.keys('q');
		const after = await server.waitForScreen(text => text.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=0');
	});

	it('q typed before the browser is up quits as soon as it is', async () => {
		const release = startHeld('quit');
		await server.waitForScreen(text => text.includes('page 1 ·'));
		server.tmux('send-keys', '-t', 'quit', 'q');
		release();
		const after = await server.waitForScreen(text => text.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=0');
		expect(server.flag('alternate_on')).toBe('0');
	});

	it('SIGTERM before the browser is up restores the terminal at once, and the exit status is 143', async () => {
		const release = startHeld('signal');
		await server.waitForScreen(text => text.includes('page 1 ·'));
		const shell = server.flag('pane_pid');
		const child = execFileSync('ps', ['-o', 'pid=', '--ppid', shell], {encoding: 'utf8'}).trim().split(/\s+/)[0]!;
		process.kill(Number(child), 'SIGTERM');
		// Back to the shell's screen while the browser's modules are still held (the hold leaves the main thread free).
		await server.waitForScreen(text => text.includes('BEFORE') && !text.includes('page 1 ·'));
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
		expect(server.rawMode()).toBe(false);
		release();
		const after = await server.waitForScreen(text => text.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=143');
	});

	it('a failure after the paint is told on the user\'s own screen, with the terminal restored', async () => {
		const release = startHeld('broken');
		await server.waitForScreen(text => text.includes('page 1 ·'));
		release('fail');
		const after = await server.waitForScreen(text => text.includes('AFTER rc='));
		expect(after).toContain('browser chunk is broken');
		expect(after).not.toContain('AFTER rc=0');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
		expect(server.rawMode()).toBe(false);
	});
});
