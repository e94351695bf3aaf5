import {describe, expect, it} from 'vitest';
import {shownPageRows} from '../../source/browser/cells.js';

describe('shownPageRows: rows sorted on screen', () => {
	const objects = [
		{id: 'a', n: 10, s: 'beta'},
		{id: 'b', n: 9.5, s: 'alpha'},
		{id: 'c', s: 'gamma'},
		{id: 'd', n: 100, s: 'alpha'},
	];
	const ids = (sort: Parameters<typeof shownPageRows>[3], query = '') => shownPageRows(objects, query, undefined, sort).map(row => row.object['id']);

	it('numbers as numbers, text as text, rows without the column last, ties in the server\'s order', () => {
		expect(ids({path: 'n', direction: 'ascending'})).toEqual(['b', 'a', 'd', 'c']);
		expect(ids({path: 'n', direction: 'descending'})).toEqual(['d', 'a', 'b', 'c']);
		expect(ids({path: 's', direction: 'ascending'})).toEqual(['b', 'd', 'a', 'c']);
		expect(ids(null)).toEqual(['a', 'b', 'c', 'd']);
	});

	it('sorts what the filter lets through, and keeps the cells exact', () => {
		expect(ids({path: 'n', direction: 'descending'}, 'alpha')).toEqual(['d', 'b']);
		const texts = ['{"id":"x","n":1.10}', '{"id":"y","n":1.05}'];
		const rows = shownPageRows([{id: 'x', n: 1.1}, {id: 'y', n: 1.05}], '', texts, {path: 'n', direction: 'ascending'});
		expect(rows.map(row => row.cells.get('n'))).toEqual(['1.05', '1.10']);
	});
});
