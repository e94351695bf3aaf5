/**
 * Every account's transactions, walked as a whole-account export walks them:
 * with the one walker, over the wire, in both orders, by both credentials,
 * against the sandbox on 127.0.0.1:0. The sandbox's shapes (empty lists, lists
 * of a few pages, a long tail), the restricted credential's part of each list
 * (short and empty pages across the whole account), churn while a list is
 * walked, and the accounts' lists held in memory: bounded, and built again
 * the same from the seed.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {resolveConfig} from '../../source/config/options.js';
import type {ListObject, Order, Page, WalkEnd} from '../../source/contract/types.js';
import {walkBothEnds} from '../../source/http/both-ends.js';
import {createClient, type PageClient} from '../../source/http/http-client.js';
import {walk, type PageSource} from '../../source/http/walker.js';
import {startChurn} from '../../source/sandbox/data/churn.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {Lists} from '../../source/sandbox/data/store.js';
import {patience, pollUntil} from '../support/patience.js';

type Viewer = 'full' | 'restricted';
type Walked = {ids: string[]; objects: ListObject[]; pages: Page[]; end: WalkEnd};

function clientFor(sandbox: Sandbox, viewer: Viewer, order: Order, limit: number): PageClient {
	const config = resolveConfig({
		input: ['accounts'],
		flags: {baseUrl: sandbox.accountUrl, limit: String(limit), order},
		env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer]},
	});
	return createClient(config, {sequential: true});
}

/** One account's transactions from its first page to the end, through the walker. */
async function walkTransactions(client: PageSource, sandbox: Sandbox, account: string, order: Order, limit: number): Promise<Walked> {
	const pages: Page[] = [];
	const walker = walk(client, {maxPages: null, maxItems: null}, {startUrl: `${sandbox.accountUrl}/v2/accounts/${account}/transactions?limit=${limit}&order=${order}`});
	for (;;) {
		// eslint-disable-next-line no-await-in-loop -- each page follows the link the one before gave
		const step = await walker.next();
		if (step.done) {
			const objects = pages.flatMap(page => page.objects);
			return {ids: objects.map(object => object.id), objects, pages, end: step.value};
		}

		pages.push(step.value);
	}
}

const unique = (ids: readonly string[]) => new Set(ids).size === ids.length;

