/**
 * In a real terminal (tmux): the browser's table and detail view show the
 * numbers as the server wrote them and both a.b values, as dump does.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {exactPage} from '../support/exact-object.js';
import {requireTmux, TmuxServer} from './support/tmux.js';

const body = exactPage;
let server: http.Server;
let origin: string;
const tmux = new TmuxServer('exact', {columns: 140, rows: 24});

beforeAll(async () => {
	requireTmux();
	server = http.createServer((request, response) => {
		request.resume();
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(body);
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	tmux.kill();
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
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
