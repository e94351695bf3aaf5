/**
 * The contract's rules (docs/contract.md#the-rules) for both APIs, both orders, forward
 * and backward, plus the sandbox's documented answers where the contract is silent.
 */
import net from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl, resolve, walk, type Api, type Reply} from './helpers.js';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({records: 137});
});

afterAll(async () => {
	await sandbox.close();
});

const apis: Api[] = ['account', 'commerce'];
const orders = ['desc', 'asc'] as const;

function collection(api: Api) {
	return api === 'account' ? ('accounts' as const) : ('checkouts' as const);
}

function expectError(api: Api, reply: Reply, status: number, mentions: string[], code?: string) {
	expect(reply.status).toBe(status);
	expect(reply.headers.get('content-type')).toBe('application/json');
	const {message, kind} = api === 'account' ? {message: reply.body.errors?.[0]?.message, kind: reply.body.errors?.[0]?.id} : {message: reply.body.error?.message, kind: reply.body.error?.type};
	expect(typeof message).toBe('string');
	expect(typeof kind).toBe('string');
	if (code) {
		expect(kind).toBe(code);
	}

	for (const word of mentions) {
		expect(message).toContain(word);
	}
}

/** Sort key check: created_at then id, in the given order. */
function expectSorted(objects: Array<{id: string; created_at: string}>, order: 'asc' | 'desc') {
	for (let index = 1; index < objects.length; index++) {
		const a = objects[index - 1]!;
		const b = objects[index]!;
		const difference = Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1);
		expect(order === 'asc' ? difference < 0 : difference > 0).toBe(true);
	}
}

