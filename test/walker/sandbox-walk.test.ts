/**
 * The walker against the sandbox: whole walks in both orders on both APIs,
 * the restricted credential's short and empty pages, churn during a walk,
 * bounds, aborts, and what a Page reports.
 */
import {afterEach, beforeEach, describe, expect, test} from 'vitest';
import {createClient} from '../../source/http/http-client.js';
import {resolveConfig, type WalkFlagValues} from '../../source/config/options.js';
import type {Page, WalkEnd} from '../../source/contract/types.js';
import {walk} from '../../source/http/walker.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';

let sandbox: Sandbox;

// A fresh sandbox per test: the churn test inserts and removes objects.
beforeEach(async () => {
	sandbox = await startSandbox({port: 0, records: 230});
});

afterEach(async () => {
	await sandbox.close();
});

type Viewer = 'full' | 'restricted';

async function configFor(endpoint: 'accounts' | 'checkouts' | 'charges', viewer: Viewer, flags: WalkFlagValues = {}) {
	return resolveConfig({
		input: [endpoint],
		flags: {baseUrl: sandbox.accountUrl, commerceUrl: sandbox.commerceUrl, ...flags},
		env: {
			COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer],
			COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce[viewer],
		},
	});
}

async function collect(endpoint: 'accounts' | 'checkouts' | 'charges', viewer: Viewer, flags: WalkFlagValues = {}, onPage?: (page: Page) => void) {
	const config = await configFor(endpoint, viewer, flags);
	const client = createClient(config);
	const pages: Page[] = [];
	const walker = walk(client, config);
	let end: WalkEnd;
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const step = await walker.next();
			if (step.done) {
				end = step.value;
				break;
			}

			pages.push(step.value);
			onPage?.(step.value);
		}
	} finally {
		await client.close();
	}

	return {pages, end, ids: pages.flatMap(page => page.objects.map(object => object.id))};
}

describe('whole walks', () => {
	for (const endpoint of ['accounts', 'checkouts'] as const) {
		for (const order of ['desc', 'asc'] as const) {
			test(`${endpoint} ${order}: every object once, in list order, ending on an empty next_uri`, async () => {
				const {ids, end, pages} = await collect(endpoint, 'full', {order, limit: '50'});
				expect(end).toEqual({kind: 'end'});
				expect(ids).toEqual(sandbox.store.ids(endpoint, {order}));
				expect(pages).toHaveLength(5);
				expect(pages.at(-1)!.nextUrl).toBeNull();
				expect(pages.every(page => page.pagination.order === order && page.pagination.limit === 50)).toBe(true);
			});
		}
	}

	test('without --limit the server default of 25 applies', async () => {
		const {pages, ids} = await collect('charges', 'full');
		expect(pages[0]!.objects).toHaveLength(25);
		expect(ids).toEqual(sandbox.store.ids('charges'));
	});
});

describe('restricted credential: short pages that continue', () => {
	for (const endpoint of ['accounts', 'checkouts'] as const) {
		test(`${endpoint}: short and empty pages with a next_uri are followed to the real end`, async () => {
			const {ids, pages, end} = await collect(endpoint, 'restricted', {limit: '10'});
			expect(end).toEqual({kind: 'end'});
			expect(ids).toEqual(sandbox.store.ids(endpoint, {viewer: 'restricted'}));
			const short = pages.filter(page => page.nextUrl !== null && page.objects.length < 10);
			expect(short.length).toBeGreaterThan(0);
			expect(ids.length).toBeLessThan(sandbox.store.count(endpoint));
		});
	}
});

describe('churn during the walk', () => {
	test('inserts and removals while walking desc: no duplicates, nothing that stayed is skipped', async () => {
		const before = new Set(sandbox.store.ids('checkouts'));
		const removed = new Set<string>();
		const inserted: string[] = [];
		let pageCount = 0;
		const {ids, end} = await collect('checkouts', 'full', {limit: '20'}, page => {
			pageCount += 1;
			// Newest objects appear (behind us in desc order), and objects ahead of us vanish.
			inserted.push(sandbox.store.insert('checkouts'));
			const list = sandbox.store.ids('checkouts');
			const ahead = list.slice(list.indexOf(page.objects.at(-1)!.id) + 1);
			const victim = ahead[pageCount % 7];
			if (victim !== undefined && sandbox.store.remove('checkouts', victim)) {
				removed.add(victim);
			}
		});
		const seen = new Set(ids);
		expect(end).toEqual({kind: 'end'});
		expect(seen.size).toBe(ids.length);
		for (const id of before) {
			if (!removed.has(id)) {
				expect(seen.has(id)).toBe(true);
			}
		}

		for (const id of removed) {
			expect(seen.has(id)).toBe(false);
		}

		expect(removed.size).toBeGreaterThan(5);
		expect(inserted.some(id => seen.has(id))).toBe(false);

		for (const id of inserted) {
			sandbox.store.remove('checkouts', id);
		}
	});
});

