import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {deriveColumns, flatten, rowsOf, visibleRows} from '../../source/browser/stack/cells.js';
import {fitCell, formatHeader, formatRow, windowStart, screenLayout} from '../../source/browser/view/table-layout.js';

const account = {
	name: 'BTC Wallet',
	id: '5d5aed5f-b7c0-5585-a3dd-a7ed9ef0e414',
	primary: true,
	balance: {amount: '0.00010000', currency: 'BTC'},
	currency: {code: 'BTC', color: null},
	tags: ['a', 'b'],
	empty: {},
};

describe('cells', () => {
	it('flattens nested objects to dotted paths; arrays and empty objects are one cell', () => {
		expect([...flatten(account)]).toEqual([
			['name', 'BTC Wallet'],
			['id', '5d5aed5f-b7c0-5585-a3dd-a7ed9ef0e414'],
			['primary', 'true'],
			['balance.amount', '0.00010000'],
			['balance.currency', 'BTC'],
			['currency.code', 'BTC'],
			['currency.color', 'null'],
			['tags', '["a","b"]'],
			['empty', '{}'],
		]);
	});

	it('puts id first, then paths in order of first appearance across the page', () => {
		const rows = [flatten({b: 1, id: 'x'}), flatten({id: 'y', c: {d: 2}, a: 3, b: 4})];
		expect(deriveColumns(rows)).toEqual(['id', 'b', 'c.d', 'a']);
	});

	it('makes keys and values inert', () => {
		const cells = flatten({id: 'x', 'k\u001B[2J': 'v\u0007\u202E'});
		expect([...cells]).toEqual([['id', 'x'], ['k\\x1b[2J', 'v\\x07\\u{202e}']]);
	});

	it('filters rows by any cell, case-insensitively, and caches per page', () => {
		const objects = [{id: 'a', name: 'BTC Wallet'}, {id: 'b', name: 'ETH Wallet'}];
		expect(visibleRows(objects, 'eth').map(row => row.object['id'])).toEqual(['b']);
		expect(visibleRows(objects, '')).toBe(rowsOf(objects));
		expect(visibleRows(objects, 'wallet')).toHaveLength(2);
	});
});

describe('table layout', () => {
	it('cuts with an ellipsis and pads to exactly the width, wide characters included', () => {
		expect(fitCell('hello', 8)).toBe('hello   ');
		expect(fitCell('hello world', 8)).toBe('hello w…');
		for (const width of [1, 2, 3, 4, 5, 6, 7]) {
			const cut = fitCell('日本語のテキスト', width);
			expect(stringWidth(cut)).toBe(width);
		}

		expect(fitCell('日本語のテキスト', 6)).toBe('日本… ');
		expect(fitCell('👍👍👍', 4)).toBe('👍… ');
		expect(fitCell('x', 0)).toBe('');
	});

	it('gives every column its natural width when it fits', () => {
		const rows = rowsOf([{id: 'abc', name: 'x'}]);
		expect(screenLayout(rows, 80)).toEqual({columns: [{path: 'id', width: 3}, {path: 'name', width: 4}], hidden: 0, hiddenPaths: []});
	});

	it('narrows the widest columns first and hides what cannot fit, never wider than the terminal', () => {
		const rows = rowsOf([
			{id: 'x'.repeat(36), name: 'n'.repeat(30), description: 'd'.repeat(60), a: 1, b: 2, c: 3},
		]);
		for (const width of [20, 40, 60, 80, 120, 200]) {
			const layout = screenLayout(rows, width);
			const line = formatRow(rows[0]!.cells, layout.columns, true);
			expect(stringWidth(line)).toBeLessThanOrEqual(width);
			expect(layout.columns.length + layout.hidden).toBe(6);
			expect(layout.columns[0]!.path).toBe('id');
		}

		// Fields people read keep a readable width (the name whole, the description 24 cells) before narrow extra columns are added.
		const layout = screenLayout(rows, 120);
		expect(layout.hidden).toBe(0);
		expect(layout.columns.map(column => column.path)).toEqual(['id', 'name', 'description', 'a', 'b', 'c']);
		// The short columns keep their natural width, numbers to the right.
		expect(layout.columns.slice(3)).toEqual([{path: 'a', width: 1, align: 'right'}, {path: 'b', width: 1, align: 'right'}, {path: 'c', width: 1, align: 'right'}]);
		expect(screenLayout(rows, 80).columns.map(column => column.width)).toEqual([36, 24, 14]);
		expect(screenLayout(rows, 20).hidden).toBeGreaterThan(0);
	});

	it('keeps the id whole while another column fits beside it, and cuts it only when it must', () => {
		const id = '5c771d99-7de1-4729-9b06-f2325a971cd1';
		const rows = rowsOf([{id, name: 'n'.repeat(30), description: 'd'.repeat(60), a: 1, b: 2, c: 3, d: 4, e: 5, f: 6}]);
		for (const width of [52, 80, 120]) {
			const layout = screenLayout(rows, width);
			expect(layout.columns[0]).toEqual({path: 'id', width: 36});
			expect(stringWidth(formatRow(rows[0]!.cells, layout.columns, true))).toBeLessThanOrEqual(width);
		}

		expect(screenLayout(rows, 40).columns[0]!.width).toBeLessThan(36);
	});

	it('draws the header and rows aligned, with a marker on the selected row', () => {
		const rows = rowsOf([{id: 'a1', name: 'Wallet'}]);
		const {columns} = screenLayout(rows, 80);
		expect(formatHeader(columns)).toBe('  id  name  ');
		expect(formatRow(rows[0]!.cells, columns, true)).toBe('› a1  Wallet');
		expect(formatRow(rows[0]!.cells, columns, false)).toBe('  a1  Wallet');
	});

	it('windows rows so the selection stays visible and the window moves only as needed', () => {
		expect(windowStart(10, 20, 5, 0)).toBe(0);
		expect(windowStart(100, 10, 0, 0)).toBe(0);
		expect(windowStart(100, 10, 9, 0)).toBe(0);
		expect(windowStart(100, 10, 10, 0)).toBe(1);
		expect(windowStart(100, 10, 50, 45)).toBe(45);
		expect(windowStart(100, 10, 40, 45)).toBe(40);
		expect(windowStart(100, 10, 99, 0)).toBe(90);
		// Shrinking the page never leaves the window past its end.
		expect(windowStart(12, 10, 11, 50)).toBe(2);
	});
});