describe('the default sandbox: every account\'s transactions', () => {
	let sandbox: Sandbox;
	const walked: Record<Viewer, Record<Order, Map<string, Walked | Error>>> = {full: {asc: new Map(), desc: new Map()}, restricted: {asc: new Map(), desc: new Map()}};

	beforeAll(async () => {
		sandbox = await startSandbox({});
		const accounts = sandbox.store.ids('accounts');
		for (const viewer of ['full', 'restricted'] as const) {
			for (const order of ['desc', 'asc'] as const) {
				const client = clientFor(sandbox, viewer, order, 100);
				try {
					for (const account of accounts) {
						// eslint-disable-next-line no-await-in-loop -- one list after another, as a sequential loop walks them
						walked[viewer][order].set(account, await walkTransactions(client, sandbox, account, order, 100).catch((error: unknown) => error as Error));
					}
				} finally {
					// eslint-disable-next-line no-await-in-loop -- each client closed before the next starts
					await client.close();
				}
			}
		}
	}, 120_000);

	afterAll(async () => {
		await sandbox.close();
	});

	it('has real shapes: some accounts with none, most with a few pages, a few with thousands', () => {
		const counts = sandbox.store.ids('accounts').map(account => sandbox.store.transactionIds(account)!.length);
		expect(counts).toHaveLength(300);
		expect(counts.filter(count => count === 0).length).toBeGreaterThan(10);
		// A few pages of 25 at most, for most accounts.
		expect(counts.filter(count => count > 0 && count <= 200).length).toBeGreaterThan(counts.length * 0.8);
		const long = counts.filter(count => count >= 1000);
		expect(long.length).toBeGreaterThanOrEqual(3);
		expect(long.length).toBeLessThan(counts.length * 0.05);
		expect(Math.max(...counts)).toBeLessThanOrEqual(5000);
		expect(Math.max(...counts)).toBeGreaterThan(4000);
	});

	it.each(['desc', 'asc'] as const)('full, %s: each list whole, once, in list order, ending on an empty next_uri; every object names its account', order => {
		const all: string[] = [];
		for (const [account, result] of walked.full[order]) {
			expect(result).not.toBeInstanceOf(Error);
			const {ids, objects, end} = result as Walked;
			expect(end).toEqual({kind: 'end'});
			expect(ids).toEqual(sandbox.store.transactionIds(account, {order}));
			for (const object of objects) {
				expect(object['resource_path']).toBe(`/v2/accounts/${account}/transactions/${object.id}`);
			}

			all.push(...ids);
		}

		// Across the whole account, too: no object twice.
		expect(all.length).toBeGreaterThan(40_000);
		expect(unique(all)).toBe(true);
	});

	it.each(['full', 'restricted'] as const)('%s: each account\'s asc walk is its desc walk reversed', viewer => {
		let compared = 0;
		for (const [account, desc] of walked[viewer].desc) {
			const asc = walked[viewer].asc.get(account)!;
			if (desc instanceof Error) {
				expect(asc).toBeInstanceOf(Error);
				continue;
			}

			expect((asc as Walked).ids).toEqual(desc.ids.toReversed());
			compared += desc.ids.length;
		}

		expect(compared).toBeGreaterThan(0);
	});

	it('restricted: some accounts only (404 for the others), and in each only its visible part, in order, with short and empty pages that lead on', () => {
		const hiddenAccounts = new Set(sandbox.store.hiddenIds('accounts'));
		expect(hiddenAccounts.size).toBeGreaterThan(0);
		let shortPages = 0;
		let emptyPagesLeadingOn = 0;
		let nothingVisible = 0;
		let seen = 0;
		for (const order of ['desc', 'asc'] as const) {
			for (const [account, result] of walked.restricted[order]) {
				if (hiddenAccounts.has(account)) {
					expect(result).toBeInstanceOf(Error);
					expect((result as Error).message).toContain('404');
					continue;
				}

				expect(result).not.toBeInstanceOf(Error);
				const {ids, pages, end} = result as Walked;
				expect(end).toEqual({kind: 'end'});
				const hidden = new Set(sandbox.store.hiddenTransactionIds(account));
				expect(ids).toEqual(sandbox.store.transactionIds(account, {order})!.filter(id => !hidden.has(id)));
				shortPages += pages.filter(page => page.objects.length < 100 && page.nextUrl !== null).length;
				emptyPagesLeadingOn += pages.filter(page => page.objects.length === 0 && page.nextUrl !== null).length;
				if (ids.length === 0 && pages.length > 1) {
					nothingVisible++;
				}

				seen += ids.length;
			}
		}

		expect(shortPages).toBeGreaterThan(50);
		expect(emptyPagesLeadingOn).toBeGreaterThan(0);
		// An account the credential sees but none of whose transactions: every page empty, to the end.
		expect(nothingVisible).toBeGreaterThan(0);
		let full = 0;
		for (const walkedList of walked.full.desc.values()) {
			full += (walkedList as Walked).ids.length;
		}

		expect(seen / 2).toBeLessThan(full * 0.6);
		expect(seen).toBeGreaterThan(0);
	});

	it.each([['full', 'desc'], ['full', 'asc'], ['restricted', 'desc'], ['restricted', 'asc']] as const)('the longest list, %s, %s, walked from both ends: what one chain gives', async (viewer, order) => {
		const [longest] = sandbox.store.ids('accounts', {viewer}).map(account => ({account, count: sandbox.store.transactionIds(account)!.length})).sort((a, b) => b.count - a.count);
		expect(longest!.count).toBeGreaterThan(1000);
		const config = resolveConfig({
			input: [`/v2/accounts/${longest!.account}/transactions`],
			flags: {baseUrl: sandbox.accountUrl, limit: '50', order},
			env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer]},
		});
		const client = createClient(config, {sequential: true, lanes: 2});
		const ids: string[] = [];
		let backPages = 0;
		try {
			for await (const step of walkBothEnds(client, config.query, {order, quickMs: 0})) {
				if (step.chain === 'replay') {
					ids.push(...step.objects.map(object => object.id));
				} else {
					backPages += step.chain === 'back' ? 1 : 0;
					if (step.chain === 'forward') {
						ids.push(...step.page.objects.slice(0, step.take).map(object => object.id));
					}
				}
			}
		} finally {
			await client.close();
		}

		expect(backPages).toBeGreaterThan(5);
		expect(ids).toEqual((walked[viewer][order].get(longest!.account) as Walked).ids);
	});
});

