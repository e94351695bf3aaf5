import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {rowsOf} from '../../source/browser/stack/cells.js';
import {markerWidth, screenLayout} from '../../source/browser/view/table-layout.js';
import {formatCells, layoutColumns, maximumWidth} from '../../source/cells/table-layout.js';

const cells = (object: Record<string, string>) => new Map(Object.entries(object));

describe('shared table layout', () => {
	it('is the browser layout, less the selection marker', () => {
		const objects = [{id: '5c771d99-7de1-4729-9b06-f2325a971cd1', name: 'n'.repeat(30), description: 'd'.repeat(60), a: '1', b: '2'}];
		for (const width of [20, 52, 80, 200]) {
			expect(layoutColumns(objects.map(cells), width - markerWidth)).toEqual(screenLayout(rowsOf(objects), width));
		}
	});

	it('without a width limit keeps every column at its natural width, capped', () => {
		const layout = layoutColumns([cells({id: 'a', description: 'd'.repeat(100), n: '7'})], Number.POSITIVE_INFINITY);
		expect(layout).toEqual({columns: [{path: 'id', width: 2}, {path: 'description', width: maximumWidth}, {path: 'n', width: 1, align: 'right'}], hidden: 0, hiddenPaths: []});
	});

	it('measures and cuts a megabyte cell as it does its first 10,000 characters', () => {
		for (const unit of ['x', '日本', '👍🏽', 'e\u0301']) {
			const huge = unit.repeat(Math.ceil(1_000_000 / unit.length));
			const rows = [cells({id: 'a', huge})];
			const head = [cells({id: 'a', huge: huge.slice(0, 10_000)})];
			const layout = layoutColumns(rows, 80);
			expect(layout).toEqual(layoutColumns(head, 80));
			const line = formatCells(rows[0]!, layout.columns);
			expect(line).toBe(formatCells(head[0]!, layout.columns));
			expect(stringWidth(line)).toBeLessThanOrEqual(80);
		}
	});
});

describe('numbers in cells', () => {
	const amounts = ['227.680709704', '-0.00010000', '9007199254740993', '1e400', '12'];

	it('are drawn whole or as … alone, never cut among their digits (a cut number reads as another)', () => {
		for (const text of amounts) {
			for (let width = 1; width <= 18; width++) {
				for (const align of ['right', undefined] as const) {
					const drawn = formatCells(cells({n: text}), [{path: 'n', width, ...(align ? {align} : {})}]).trim();
					expect(drawn === text || drawn === '…', `${text} at ${width}: ${drawn}`).toBe(true);
				}
			}
		}

		expect(formatCells(cells({n: '227.680709704'}), [{path: 'n', width: 12, align: 'right'}])).toBe(`${' '.repeat(11)}…`);
		// Text that is not a number is cut as before.
		expect(formatCells(cells({n: '227.6807097x4'}), [{path: 'n', width: 12}])).toBe('227.6807097…');
	});

	it('a column of numbers is as wide as its widest number where the width allows', () => {
		// A name no wider than the minimum: before, such a column got the minimum, twelve cells.
		const rows = ['227.680709704', '0.5', '18.25'].map((rate, index) => cells({id: `id-${index}`, rate, note: 'n'.repeat(40)}));
		const layout = layoutColumns(rows, 40);
		expect(layout.columns.find(column => column.path === 'rate')).toEqual({path: 'rate', width: 13, align: 'right'});
		for (const row of rows) {
			expect(formatCells(row, layout.columns)).toContain(row.get('rate'));
		}

		// Tight: the number stays whole and the next column gives way, rather than the number becoming `…`.
		const tight = layoutColumns(rows, 32);
		expect(tight.columns.map(column => [column.path, column.width])).toEqual([['id', 4], ['rate', 13]]);
		expect(tight.hiddenPaths).toEqual(['note']);
	});
});
