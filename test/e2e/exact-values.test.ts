/**
 * In a real terminal (tmux): the browser's table and detail view show the
 * numbers as the server wrote them and both a.b values, as dump does.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startExactServer} from '../support/exact-object.js';
import {requireTmux, TmuxServer} from './support/tmux.js';

let server: Awaited<ReturnType<typeof startExactServer>>;
let origin: string;
const tmux = new TmuxServer('exact', {columns: 140, rows: 24});

beforeAll(async () => {
	requireTmux();
	server = await startExactServer();
	origin = server.origin;
});

afterAll(async () => {
	tmux.kill();
	await server.close();
});

describe('exact values in tmux', () => {
	it('table and detail: 9007199254740993, 1.10, and the flat and the nested a.b', async () => {
		tmux.start('exact', {demo: false, envPrefix: 'COINBASE_ACCESS_TOKEN=token ', args: `accounts --base-url ${origin}`});
		const table = await tmux.waitForScreen(text => text.includes('acct-1'));
		expect(table).toContain('9007199254740993');
		expect(table).toContain('1.10');
		expect(table).toContain('flat');
		expect(table).toContain('nested');
		await tmux.keys('Enter');
		const detail = await tmux.waitForScreen(text => text.includes('"price"'));
		expect(detail).toContain('"n": 9007199254740993,');
		expect(detail).toContain('"price": 1.10,');
		expect(detail).toContain('"a.b": "flat",');
	});
});