describe('churn while an account\'s transactions are walked', () => {
	class AccountRemoved extends Error {}

	/**
	 * Walks one account's transactions while churn changes them: before each page but the
	 * first, waits until churn has changed the list, so churn lands inside the walk however
	 * fast or slow the machine is. Churn may remove the account itself (then AccountRemoved).
	 */
	async function walkUnderChurn(sandbox: Sandbox, client: PageClient, account: string, viewer: Viewer, order: Order) {
		const idsNow = () => {
			const ids = sandbox.store.transactionIds(account, {order});
			if (ids === undefined) {
				throw new AccountRemoved();
			}

			const hidden = new Set(sandbox.store.hiddenTransactionIds(account));
			return ids.filter(id => viewer === 'full' || !hidden.has(id));
		};

		const start = idsNow();
		const ever = new Set(start);
		let before: string | undefined;
		const changing: PageSource = {
			firstUrl: client.firstUrl,
			async fetchPage(url, options) {
				if (before !== undefined) {
					const last = before;
					await pollUntil(() => idsNow().join() !== last, () => `churn changed nothing in this account's transactions within ${patience} ms`, 2);
				}

				before = idsNow().join();
				for (const id of idsNow()) {
					ever.add(id);
				}

				return client.fetchPage(url, options);
			},
		};
		const pages: Page[] = [];
		const walker = walk(changing, {maxPages: 60, maxItems: null}, {startUrl: `${sandbox.accountUrl}/v2/accounts/${account}/transactions?limit=10&order=${order}`});
		for await (const page of walker) {
			pages.push(page);
			const met = new Set(pages.flatMap(each => each.objects.map(object => object.id)));
			const live = new Set(idsNow());
			// Past the objects there at the start, an ascending walk only chases churn's inserts.
			if (start.every(id => met.has(id) || !live.has(id))) {
				break;
			}
		}

		return {start, ever, end: idsNow(), objects: pages.flatMap(page => page.objects)};
	}

	it.each([['full', 'desc'], ['restricted', 'asc']] as const)('%s %s: no object twice, in order, every object there throughout; the list did change', async (viewer, order) => {
		const sandbox = await startSandbox({records: 2000, seed: 9, churn: 400});
		const client = clientFor(sandbox, viewer, order, 10);
		try {
			// Churn changes the transactions lists held (being walked), so only a few are looked at.
			const candidates: string[] = [];
			for (const id of sandbox.store.ids('accounts', {viewer})) {
				const count = sandbox.store.transactionIds(id)?.length ?? 0;
				if (count > 60 && count < 200 && candidates.push(id) === 5) {
					break;
				}
			}

			let result: Awaited<ReturnType<typeof walkUnderChurn>> | undefined;
			// Churn removes an account now and then; then the walk of another one.
			for (const account of candidates) {
				// eslint-disable-next-line no-await-in-loop -- one attempt after another
				result = await walkUnderChurn(sandbox, client, account, viewer, order).catch((error: unknown) => {
					if (error instanceof AccountRemoved || (error instanceof Error && error.message.includes('404'))) {
						return undefined;
					}

					throw error;
				});
				if (result) {
					break;
				}
			}

			const {start, ever, end, objects} = result!;
			const ids = objects.map(object => object.id);
			expect(ids.length).toBeGreaterThan(0);
			expect(unique(ids)).toBe(true);
			const times = objects.map(object => Date.parse(String(object['created_at'])));
			for (let index = 1; index < times.length; index++) {
				expect(order === 'asc' ? times[index]! >= times[index - 1]! : times[index]! <= times[index - 1]!).toBe(true);
			}

			expect(new Set(end)).not.toEqual(new Set(start));
			const seen = new Set(ids);
			for (const id of start) {
				if (end.includes(id)) {
					expect(seen.has(id)).toBe(true);
				}
			}

			for (const id of ids) {
				expect(ever.has(id)).toBe(true);
			}
		} finally {
			await client.close();
			await sandbox.close();
		}
	});

	it('an account removed while its transactions are walked answers 404 from then on', async () => {
		const sandbox = await startSandbox({records: 20});
		try {
			const account = sandbox.store.ids('accounts').find(id => sandbox.store.transactionIds(id)!.length > 30)!;
			const headers = {authorization: `Bearer ${sandbox.credentials.account.full}`};
			const first = await fetch(`${sandbox.accountUrl}/v2/accounts/${account}/transactions?limit=10`, {headers});
			const {pagination} = (await first.json()) as {pagination: {next_uri: string}};
			expect(sandbox.store.remove('accounts', account)).toBe(true);
			const next = await fetch(`${sandbox.accountUrl}${pagination.next_uri}`, {headers});
			await next.text();
			expect(next.status).toBe(404);
		} finally {
			await sandbox.close();
		}
	});

	it('changes only the transactions lists being walked, and builds none', async () => {
		const lists = new Lists(9, 40);
		const [account] = lists.ids('accounts');
		const stop = startChurn(lists, 1000, 9);
		try {
			const collections = () => lists.ids('checkouts').join() + lists.ids('charges').join() + lists.ids('accounts').join();
			const before = collections();
			await pollUntil(() => collections() !== before, () => `churn changed none of the three lists within ${patience} ms`, 5);
			expect(lists.heldTransactionLists()).toHaveLength(0);
			// Churn has run and touched no transactions: the account's list, built now, is the one its seed makes.
			const start = lists.transactionIds(account!)!.join();
			expect(start).toBe(new Lists(9, 40).transactionIds(account!)!.join());
			await pollUntil(() => lists.transactionIds(account!)!.join() !== start, () => `churn never reached the transactions list now held within ${patience} ms`, 5);
			// The one list it changed is the one held, the account's: churn built no other.
			expect(lists.heldTransactionLists()).toEqual([lists.accountList('transactions', account!)]);
		} finally {
			stop();
		}
	});
});

