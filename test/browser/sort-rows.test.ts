import {describe, expect, it} from 'vitest';
import {shownPageRows} from '../../source/browser/stack/cells.js';

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

	it('a mixed column in one total order: numbers (JSON numbers and decimal strings) by value, then text, then null, then no cell', () => {
		const mixed = [{id: 'a', v: 2}, {id: 'b', v: '1x'}, {id: 'c', v: 10}];
		const cells = (objects: typeof mixed, direction: 'ascending' | 'descending') => shownPageRows(objects, '', undefined, {path: 'v', direction}).map(row => row.cells.get('v'));
		expect(cells(mixed, 'ascending')).toEqual(['2', '10', '1x']);
		expect(cells([mixed[2]!, mixed[1]!, mixed[0]!], 'ascending')).toEqual(['2', '10', '1x']);
		expect(cells([mixed[1]!, mixed[0]!, mixed[2]!], 'descending')).toEqual(['1x', '10', '2']);
		// A string of digits that is no JSON number is text.
		expect(cells([{id: 'd', v: '007'}, ...mixed] as typeof mixed, 'ascending')).toEqual(['2', '10', '007', '1x']);
		// Exact: digits past 2^53, a decimal string beside a number, 1 and 1.0 equal in value (then by their characters).
		const texts = ['{"id":"p","v":9007199254740993}', '{"id":"q","v":9007199254740992}', '{"id":"r","v":"0.5"}', '{"id":"s","v":1.0}', '{"id":"t","v":1}', '{"id":"u","v":null}', '{"id":"w"}', '{"id":"x","v":"B"}', '{"id":"y","v":"a"}', '{"id":"z","v":-1e400}'];
		const objects = texts.map(text => JSON.parse(text) as Record<string, unknown>);
		const ids = (direction: 'ascending' | 'descending') => shownPageRows(objects, '', texts, {path: 'v', direction}).map(row => row.object['id']);
		expect(ids('ascending')).toEqual(['z', 'r', 't', 's', 'q', 'p', 'y', 'x', 'u', 'w']);
		expect(ids('descending')).toEqual(['x', 'y', 'p', 'q', 's', 't', 'r', 'z', 'u', 'w']);
	});

	it('sorts what the filter lets through, and keeps the cells exact', () => {
		expect(ids({path: 'n', direction: 'descending'}, 'alpha')).toEqual(['d', 'b']);
		const texts = ['{"id":"x","n":1.10}', '{"id":"y","n":1.05}'];
		const rows = shownPageRows([{id: 'x', n: 1.1}, {id: 'y', n: 1.05}], '', texts, {path: 'n', direction: 'ascending'});
		expect(rows.map(row => row.cells.get('n'))).toEqual(['1.05', '1.10']);
	});
});
