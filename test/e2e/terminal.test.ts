import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox} from '../../source/sandbox/index.js';
import {startRecordingProxy} from '../support/recording-proxy.js';
import {builtCli, hasTmux, noTmux, pollUntil, removeBuiltCli, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

/**
 * The built CLI in a real terminal (see support/tmux.ts). Checks what no
 * in-memory test can: raw mode, the alternate screen, and that quitting gives
 * the terminal back as it was.
 */

const server = new TmuxServer('e2e');
const {rows} = server;

/** The cursor (starting_after) a request or a next_uri names. */
function cursorOf(target: string): string | null {
	return new URL(target, 'http://127.0.0.1').searchParams.get('starting_after');
}

/** The cursor of page `page` of the accounts walk the browser makes (limit 25, newest first), read off the sandbox. */
async function pageCursor(origin: string, token: string, page: number): Promise<string | null> {
	let target = '/v2/accounts?limit=25';
	for (let at = 1; at < page; at++) {
		// eslint-disable-next-line no-await-in-loop -- one page after another; each names the next
		const response = await fetch(new URL(target, origin), {headers: {authorization: `Bearer ${token}`}});
		// eslint-disable-next-line no-await-in-loop -- its body, before the next page
		const body = await response.json() as {pagination: {next_uri: string}};
		target = body.pagination.next_uri;
	}

	return cursorOf(target);
}

afterAll(removeBuiltCli);

describe('the terminal tests can run', () => {
	it('tmux is installed', () => {
		expect(hasTmux, noTmux).toBe(true);
	});
});

describe('pagewalk --demo in a real terminal (tmux)', () => {
	beforeAll(() => {
		requireTmux();
		builtCli();
	});

	afterAll(() => {
		server.kill();
	});

	it('shows the first page, walks next and back, toggles order, re-fits on resize, and quits restoring the terminal', async () => {
		server.start('keys');
		let text = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow'));
		expect(server.flag('alternate_on')).toBe('1');
		expect(text).not.toContain('BEFORE');
		expect(text).toMatch(/^ {2}id +name/m);
		expect(text).toContain('account /v2/accounts · page 1 · from the start · desc · limit 25');
		const firstRow = selectedRow(text);

		await server.keys('Right');
		text = await server.waitForScreen(t => t.includes('page 2 ·'));
		expect(selectedRow(text)).not.toBe(firstRow);

		await server.keys('Left');
		text = await server.waitForScreen(t => t.includes('page 1 ·'));
		expect(selectedRow(text)).toBe(firstRow);

		// o flips the order in place: the same object selected, the walk started at it; o again comes back.
		await server.keys('o');
		text = await server.waitForScreen(t => t.includes('· asc ·') && t.includes('new walk started at') && !t.includes('loading'));
		expect(selectedRow(text)).toBe(firstRow);
		await server.keys('o');
		text = await server.waitForScreen(t => t.includes('· desc ·') && t.includes('order desc: new walk started at') && !t.includes('loading'));
		expect(selectedRow(text)).toBe(firstRow);
		await server.keys('o');
		await server.waitForScreen(t => t.includes('· asc ·') && !t.includes('loading'));
		await server.keys('0');
		text = await server.waitForScreen(t => t.includes('page 1 · from the start · asc') && !t.includes('loading'));

		// Never taller than the terminal: the status line stays on screen.
		expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(rows);

		// Resizing re-fits the table to the new width and height. The pane crops
		// at 60 columns anyway; what shows a redraw at the new width is the status
		// line cut by pagewalk with an ellipsis, and the whole frame in 12 rows.
		server.tmux('resize-window', '-t', server.session, '-x', '60', '-y', '12');
		text = await server.waitForScreen(t => {
			const shown = t.trimEnd().split('\n');
			return (
				shown.length <= 12 &&
				shown[0]!.startsWith('  id ') &&
				shown.some(line => /^account \/v2\/accounts · page 1 · from the start · asc .*…$/.test(line))
			);
		});
		// At 60 columns the id still fits whole beside one more column.
		expect(text).toMatch(/^› [\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12} {2}\S/m);

		await server.keys('q');
		text = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(text).toContain('AFTER rc=0');
		expect(text).toContain('BEFORE');
		expect(text).not.toContain('page 1 ·');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
	});

	it('counts every key of a chunk, closes an overlay with q, then quits with q', async () => {
		// The test's own sandbox behind a proxy, so that page 5 is still on its
		// way when the keys that stop it arrive, however loaded the machine is.
		const sandbox = await startSandbox({port: 0, keyFiles: false});
		const proxy = await startRecordingProxy(sandbox.accountUrl);
		try {
			const token = sandbox.credentials.account.restricted;
			const fifth = await pageCursor(sandbox.accountUrl, token, 5);
			server.start('chunk', {demo: false, envPrefix: `COINBASE_ACCESS_TOKEN=${token} `, args: `accounts --base-url ${proxy.origin}`});
			let text = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('row 1/'));
			// One send-keys with a literal string: one write to the terminal, as key repeat gives.
			await server.keys('-l', 'jjj');
			text = await server.waitForScreen(t => t.includes('row 4/'));
			const rowLines = text.split('\n').slice(1);
			expect(rowLines.findIndex(line => line.startsWith('›'))).toBe(3);
			// Three → and one ← in one write, while pages load: page 3, which a ← that
			// dropped the keys waiting ahead of it never reaches.
			await server.keys('-l', 'lllh');
			text = await server.waitForScreen(t => t.includes('page 3 ·') && !t.includes('loading'));
			// → to page 4, whose next page (asked for at once, ahead of the user) the proxy holds.
			const held = proxy.hold(target => cursorOf(target) === fifth);
			await server.keys('l');
			await server.waitForScreen(t => t.includes('page 4 ·') && !t.includes('loading'));
			await pollUntil(() => held.arrived.length > 0, () => `page 5 was never asked for:\n${server.screen()}`);
			// Two → and two ← in one write while page 5 loads: the first → waits for it, the
			// first ← takes back the second →, the last ← stops page 5 loading: the walk stays on page 4.
			await server.keys('-l', 'llhh');
			text = await server.waitForScreen(t => t.includes('page 4 ·') && t.includes('stopped loading the next page'));
			held.release();
			await server.keys('?');
			await server.waitForScreen(t => t.startsWith('keys'));
			await server.keys('q');
			text = await server.waitForScreen(t => t.startsWith('  id') && t.includes('page 4 ·'));
			expect(text).not.toContain('AFTER rc=');
			await server.keys('q');
			text = await server.waitForScreen(t => t.includes('AFTER rc='));
			expect(text).toContain('AFTER rc=0');
		} finally {
			await proxy.close();
			await sandbox.close();
		}
	});

	it('draws no colour or other styling under NO_COLOR, and colour without it', async () => {
		// An SGR sequence (colour, bold, inverse, dim): what NO_COLOR must leave out.
		// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
		const sgr = /\u001B\[[\d;]*m/;
		server.start('colour');
		await server.waitForScreen(t => t.includes('page 1 ·'));
		// -e keeps the attributes: the status line's colours show as SGR sequences.
		expect(server.tmux('capture-pane', '-p', '-e', '-t', server.session)).toMatch(sgr);
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc='));
		server.start('no-colour', {envPrefix: 'NO_COLOR=1 '});
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.keys('Enter');
		await server.waitForScreen(t => t.startsWith('object 1 of'));
		expect(server.tmux('capture-pane', '-p', '-e', '-t', server.session)).not.toMatch(sgr);
		await server.keys('q');
		await server.waitForScreen(t => t.startsWith('  id '));
		expect(server.tmux('capture-pane', '-p', '-e', '-t', server.session)).not.toMatch(sgr);
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc='));
	});

	it('TERM=dumb gets no alternate screen, no mouse reporting, no synchronized output: each frame printed whole', async () => {
		const log = path.join(mkdtempSync(path.join(tmpdir(), 'pagewalk-dumb-')), 'bytes');
		server.start('dumb', {envPrefix: 'TERM=dumb ', log});
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.keys('l');
		await server.waitForScreen(t => t.includes('page 2 ·') && !t.includes('loading'));
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
		// The pipe to the log lags the screen a little: wait for the last line there too.
		let bytes = '';
		await pollUntil(() => (bytes = readFileSync(log, 'utf8')).includes('AFTER rc='), () => `the log never had the last line:\n${bytes}`);

		expect(bytes).toContain('page 2 ·');
		for (const code of ['\u001B[?1049h', '\u001B[?1000h', '\u001B[?1006h', '\u001B[?2026h']) {
			expect(bytes).not.toContain(code);
		}

		// No cursor movement or erasing either: only text (and the shell's own bracketed-paste switch).
		// eslint-disable-next-line no-control-regex -- escape sequences are what is looked for
		expect(bytes.match(/\u001B\[[\d;?]*[A-Za-z]/g)?.filter(code => !code.startsWith('\u001B[?2004') && code !== '\u001B[?25h') ?? []).toEqual([]);
	});

	it('an escape sequence typed or pasted (a colour code, an unknown modified key) is ignored; the browser goes on', async () => {
		server.start('csi');
		await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('row 1/'));
		await server.keys('-l', '\u001B[31m');
		await server.keys('-l', '\u001B[1;5X');
		await server.keys('-l', 'v\u001B[31mv');
		await server.keys('j');
		const text = await server.waitForScreen(t => t.includes('row 2/'));
		expect(text).not.toContain('AFTER rc=');
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('Esc followed by keys in one write is Esc, then those keys, not Alt: Esc / bitcoin Enter replaces the filter, Esc Esc goes back twice', async () => {
		server.start('esc-keys');
		await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('row 1/'));
		await server.keys('-l', '/btc');
		await server.keys('Enter');
		await server.waitForScreen(t => t.includes('filter "btc"'));
		// One send-keys with a literal string: one write to the terminal, as a script or fast typing gives.
		await server.keys('-l', '\u001B/bitcoin\r');
		let text = await server.waitForScreen(t => t.includes('filter "bitcoin"'));
		expect(text).not.toContain('btcbitcoin');
		await server.keys('?');
		await server.waitForScreen(t => t.startsWith('keys'));
		await server.keys('-l', '\u001B\u001B');
		text = await server.waitForScreen(t => t.startsWith('  id') && !t.includes('filter "'));
		expect(text).not.toContain('AFTER rc=');
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('F on the churn scenario follows the newest end: new objects appear within seconds, marked and counted; a key stops', async () => {
		server.start('follow', {args: '--scenario churn'});
		await server.waitForScreen(t => t.includes('page 1 ·') && !t.includes('loading'));
		await server.keys('F');
		// The sandbox inserts a few objects a second: the first poll after a few seconds brings some.
		const text = await server.waitForScreen(t => /following · [1-9]\d* new/.test(t));
		expect(text).toMatch(/^\+ [\da-f]{8}/m);
		await server.keys('j');
		await server.waitForScreen(t => t.includes('stopped following'));
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('at 300 columns every column name shown is whole (currency.exponent readable)', async () => {
		server.start('wide');
		server.tmux('resize-window', '-t', server.session, '-x', '300', '-y', String(rows));
		const text = await server.waitForScreen(t => t.includes('page 1 ·') && t.split('\n')[0]!.includes('currency.exponent'));
		expect(text.split('\n')[0]).not.toContain('…');
		server.tmux('resize-window', '-t', server.session, '-x', String(server.columns), '-y', String(rows));
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('a terminal too small to draw in says so, and the page appears once it grows', async () => {
		server.start('small');
		server.tmux('resize-window', '-t', server.session, '-x', '20', '-y', '5');
		await server.waitForScreen(t => t.includes('Q quits') && t.includes('too'));
		server.tmux('resize-window', '-t', server.session, '-x', String(server.columns), '-y', String(rows));
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});

	it('Ctrl-C quits too, with the terminal restored', async () => {
		server.start('interrupt');
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.keys('C-c');
		const text = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(text).toContain('AFTER rc=0');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
	});
});

describe('pagewalk --demo ended by a signal (tmux)', () => {
	beforeAll(requireTmux);
	afterAll(() => {
		server.kill();
	});

	it('SIGTERM restores the terminal and exits with 143', async () => {
		server.start('signal');
		await server.waitForScreen(t => t.includes('page 1 ·'));
		// The pane runs a shell; pagewalk is its child. Signal exactly that process.
		const shell = server.flag('pane_pid');
		const child = execFileSync('ps', ['-o', 'pid=', '--ppid', shell], {encoding: 'utf8'}).trim().split(/\s+/)[0]!;
		process.kill(Number(child), 'SIGTERM');
		const text = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(text).toContain('AFTER rc=143');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
	});

	// docs/exit-codes.md: Ctrl-C in the browser is a key (raw mode) and quits with 0, as
	// tested above; 130 is for SIGINT the signal, sent from outside.
	it('SIGINT sent from outside (kill -INT) restores the terminal and exits with 130', async () => {
		server.start('sigint');
		await server.waitForScreen(t => t.includes('page 1 ·'));
		await server.waitForFlag('mouse_standard_flag', '1');
		const shell = server.flag('pane_pid');
		const child = execFileSync('ps', ['-o', 'pid=', '--ppid', shell], {encoding: 'utf8'}).trim().split(/\s+/)[0]!;
		process.kill(Number(child), 'SIGINT');
		const text = await server.waitForScreen(t => t.includes('AFTER rc='));
		expect(text).toContain('AFTER rc=130');
		expect(server.flag('alternate_on')).toBe('0');
		expect(server.flag('cursor_flag')).toBe('1');
	});
});

describe('pagewalk --demo with stdout not a terminal', () => {
	it('writes the first page as JSON and never starts Ink', () => {
		const result = spawnSync(process.execPath, [builtCli(), '--demo'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
		expect(result.status).toBe(0);
		expect(result.stdout).not.toContain('\u001B[?1049h');
		expect(result.stdout.trim().startsWith('{') || result.stdout.trim().startsWith('[')).toBe(true);
	});
});
