/** The ordered index and the store, without HTTP. */
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {hiddenClumps} from '../../source/sandbox/data/clumps.js';
import {OrderedIndex} from '../../source/sandbox/data/ordered-index.js';
import {idFor, serialOfId} from '../../source/sandbox/data/random.js';
import {createdTimes} from '../../source/sandbox/data/records.js';
import {Lists} from '../../source/sandbox/data/store.js';

describe('ids', () => {
	it('encode their serial and decode back; other strings do not decode', () => {
		fc.assert(
			fc.property(fc.integer({min: 0, max: 0xff_ff_ff_ff}), fc.integer({min: 0, max: 0xff_ff_ff_ff}), (key, serial) => {
				const id = idFor(key, serial);
				expect(id).toMatch(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/);
				expect(serialOfId(key, id)).toBe(serial);
				expect(serialOfId(key ^ 1, id)).toBeUndefined();
			}),
		);
		expect(serialOfId(1, 'nope')).toBeUndefined();
	});
});

describe('OrderedIndex', () => {
	it('stays sorted by (created_at, id) under inserts at any position, ties included', () => {
		fc.assert(
			fc.property(fc.integer({min: 0, max: 50}), fc.array(fc.integer({min: 0, max: 40}), {maxLength: 60}), (count, inserts) => {
				const index = new OrderedIndex(7, createdTimes(count, 3, 1_000_000_000, 40_000), hiddenClumps(count, 4, true));
				for (const second of inserts) {
					index.insert(1_000_000_000 - 40_000 + second * 1000, second % 2 === 0);
				}

				for (let position = 1; position < index.length; position++) {
					const a = index.serialAt(position - 1);
					const b = index.serialAt(position);
					const order = index.createdOf(a) - index.createdOf(b) || (index.idOf(a) < index.idOf(b) ? -1 : 1);
					expect(order).toBeLessThan(0);
				}

				for (let position = 0; position < index.length; position++) {
					const serial = index.serialAt(position);
					expect(index.serialOf(index.idOf(serial))).toBe(serial);
					expect(index.positionOf(serial)).toBe(position);
				}
			}),
			{numRuns: 60},
		);
	});

	it('counts live and visible objects through removals', () => {
		const index = new OrderedIndex(9, createdTimes(200, 1, 5e12, 1e9), hiddenClumps(200, 2, true));
		const visible = index.liveVisible;
		expect(index.live).toBe(200);
		expect(visible).toBeLessThan(200);
		const serial = index.serialAt(199);
		expect(index.isHiddenSerial(serial)).toBe(false);
		expect(index.remove(serial)).toBe(true);
		expect(index.remove(serial)).toBe(false);
		expect(index.live).toBe(199);
		expect(index.liveVisible).toBe(visible - 1);
		expect(index.serialOf(index.idOf(serial))).toBe(serial);
	});
});

describe('Lists (the store)', () => {
	it('inserts newest by default, at a given created_at otherwise, and rejects a bad time', () => {
		const lists = new Lists(5, 30);
		const newest = lists.insert('checkouts');
		expect(lists.ids('checkouts')[0]).toBe(newest);
		const oldest = lists.insert('checkouts', {createdAt: '2001-01-01T00:00:00Z', hidden: true});
		expect(lists.ids('checkouts').at(-1)).toBe(oldest);
		expect(lists.hiddenIds('checkouts')).toContain(oldest);
		expect(lists.ids('checkouts', {viewer: 'restricted'})).not.toContain(oldest);
		expect(lists.get('checkouts', oldest)).toMatchObject({id: oldest, created_at: '2001-01-01T00:00:00Z', resource: 'checkout'});
		expect(() => lists.insert('checkouts', {createdAt: 'never'})).toThrow(/not a valid time/);
		expect(() => lists.insert('checkouts', {createdAt: 1e20})).toThrow(/not a valid time/);
		expect(() => lists.ids('nope' as 'accounts')).toThrow(/not a sandbox list/);
		expect(lists.count('checkouts')).toBe(32);
	});

	// How fast is measured by npm run bench:sandbox; a wall-clock bound here would be flaky.
	it('builds a million records with compact keys', () => {
		const lists = new Lists(1, 1_000_000);
		expect(lists.count('accounts')).toBe(1_000_000);
		expect(lists.count('charges', 'restricted')).toBeLessThan(1_000_000);
	});
});

describe('startSandbox options', () => {
	it('refuses records and seeds it cannot use, in a sentence', async () => {
		const {startSandbox} = await import('../../source/sandbox/index.js');
		await expect(startSandbox({records: -1})).rejects.toThrow(/records must be a whole number/);
		await expect(startSandbox({records: 2.5})).rejects.toThrow(/records must be a whole number/);
		await expect(startSandbox({seed: -3})).rejects.toThrow(/seed must be a whole number/);
	});
});
