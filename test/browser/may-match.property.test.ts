import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {filterRows, flatten, mayMatch, visibleRows} from '../../source/browser/cells.js';

/**
 * The quick scan a search runs before the `/` filter's own test must never
 * say no where the filter shows a row: otherwise `n` would walk past a page
 * that `/` shows matching. Checked on arbitrary JSON objects, with control
 * and bidi characters, quotes, Greek capitals (final sigma) and deep nesting,
 * and with filters cut from the cells themselves so that most cases match.
 */

const text = fc.oneof(
	fc.string({unit: 'binary', maxLength: 12}),
	fc.constantFrom('ΟΔΟΣ', 'Σ', 'σς', '"quoted"', 'back\\slash', 'a\u001B[2Jb', 'x\u202Ey', 'İstanbul', 'ß', 'ﬁ', '\u{1F44D}'),
);
const value = fc.letrec<{value: unknown; object: Record<string, unknown>}>(tie => ({
	value: fc.oneof(
		{depthSize: 'small'},
		text,
		fc.double(),
		fc.integer(),
		fc.boolean(),
		fc.constant(null),
		fc.array(tie('value'), {maxLength: 3}),
		tie('object'),
	),
	object: fc.dictionary(fc.oneof(text, fc.constantFrom('a', 'a.b', 'id')), tie('value'), {maxKeys: 4}),
})).object;

const page = fc.array(value, {minLength: 1, maxLength: 4});

/** A filter cut from one cell of the page as the table shows it, sometimes changed in case. */
const pageAndFilter = page.chain(objects => {
	const cells = objects.flatMap(object => [...flatten(object).values()]).filter(cell => cell.length > 0);
	const cut = cells.length === 0
		? text
		: fc.tuple(fc.constantFrom(...cells), fc.nat(), fc.nat(), fc.boolean()).map(([cell, start, length, upper]) => {
				const chars = [...cell];
				const from = start % chars.length;
				const piece = chars.slice(from, from + 1 + (length % 6)).join('');
				return upper ? piece.toUpperCase() : piece;
			});
	return fc.tuple(fc.constant(objects), fc.oneof(cut, text));
});

describe('mayMatch, the quick scan before the filter', () => {
	it('says yes wherever the filter shows a row', () => {
		fc.assert(
			fc.property(pageAndFilter, ([objects, query]) => {
				const shown = filterRows(objects.map((object, index) => ({index, object, cells: flatten(object)})), query).length > 0;
				if (shown) {
					expect(mayMatch(objects, query)).toBe(true);
				}
			}),
			{numRuns: 3000},
		);
	});

	it('says no for a page where nothing holds the text, the common case of a search', () => {
		const objects = [{id: 'a1', name: 'BTC Wallet', balance: {amount: '1.5', currency: 'BTC'}, tags: ['x']}];
		expect(mayMatch(objects, 'eth')).toBe(false);
		expect(mayMatch(objects, 'wallet')).toBe(true);
		expect(mayMatch(objects, 'btc wallet')).toBe(true);
		expect(visibleRows(objects, 'eth')).toHaveLength(0);
	});

	it('finds text past the flattened depth, as the filter does', () => {
		let deep: Record<string, unknown> = {leaf: 'needle "here"'};
		for (let level = 0; level < 40; level++) {
			deep = {next: deep};
		}

		const objects = [{id: 'deep', deep}];
		expect(visibleRows(objects, 'needle').length).toBe(1);
		expect(mayMatch(objects, 'needle')).toBe(true);
		expect(visibleRows(objects, '\\"here').length).toBe(1);
		expect(mayMatch(objects, '\\"here')).toBe(true);
	});
});
