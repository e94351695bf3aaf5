/**
 * A task no longer wanted is aborted on the wire: the app, through the real
 * client, against the sandbox behind a small proxy that holds the request for
 * the second page (never forwarding it) and records when the client goes
 * away. A new walk (o) while that page is asked for supersedes the request;
 * the proxy sees its connection close before any answer.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {keys, renderApp} from './support/render-app.js';

type Held = {path: string; closedUnanswered: boolean};

let sandbox: Sandbox;
let proxy: http.Server;
let origin: string;
const held: Held[] = [];
let holdIf: (path: string) => boolean = () => false;

beforeAll(async () => {
	sandbox = await startSandbox({port: 0});
	const upstream = new URL(sandbox.accountUrl);
	proxy = http.createServer((request, response) => {
		const path = request.url ?? '/';
		if (holdIf(path)) {
			request.resume();
			const record: Held = {path, closedUnanswered: false};
			held.push(record);
			response.once('close', () => {
				record.closedUnanswered = !response.writableEnded;
			});
			return;
		}

		const forwarded = http.request({host: upstream.hostname, port: upstream.port, path, method: request.method, headers: request.headers}, answer => {
			response.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(response);
		});
		request.pipe(forwarded);
	});
	await new Promise<void>(resolve => {
		proxy.listen(0, '127.0.0.1', resolve);
	});
	origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname.replace(/\/$/, '')}`;
});

afterAll(async () => {
	proxy.closeAllConnections();
	await new Promise<void>(resolve => {
		proxy.close(() => {
			resolve();
		});
	});
	await sandbox.close();
});

describe('a superseded request', () => {
	it('is aborted over the wire: the page on its way is dropped when o starts a new walk', async () => {
		// Only the first page-2 request is held; the new walk's requests pass.
		holdIf = path => path.includes('starting_after=') && held.length === 0;
		const app = await renderApp({baseUrl: origin, token: sandbox.credentials.account.full, limit: 5, size: {columns: 120, rows: 14}});
		try {
			await app.waitFor(f => f.includes('page 1 ·'));
			// The prefetch of page 2 reaches the proxy and waits there; → asks for that very page.
			await app.press(keys.right);
			await app.waitFor(() => held.length === 1);
			expect(held[0]!.closedUnanswered).toBe(false);
			// o: a new walk in the other order. The page 2 request is no longer wanted.
			await app.press('o');
			await app.waitFor(f => f.includes('page 1 ·') && !f.includes('loading') && held[0]!.closedUnanswered);
			expect(held[0]!.path).toContain('starting_after=');
			expect(held[0]!.closedUnanswered).toBe(true);
		} finally {
			await app.close();
		}
	});
});
