/**
 * E in the browser against the sandbox (and the faulty server's
 * `account-lists`): every account's transactions written to a file byte for
 * byte as `pagewalk dump transactions --all` writes them, through the
 * browser's one client while the browser keeps walking; its progress in the
 * status line; Ctrl-C stops it with the file and its state kept, and both
 * the dump line it says and E again go on with it to the same bytes; lists
 * that fail are counted and said in the debug view; a file there already is
 * never written over unasked.
 */
import {closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync} from 'node:fs';
import {stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {exportPort} from '../../source/commands/browse/export-lists.js';
import {builtHints} from '../../source/config/hints.js';
import {stateFolderOf} from '../../source/http/every-account/lists-journal.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {dumpInProcess} from '../support/run-dump.js';
import {pollUntil} from '../support/patience.js';
import {startRecordingProxy, type RecordingProxy} from '../support/recording-proxy.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {keys, renderApp} from './support/render-app.js';

let sandbox: Sandbox;
let proxy: RecordingProxy;
let folder: string;
let open: Array<{close(): Promise<void>}> = [];
let faultyServer: FaultyServer;
const faulty = () => faultyServer;

beforeAll(async () => {
	sandbox = await startSandbox({port: 0, records: 40, longTail: 300, keyFiles: false});
	proxy = await startRecordingProxy(sandbox.accountUrl);
	faultyServer = await startFaultyServer();
});

afterAll(async () => {
	await faultyServer.close();
	await proxy.close();
	await sandbox.close();
});

beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-export-app-'));
	proxy.reset();
});

afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
	rmSync(folder, {recursive: true, force: true});
});

const token = () => sandbox.credentials.account.restricted;
const env = (base = proxy.origin, credential = token()) => ({COINBASE_ACCESS_TOKEN: credential, NO_COLOR: '1', PAGEWALK_BASE_URL: base});
/** The accounts the restricted credential sees, in the list's order. */
const accountIds = () => sandbox.store.ids('accounts', {order: 'desc', viewer: 'restricted'});
/** Frames wrap a long message: read as one text. */
const flat = (frame: string) => frame.replaceAll(/\s+/g, ' ');

/** The browser on `base` with E's port, as the browse command gives it: the browser's one client, its own command line. */
async function browse(base = proxy.origin, credential = token()) {
	const line = {command: 'browse' as const, input: ['accounts'], flags: {baseUrl: base, retries: '0'}};
	let port: ReturnType<typeof exportPort> | undefined;
	const app = await renderApp({
		baseUrl: base,
		token: credential,
		size: {columns: 100, rows: 16},
		appProps(config, client) {
			port = exportPort({config, client, line, env: {HOME: folder}, cwd: folder});
			return {exportLists: port.exportLists};
		},
	});
	open.push({
		async close() {
			await app.close();
			await port?.settled();
		},
	});
	await app.waitFor(frame => frame.includes('page 1 '));
	return {...app, port: port!};
}

/** `pagewalk dump transactions --all` of the same server and credential: the bytes the export must write. */
async function dumped(base = proxy.origin, credential = token(), expectedCode = 0): Promise<string> {
	const result = await dumpInProcess(['transactions', '--all', '--retries', '0'], env(base, credential));
	expect(result.code, result.stderr).toBe(expectedCode);
	return result.stdout;
}

const file = (name = 'transactions.ndjson') => path.join(folder, name);

