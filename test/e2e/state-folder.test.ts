import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, TmuxServer} from './support/tmux.js';

/**
 * The browser's column choices when the state folder cannot hold them, in a
 * real terminal (see support/tmux.ts): the browser starts and walks as
 * usual, a column choice applied does not hang it, and once it closes the
 * terminal shows one warning naming the folder or file and its problem.
 */

const server = new TmuxServer('state-folder', {columns: 200, rows: 24});
let folder: string;

beforeAll(() => {
	requireTmux();
	builtCli();
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-state-folder-'));
});

afterAll(() => {
	server.kill();
	removeBuiltCli();
	rmSync(folder, {recursive: true, force: true});
});

/** A state folder whose columns.json is `make`'s. */
function stateWith(make: (file: string) => void): string {
	const state = mkdtempSync(path.join(folder, 'state-'));
	make(path.join(state, 'columns.json'));
	return state;
}

const remembered = `${JSON.stringify({version: 1, endpoints: {'account /v2/accounts': {order: ['id', 'name'], hidden: []}}})}\n`;

type Case = {state(): string; warning: RegExp};

const cases: Record<string, Case> = {
	'a state folder under a device (/dev/null/x)': {state: () => '/dev/null/x', warning: /^pagewalk: column choices are not remembered this time: the state folder '\/dev\/null\/x' cannot be made \('\/dev\/null' is not a folder\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.$/m},
	'a state folder the file system will not make (/proc/x)': {state: () => '/proc/x', warning: /^pagewalk: column choices are not remembered this time: the state folder '\/proc\/x' cannot be made \(making '\/proc\/x': the file system there takes no new folders\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.$/m},
	'a named pipe for columns.json': {
		state: () => stateWith(file => execFileSync('mkfifo', [file])),
		warning: /^pagewalk: column choices are not remembered this time: the file '.*\/columns\.json' is a named pipe, not a file; remove it\.$/m,
	},
	'a symbolic link for columns.json': {
		state: () => stateWith(file => {
			const elsewhere = path.join(folder, `elsewhere-${path.basename(path.dirname(file))}.json`);
			writeFileSync(elsewhere, remembered);
			symlinkSync(elsewhere, file);
		}),
		warning: /^pagewalk: column choices are not remembered this time: the file '.*\/columns\.json' is a symbolic link, which pagewalk does not follow for its own files; remove it\.$/m,
	},
};

describe('the browser, when its state folder cannot hold the column choices', () => {
	it.each(Object.keys(cases))('%s: it walks, a choice applied is not remembered, and one warning is left on the terminal', async (name) => {
		const state = cases[name]!.state();
		server.start(name.replaceAll(/\W+/g, '-'), {envPrefix: `PAGEWALK_STATE_DIR='${state}' `});
		await server.waitForScreen(text => text.includes('page 1 ·') && text.includes('more pages follow'));
		await server.keys('C');
		await server.waitForScreen(text => text.startsWith('columns:'));
		await server.keys('Down', 'Space', 'Enter');
		await server.waitForScreen(text => !text.startsWith('columns:') && text.includes('page 1 ·'));
		await server.keys('q');
		await server.waitForScreen(text => text.includes('AFTER rc='));
		// Joined: the warning is one line however narrow the terminal.
		const after = server.tmux('capture-pane', '-p', '-J', '-t', server.session);
		expect(after).toContain('AFTER rc=0');
		expect(after).toMatch(cases[name]!.warning);
		expect(after.match(/^pagewalk: /gm)).toHaveLength(1);
		if (name.includes('symbolic link')) {
			expect(readFileSync(path.join(state, 'columns.json'), 'utf8')).toBe(remembered);
		}
	});
});
