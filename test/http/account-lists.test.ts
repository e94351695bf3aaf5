/**
 * The walk of every account's lists (http/account-lists.ts) as a core, with
 * steps given to it (StepsOf) rather than read from a server: the moments
 * a server cannot be made to hit on purpose. A walk closed by its reader
 * while the list in front has a page coming lets that list go instead of
 * waiting for ever for the page to be taken; lists that finish in any
 * order come out in the accounts' order.
 */
import {describe, expect, it} from 'vitest';
import {resolveConfig} from '../../source/config/options.js';
import type {Page, WalkEnd} from '../../source/contract/types.js';
import type {EndsStep} from '../../source/http/both-ends.js';
import {createClient} from '../../source/http/http-client.js';
import {walkAccountLists, type ListsItem, type StepsOf} from '../../source/http/every-account/account-lists.js';
import {patience} from '../support/patience.js';

const config = resolveConfig({input: ['transactions'], flags: {baseUrl: 'http://127.0.0.1:1'}, env: {COINBASE_ACCESS_TOKEN: 'token'}, everyAccount: true});

function page(ids: string[]): Page {
	return {objects: ids.map(id => ({id})), nextUrl: null, pagination: {limit: 25, order: 'desc'}, warnings: []} as unknown as Page;
}

const forward = (ids: string[]): EndsStep => ({chain: 'forward', page: page(ids), take: ids.length});

/** Settles with `promise`, or fails once patience runs out: a guard against a hang. */
async function settles<T>(promise: Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			reject(new Error('did not settle'));
		}, patience);
	});
	try {
		return await Promise.race([promise, hang]);
	} finally {
		clearTimeout(timer);
	}
}

/** The ids of a list's objects, as the walk hands them on. */
function ids(item: ListsItem): string[] {
	if (item.kind !== 'data') {
		return [];
	}

	const {step} = item;
	return (step.chain === 'forward' ? step.page.objects.slice(0, step.take) : step.objects).map(object => object.id);
}

describe('walkAccountLists', () => {
	it('closed by its reader while the list in front has a page coming: that list is let go, nothing waits for ever', async () => {
		let next!: () => void;
		const coming = new Promise<void>(resolve => {
			next = resolve;
		});
		const steps: StepsOf = async function * (_client, _query, _signal, list): AsyncGenerator<EndsStep, WalkEnd> {
			if (list === undefined) {
				yield forward(['a']);
				return {kind: 'end'};
			}

			yield forward(['t1']);
			// A page that arrives only once the walk is closing (a step read as it closes), whatever the signal says.
			await coming;
			yield forward(['t2']);
			return {kind: 'end'};
		};

		const client = createClient(config);
		const items = walkAccountLists({client, config, each: 'transactions', concurrency: 2, steps});
		const first = await items.next();
		expect(first.done === false && ids(first.value)).toEqual(['t1']);
		const closing = items.return({kind: 'end'});
		next();
		await settles(closing);
		await client.close();
	});

	it('closed by its reader on a page of the list in front handed on as it came (--max-items, a closed pipe): that list is let go', async () => {
		let open!: () => void;
		const gate = new Promise<void>(resolve => {
			open = resolve;
		});
		const steps: StepsOf = async function * (_client, _query, _signal, list): AsyncGenerator<EndsStep, WalkEnd> {
			if (list === undefined) {
				yield forward(['a']);
				return {kind: 'end'};
			}

			// The first page comes once the list is in front: handed on as it comes, not read back from the spool.
			await gate;
			yield forward(['t1']);
			yield forward(['t2']);
			return {kind: 'end'};
		};

		const client = createClient(config);
		const items = walkAccountLists({client, config, each: 'transactions', concurrency: 2, steps});
		const asked = items.next();
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		open();
		const first = await asked;
		expect(first.done === false && ids(first.value)).toEqual(['t1']);
		await settles(items.return({kind: 'end'}));
		await client.close();
	});

	it('lists that finish in any order come out in the accounts\' order, each whole, then its end', async () => {
		const accounts = ['a', 'b', 'c', 'd', 'e', 'f'];
		// Each list's pages are let go in an order of the test's: the last accounts' lists finish first.
		const gates = new Map(accounts.map(account => {
			let open!: () => void;
			const gate = new Promise<void>(resolve => {
				open = resolve;
			});
			return [account, {gate, open}];
		}));
		const steps: StepsOf = async function * (_client, _query, _signal, list): AsyncGenerator<EndsStep, WalkEnd> {
			if (list === undefined) {
				yield forward(accounts);
				return {kind: 'end'};
			}

			yield forward([`${list.account}1`]);
			await gates.get(list.account)!.gate;
			yield forward([`${list.account}2`, `${list.account}3`]);
			return {kind: 'end'};
		};

		const client = createClient(config);
		const walked: string[] = [];
		const done: string[] = [];
		const items = walkAccountLists({client, config, each: 'transactions', concurrency: 6, steps, onStart(list) {
			// Every list is running: open the gates last first.
			if (list.index === accounts.length - 1) {
				for (const account of [...accounts].reverse()) {
					gates.get(account)!.open();
				}
			}
		}});
		for await (const item of items) {
			walked.push(...ids(item));
			if (item.kind === 'done') {
				done.push(item.list.account);
			}
		}

		expect(walked).toEqual(accounts.flatMap(account => [`${account}1`, `${account}2`, `${account}3`]));
		expect(done).toEqual(accounts);
		await client.close();
	});
});