describe.each(apis)('%s API', (api) => {
	const name = collection(api);
	const headers = () => authHeaders(sandbox, api);

	it('default-limit: omitted limit gives pages of 25', async () => {
		const reply = await get(listUrl(sandbox, api), headers());
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toBe('application/json');
		expect(reply.body.data).toHaveLength(25);
		expect(reply.body.pagination.limit).toBe(25);
		expect(reply.body).not.toHaveProperty('warnings');
	});

	it.each([
		['0', 25],
		['1', 1],
		['100', 100],
		['7', 7],
	])('limit-range: limit=%s is accepted, %i in effect', async (limit, expected) => {
		const reply = await get(listUrl(sandbox, api, `limit=${limit}`), headers());
		expect(reply.status).toBe(200);
		expect(reply.body.data).toHaveLength(expected);
		expect(reply.body.pagination.limit).toBe(expected);
		expect(reply.body.pagination.next_uri).toContain(`limit=${expected}&`);
	});

	it.each(['101', '-1', 'abc', '2.5', '', '1e2', ' 5', '0x10'])('limit=%j is a 400 naming limit', async (limit) => {
		const reply = await get(listUrl(sandbox, api, `limit=${encodeURIComponent(limit)}`), headers());
		expectError(api, reply, 400, ['limit'], 'validation_error');
	});

	it('default-order: omitted order is newest first; asc reverses it exactly', async () => {
		const desc = await get(listUrl(sandbox, api, 'limit=100'), headers());
		expect(desc.body.pagination.order).toBe('desc');
		expectSorted(desc.body.data, 'desc');
		const all = sandbox.store.ids(name, {order: 'desc'});
		expect(desc.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(0, 100));
		const asc = await get(listUrl(sandbox, api, 'limit=100&order=asc'), headers());
		expectSorted(asc.body.data, 'asc');
		expect(asc.body.data.map((object: {id: string}) => object.id)).toEqual([...all].reverse().slice(0, 100));
	});

	it('the data has created_at ties, broken by id', async () => {
		const pages = await get(listUrl(sandbox, api, 'limit=100&order=asc'), headers());
		const times = pages.body.data.map((object: {created_at: string}) => object.created_at);
		expect(new Set(times).size).toBeLessThan(times.length);
	});

	it.each(['bogus', 'ASC', ''])('order=%j is a 400 naming order', async (order) => {
		expectError(api, await get(listUrl(sandbox, api, `order=${order}`), headers()), 400, ['order'], 'validation_error');
	});

	describe.each(orders)('order %s', (order) => {
		const expected = () => sandbox.store.ids(name, {order});

		it('walk-forward: starting_after = last id of the previous page reads the whole list', async () => {
			const seen: string[] = [];
			let cursor: string | undefined;
			for (;;) {
				// eslint-disable-next-line no-await-in-loop -- each page needs the cursor of the one before
				const reply = await get(listUrl(sandbox, api, `limit=30&order=${order}${cursor ? `&starting_after=${cursor}` : ''}`), headers());
				expect(reply.status).toBe(200);
				const ids = reply.body.data.map((object: {id: string}) => object.id);
				seen.push(...ids);
				if (reply.body.pagination.next_uri === null) {
					break;
				}

				cursor = ids.at(-1);
			}

			expect(seen).toEqual(expected());
		});

		it('next-uri-carries-parameters, end-of-list, pagination-echo: next_uri carries every parameter, in alphabetical order, and ends on null', async () => {
			const pages = await walk(sandbox, api, {query: `limit=20&order=${order}`});
			expect(pages.flatMap((page) => page.ids)).toEqual(expected());
			expect(pages).toHaveLength(Math.ceil(expected().length / 20));
			for (const [index, page] of pages.entries()) {
				const {pagination} = page;
				expect(pagination.limit).toBe(20);
				expect(pagination.order).toBe(order);
				expect(pagination.ending_before).toBeNull();
				expect(pagination.starting_after).toBe(index === 0 ? null : pages[index - 1]!.ids.at(-1));
				if (index < pages.length - 1) {
					const prefix = api === 'account' ? '/v2/accounts?' : `${sandbox.commerceUrl}/checkouts?`;
					expect(pagination.next_uri).toBe(`${prefix}limit=20&order=${order}&starting_after=${page.ids.at(-1)}`);
				} else {
					expect(pagination.next_uri).toBeNull();
				}

				if (index === 0) {
					expect(pagination.previous_uri).toBeNull();
				} else {
					expect(pagination.previous_uri).toContain(`ending_before=${page.ids[0]}&limit=20&order=${order}`);
				}

				if (api === 'account') {
					expect(pagination.next_starting_after).toBe(index < pages.length - 1 ? page.ids.at(-1) : null);
					expect(pagination.previous_ending_before).toBe(index === 0 ? null : page.ids[0]);
					expect(Object.keys(pagination)).toEqual(['ending_before', 'starting_after', 'previous_ending_before', 'next_starting_after', 'limit', 'order', 'previous_uri', 'next_uri']);
				} else {
					expect(pagination.total).toBe(expected().length);
					expect(pagination.yielded).toBe(page.ids.length);
					expect(pagination.cursor_range).toEqual([page.ids[0], page.ids.at(-1)]);
					expect(Object.keys(pagination)).toEqual(['order', 'starting_after', 'ending_before', 'total', 'yielded', 'limit', 'previous_uri', 'next_uri', 'cursor_range']);
				}
			}
		});

		it('backward walk: previous_uri from the last page reads the whole list back', async () => {
			const forward = await walk(sandbox, api, {query: `limit=15&order=${order}`});
			const last = forward.at(-1)!;
			const backward = await walk(sandbox, api, {query: `limit=15&order=${order}&starting_after=${forward.at(-2)!.ids.at(-1)}`, direction: 'previous'});
			expect(backward[0]!.ids).toEqual(last.ids);
			// Each page is in the requested order; pages come newest-last, so prepend them.
			expect(backward.reverse().flatMap((page) => page.ids)).toEqual(expected());
			expect(backward[0]!.pagination.previous_uri).toBeNull();
		});

		it('ending_before returns the limit objects just before the cursor, in the requested order', async () => {
			const all = expected();
			const reply = await get(listUrl(sandbox, api, `limit=10&order=${order}&ending_before=${all[50]}`), headers());
			expect(reply.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(40, 50));
			expect(reply.body.pagination.ending_before).toBe(all[50]);
			expect(reply.body.pagination.starting_after).toBeNull();
			const near = await get(listUrl(sandbox, api, `limit=10&order=${order}&ending_before=${all[4]}`), headers());
			expect(near.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(0, 4));
			expect(near.body.pagination.previous_uri).toBeNull();
		});

		it('from any page, previous then next (and next then previous) returns the same objects', async () => {
			const pages = await walk(sandbox, api, {query: `limit=25&order=${order}`});
			for (const page of pages) {
				for (const [first, second] of [['previous_uri', 'next_uri'], ['next_uri', 'previous_uri']] as const) {
					if (page.pagination[first] === null) {
						continue;
					}

					// eslint-disable-next-line no-await-in-loop -- each step follows a link of the page before
					const there = await get(resolve(sandbox, api, page.pagination[first]), headers());
					// eslint-disable-next-line no-await-in-loop -- and back again from there
					const back = await get(resolve(sandbox, api, there.body.pagination[second]), headers());
					expect(back.body.data.map((object: {id: string}) => object.id)).toEqual(page.ids);
				}
			}
		});

		it('empty windows at both ends: documented links', async () => {
			const all = expected();
			const after = await get(listUrl(sandbox, api, `order=${order}&starting_after=${all.at(-1)}`), headers());
			expect(after.status).toBe(200);
			expect(after.body.data).toEqual([]);
			expect(after.body.pagination.next_uri).toBeNull();
			expect(after.body.pagination.previous_uri).toBeNull();
			const before = await get(listUrl(sandbox, api, `order=${order}&ending_before=${all[0]}`), headers());
			expect(before.body.data).toEqual([]);
			expect(before.body.pagination.previous_uri).toBeNull();
			const first = await get(resolve(sandbox, api, before.body.pagination.next_uri), headers());
			expect(first.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(0, 25));
			if (api === 'commerce') {
				expect(after.body.pagination.cursor_range).toEqual([]);
				expect(after.body.pagination.yielded).toBe(0);
			}
		});
	});

	it('both cursors together are a 400 naming both', async () => {
		const [a, b] = sandbox.store.ids(name);
		expectError(api, await get(listUrl(sandbox, api, `starting_after=${a}&ending_before=${b}`), headers()), 400, ['starting_after', 'ending_before'], 'validation_error');
	});

	it.each(['starting_after', 'ending_before'])('an unknown or malformed %s is a 400 naming it', async (parameter) => {
		expectError(api, await get(listUrl(sandbox, api, `${parameter}=00000000-0000-4000-8000-000000000000`), headers()), 400, [parameter], 'validation_error');
		expectError(api, await get(listUrl(sandbox, api, `${parameter}=not-an-id`), headers()), 400, [parameter], 'validation_error');
		expectError(api, await get(listUrl(sandbox, api, `${parameter}=`), headers()), 400, [parameter], 'validation_error');
		// An id from another list is unknown here.
		const other = sandbox.store.ids('charges')[0];
		expectError(api, await get(listUrl(sandbox, api, `${parameter}=${other}`), headers()), 400, [parameter], 'validation_error');
	});

	it('consistent-under-change: a removed object stays a valid cursor and keeps its place', async () => {
		const local = await startSandbox({records: 60});
		try {
			const all = local.store.ids(name);
			expect(local.store.remove(name, all[10]!)).toBe(true);
			expect(local.store.remove(name, all[10]!)).toBe(false);
			const reply = await get(listUrl(local, api, `limit=5&starting_after=${all[10]}`), authHeaders(local, api));
			expect(reply.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(11, 16));
			const back = await get(listUrl(local, api, `limit=5&ending_before=${all[10]}`), authHeaders(local, api));
			expect(back.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(5, 10));
		} finally {
			await local.close();
		}
	});

	it.each(orders)('an empty window after removed objects (%s) still links back to the page before', async (order) => {
		const local = await startSandbox({records: 40});
		try {
			const all = local.store.ids(name, {order});
			for (const id of all.slice(-3)) {
				local.store.remove(name, id);
			}

			const headers = authHeaders(local, api);
			const empty = await get(listUrl(local, api, `limit=10&order=${order}&starting_after=${all.at(-4)}`), headers);
			expect(empty.body.data).toEqual([]);
			expect(empty.body.pagination.next_uri).toBeNull();
			const back = await get(resolve(local, api, empty.body.pagination.previous_uri), headers);
			expect(back.body.data.map((object: {id: string}) => object.id)).toEqual(all.slice(-13, -3));
			// Nothing live follows that page, so its next_uri is null: the walk ends there.
			expect(back.body.pagination.next_uri).toBeNull();
		} finally {
			await local.close();
		}
	});

	it('repeated identical parameters are accepted; different values are a 400', async () => {
		const same = await get(listUrl(sandbox, api, 'limit=5&order=asc&limit=5'), headers());
		expect(same.status).toBe(200);
		expect(same.body.data).toHaveLength(5);
		expectError(api, await get(listUrl(sandbox, api, 'limit=5&limit=6'), headers()), 400, ['limit'], 'validation_error');
		expectError(api, await get(listUrl(sandbox, api, 'order=asc&order=desc'), headers()), 400, ['order']);
	});

	it('tolerates the documented "?&" and ignores unknown parameters', async () => {
		const reply = await get(listUrl(sandbox, api, '&limit=3&expand=all'), headers());
		expect(reply.status).toBe(200);
		expect(reply.body.data).toHaveLength(3);
		expect(reply.body.pagination.next_uri).not.toContain('expand');
	});

	it('HEAD answers like GET without a body', async () => {
		const url = `${listUrl(sandbox, api)}?limit=3`;
		const got = await fetch(url, {headers: headers()});
		const body = await got.text();
		const head = await fetch(url, {method: 'HEAD', headers: headers()});
		expect(head.status).toBe(200);
		expect(await head.text()).toBe('');
		expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'));
		expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
		const unauthorized = await fetch(url, {method: 'HEAD'});
		expect(unauthorized.status).toBe(401);
		expect(await unauthorized.text()).toBe('');
	});

	it('a request without a Host header gets a 400 in the API shape', async () => {
		const {hostname, port} = new URL(listUrl(sandbox, api));
		for (const version of ['1.1', '1.0']) {
			// eslint-disable-next-line no-await-in-loop -- one raw connection at a time
			const raw = await new Promise<string>((resolve, reject) => {
				let text = '';
				const socket = net.connect(Number(port), hostname, () => {
					socket.end(`GET ${new URL(listUrl(sandbox, api)).pathname} HTTP/${version}\r\nConnection: close\r\n\r\n`);
				});
				socket.setEncoding('utf8');
				socket.on('data', (chunk: string) => {
					text += chunk;
				});
				socket.on('end', () => {
					resolve(text);
				});
				socket.on('error', reject);
			});
			expect(raw).toMatch(/^HTTP\/1\.1 400 /);
			expect(raw).toMatch(/content-type: application\/json/i);
			const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown;
			expectError(api, {status: 400, headers: new Headers({'content-type': 'application/json'}), body}, 400, ['Host'], 'invalid_request');
		}
	});

	it('unknown path 404, wrong method 405 with Allow: GET, HEAD', async () => {
		const base = api === 'account' ? sandbox.accountUrl : sandbox.commerceUrl;
		expectError(api, await get(`${base}/v2/nothing`, headers()), 404, [], 'not_found');
		expectError(api, await get(`${base}/`, headers()), 404, []);
		const path = api === 'account' ? '/v2/accounts' : '/checkouts';
		for (const method of ['POST', 'DELETE', 'PUT']) {
			// eslint-disable-next-line no-await-in-loop -- one method after another against the same server
			const response = await fetch(`${base}${path}`, {method, headers: headers(), body: method === 'DELETE' ? null : '{}'});
			// eslint-disable-next-line no-await-in-loop -- one method after another against the same server
			const body = await response.json();
			expectError(api, {status: response.status, headers: response.headers, body}, 405, [method]);
			expect(response.headers.get('allow')).toBe('GET, HEAD');
		}
	});

	it('missing or unknown credentials are a 401 in the API shape', async () => {
		const missing = await get(listUrl(sandbox, api), {});
		const unknown = await get(listUrl(sandbox, api), api === 'account' ? {authorization: 'Bearer nope'} : {'x-cc-api-key': 'nope'});
		if (api === 'account') {
			expectError(api, missing, 401, [], 'authentication_error');
			expect(unknown.body).toEqual({errors: [{id: 'invalid_token', message: 'The access token is invalid'}]});
			expectError(api, await get(listUrl(sandbox, api), {authorization: sandbox.credentials.account.full}), 401, ['Bearer'], 'authentication_error');
			// Another API's credential is unknown here.
			expectError(api, await get(listUrl(sandbox, api), {authorization: `Bearer ${sandbox.credentials.commerce.full}`}), 401, [], 'invalid_token');
		} else {
			for (const reply of [missing, unknown]) {
				expect(reply.status).toBe(401);
				expect(reply.body).toEqual({error: {type: 'authentication_error', message: 'No such API Key.'}});
			}

			expect((await get(listUrl(sandbox, api), {'x-cc-api-key': sandbox.credentials.account.full})).status).toBe(401);
		}
	});

	it('a missing version header is answered with the documented warnings', async () => {
		const reply = await get(listUrl(sandbox, api, 'limit=2'), authHeaders(sandbox, api, 'full', false));
		expect(reply.status).toBe(200);
		expect(reply.body.data).toHaveLength(2);
		if (api === 'account') {
			expect(reply.body.warnings).toEqual([{id: 'missing_version', message: 'Please supply API version (YYYY-MM-DD) as CB-VERSION header', url: expect.stringMatching(/^https:\/\//)}]);
		} else {
			expect(reply.body.warnings).toEqual(['Missing X-CC-Version header; serving latest API version (2018-03-22)']);
		}
	});

	it.each(['2024-02-30', 'yesterday', '2024-1-01', '20240101', ''])('version header %j is a 400 naming the header', async (version) => {
		const name = api === 'account' ? 'CB-VERSION' : 'X-CC-Version';
		const reply = await get(listUrl(sandbox, api), {...authHeaders(sandbox, api, 'full', false), [name.toLowerCase()]: version});
		expectError(api, reply, 400, [name], 'validation_error');
	});

	it('a leap day is a real date', async () => {
		const name = api === 'account' ? 'cb-version' : 'x-cc-version';
		expect((await get(listUrl(sandbox, api), {...authHeaders(sandbox, api, 'full', false), [name]: '2024-02-29'})).status).toBe(200);
	});
});

describe('account API specifics', () => {
	it('accepts the access_token query parameter and never echoes it into a URI', async () => {
		const reply = await get(listUrl(sandbox, 'account', `limit=2&access_token=${sandbox.credentials.account.full}`), {'cb-version': '2024-05-01'});
		expect(reply.status).toBe(200);
		expect(reply.body.data).toHaveLength(2);
		expect(JSON.stringify(reply.body.pagination)).not.toContain('access_token');
		expect(JSON.stringify(reply.body.pagination)).not.toContain(sandbox.credentials.account.full);
		const restricted = await get(listUrl(sandbox, 'account', `access_token=${sandbox.credentials.account.restricted}`), {});
		expect(restricted.body.data.length).toBeLessThan(25);
		expect((await get(listUrl(sandbox, 'account', 'access_token=wrong'), {})).body.errors[0].id).toBe('invalid_token');
	});

	it('lists an account\'s transactions with relative links under that account', async () => {
		const accounts = sandbox.store.ids('accounts');
		let checked = 0;
		for (const id of accounts.slice(0, 12)) {
			const expected = sandbox.store.transactionIds(id)!;
			// eslint-disable-next-line no-await-in-loop -- one walk after another; each is itself sequential
			const pages = await walk(sandbox, 'account', {path: `/v2/accounts/${id}/transactions`, query: 'limit=10'});
			expect(pages.flatMap((page) => page.ids)).toEqual(expected);
			if (pages.length > 1) {
				expect(pages[0]!.pagination.next_uri).toMatch(new RegExp(`^/v2/accounts/${id}/transactions\\?limit=10&order=desc&starting_after=`));
				checked++;
			}
		}

		expect(checked).toBeGreaterThan(0);
		expectError('account', await get(`${sandbox.accountUrl}/v2/accounts/00000000-0000-4000-8000-000000000000/transactions`, authHeaders(sandbox, 'account')), 404, [], 'not_found');
		expectError('account', await get(`${sandbox.accountUrl}/v2/accounts/%ZZ/transactions`, authHeaders(sandbox, 'account')), 404, [], 'not_found');
	});

	// The lists of one account keep the same contract as the accounts list:
	// every object once and in order both ways, links relative and under the
	// account, backward through previous_uri, 404 for an unknown account.
	describe.each(['transactions', 'addresses'] as const)('an account\'s %s', (list) => {
		const idsOf = (account: string, order: 'asc' | 'desc') => (list === 'transactions' ? sandbox.store.transactionIds(account, {order}) : sandbox.store.addressIds(account, {order}))!;

		it.each(orders)('walks forward and back in %s order, links relative and under the account', async (order) => {
			let checked = 0;
			for (const id of sandbox.store.ids('accounts').slice(0, 16)) {
				const path = `/v2/accounts/${id}/${list}`;
				// eslint-disable-next-line no-await-in-loop -- one walk after another; each is itself sequential
				const pages = await walk(sandbox, 'account', {path, query: `limit=7&order=${order}`});
				expect(pages.flatMap((page) => page.ids)).toEqual(idsOf(id, order));
				for (const page of pages) {
					expect(page.pagination).toMatchObject({limit: 7, order});
					expect(page.pagination.next_uri ?? path).toMatch(new RegExp(`^/v2/accounts/${id}/${list}`));
				}

				if (pages.length > 2) {
					expect(pages[0]!.pagination.next_uri).toMatch(new RegExp(`^/v2/accounts/${id}/${list}\\?limit=7&order=${order}&starting_after=`));
					expect(pages.at(-1)!.pagination.next_uri).toBeNull();
					// Back from the last page through previous_uri: the same objects, page by page.
					const last = pages.at(-1)!;
					// eslint-disable-next-line no-await-in-loop -- the walk back of the same list, after the walk forward
					const back = await walk(sandbox, 'account', {path, query: `limit=7&order=${order}&starting_after=${pages.at(-2)!.ids.at(-1)!}`, direction: 'previous'});
					expect(back[0]!.ids).toEqual(last.ids);
					expect(back.slice(1).reverse().flatMap((page) => page.ids)).toEqual(pages.slice(0, -1).flatMap((page) => page.ids));
					checked++;
				}
			}

			expect(checked).toBeGreaterThan(0);
		});

		it('short pages for the restricted credential, and the next_uri still leads on', async () => {
			let short = 0;
			for (const id of sandbox.store.ids('accounts', {viewer: 'restricted'}).slice(0, 30)) {
				// eslint-disable-next-line no-await-in-loop -- one walk after another
				const pages = await walk(sandbox, 'account', {path: `/v2/accounts/${id}/${list}`, query: 'limit=10', viewer: 'restricted'});
				const seen = pages.flatMap((page) => page.ids);
				const all = idsOf(id, 'desc');
				expect(seen).toEqual(all.filter((object) => seen.includes(object)));
				short += pages.filter((page) => page.ids.length < 10 && page.pagination.next_uri !== null).length;
			}

			expect(short).toBeGreaterThan(0);
		});

		it('answers 404 in the API\'s shape for an unknown or malformed account', async () => {
			expectError('account', await get(`${sandbox.accountUrl}/v2/accounts/00000000-0000-4000-8000-000000000000/${list}`, authHeaders(sandbox, 'account')), 404, ['account'], 'not_found');
			expectError('account', await get(`${sandbox.accountUrl}/v2/accounts/%ZZ/${list}`, authHeaders(sandbox, 'account')), 404, [], 'not_found');
		});
	});

	it('a path that is no list is a 404 naming every list', async () => {
		const [account] = sandbox.store.ids('accounts');
		const reply = await get(`${sandbox.accountUrl}/v2/accounts/${account}/deposits`, authHeaders(sandbox, 'account'));
		expectError('account', reply, 404, ['/v2/accounts,', '/v2/accounts/:id/transactions', '/v2/accounts/:id/addresses'], 'not_found');
	});

	it('addresses carry the real API\'s fields, under their account', async () => {
		const accounts = sandbox.store.ids('accounts');
		const account = accounts.find((id) => (sandbox.store.addressIds(id)?.length ?? 0) > 0)!;
		const reply = await get(`${sandbox.accountUrl}/v2/accounts/${account}/addresses?limit=100`, authHeaders(sandbox, 'account'));
		expect(reply.status).toBe(200);
		expectSorted(reply.body.data, 'desc');
		for (const object of reply.body.data) {
			expect(Object.keys(object)).toEqual(['id', 'address', 'name', 'network', 'created_at', 'updated_at', 'resource', 'resource_path']);
			expect(object).toMatchObject({resource: 'address', resource_path: `/v2/accounts/${account}/addresses/${object.id}`});
			expect(typeof object.address).toBe('string');
			expect(['bitcoin', 'ethereum', 'solana', 'litecoin', 'dogecoin']).toContain(object.network);
			expect(object.name === null || typeof object.name === 'string').toBe(true);
		}
	});

	it('objects carry the documented account fields', async () => {
		const reply = await get(listUrl(sandbox, 'account', 'limit=100'), authHeaders(sandbox, 'account'));
		for (const object of reply.body.data) {
			expect(object).toMatchObject({resource: 'account', resource_path: `/v2/accounts/${object.id}`});
			expect(object.balance.amount).toMatch(/^\d+\.\d+$/);
			expect(['wallet', 'fiat', 'vault']).toContain(object.type);
			expect(object.id).toMatch(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/);
		}
	});
});

describe('commerce API specifics', () => {
	it('lists charges with absolute links on the commerce origin', async () => {
		const pages = await walk(sandbox, 'commerce', {path: '/charges', query: 'limit=50&order=asc'});
		expect(pages.flatMap((page) => page.ids)).toEqual(sandbox.store.ids('charges', {order: 'asc'}));
		expect(pages[0]!.pagination.next_uri.startsWith(`${sandbox.commerceUrl}/charges?limit=50&order=asc&starting_after=`)).toBe(true);
	});

	it('account and commerce have different origins', () => {
		expect(new URL(sandbox.accountUrl).origin).not.toBe(new URL(sandbox.commerceUrl).origin);
		expect(sandbox.accountUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	});
});
