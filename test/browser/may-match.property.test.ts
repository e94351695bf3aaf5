import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {filterRows, flatten, mayMatch, visibleRows} from '../../source/browser/stack/cells.js';

/**
 * The quick scan a search runs before the `/` filter's own test must never
 * say no where the filter shows a row: otherwise `n` would walk past a page
 * that `/` shows matching. Checked on arbitrary JSON objects, with control
 * and bidi characters, quotes, Greek capitals (final sigma) and deep nesting,
 * and with filters cut from the cells themselves so that most cases match.
 */

// Characters that are shown otherwise than sent, or lowercase to ASCII: the hard cases.
const tricky = fc.string({unit: fc.constantFrom('a', 'x', 'k', 'i', '1', 'b', '\u0005', '\u007F', '\u202E', '\u00AD', 'é', 'İ', '\u212A', '"', '\\', '/', 'Σ', ' '), maxLength: 8});
const text = fc.oneof(
	tricky,
	fc.string({unit: 'binary', maxLength: 12}),
	fc.constantFrom('ΟΔΟΣ', 'Σ', 'σς', '"quoted"', 'back\\slash', 'a\u001B[2Jb', 'x\u202Ey', 'İstanbul', 'ß', 'ﬁ', '\u{1F44D}'),
);
const value = fc.letrec<{value: unknown; object: Record<string, unknown>}>(tie => ({
	value: fc.oneof(
		{depthSize: 'small'},
		text,
		// A JSON number: no server can send NaN or ±Infinity (JSON.stringify writes them as null).
		fc.double({noNaN: true, noDefaultInfinity: true}),
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

/**
 * JSON as servers write it, which is not always as JSON.stringify would:
 * spaces (1) and line breaks (3) between tokens, numbers in other spellings
 * (1.156e+9, 5.0), and characters escaped that need not be (\u00e9, \/).
 */
function serverJson(value: unknown, style: number): string {
	if (typeof value === 'number') {
		return style === 1 && Number.isFinite(value) ? value.toExponential() : style === 2 && Number.isInteger(value) ? `${value}.0` : JSON.stringify(value);
	}

	if (typeof value === 'string') {
		return style === 2 ? JSON.stringify(value).replaceAll(/[^\u0020-\u007E]/g, char => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`).replaceAll('/', '\\/') : JSON.stringify(value);
	}

	if (Array.isArray(value)) {
		return `[${value.map(item => serverJson(item, style)).join(style === 0 ? ',' : ', ')}]`;
	}

	if (value !== null && typeof value === 'object') {
		const gap = style === 3 ? '\n  ' : '';
		return `{${gap}${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${serverJson(item, style)}`).join(`,${gap}`)}}`;
	}

	return JSON.stringify(value);
}

describe('mayMatch, the quick scan before the filter', () => {
	it('says yes wherever the filter shows a row, from the values or from the JSON texts however written', () => {
		fc.assert(
			fc.property(pageAndFilter, fc.integer({min: -1, max: 3}), ([objects, query], style) => {
				const shown = filterRows(objects.map((object, index) => ({index, object, cells: flatten(object)})), query).length > 0;
				const texts = style === -1 ? undefined : objects.map(object => (style === 0 ? JSON.stringify(object) : serverJson(object, style)));
				if (shown) {
					expect(mayMatch(objects, query, texts)).toBe(true);
				}
			}),
			{numRuns: 5000},
		);
	});

	it('does not trust a text with an escape, a character shown escaped, İ or the Kelvin sign', () => {
		const cases: Array<[Record<string, unknown>, string, string]> = [
			[{id: 'e1', name: 'a\u0005b'}, '{"id":"e1","name":"a\\u0005b"}', 'x05'],
			[{id: 'e2', name: 'a\u007Fb'}, '{"id":"e2","name":"a\u007Fb"}', 'x7fb'],
			[{n: 'İ'}, '{"n":"İ"}', 'i'],
			[{id: 'e4', name: 'oKay'}, '{"id":"e4","name":"o\u212Aay"}', 'okay'],
		];
		for (const [object, json, needle] of cases) {
			const shown = filterRows([{index: 0, object, cells: flatten(object)}], needle).length > 0;
			expect(shown, needle).toBe(true);
			expect(mayMatch([object], needle, [json]), needle).toBe(true);
		}
	});

	it('does not trust the texts for a needle a number could hold', () => {
		const objects = [{id: 'n1', amount: 1_156_471_723}];
		expect(filterRows([{index: 0, object: objects[0]!, cells: flatten(objects[0]!)}], '115').length).toBe(1);
		expect(mayMatch(objects, '115', ['{"id": "n1", "amount": 1.156471723e+9}'])).toBe(true);
	});

	it('finds text in the JSON texts for an ASCII needle, and says no without reading the values', () => {
		const objects = [{id: 'a1', name: 'BTC Wallet'}, {id: 'a2', name: 'ETH Vault'}];
		const texts = objects.map(object => JSON.stringify(object));
		expect(mayMatch(objects, 'vault', texts)).toBe(true);
		expect(mayMatch(objects, 'usd', texts)).toBe(false);
		// The texts are trusted as they are: proof that the values were not read.
		expect(mayMatch(objects, 'usd', ['{"id":"a1","name":"USD"}', texts[1]!])).toBe(true);
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
