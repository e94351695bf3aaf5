/**
 * The walker's read-ahead (dump and audit): the next page is asked for
 * while the caller still handles this one, never past a bound or a loop,
 * cancelled when the caller stops, and its failure comes after the page
 * before it. Against a small server on 127.0.0.1:0 that reports each
 * request as it arrives and can hold or fail a page, so every wait here is
 * on an event, not on time.
 */
import {once} from 'node:events';
import {setImmediate} from 'node:timers/promises';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterEach, expect, test} from 'vitest';
import {createClient, type PageClient} from '../../source/http/http-client.js';
import {resolveConfig, type WalkConfig, type WalkFlagValues} from '../../source/config/options.js';
import {walk} from '../../source/http/walker.js';

type ListServer = {
	origin: string;
	/** Page numbers (1-based) in the order their requests arrived. */
	requested: number[];
	/** Resolves when the request for page `number` arrives. */
	arrival(number: number): Promise<void>;
	/** Resolves when the client closed the request for page `number` before its answer. */
	cancelled(number: number): Promise<void>;
	/** Resolves when the answer to page `number` was handed to the kernel whole. */
	answered(number: number): Promise<void>;
	close(): Promise<void>;
};

/**
 * `pages` pages of two accounts, linked by starting_after. A page in `hold`
 * is never answered; `fail` answers 404; `loopAt` makes that page's
 * next_uri lead back to page 1; `cut` sends that page's pagination whole
 * and its data cut short (not JSON); `twice` gives that page a second
 * pagination after its data, whose next_uri skips a page, while the first
 * one (the first bytes) links to the page after it.
 */
