import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {stateFolderOf} from '../../source/http/every-account/lists-journal.js';
import {dumpInProcess} from '../support/run-dump.js';
import {startRecordingProxy, type RecordingProxy} from '../support/recording-proxy.js';
import {builtCli, removeBuiltCli, requireTmux, TmuxServer} from './support/tmux.js';

/**
 * E in a real terminal of 80x24 (see support/tmux.ts): every account's
 * transactions written while the status line shows the export's progress,
 * the done notice, the file as dump writes it; then an export stopped with
 * Ctrl-C (the browser stays), and on quitting, the terminal given back with
 * the dump line that goes on with it printed on it.
 */

const server = new TmuxServer('export', {columns: 80, rows: 24});
let sandbox: Sandbox;
let proxy: RecordingProxy;
let folder: string;

beforeAll(async () => {
	requireTmux();
	builtCli();
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-export-'));
	sandbox = await startSandbox({port: 0, records: 40, longTail: 300, keyFiles: false});
	proxy = await startRecordingProxy(sandbox.accountUrl);
});

afterAll(async () => {
	server.kill();
	removeBuiltCli();
	await proxy.close();
	await sandbox.close();
	rmSync(folder, {recursive: true, force: true});
});

describe('E in tmux at 80x24', () => {
	it('progress in the status line, the done notice, the file as dump writes it; Ctrl-C stops another, and quitting says how to go on', async () => {
		const token = sandbox.credentials.account.restricted;
		const ids = sandbox.store.ids('accounts', {order: 'desc', viewer: 'restricted'});
		const expected = await dumpInProcess(['transactions', '--all'], {COINBASE_ACCESS_TOKEN: token, NO_COLOR: '1', PAGEWALK_BASE_URL: proxy.origin});
		expect(expected.code).toBe(0);
		// The third account's list held: the export shows where it is while it waits there.
		let hold = proxy.hold(request => request.startsWith(`/v2/accounts/${ids[2]!}/transactions`));
		server.start('export', {demo: false, envPrefix: `COINBASE_ACCESS_TOKEN=${token} `, args: `accounts --base-url ${proxy.origin}`, cwd: folder});
		await server.waitForScreen(text => text.includes('page 1 ·'));
		await server.keys('E');
		await server.waitForScreen(text => text.includes('(Enter: transactions.ndjson)'));
		await server.keys('Enter');
		const progress = await server.waitForScreen(text => text.includes(`lists 2/${ids.length} `) && text.includes('Ctrl-C stops'));
		const line = progress.split('\n').find(text => text.includes('lists 2/'))!;
		expect(line).toMatch(/^export transactions · lists 2\/\d+ · [\d,]+ objects · \d+ s left · Ctrl-C stops\s*$/);
		hold.release();
		const done = await server.waitForScreen(text => text.includes('wrote '));
		expect(done.replaceAll(/\s+/g, ' ')).toContain(`objects of ${ids.length} lists to transactions.ndjson`);
		expect(readFileSync(path.join(folder, 'transactions.ndjson'), 'utf8')).toBe(expected.stdout);

		// Another, stopped with Ctrl-C: the browser stays; quitting prints how to go on, on the user's own screen.
		hold = proxy.hold(request => request.startsWith(`/v2/accounts/${ids[2]!}/transactions`));
		await server.keys('E');
		await server.keys('-l', 'stopped.ndjson');
		await server.keys('Enter');
		await server.waitForScreen(text => text.includes(`lists 2/${ids.length} `));
		await server.keys('C-c');
		await server.waitForScreen(text => text.includes('export stopped (Ctrl-C)'));
		hold.release();
		expect(server.screen()).toContain('page 1 ·');
		await server.keys('q');
		// The terminal wraps the long line at its width, mid-word: read back joined.
		const after = (await server.waitForScreen(text => text.includes('AFTER rc=0'))).replaceAll('\n', '');
		expect(after).toContain(`pagewalk: export stopped (Ctrl-C); 2 of ${ids.length} lists`);
		expect(after).toContain(`or run pagewalk dump transactions --base-url=${proxy.origin} --all --output=${path.join(folder, 'stopped.ndjson')} --resume`);
		expect(existsSync(stateFolderOf(path.join(folder, 'stopped.ndjson')))).toBe(true);
	});
});
