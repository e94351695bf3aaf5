import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

/**
 * Copy, save and the wheel in a real terminal (see support/tmux.ts): OSC 52
 * read back from tmux's paste buffer (`set-clipboard on` lets an application
 * set it), a file written by w, and SGR wheel reports sent as raw bytes, with
 * mouse reporting turned off again on the way out.
 */

const server = new TmuxServer('copy');
let folder: string;

/** An SGR mouse report (`ESC[<button;x;yM`) as the hex bytes `send-keys -H` takes. */
function sgrReport(button: number): string[] {
	return [...`\u001B[<${button};10;5M`].map(character => character.codePointAt(0)!.toString(16));
}

beforeAll(() => {
	requireTmux();
	builtCli();
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-copy-'));
});

afterAll(() => {
	server.kill();
	removeBuiltCli();
	rmSync(folder, {recursive: true, force: true});
});

describe('copy, save and the wheel in tmux', () => {
	it('y puts the selected id on the clipboard (tmux buffer), the wheel scrolls 3 rows, w writes the page; quitting turns mouse reporting off', async () => {
		server.start('copy', {serverOptions: [['set-clipboard', 'on']]});
		let text = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow'));
		// On once the browser is up (the first page may be painted before).
		await server.waitForFlag('mouse_standard_flag', '1');
		expect(server.flag('mouse_sgr_flag')).toBe('1');
		const id = selectedRow(text);

		await server.keys('y');
		await server.waitForScreen(t => t.includes('copied id') && t.includes('(needs a terminal that allows OSC 52)'));
		expect(server.tmux('show-buffer')).toBe(id);

		// The wheel: three rows down a notch, three up; no report is typed as keys.
		await server.keys('-H', ...sgrReport(65));
		text = await server.waitForScreen(t => /row 4\/\d+/.test(t));
		await server.keys('-H', ...sgrReport(64));
		text = await server.waitForScreen(t => /row 1\/\d+/.test(t));
		expect(text).toContain('page 1 ·');
		expect(text).not.toContain('already on the first page');
		expect(selectedRow(text)).toBe(id);

		const file = path.join(folder, 'page.ndjson');
		await server.keys('w');
		await server.waitForScreen(t => t.includes('write the page as NDJSON to file:'));
		await server.keys('-l', file);
		await server.keys('Enter');
		text = await server.waitForScreen(t => t.includes('wrote '));
		const count = Number(/wrote (\d+) objects to /.exec(text)![1]);
		const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(count);
		expect((JSON.parse(lines[0]!) as {id: string}).id).toBe(id);

		// Again: the file exists, so it asks; n keeps it.
		await server.keys('w');
		await server.keys('-l', file);
		await server.keys('Enter');
		await server.waitForScreen(t => t.includes('? y/n'));
		await server.keys('n');
		await server.waitForScreen(t => t.includes('as it was; nothing written'));

		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
		expect(server.flag('mouse_sgr_flag')).toBe('0');
		expect(server.flag('mouse_standard_flag')).toBe('0');
	});

	it('Y copies the object\'s JSON and u the request as curl (tmux buffer); W writes every page walked', async () => {
		server.start('copy-more', {serverOptions: [['set-clipboard', 'on']]});
		const text = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow'));
		const id = selectedRow(text);

		await server.keys('Y');
		await server.waitForScreen(t => t.includes('copied JSON'));
		expect((JSON.parse(server.tmux('show-buffer')) as {id: string}).id).toBe(id);

		await server.keys('u');
		await server.waitForScreen(t => t.includes('copied curl'));
		const curl = server.tmux('show-buffer');
		// --demo signs with the sandbox's key: the command says a JWT is needed and carries none.
		expect(curl).toMatch(/^curl -sS -g -H "Authorization: Bearer \$JWT" .*\/v2\/accounts'$/m);
		expect(curl).not.toMatch(/eyJ[\w-]+\.eyJ/);

		await server.keys('Right');
		await server.waitForScreen(t => t.includes('page 2 ·'));
		const file = path.join(folder, 'walk.ndjson');
		await server.keys('W');
		await server.waitForScreen(t => t.includes('write the walk (2 pages) as NDJSON to file:'));
		await server.keys('-l', file);
		await server.keys('Enter');
		const done = await server.waitForScreen(t => t.includes('wrote '));
		const count = Number(/wrote (\d+) objects from 2 pages/.exec(done)![1]);
		const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(count);
		expect((JSON.parse(lines[0]!) as {id: string}).id).toBe(id);

		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('SIGTERM turns mouse reporting off with the rest of the terminal', async () => {
		server.start('signal');
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.waitForFlag('mouse_standard_flag', '1');
		// The pane runs a shell; pagewalk is its child. Signal exactly that process.
		const child = execFileSync('ps', ['-o', 'pid=', '--ppid', server.flag('pane_pid')], {encoding: 'utf8'}).trim().split(/\s+/)[0]!;
		process.kill(Number(child), 'SIGTERM');
		await server.waitForScreen(t => t.includes('AFTER rc=143'));
		expect(server.flag('mouse_sgr_flag')).toBe('0');
		expect(server.flag('mouse_standard_flag')).toBe('0');
	});

	it('--no-mouse leaves mouse reporting off', async () => {
		server.start('no-mouse', {args: '--no-mouse'});
		await server.waitForScreen(t => t.includes('page 1 ·'));
		expect(server.flag('mouse_sgr_flag')).toBe('0');
		expect(server.flag('mouse_standard_flag')).toBe('0');
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
		expect(existsSync(folder)).toBe(true);
	});
});