describe('the accounts\' lists held in memory', () => {
	it('are bounded: untouched lists past the bound are dropped and built again the same; a list churn changed is kept', () => {
		const lists = new Lists(4, 60, undefined, {longTail: 5000, perAccount: 100}, 1000);
		const accounts = lists.ids('accounts');
		const first = lists.transactionIds(accounts[0]!, {order: 'asc'});
		const hidden = lists.hiddenTransactionIds(accounts[0]!);
		const changed = lists.accountList('transactions', accounts[1]!)!;
		lists.changeTransactions(changed, {insert: true});
		const changedIds = lists.transactionIds(accounts[1]!);
		for (const account of accounts) {
			expect(lists.transactionIds(account)).toHaveLength(account === accounts[1] ? 101 : 100);
		}

		// Ten lists of a hundred objects fit the bound of 1,000; the changed one is kept beside them.
		expect(lists.heldTransactionLists().length).toBeLessThanOrEqual(12);
		expect(lists.heldTransactionLists()).toContain(changed);
		expect(lists.transactionIds(accounts[0]!, {order: 'asc'})).toEqual(first);
		expect(lists.hiddenTransactionIds(accounts[0]!)).toEqual(hidden);
		expect(lists.transactionIds(accounts[1]!)).toEqual(changedIds);
	});

	it('the same seed gives the same shapes; another seed others', () => {
		const shape = (seed: number, longTail: number) => {
			const lists = new Lists(seed, 120, undefined, {longTail});
			return lists.ids('accounts').map(account => `${lists.transactionIds(account)!.length}/${lists.hiddenTransactionIds(account)!.length}`).join();
		};

		const usual = shape(3, 5000);
		expect(shape(3, 5000)).toBe(usual);
		expect(shape(4, 5000)).not.toBe(usual);
		// A longer tail changes the long lists only.
		const [short, long] = [usual.split(','), shape(3, 50_000).split(',')];
		const differ = short.flatMap((item, index) => (item === long[index] ? [] : [index]));
		expect(differ.length).toBeGreaterThan(0);
		expect(differ.length).toBeLessThan(short.length * 0.06);
		for (const index of differ) {
			expect(Number(long[index]!.split('/')[0])).toBeGreaterThanOrEqual(10_000);
		}
	});

	it('1,000 accounts with 1,000 transactions each: every list exactly that long, over the wire', async () => {
		const sandbox = await startSandbox({records: 1000, transactionsPerAccount: 1000});
		const client = clientFor(sandbox, 'full', 'desc', 100);
		try {
			const accounts = sandbox.store.ids('accounts');
			expect(accounts).toHaveLength(1000);
			for (const account of accounts.filter((_, index) => index % 100 === 7)) {
				// eslint-disable-next-line no-await-in-loop -- one list after another
				const {ids, end} = await walkTransactions(client, sandbox, account, 'desc', 100);
				expect(end).toEqual({kind: 'end'});
				expect(ids).toHaveLength(1000);
				expect(unique(ids)).toBe(true);
			}

			expect(accounts.every(account => sandbox.store.transactionIds(account)!.length === 1000)).toBe(true);
		} finally {
			await client.close();
			await sandbox.close();
		}
	});
});
