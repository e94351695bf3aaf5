/** docs/contract.md#short-pages: a restricted credential gets short and empty pages, and the walk still reads to the end. */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl, walk, type Api} from './helpers.js';

let sandbox: Sandbox;

beforeAll(async () => {
	// The defaults: what the browser's demo opens.
	sandbox = await startSandbox();
});

afterAll(async () => {
	await sandbox.close();
});

describe.each(['account', 'commerce'] as Api[])('%s API, restricted credential', (api) => {
	const name = api === 'account' ? ('accounts' as const) : ('checkouts' as const);

	it('the default demo shows a short first page and an empty page within the first five', async () => {
		const pages = await walk(sandbox, api, {viewer: 'restricted', maxPages: 5});
		const sizes = pages.slice(0, 5).map((page) => page.ids.length);
		expect(sizes[0]).toBeGreaterThan(0);
		expect(sizes[0]).toBeLessThan(25);
		expect(sizes).toContain(0);
	});

	it.each(['desc', 'asc'] as const)('a walk in %s order sees exactly the visible objects, once each, and ends only on a null next_uri', async (order) => {
		const pages = await walk(sandbox, api, {viewer: 'restricted', query: `order=${order}`});
		const seen = pages.flatMap((page) => page.ids);
		expect(seen).toEqual(sandbox.store.ids(name, {order, viewer: 'restricted'}));
		expect(new Set(seen).size).toBe(seen.length);
		const hidden = new Set(sandbox.store.hiddenIds(name));
		expect(hidden.size).toBeGreaterThan(0);
		expect(seen.some((id) => hidden.has(id))).toBe(false);
		expect(pages.some((page) => page.ids.length === 0)).toBe(true);
		expect(pages.filter((page) => page.ids.length < 25).length).toBeGreaterThan(2);
		for (const page of pages.slice(0, -1)) {
			expect(page.pagination.next_uri).not.toBeNull();
		}

		// Same number of pages as the full walk: the window is the same, only hidden objects drop.
		const full = await walk(sandbox, api, {query: `order=${order}`});
		expect(pages).toHaveLength(full.length);
		if (api === 'commerce') {
			for (const page of pages) {
				expect(page.pagination.total).toBe(sandbox.store.count(name, 'restricted'));
				expect(page.pagination.yielded).toBe(page.ids.length);
				expect(page.pagination.cursor_range).toEqual(page.ids.length === 0 ? [] : [page.ids[0], page.ids.at(-1)]);
			}
		}
	});

	it('hidden objects come in uneven clumps, some longer than a page', () => {
		const hidden = new Set(sandbox.store.hiddenIds(name));
		const runs: number[] = [];
		let run = 0;
		for (const id of sandbox.store.ids(name)) {
			if (hidden.has(id)) {
				run++;
			} else if (run > 0) {
				runs.push(run);
				run = 0;
			}
		}

		expect(Math.max(...runs)).toBeGreaterThan(25);
		expect(new Set(runs).size).toBeGreaterThan(4);
	});

	it('a hidden object from a window is a valid cursor for the restricted caller', async () => {
		const [hiddenId] = sandbox.store.hiddenIds(name);
		const reply = await get(listUrl(sandbox, api, `starting_after=${hiddenId}`), authHeaders(sandbox, api, 'restricted'));
		expect(reply.status).toBe(200);
	});
});

it.each(['transactions', 'addresses'])('a restricted caller cannot list the %s of an account hidden from it', async (list) => {
	const [hiddenAccount] = sandbox.store.hiddenIds('accounts');
	const reply = await get(`${sandbox.accountUrl}/v2/accounts/${hiddenAccount}/${list}`, authHeaders(sandbox, 'account', 'restricted'));
	expect(reply.status).toBe(404);
	const full = await get(`${sandbox.accountUrl}/v2/accounts/${hiddenAccount}/${list}`, authHeaders(sandbox, 'account'));
	expect(full.status).toBe(200);
});

it('a restricted caller sees the addresses of a visible account in part, hidden ones in clumps', async () => {
	const accounts = sandbox.store.ids('accounts', {viewer: 'restricted'});
	const account = accounts.find((id) => (sandbox.store.hiddenAddressIds(id)?.length ?? 0) > 0)!;
	const reply = await get(`${sandbox.accountUrl}/v2/accounts/${account}/addresses?limit=100`, authHeaders(sandbox, 'account', 'restricted'));
	const hidden = new Set(sandbox.store.hiddenAddressIds(account));
	const seen = (reply.body.data as Array<{id: string}>).map((object) => object.id);
	expect(seen.some((id) => hidden.has(id))).toBe(false);
	expect(seen.length).toBe(sandbox.store.addressIds(account)!.length - hidden.size);
});

it('credentials are deterministic from the seed and obviously fake', async () => {
	const other = await startSandbox({records: 5, seed: 1});
	const different = await startSandbox({records: 5, seed: 2});
	try {
		expect(other.credentials).toEqual(sandbox.credentials);
		expect(different.credentials.account.full).not.toBe(sandbox.credentials.account.full);
		expect(sandbox.credentials.account.full).toMatch(/^sbx-acct-full-[\da-f]{8}$/);
		expect(sandbox.credentials.commerce.restricted).toMatch(/^sbx-comm-rstr-[\da-f]{8}$/);
		const again = await startSandbox({records: 5, seed: 1});
		expect(again.store.ids('accounts')).toEqual(other.store.ids('accounts'));
		expect(different.store.ids('accounts')).not.toEqual(other.store.ids('accounts'));
		await again.close();
	} finally {
		await Promise.all([other.close(), different.close()]);
	}
});
