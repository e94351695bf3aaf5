/**
 * docs/contract.md#consistent-under-change as a property: objects inserted (anywhere, ties included) and removed
 * between the pages of a walk never make it repeat or skip an object that
 * existed throughout, in either order, forward or backward, for both viewers.
 */
import fc from 'fast-check';
import {expect, it} from 'vitest';
import {startSandbox, type CollectionName, type Sandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl, resolve, type Api} from './helpers.js';

type Operation =
	| {kind: 'insert'; where: number; offset: number; newest: boolean; hidden: boolean}
	| {kind: 'remove'; where: number}
	// Removes the walk's cursor object or a neighbour: where consistency under change is easiest to break.
	| {kind: 'removeNearCursor'; offset: number};

const operation: fc.Arbitrary<Operation> = fc.oneof(
	fc.record({
		kind: fc.constant('insert' as const),
		where: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}),
		// 0 makes a created_at tie with an existing object, so the id tie-break is exercised.
		offset: fc.oneof(fc.constant(0), fc.integer({min: -86_400_000, max: 86_400_000})),
		newest: fc.boolean(),
		hidden: fc.boolean(),
	}),
	fc.record({kind: fc.constant('remove' as const), where: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true})}),
	fc.record({kind: fc.constant('removeNearCursor' as const), offset: fc.integer({min: -2, max: 2})}),
);

function apply(sandbox: Sandbox, name: CollectionName, operations: Operation[], removed: Set<string>, url: string): void {
	const {searchParams} = new URL(url);
	const cursor = searchParams.get('starting_after') ?? searchParams.get('ending_before');
	for (const op of operations) {
		const live = sandbox.store.ids(name);
		if (op.kind === 'removeNearCursor') {
			const at = cursor === null ? -1 : live.indexOf(cursor);
			const id = at === -1 ? cursor : live[at + op.offset];
			if (id !== null && id !== undefined && sandbox.store.remove(name, id)) {
				removed.add(id);
			}
		} else if (op.kind === 'remove') {
			if (live.length > 0) {
				const id = live[Math.floor(op.where * live.length)]!;
				sandbox.store.remove(name, id);
				removed.add(id);
			}
		} else if (op.newest || live.length === 0) {
			sandbox.store.insert(name, {hidden: op.hidden});
		} else {
			const near = sandbox.store.get(name, live[Math.floor(op.where * live.length)]!)!;
			sandbox.store.insert(name, {createdAt: Date.parse(near.created_at as string) + op.offset, hidden: op.hidden});
		}
	}
}

function key(object: {id: string; created_at: string}): [number, string] {
	return [Date.parse(object.created_at), object.id];
}

function before(a: [number, string], b: [number, string]): boolean {
	return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

it('consistent under change: no object present throughout a walk is repeated or skipped', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.record({
				records: fc.integer({min: 0, max: 70}),
				seed: fc.integer({min: 1, max: 10_000}),
				limit: fc.integer({min: 2, max: 12}),
				order: fc.constantFrom('asc' as const, 'desc' as const),
				api: fc.constantFrom<Api>('account', 'commerce'),
				viewer: fc.constantFrom('full' as const, 'restricted' as const),
				backward: fc.boolean(),
				changes: fc.array(fc.array(operation, {maxLength: 5}), {maxLength: 40}),
			}),
			async ({records, seed, limit, order, api, viewer, backward, changes}) => {
				const sandbox = await startSandbox({records, seed});
				try {
					const name: CollectionName = api === 'account' ? 'accounts' : 'checkouts';
					const headers = authHeaders(sandbox, api, viewer);
					let query = `limit=${limit}&order=${order}`;
					let present = sandbox.store.ids(name, {order, viewer});
					if (backward) {
						// Walk back from the last object of the whole list (it is excluded: the window is before it).
						const anchor = sandbox.store.ids(name, {order}).at(-1);
						if (anchor === undefined) {
							return;
						}

						query += `&ending_before=${anchor}`;
						present = present.filter((id) => id !== anchor);
					}

					const removed = new Set<string>();
					const pages: Array<Array<{id: string; created_at: string}>> = [];
					let url: string | null = listUrl(sandbox, api, query);
					for (let page = 0; url !== null; page++) {
						expect(page).toBeLessThan(1000);
						apply(sandbox, name, changes[page] ?? [], removed, url);
						// eslint-disable-next-line no-await-in-loop -- changes land between pages, so pages go one at a time
						const reply = await get(url, headers);
						expect(reply.status).toBe(200);
						pages.push(reply.body.data);
						const next: string | null = reply.body.pagination[backward ? 'previous_uri' : 'next_uri'];
						url = next === null ? null : resolve(sandbox, api, next);
					}

					// Pages of a backward walk arrive last-first; each is in the requested order.
					const seen = (backward ? pages.reverse() : pages).flat();
					const keys = seen.map((object) => key(object));
					for (let index = 1; index < keys.length; index++) {
						expect(order === 'asc' ? before(keys[index - 1]!, keys[index]!) : before(keys[index]!, keys[index - 1]!)).toBe(true);
					}

					const seenIds = seen.map((object) => object.id);
					expect(new Set(seenIds).size).toBe(seenIds.length);
					const seenSet = new Set(seenIds);
					for (const id of present) {
						if (!removed.has(id)) {
							expect(seenSet.has(id)).toBe(true);
						}
					}
				} finally {
					await sandbox.close();
				}
			},
		),
		{numRuns: 40},
	);
});
