import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {renderApp} from './support/render-app.js';

/**
 * → and F on real servers: at a list whose next_uri leads back (the faulty
 * server's `loop-back`: page 2's link brings page 1 again) the browser stops
 * where dump stops, in the same words; and following counts as new only the
 * objects this walk never saw. The follow's pause is 20 ms and every wait is
 * on a frame, never on the clock.
 */

let faulty: FaultyServer;
let sandbox: Sandbox;
let open: Array<{close(): Promise<void>}> = [];

beforeAll(async () => {
	[faulty, sandbox] = await Promise.all([startFaultyServer(), startSandbox({port: 0})]);
});

afterAll(async () => {
	await Promise.all([faulty.close(), sandbox.close()]);
});

afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
	faulty.reset();
});

async function loopApp() {
	const app = await renderApp({baseUrl: faulty.base('loop-back'), token: 'browser-token', order: 'asc', limit: 3, size: {columns: 220, rows: 12}, appProps: () => ({followEveryMs: 20})});
	open.push(app);
	await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
	return app;
}

const loopNote = 'stopped: the next_uri of page 2 leads back: page 3 holds the same objects as page 1, so following it would loop';

describe('at a loop, → and F stop as dump does', () => {
	it('F on asc stops following at page 2 with the walk rules\' note; → then asks for nothing', async () => {
		const app = await loopApp();
		await app.press('F');
		const frame = await app.waitFor(f => f.includes(`${loopNote}; stopped following`));
		expect(frame).toContain('page 2 ');
		expect(frame).not.toContain('following ·');
		const asked = faulty.received.length;
		await app.press('l');
		await app.waitFor(f => f.includes(loopNote) && !f.includes('stopped following'));
		expect(faulty.received.length).toBe(asked);
		expect(app.frame()).toContain('page 2 ');
	});

	it('→ by hand stops at page 2, in the words dump stops with', async () => {
		const app = await loopApp();
		await app.press('l');
		await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		await app.press('l');
		const frame = await app.waitFor(f => f.includes(loopNote));
		expect(frame).toContain('page 2 ');
	});
});

describe('F counts what this walk never saw', () => {
	it('two objects of page 1 removed and one inserted: 1 new, though an object of page 2 moved up', async () => {
		const app = await renderApp({baseUrl: sandbox.accountUrl, token: sandbox.credentials.account.full, limit: 5, size: {columns: 160, rows: 16}, appProps: () => ({followEveryMs: 20})});
		open.push(app);
		await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
		// Page 2 seen, then back to page 1, where following starts.
		await app.press('l');
		await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		await app.press('h');
		await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
		await app.press('F');
		await app.waitFor(f => f.includes('following · 0 new'));
		const page1 = sandbox.store.ids('accounts').slice(0, 5);
		expect(sandbox.store.remove('accounts', page1[1]!)).toBe(true);
		expect(sandbox.store.remove('accounts', page1[2]!)).toBe(true);
		const inserted = sandbox.store.insert('accounts');
		const frame = await app.waitFor(f => f.includes('following · 1 new') && !f.includes('loading'));
		const rows = frame.split('\n').slice(1, 6);
		expect(rows.filter(row => row.startsWith('+'))).toHaveLength(1);
		expect(rows[0]).toContain(inserted.slice(0, 8));
	});
});
