/**
 * Keys typed while the browser starts, in a real terminal (tmux), pagewalk a
 * job of an interactive shell: typed while the first page loads, they are not
 * echoed (an echo would stay on the user's own screen after quitting, in
 * front of the shell's next line) and each counts once in the browser; typed
 * and never read by it (the start ends first), they are discarded when the
 * terminal is given back, never the shell's next command line.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, releaseHeld, requireTmux, TmuxServer} from './support/tmux.js';

const server = new TmuxServer('start-keys', {columns: 100, rows: 24});
const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-start-keys-'));
const hold = path.resolve('test/e2e/support/hold-browser.mjs');

const ids = Array.from({length: 10}, (_, index) => `acct-${String(index + 1).padStart(2, '0')}`);
const page = JSON.stringify({
	pagination: {ending_before: null, starting_after: null, limit: 25, order: 'desc', previous_uri: null, next_uri: null},
	data: ids.map(id => ({id, name: `Wallet ${id}`})),
});

/** A list server on 127.0.0.1:0 whose first answer waits until `answer()`: the time the first page loads. */
async function startGatedServer() {
	let asked: () => void = () => undefined;
	const requested = new Promise<void>(resolve => {
		asked = resolve;
	});
	let answer: () => void = () => undefined;
	const answered = new Promise<void>(resolve => {
		answer = resolve;
	});
	const gated = http.createServer((request, response) => {
		request.resume();
		asked();
		void answered.then(() => {
			response.writeHead(200, {'content-type': 'application/json'});
			response.end(page);
		});
	});
	await new Promise<void>(resolve => {
		gated.listen(0, '127.0.0.1', resolve);
	});
	return {
		origin: `http://127.0.0.1:${(gated.address() as AddressInfo).port}`,
		requested,
		answer,
		async close() {
			answer();
			gated.closeAllConnections();
			await new Promise(resolve => {
				gated.close(resolve);
			});
		},
	};
}

let gated: Awaited<ReturnType<typeof startGatedServer>>;

beforeAll(async () => {
	requireTmux();
	gated = await startGatedServer();
});

afterAll(async () => {
	server.kill();
	await gated.close();
	rmSync(directory, {recursive: true, force: true});
});

/** The lines from the one starting with `AFTER rc=` on: what the shell shows once pagewalk has ended. */
function afterLines(text: string): string[] {
	const lines = text.split('\n');
	return lines.slice(lines.findIndex(line => /AFTER rc=\d/.test(line)));
}

describe('keys typed while the browser starts (tmux, bash)', () => {
	it('typed while the first page loads: not echoed, each counted once by the browser, nothing of them left to the shell', async () => {
		const release = path.join(directory, 'load-release');
		server.startShell('load', 'bash');
		await server.waitForScreen(text => text.startsWith('$'));
		server.type(`PAGEWALK_TEST_RELEASE='${release}' COINBASE_ACCESS_TOKEN=token ${process.execPath} --import '${hold}' ${builtCli()} accounts --base-url ${gated.origin}; echo "AFTER rc=$?"`);
		// The first page is asked for and not answered yet; the browser's chunk is held.
		await gated.requested;
		server.tmux('send-keys', '-t', 'load', 'j', 'j', 'j');
		// Unread while the page loads, in a terminal that echoes none. Before: typed in line mode, echoed
		// on the shell's own screen (and kept there after quitting).
		await server.waitForQueued(3);
		expect(server.echoes()).toBe(false);
		expect(server.screen()).not.toMatch(/^j+$/m);
		gated.answer();
		await server.waitForScreen(text => text.includes('acct-01') && text.includes('page 1 ·'));
		releaseHeld(release);
		const moved = await server.waitForScreen(text => text.includes('row 4/'));
		expect(moved).toMatch(/^› acct-04/m);
		await server.waitForFlag('mouse_standard_flag', '1');
		await server.keys('q');
		const after = await server.waitForScreen(text => /AFTER rc=0\n\$/.test(text));
		expect(afterLines(after).slice(0, 2)).toEqual(['AFTER rc=0', '$']);
		expect(after).not.toMatch(/j+AFTER/);
	});

	it('typed during the first paint and never read (the start fails before the browser is up): discarded, not the shell\'s next command line', async () => {
		const release = path.join(directory, 'fail-release');
		server.startShell('fail', 'bash');
		await server.waitForScreen(text => text.startsWith('$'));
		server.type(`PAGEWALK_TEST_RELEASE='${release}' ${process.execPath} --import '${hold}' ${builtCli()} --demo; echo "AFTER rc=$?"`);
		await server.waitForScreen(text => text.includes('page 1 ·'));
		// Raw mode: not echoed, waiting in the terminal for a browser that never reads them.
		server.tmux('send-keys', '-t', 'fail', 'e', 'c', 'h', 'o', 'Space', 'L', 'E', 'F', 'T', 'Enter');
		// All ten in the terminal before the start ends, so ending it is what must discard them.
		await server.waitForQueued(10);
		releaseHeld(release, 'fail');
		const after = await server.waitForScreen(text => /AFTER rc=\d+\n\$/.test(text));
		expect(after).toContain('browser chunk is broken');
		// Before: bash read them as the next command line (and ran it: LEFT on a line of its own).
		expect(afterLines(after)[1]).toBe('$');
		// Bash reads its input in order: keys left to it would run before this line does.
		server.type('echo DONE');
		const done = await server.waitForScreen(text => /^DONE$/m.test(text));
		expect(done).not.toMatch(/^LEFT$/m);
		expect(done).not.toContain('echo LEFT');
	});
});
