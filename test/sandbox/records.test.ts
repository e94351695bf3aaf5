/** The record generators: times written as the APIs write them. */
import fc from 'fast-check';
import {expect, it} from 'vitest';
import {isoTime} from '../../source/sandbox/data/records.js';

it('isoTime matches Date#toISOString, without ".000" for whole seconds', () => {
	fc.assert(
		fc.property(fc.integer({min: -100_000_000_000_000, max: 300_000_000_000_000}), (ms) => {
			const text = new Date(ms).toISOString();
			expect(isoTime(ms)).toBe(ms % 1000 === 0 ? `${text.slice(0, 19)}Z` : text);
		}),
		{numRuns: 2000},
	);
	expect(isoTime(Date.UTC(2024, 1, 29, 23, 59, 59))).toBe('2024-02-29T23:59:59Z');
	expect(isoTime(0)).toBe('1970-01-01T00:00:00Z');
});