describe('bounds, aborts and page details', () => {
	test('--max-pages and --max-items end the walk and say so', async () => {
		expect((await collect('accounts', 'full', {limit: '10', maxPages: '3'})).end).toEqual({kind: 'max-pages', limit: 3});
		const items = await collect('accounts', 'full', {limit: '10', maxItems: '25'});
		expect(items.end).toEqual({kind: 'max-items', limit: 25});
		expect(items.pages).toHaveLength(3);
		// A bound at the very end of the list is still the end.
		expect((await collect('accounts', 'full', {limit: '100', maxPages: '3'})).end).toEqual({kind: 'end'});
	});

	test('an aborted signal rejects the pending page with the abort reason', async () => {
		const config = await configFor('accounts', 'full', {limit: '100'});
		const client = createClient(config);
		const controller = new AbortController();
		const walker = walk(client, config, {signal: controller.signal});
		await walker.next();
		const pending = walker.next();
		controller.abort(new Error('newer navigation'));
		await expect(pending).rejects.toThrow('newer navigation');
		await client.close();
	});

	test('a page reports its request with the credential redacted', async () => {
		const {pages} = await collect('checkouts', 'full', {limit: '5', maxPages: '2'});
		const [first, second] = pages as [Page, Page];
		expect(first.api).toBe('commerce');
		expect(first.status).toBe(200);
		expect(first.requestUrl).toBe(`${sandbox.commerceUrl}/checkouts?limit=5`);
		expect(first.requestHeaders['X-CC-Api-Key']).toBe('[redacted]');
		expect(JSON.stringify(pages)).not.toContain(sandbox.credentials.commerce.full);
		expect(first.bytes).toBeGreaterThan(100);
		expect(first.retries).toBe(0);
		expect(first.ms).toBeGreaterThanOrEqual(0);
		expect(second.requestUrl).toBe(first.nextUrl);
		expect(second.previousUrl).not.toBeNull();
		expect(first.pagination).toMatchObject({limit: 5, yielded: 5});
	});

	test('keepBytes: each page holds its body bytes and every object\'s place in them (the dump copies those)', async () => {
		const config = await configFor('accounts', 'full', {limit: '100'});
		const client = createClient(config, {keepBytes: true});
		let objects = 0;
		let nonAscii = 0;
		try {
			for await (const page of walk(client, config)) {
				const {body, offsets} = page.objectBytes!;
				for (const [index, text] of page.objectTexts!.entries()) {
					expect(offsets[index * 2]).toBeGreaterThanOrEqual(0);
					expect(Buffer.from(body.subarray(offsets[index * 2], offsets[(index * 2) + 1])).toString()).toBe(text);
					objects++;
					nonAscii += Buffer.byteLength(text) > text.length ? 1 : 0;
				}
			}
		} finally {
			await client.close();
		}

		expect(objects).toBe(230);
		// The sandbox's names hold characters of two, three and four bytes.
		expect(nonAscii).toBeGreaterThan(0);
		// Without keepBytes (the browser) no page holds its bytes.
		const {pages} = await collect('accounts', 'full', {limit: '100'});
		expect(pages.some(page => page.objectBytes !== undefined)).toBe(false);
	});

	test('urlFor starts a new walk in another setting; resolveLink follows the API rules', async () => {
		const config = await configFor('accounts', 'full');
		const client = createClient(config);
		expect(client.urlFor({order: 'asc', limit: 7})).toBe(`${sandbox.accountUrl}/v2/accounts?limit=7&order=asc`);
		expect(client.resolveLink('/v2/accounts?&limit=2')).toBe(`${sandbox.accountUrl}/v2/accounts?limit=2`);
		expect(client.resolveLink(null)).toBeNull();
		await expect(client.fetchPage('https://evil.example/v2/accounts')).rejects.toThrow(/points to https:\/\/evil\.example/);
		await client.close();
	});
});
