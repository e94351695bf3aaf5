import {mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

/**
 * The two strings of the issue, sent to `pagewalk --demo` in a real terminal
 * (see support/tmux.ts) as raw bytes: an OSC 52 string (`]` next page, `Y` a
 * copy, `W` the save prompt and `Jj` typed, had its bytes been keys) and a
 * colour reply ended by ST. Neither moves the page, opens a prompt, copies or
 * writes a file; the keys after them are keys; nor do they as raw 8-bit bytes,
 * a lone 0x9D and 0x9C that are no UTF-8. The browser's own tests of
 * every kind of string are in test/browser/control-strings.property.test.tsx.
 */

const server = new TmuxServer('control-strings');
let folder: string;

/** Text as the hex bytes `send-keys -H` takes. */
function bytes(text: string): string[] {
	return [...Buffer.from(text, 'utf8')].map(byte => byte.toString(16));
}

const clipboardString = '\u001B]52;c;YWJj\u0007';
const colourReply = '\u001B]11;rgb:0000/ffff/0000\u001B\\';

beforeAll(() => {
	requireTmux();
	builtCli();
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-control-strings-'));
});

afterAll(() => {
	server.kill();
	removeBuiltCli();
	rmSync(folder, {recursive: true, force: true});
});

describe('control strings on the input of pagewalk --demo (tmux)', () => {
	it('ESC ] 52;c;YWJj BEL and ESC ]11;rgb:0000/ffff/0000 ESC \\ do nothing; Enter and j after them are keys', async () => {
		server.start('strings', {cwd: folder});
		const start = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow') && !t.includes('loading'));
		// The browser reads keys (mouse reporting turns on with it).
		await server.waitForFlag('mouse_standard_flag', '1');
		const first = selectedRow(start);

		await server.keys('-H', ...bytes(clipboardString));
		await server.keys('-H', ...bytes(colourReply));
		// The next key is a key on the table: had the strings acted, `j` would be typed into
		// the save prompt, or move a row of another page.
		await server.keys('j');
		let text = await server.waitForScreen(t => /row 2\/\d+/.test(t));
		expect(text).toContain('page 1 ·');
		expect(text).not.toContain('as NDJSON to file');
		expect(text).not.toContain('copied');
		await server.keys('k');
		text = await server.waitForScreen(t => /row 1\/\d+/.test(t));
		expect(selectedRow(text)).toBe(first);

		// Enter is Enter (the object opens), not the end of a file name.
		await server.keys('Enter');
		await server.waitForScreen(t => t.startsWith('object 1 of'));
		await server.keys('Escape');
		await server.keys('j');
		text = await server.waitForScreen(t => /row 2\/\d+/.test(t));
		expect(text).toContain('page 1 ·');
		expect(readdirSync(folder)).toEqual([]);

		await server.keys('Q');
		const after = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=0');
		expect(readdirSync(folder)).toEqual([]);
	});

	it('the same strings as raw 8-bit bytes (0x9D … BEL, 0x9D … 0x9C: no UTF-8) do nothing; j after them is j', async () => {
		server.start('raw', {cwd: folder});
		await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow') && !t.includes('loading'));
		await server.waitForFlag('mouse_standard_flag', '1');
		const raw = (text: string) => text.replace('\u001B]', '\u009D').replace('\u001B\\', '\u009C');
		const latin1 = (text: string) => [...Buffer.from(raw(text), 'latin1')].map(byte => byte.toString(16));
		await server.keys('-H', ...latin1(clipboardString));
		await server.keys('-H', ...latin1(colourReply));
		await server.keys('j');
		const text = await server.waitForScreen(t => /row 2\/\d+/.test(t));
		expect(text).toContain('page 1 ·');
		expect(text).not.toContain('as NDJSON to file');
		expect(text).not.toContain('copied');
		await server.keys('Q');
		expect(await server.waitForScreen(t => t.includes('AFTER rc='))).toContain('AFTER rc=0');
		expect(readdirSync(folder)).toEqual([]);
	});

	it('a paste (tmux paste-buffer -p, bracketed: the browser turns the mode on) is no keys on the table and text in a prompt', async () => {
		server.start('paste', {cwd: folder});
		const start = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow') && !t.includes('loading'));
		await server.waitForFlag('mouse_standard_flag', '1');
		const first = selectedRow(start);
		// Keys on the table: two rows down, the next page, a save prompt, quit, had they been keys.
		server.tmux('set-buffer', '-b', 'pasted', 'jj]wq');
		server.tmux('paste-buffer', '-p', '-b', 'pasted', '-t', server.session);
		// The next key is a key: one row down from the first, on page 1.
		await server.keys('j');
		let text = await server.waitForScreen(t => /row 2\/\d+/.test(t));
		expect(text).toContain('page 1 ·');
		expect(text).not.toContain('AFTER rc=');
		await server.keys('k');
		text = await server.waitForScreen(t => /row 1\/\d+/.test(t));
		expect(selectedRow(text)).toBe(first);

		// In the save prompt the paste is its text: the file gets the pasted name.
		server.tmux('set-buffer', '-b', 'name', 'pasted-name.ndjson');
		await server.keys('w');
		await server.waitForScreen(t => t.includes('as NDJSON to file'));
		server.tmux('paste-buffer', '-p', '-b', 'name', '-t', server.session);
		await server.waitForScreen(t => t.includes('pasted-name.ndjson'));
		await server.keys('Enter');
		await server.waitForScreen(t => readdirSync(folder).includes('pasted-name.ndjson') && t.includes('page 1 ·'));

		await server.keys('Q');
		const after = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(after).toContain('AFTER rc=0');
	});
});