describe('E writes every account\'s transactions as dump writes them', () => {
	it('byte for byte what dump transactions --all writes, counted in the notice; no state left beside the file', async () => {
		const expected = await dumped();
		const app = await browse();
		await app.press('E');
		await app.waitFor(frame => frame.includes('export transactions (Tab: addresses) to file: (Enter: transactions.ndjson)'));
		await app.press(keys.enter);
		const frame = await app.waitFor(text => text.includes('wrote '));
		expect(readFileSync(file(), 'utf8')).toBe(expected);
		expect(flat(frame)).toContain(`wrote ${(expected.match(/\n/g) ?? []).length.toLocaleString('en-US')} objects of ${accountIds().length} lists to transactions.ndjson`);
		expect(existsSync(stateFolderOf(file()))).toBe(false);
	});

	it('its progress in the status line while the browser keeps walking; Ctrl-C stops it, kept, and the dump line it says goes on to the same bytes', async () => {
		const expected = await dumped();
		const ids = accountIds();
		// The third account's list held at the proxy: two lists are written whole, the export waits on the third.
		const hold = proxy.hold(request => request.startsWith(`/v2/accounts/${ids[2]!}/transactions`));
		const app = await browse();
		await app.press('E', keys.enter);
		await app.waitFor(frame => frame.includes(`lists 2/${ids.length} `) && frame.includes('Ctrl-C stops'));
		// The browser's own pages meanwhile, through the same client.
		await app.press(keys.right);
		await app.waitFor(frame => frame.includes('page 2 '));
		builtHints.length = 0;
		await app.press(keys.ctrlC);
		const stopped = flat(await app.waitFor(frame => frame.includes('export stopped')));
		hold.release();
		expect(app.instance.lastFrame()).toBeDefined();
		const twoLists = expected.split('\n').filter(line => line.includes(`/v2/accounts/${ids[0]!}/`) || line.includes(`/v2/accounts/${ids[1]!}/`));
		expect(stopped).toContain(`export stopped (Ctrl-C); 2 of ${ids.length} lists (${twoLists.length} objects) written whole to transactions.ndjson, kept to go on with: E and the same name goes on with it, or run pagewalk dump transactions`);
		expect(existsSync(stateFolderOf(file()))).toBe(true);
		const [resume] = builtHints.filter(hint => hint.site === 'browse-export-resume');
		expect(resume!.argv).toEqual(expect.arrayContaining(['transactions', `--base-url=${proxy.origin}`, '--all', `--output=${file()}`, '--resume']));
		const resumed = await dumpInProcess(resume!.argv, env());
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(readFileSync(file(), 'utf8')).toBe(expected);
		expect(existsSync(stateFolderOf(file()))).toBe(false);
	});

	it('the browser\'s own pages are not held up behind the export\'s lists: those have connections of their own', async () => {
		// Every list held: eight requests of the export in flight, none answered.
		const hold = proxy.hold(request => request.includes('/transactions'));
		const app = await browse();
		await app.press('E', keys.enter);
		await pollUntil(() => hold.arrived.length >= 8, () => `the export sent ${hold.arrived.length} of its 8 lists' first requests`);
		await app.press(keys.right);
		await app.waitFor(frame => frame.includes('page 2 '));
		await app.press(keys.ctrlC);
		await app.waitFor(frame => frame.includes('export stopped'));
		hold.release();
	});

	it('E again with the same name asks, and y goes on with the unfinished export to the same bytes', async () => {
		const expected = await dumped();
		const ids = accountIds();
		const hold = proxy.hold(request => request.startsWith(`/v2/accounts/${ids[3]!}/transactions`));
		const app = await browse();
		await app.press('E', keys.enter);
		await app.waitFor(frame => frame.includes(`lists 3/${ids.length} `));
		await app.press(keys.ctrlC);
		await app.waitFor(frame => frame.includes('export stopped'));
		hold.release();
		await app.press('E', keys.enter);
		await app.waitFor(frame => frame.includes('transactions.ndjson holds an unfinished export: go on with it? y/n'));
		await app.press('y');
		const frame = flat(await app.waitFor(text => text.includes('wrote ')));
		expect(frame).toContain(`of ${ids.length} lists to transactions.ndjson`);
		expect(readFileSync(file(), 'utf8')).toBe(expected);
	});
});

describe('what it says and what it refuses', () => {
	it('lists that fail are counted and named, each said in the debug view; the others written as dump writes them', async () => {
		const base = faulty().base('account-lists', {size: 6});
		const expected = await dumped(base, 'test-token-1234', 4);
		const app = await browse(base, 'test-token-1234');
		await app.press('E', keys.enter);
		const frame = flat(await app.waitFor(text => text.includes('wrote ')));
		expect(frame).toContain('of 6 lists to transactions.ndjson; 3 lists failed (accounts item-0002, item-0003, item-0004; d says why), the others written');
		expect(readFileSync(file(), 'utf8')).toBe(expected);
		await app.press('d');
		const debug = await app.waitFor(text => text.includes('the export to transactions.ndjson said:'));
		expect(debug).toMatch(/account item-0002: .*403/);
		expect(debug).toMatch(/account item-0003: .*404/);
	});

	it('a file there already: asked; n keeps it as it was, y writes it anew', async () => {
		writeFileSync(file(), 'old\n');
		const app = await browse();
		await app.press('E', keys.enter);
		await app.waitFor(frame => frame.includes('overwrite transactions.ndjson? y/n'));
		await app.press('n');
		await app.waitFor(frame => frame.includes('kept transactions.ndjson as it was; nothing written'));
		expect(readFileSync(file(), 'utf8')).toBe('old\n');
		await app.press('E', keys.enter);
		await app.waitFor(frame => frame.includes('overwrite transactions.ndjson? y/n'));
		await app.press('y');
		await app.waitFor(frame => frame.includes('wrote '));
		expect(readFileSync(file(), 'utf8')).toBe(await dumped());
	});

	it('leaves no descriptor behind to be closed later: a file opened right after an export stays open (the browser goes on)', async () => {
		const app = await browse();
		const stop = new AbortController();
		// Stopped at its first request: its file and state closed while its lists are on their way.
		const result = await app.port.exportLists({each: 'addresses', name: 'addresses.ndjson', mode: 'new'}, {signal: stop.signal, onProgress() {
			stop.abort();
		}, onRetry() {}});
		expect(result.kind).toBe('stopped');
		const fd = openSync(file('after.txt'), 'w');
		try {
			// A trip through the thread pool that any close queued by the export went through first.
			await stat(file('after.txt'));
			await stat(file('after.txt'));
			expect(writeSync(fd, 'still open')).toBe(10);
		} finally {
			closeSync(fd);
		}
	});

	it('a name it cannot write: one sentence, and E to try another', async () => {
		const app = await browse();
		await app.press('E', ...'no-such-folder/t.ndjson', keys.enter);
		const frame = flat(await app.waitFor(text => text.includes('Cannot write')));
		expect(frame).toContain('Cannot write no-such-folder/t.ndjson: its folder does not exist; create it, or press E and type another name.');
	});
});
