/**
 * Nothing a client sends makes the sandbox answer 500 or crash: random query
 * strings, paths, methods and headers always get a valid page or a JSON error
 * in the API's own shape.
 */
import net from 'node:net';
import fc from 'fast-check';
import {Client} from 'undici';
import {afterAll, beforeAll, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import type {Api} from './helpers.js';

let sandbox: Sandbox;
let clients: Record<Api, Client>;

beforeAll(async () => {
	sandbox = await startSandbox({records: 80});
	clients = {account: new Client(sandbox.accountUrl), commerce: new Client(sandbox.commerceUrl)};
});

afterAll(async () => {
	await Promise.all([clients.account.close(), clients.commerce.close()]);
	await sandbox.close();
});

// Characters undici lets through in a request target, '%' included for broken escapes.
const targetChar = fc.constantFrom(...'abcdefz019-_.~%&=+/?:;,!$\'()*@[]'.split(''));
const junk = fc.array(targetChar, {maxLength: 24}).map((chars) => chars.join(''));

function parameter(sandbox: () => Sandbox): fc.Arbitrary<string> {
	const id = fc.constantFrom(...Array.from({length: 6}, (_, index) => () => sandbox().store.ids(index % 2 === 0 ? 'accounts' : 'checkouts')[index] ?? '')).map((pick) => pick());
	const value = fc.oneof(junk, fc.integer({min: -5, max: 200}).map(String), fc.constantFrom('asc', 'desc', '', '0', '100', '%', '%zz', '%E0%A4%A', '%00', '%F0%9F%92%A5'), id, fc.uuid(), fc.string({unit: 'grapheme', maxLength: 8}));
	const name = fc.constantFrom('limit', 'order', 'starting_after', 'ending_before', 'access_token', 'LIMIT', 'limit[]', '', '%', 'x');
	// Non-ASCII can only travel percent-encoded.
	return fc.tuple(name, value, fc.boolean()).map(([key, text, encode]) => `${key}=${encode || /[^\x21-\x7e]/.test(text) ? encodeURIComponent(text) : text}`);
}

const path = {
	account: fc.oneof(fc.constantFrom('/v2/accounts', '/v2/accounts/', '/v2/accounts/x/transactions', '/v2', '/', '//v2/accounts'), junk.map((text) => `/v2/accounts/${text}/transactions`), junk.map((text) => `/${text}`)),
	commerce: fc.oneof(fc.constantFrom('/checkouts', '/charges', '/checkouts/', '/', '/v2/accounts'), junk.map((text) => `/${text}`)),
};

const headerValue = fc.oneof(fc.string({unit: fc.constantFrom(...'abcXYZ019- _:.%'.split('')), maxLength: 30}), fc.constantFrom('2024-01-01', '2024-02-30', '9999-12-31', '0000-01-01'));

it.each(['account', 'commerce'] as Api[])('%s API: random requests never get a 500 and always a JSON page or error', async (api) => {
	await fc.assert(
		fc.asyncProperty(
			path[api],
			fc.array(parameter(() => sandbox), {maxLength: 6}),
			fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS', 'PATCH'),
			fc.record({auth: fc.oneof(fc.constantFrom('full', 'restricted', 'none'), headerValue), version: fc.option(headerValue)}),
			async (target, parameters, method, {auth, version}) => {
				const headers: Record<string, string> = {};
				const credential = auth === 'full' || auth === 'restricted' ? sandbox.credentials[api][auth] : auth === 'none' ? undefined : auth;
				if (credential !== undefined) {
					headers[api === 'account' ? 'authorization' : 'x-cc-api-key'] = api === 'account' && (auth === 'full' || auth === 'restricted') ? `Bearer ${credential}` : credential;
				}

				if (version !== null) {
					headers[api === 'account' ? 'cb-version' : 'x-cc-version'] = version;
				}

				const query = parameters.join('&');
				const response = await clients[api].request({method: method as 'GET', path: query === '' ? target : `${target}?${query}`, headers});
				const text = await response.body.text();
				expect(response.statusCode).not.toBe(500);
				expect([200, 400, 401, 404, 405]).toContain(response.statusCode);
				expect(response.headers['content-type']).toBe('application/json');
				if (method === 'HEAD') {
					return;
				}

				const body = JSON.parse(text);
				if (response.statusCode === 200) {
					expect(Array.isArray(body.data)).toBe(true);
					expect(typeof body.pagination.limit).toBe('number');
				} else if (api === 'account') {
					expect(body).toEqual({errors: [{id: expect.any(String), message: expect.any(String)}]});
				} else {
					expect(body).toEqual({error: {type: expect.any(String), message: expect.any(String)}});
				}
			},
		),
		{numRuns: 400},
	);
});

it('malformed HTTP gets a 400 or a closed socket, and the server keeps serving', async () => {
	const {port} = new URL(sandbox.accountUrl);
	for (const raw of ['GARBAGE\r\n\r\n', 'GET /v2/accounts HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', '\u0000\u0001\u0002\r\n\r\n']) {
		// eslint-disable-next-line no-await-in-loop -- one malformed request at a time, so a failure names its input
		const answer = await new Promise<string>((resolve) => {
			const socket = net.connect(Number(port), '127.0.0.1', () => {
				socket.end(raw);
			});
			let data = '';
			socket.setEncoding('utf8');
			socket.on('data', (chunk: string) => {
				data += chunk;
			});
			socket.on('close', () => {
				resolve(data);
			});
			socket.on('error', () => {
				resolve(data);
			});
		});
		if (answer !== '') {
			expect(answer).toMatch(/^HTTP\/1\.1 (400|404|505)/);
			expect(answer).not.toMatch(/^HTTP\/1\.1 500/);
		}
	}

	const response = await fetch(`${sandbox.accountUrl}/v2/accounts`, {headers: {authorization: `Bearer ${sandbox.credentials.account.full}`}});
	await response.text();
	expect(response.status).toBe(200);
});

it('the handlers themselves never throw or answer 500 for any target and header bytes', async () => {
	const {accountApi} = await import('../../source/sandbox/routes/account-api.js');
	const {commerceApi} = await import('../../source/sandbox/routes/commerce-api.js');
	const {credentialsFor} = await import('../../source/sandbox/auth/credentials.js');
	const {Lists} = await import('../../source/sandbox/data/store.js');
	const lists = new Lists(3, 50);
	const credentials = credentialsFor(3);
	const handlers = {account: accountApi(lists, credentials), commerce: commerceApi(lists, credentials, () => 'http://127.0.0.1:1')};
	const anything = fc.string({unit: 'binary', maxLength: 40});
	const prefix = fc.constantFrom('/v2/accounts?', '/checkouts?', '/charges?', '/v2/accounts?limit=5&', '/checkouts?order=asc&starting_after=', '/v2/accounts/', '', 'http://x/v2/accounts?', '*');
	fc.assert(
		fc.property(
			fc.constantFrom<Api>('account', 'commerce'),
			prefix,
			anything,
			fc.dictionary(fc.constantFrom('authorization', 'cb-version', 'x-cc-api-key', 'x-cc-version'), fc.oneof(anything, fc.array(anything, {maxLength: 3}))),
			fc.constantFrom('GET', 'GET', 'POST', ''),
			fc.boolean(),
			(api, start, rest, headers, method, authenticated) => {
				// Half the time past authentication, so parameters and cursors are reached.
				const auth = api === 'account' ? {authorization: `Bearer ${credentials.account.full}`} : {'x-cc-api-key': credentials.commerce.restricted};
				const answer = handlers[api]({method, url: start + rest, headers: authenticated ? {...headers, ...auth} : headers});
				expect(answer.status).not.toBe(500);
				const body = JSON.parse(answer.body);
				expect(answer.status === 200 ? Array.isArray(body.data) : api === 'account' ? typeof body.errors[0].id : typeof body.error.type).toBeTruthy();
			},
		),
		{numRuns: 3000},
	);
});
