/**
 * One GET gathered through undici's dispatch handler API (the page reader of
 * the HTTP client), against a real server on 127.0.0.1:0: the whole body in
 * order, 1xx responses passed over, the pool's size cap, and an exchange ended by
 * its caller (before undici starts it, while headers are awaited, mid-body),
 * which rejects at once with the caller's reason and closes the socket.
 */
import http from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import Pool from 'undici/lib/dispatcher/pool.js';
import {afterAll, beforeAll, expect, test} from 'vitest';
import {getResponse} from '../../source/http/response-bytes.js';
import {pollUntil} from '../support/patience.js';

let server: http.Server;
let origin = '';
const sockets = new Set<Socket>();
const closed: string[] = [];
const seen: string[] = [];

/**
 * Waits, a few milliseconds at a time, until `ready` holds; throws naming
 * `what` if it never does, rather than hang or go on (after `patience`).
 */
async function until(what: string, ready: () => boolean): Promise<void> {
	await pollUntil(ready, () => `gave up waiting for ${what}`, 5);
}

beforeAll(async () => {
	server = http.createServer((request, response) => {
		request.resume();
		seen.push(request.url ?? '');
		response.on('close', () => {
			if (!response.writableFinished) {
				closed.push(request.url ?? '');
			}
		});
		switch (request.url) {
			case '/chunks': {
				response.writeHead(200, {'content-type': 'application/json'});
				response.write('{"data":[');
				setTimeout(() => {
					response.end('1,2,3]}');
				}, 5);
				break;
			}

			case '/informational': {
				response.writeProcessing();
				response.writeEarlyHints({link: '</x>; rel=preload'});
				response.writeHead(201, {'x-final': 'yes'});
				response.end('done');
				break;
			}

			case '/large': {
				response.writeHead(200);
				response.end('x'.repeat(10_000));
				break;
			}

			case '/silent': {
				// Headers never come.
				break;
			}

			case '/trickle': {
				response.writeHead(200);
				response.write('{');
				// The rest never comes.
				break;
			}

			default: {
				response.writeHead(404);
				response.end();
			}
		}
	});
	server.on('connection', socket => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	for (const socket of sockets) {
		socket.destroy();
	}

	await new Promise(resolve => {
		server.close(resolve);
	});
});

const get = (pool: Pool, path: string) => getResponse(pool, {path, headers: {accept: 'application/json'}});

test('gathers the whole body across chunks, with status and headers', async () => {
	const pool = new Pool(origin, {connections: 1});
	try {
		const exchange = get(pool, '/chunks');
		const received = await exchange.received;
		expect(received.status).toBe(200);
		expect(received.headers['content-type']).toBe('application/json');
		expect(received.data.toString()).toBe('{"data":[1,2,3]}');
		expect(received.bytes).toBe(16);
		expect(exchange.responding).toBe(true);
	} finally {
		await pool.close();
	}
});

test('1xx responses are passed over: the final status and headers are the ones kept', async () => {
	const pool = new Pool(origin, {connections: 1});
	try {
		const received = await get(pool, '/informational').received;
		expect(received.status).toBe(201);
		expect(received.headers['x-final']).toBe('yes');
		expect(received.data.toString()).toBe('done');
	} finally {
		await pool.close();
	}
});

test('a body past the pool\'s cap (maxResponseSize, as the client sets it) ends the exchange with the size error', async () => {
	const pool = new Pool(origin, {connections: 1, maxResponseSize: 1000});
	try {
		await expect(get(pool, '/large').received).rejects.toMatchObject({code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE'});
		// The pool still serves the next request on a fresh socket.
		expect((await get(pool, '/chunks').received).status).toBe(200);
	} finally {
		await pool.close();
	}
});

test('ended by its caller: rejects at once with that reason, in every phase, and the server sees the socket close', async () => {
	const pool = new Pool(origin, {connections: 1});
	try {
		// Before undici has even sent it.
		const early = get(pool, '/chunks');
		const reason = new Error('stopped early');
		early.end(reason);
		await expect(early.received).rejects.toBe(reason);

		// Waiting for headers that never come: nothing has responded yet.
		const silent = get(pool, '/silent');
		await until('the server to receive /silent', () => seen.includes('/silent'));
		expect(silent.responding).toBe(false);
		const noHeaders = new Error('no headers');
		silent.end(noHeaders);
		await expect(silent.received).rejects.toBe(noHeaders);

		// Mid-body: the headers came, the rest does not.
		const trickle = get(pool, '/trickle');
		await until('the headers of /trickle', () => trickle.responding);
		expect(trickle.responding).toBe(true);
		const midBody = new Error('mid body');
		trickle.end(midBody);
		// A second end, or undici's own error after the abort, changes nothing.
		trickle.end(new Error('later'));
		await expect(trickle.received).rejects.toBe(midBody);
		await until('the server to see both sockets close', () => closed.includes('/silent') && closed.includes('/trickle'));
		expect(closed).toEqual(expect.arrayContaining(['/silent', '/trickle']));
	} finally {
		await pool.close();
	}
});