async function startListServer({pages, hold = [], fail, loopAt, cut, twice}: {pages: number; hold?: number[]; fail?: number; loopAt?: number; cut?: number; twice?: number | 'all'}): Promise<ListServer> {
	const requested: number[] = [];
	const arrivals = new Map<number, () => void>();
	const arrived = new Map<number, Promise<void>>();
	const closes = new Map<number, Promise<void>>();
	const answers = new Map<number, Promise<void>>();
	const arrival = (number: number) => {
		if (!arrived.has(number)) {
			arrived.set(number, new Promise(resolve => {
				arrivals.set(number, resolve);
			}));
		}

		return arrived.get(number)!;
	};

	const server = http.createServer((request, response) => {
		request.resume();
		const after = new URL(request.url!, 'http://x').searchParams.get('starting_after');
		const number = after === null ? 1 : Number(after.slice(1)) + 1;
		requested.push(number);
		void arrival(number);
		arrivals.get(number)!();
		answers.set(number, once(response, 'finish').then(() => undefined));
		if (hold.includes(number)) {
			closes.set(number, once(response, 'close').then(() => undefined));
			return;
		}

		if (number === fail) {
			response.writeHead(404, {'content-type': 'application/json'}).end('{"errors":[{"id":"not_found","message":"Not found"}]}');
			return;
		}

		const data = [{id: `a${number}x`, name: 'one'}, {id: `b${number}x`, name: 'two'}];
		const link = (to: number) => (to <= pages ? `/v2/accounts?limit=2&starting_after=p${to - 1}` : null);
		const pagination = (next: string | null) => JSON.stringify({ending_before: null, starting_after: null, limit: 2, order: 'desc', previous_uri: null, next_uri: next});
		const next = number === loopAt ? '/v2/accounts?limit=2' : link(number + 1);
		const body = number === cut
			? `{"pagination":${pagination(next)},"data":[{"id":"a${number}x","na`
			: number === twice || twice === 'all'
				? `{"pagination":${pagination(link(number + 2))},"data":${JSON.stringify(data)},"pagination":${pagination(next)}}`
				: JSON.stringify({pagination: JSON.parse(pagination(next)) as unknown, data});
		response.writeHead(200, {'content-type': 'application/json'}).end(body);
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requested,
		arrival,
		async cancelled(number) {
			await arrival(number);
			await closes.get(number);
		},
		async answered(number) {
			await arrival(number);
			await answers.get(number);
		},
		async close() {
			server.closeAllConnections();
			server.close();
			await once(server, 'close');
		},
	};
}

let server: ListServer;
let client: PageClient;

afterEach(async () => {
	await client?.close();
	await server?.close();
});

function setUp(flags: WalkFlagValues = {}): WalkConfig {
	const config = resolveConfig({input: ['accounts'], flags: {baseUrl: server.origin, limit: '2', retries: '0', ...flags}, env: {COINBASE_ACCESS_TOKEN: 'token-for-the-list-server'}});
	client = createClient(config, {sequential: true});
	return config;
}

test('the next page is asked for while the caller still holds this one', async () => {
	server = await startListServer({pages: 3});
	const config = setUp();
	const walker = walk(client, config, {readAhead: true});
	const first = await walker.next();
	expect(first.value).toMatchObject({objects: [{id: 'a1x'}, {id: 'b1x'}]});
	// No next() yet: the request for page 2 reaches the server anyway.
	await server.arrival(2);
	const rest = [];
	for await (const page of walker) {
		rest.push(page.objects[0]!.id);
	}

	expect(rest).toEqual(['a2x', 'a3x']);
	expect(server.requested).toEqual([1, 2, 3]);
});

test('without read-ahead the next page is asked for only when the caller moves on', async () => {
	server = await startListServer({pages: 3});
	const config = setUp();
	const walker = walk(client, config);
	await walker.next();
	expect(server.requested).toEqual([1]);
	await walker.next();
	expect(server.requested).toEqual([1, 2]);
	await walker.return(undefined as never);
});

const bounded: Array<{name: string; flags: WalkFlagValues; loopAt?: number; end: string}> = [
	{name: '--max-pages', flags: {maxPages: '2'}, end: 'max-pages'},
	{name: '--max-items', flags: {maxItems: '3'}, end: 'max-items'},
	// Page 2 links back to page 1: caught from the link, without asking for it.
	{name: 'a link that leads back', flags: {}, loopAt: 2, end: 'not-advancing'},
];

test.for(bounded)('never past $name', async ({flags, loopAt, end}) => {
	server = await startListServer({pages: 5, loopAt});
	const config = setUp(flags);
	// What the walker asks the client for, counted as it asks.
	const asked: string[] = [];
	const counting: PageClient = {
		...client,
		async fetchPage(url, options) {
			asked.push(url);
			return client.fetchPage(url, options);
		},
	};
	const walker = walk(counting, config, {readAhead: true});
	const ids: string[] = [];
	let step = await walker.next();
	while (!step.done) {
		ids.push(step.value.objects[0]!.id);
		// eslint-disable-next-line no-await-in-loop -- one page after another
		step = await walker.next();
	}

	expect(step.value.kind).toBe(end);
	expect(ids).toEqual(['a1x', 'a2x']);
	expect(asked).toHaveLength(2);
	expect(server.requested).toEqual([1, 2]);
});

test('a caller that stops early cancels the page read ahead', async () => {
	server = await startListServer({pages: 3, hold: [2]});
	const config = setUp();
	const walker = walk(client, config, {readAhead: true});
	await walker.next();
	await server.arrival(2);
	await walker.return(undefined as never);
	// The server sees the request closed; nothing is left unhandled.
	await server.cancelled(2);
});

test('a failure of the page read ahead comes after the page before it', async () => {
	server = await startListServer({pages: 3, fail: 2});
	const config = setUp();
	const walker = walk(client, config, {readAhead: true});
	const first = await walker.next();
	expect(first.value).toMatchObject({objects: [{id: 'a1x'}, {id: 'b1x'}]});
	await server.arrival(2);
	await expect(walker.next()).rejects.toThrow(/has no such list \(404 not_found/);
});

test('the next page is asked for from the first bytes of this one, before the rest is parsed', async () => {
	server = await startListServer({pages: 3, cut: 1});
	const config = setUp();
	const walker = walk(client, config, {readAhead: true});
	// Page 1 is not JSON past its pagination: the walk fails on it...
	await expect(walker.next()).rejects.toThrow(/truncated JSON/);
	// ...but its next page had been asked for already (and is cancelled with the walk).
	await server.arrival(2);
});

test('the parsed page has the last word over its first bytes', async () => {
	// Page 1's first pagination links to page 3; the second, which JSON.parse keeps, to page 2.
	server = await startListServer({pages: 4, twice: 1});
	const config = setUp();
	const ids: string[] = [];
	for await (const page of walk(client, config, {readAhead: true})) {
		ids.push(page.objects[0]!.id);
	}

	expect(ids).toEqual(['a1x', 'a2x', 'a3x', 'a4x']);
	// Page 3 was asked for early from page 1's first bytes, and again in its turn.
	expect(server.requested.slice(0, 2)).toEqual([1, 3]);
});

test('a page whose first bytes always name another link than its last word: each page once, in order, nothing left waiting', async () => {
	server = await startListServer({pages: 15, twice: 'all'});
	const config = setUp();
	const warnings: string[] = [];
	const onWarning = (warning: Error) => {
		warnings.push(warning.name);
	};

	process.on('warning', onWarning);
	try {
		const ids: string[] = [];
		for await (const page of walk(client, config, {readAhead: true})) {
			ids.push(page.objects[0]!.id);
		}

		expect(ids).toEqual(Array.from({length: 15}, (_, index) => `a${index + 1}x`));
		// At most the early request and the right one for each page.
		expect(server.requested.length).toBeLessThanOrEqual(30);
	} finally {
		process.off('warning', onWarning);
	}

	// No request left waiting for its turn, each holding a listener on the walk's signal.
	expect(warnings).toEqual([]);
});

test('stopped after a page read ahead has arrived: no further page is handed out', async () => {
	server = await startListServer({pages: 3});
	const config = setUp();
	const controller = new AbortController();
	const walker = walk(client, config, {readAhead: true, signal: controller.signal});
	await walker.next();
	await server.answered(2);
	// Turns of the event loop for the answer to reach the client (the walk waits for the caller meanwhile).
	for (let turn = 0; turn < 5; turn++) {
		// eslint-disable-next-line no-await-in-loop -- one turn after another
		await setImmediate();
	}

	controller.abort(new Error('interrupted'));
	await expect(walker.next()).rejects.toThrow('interrupted');
});
