import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {shownPageRows, type RowSort} from '../../source/browser/stack/cells.js';

/**
 * `s` sorts the rows on screen in one total order: whatever order the server
 * sent a page in, the sorted column reads the same, and rows whose cells are
 * equal keep the server's order. Checked on columns mixing JSON numbers,
 * decimal strings, text that starts with digits, letters in both cases,
 * composed and decomposed accents, null and rows without the column.
 */

const missing = Symbol('no cell');
const cell = fc.oneof(
	fc.integer({min: -20, max: 20}),
	fc.double({noNaN: true, noDefaultInfinity: true}),
	fc.constantFrom('1x', '10', '2', '1.0', '1', '-0', '0', '1e2', '100', '007', '0.50', 'abc', 'ABC', 'Abc', 'é', 'e\u0301', '', ' ', 'null', 'a10', 'a9'),
	fc.string({maxLength: 4}),
	fc.constant(null),
	fc.constant(missing),
);

/** A page of rows with ids r0, r1, … and the same rows in another order. */
const pages = fc.array(cell, {maxLength: 12}).chain(values => {
	const objects = values.map((value, index): Record<string, unknown> => (value === missing ? {id: `r${index}`} : {id: `r${index}`, v: value}));
	return fc.tuple(fc.constant(objects), fc.shuffledSubarray(objects, {minLength: objects.length, maxLength: objects.length}), fc.boolean());
});

function sorted(objects: Array<Record<string, unknown>>, sort: RowSort, exact: boolean) {
	// With the objects' JSON texts (a page read from a response) or without (cells from the parsed values).
	const texts = exact ? objects.map(object => JSON.stringify(object)) : undefined;
	return shownPageRows(objects, '', texts, sort);
}

describe('s: the sorted column is the same for every order the rows come in', () => {
	for (const direction of ['ascending', 'descending'] as const) {
		it(`${direction}: the same cells in the same order, equal cells in the order they came`, () => {
			fc.assert(fc.property(pages, ([objects, shuffled, exact]) => {
				const sort = {path: 'v', direction};
				const first = sorted(objects, sort, exact);
				const second = sorted(shuffled, sort, exact);
				expect(second.map(row => row.cells.get('v'))).toEqual(first.map(row => row.cells.get('v')));
				// Stable: rows with the same cell keep the order of the page they came in.
				for (const rows of [first, second]) {
					for (let index = 1; index < rows.length; index++) {
						if (rows[index]!.cells.get('v') === rows[index - 1]!.cells.get('v')) {
							expect(rows[index]!.index).toBeGreaterThan(rows[index - 1]!.index);
						}
					}
				}
			}), {numRuns: 500});
		});
	}
});
