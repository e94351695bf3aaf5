/**
 * Removed objects under long churn: the last `keepRemoved` stay valid cursors
 * that keep their place; older ones are forgotten, so memory stays bounded,
 * and a cursor naming one gets a 400 that says why.
 */
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../source/sandbox/index.js';
import {Lists} from '../../source/sandbox/data/store.js';
import {authHeaders, get, listUrl} from './helpers.js';

function randomFrom(seed: number): () => number {
	let state = seed;
	return () => {
		state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
		return state / 2 ** 32;
	};
}

describe('tombstones', () => {
	it('a churn run of 40,000 changes keeps tombstones and index size bounded, and the list in order', () => {
		const lists = new Lists(3, 500, 200);
		const {index} = lists.collections.checkouts;
		const random = randomFrom(11);
		let most = 0;
		for (let change = 0; change < 40_000; change++) {
			if (random() < 0.5 || index.live === 0) {
				lists.insert('checkouts', {createdAt: Date.UTC(2024, 0, 1) + Math.floor(random() * 1e9)});
			} else {
				const ids = index.live < 50 ? lists.ids('checkouts') : undefined;
				const position = Math.floor(random() * index.length);
				let serial = index.serialAt(position);
				for (let step = 1; !index.isLiveSerial(serial); step++) {
					serial = index.serialAt((position + step) % index.length);
				}

				expect(lists.remove('checkouts', ids ? ids[0]! : index.idOf(serial))).toBe(true);
			}

			most = Math.max(most, index.tombstones);
		}

		// Never more than twice the kept number: forgetting runs in batches.
		expect(most).toBeLessThan(2 * 200);
		expect(index.forgotten).toBeGreaterThan(15_000);
		expect(index.length).toBe(index.live + index.tombstones);
		const ids = lists.ids('checkouts', {order: 'asc'});
		const times = ids.map(id => Date.parse(lists.get('checkouts', id)!.created_at as string));
		for (let at = 1; at < times.length; at++) {
			expect(times[at]!).toBeGreaterThanOrEqual(times[at - 1]!);
		}
	});

	it('recent removals stay cursors that keep their place; a forgotten one gets a 400 that says why', async () => {
		const sandbox = await startSandbox({records: 300, keepRemoved: 5});
		try {
			const order = sandbox.store.ids('checkouts');
			const headers = authHeaders(sandbox, 'commerce');
			const [oldest, ...others] = order.slice(10, 90);
			sandbox.store.remove('checkouts', oldest!);
			// 5 kept + a batch of 64: the 69th removal forgets all but the last 5.
			for (const id of others.slice(0, 69)) {
				sandbox.store.remove('checkouts', id);
			}

			const recent = others[68]!;
			const kept = await get(listUrl(sandbox, 'commerce', `limit=3&starting_after=${recent}`), headers);
			expect(kept.status).toBe(200);
			expect(kept.body.data.map((object: {id: string}) => object.id)).toEqual(order.slice(80, 83));
			const forgotten = await get(listUrl(sandbox, 'commerce', `limit=3&starting_after=${oldest!}`), headers);
			expect(forgotten.status).toBe(400);
			expect(forgotten.body.error.message).toBe(`starting_after ${oldest!} names an object removed so long ago that the sandbox no longer keeps its place (it keeps the last 5 removed); start the walk again from the first page.`);
			expect(sandbox.store.get('checkouts', oldest!)).toBeUndefined();
			const unknown = await get(listUrl(sandbox, 'account', 'ending_before=00000000-0000-4000-8000-000000000000'), authHeaders(sandbox, 'account'));
			expect(unknown.status).toBe(400);
			expect(unknown.body.errors[0].message).toContain('is not the id of an object in this list');
		} finally {
			await sandbox.close();
		}
	});
});
