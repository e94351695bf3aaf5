import {describe, expect, test} from 'vitest';
import {
	cursorEvidenceSentence, fillCell, fillChart, fillStrip, pageFill, shortPageExplanation, summarizeFill,
} from '../../source/audit/fill.js';
import {object, page} from './pages.js';

const objects = (from: number, count: number) => Array.from({length: count}, (_, index) => object(from + index));

describe('pageFill', () => {
	test('a full page', () => {
		const fill = pageFill(page({objects: objects(0, 25), sent: {limit: 25}, next: object(24).id}), 0);
		expect(fill).toMatchObject({page: 1, shown: 25, limit: 25, kind: 'full', ratio: 1, continues: true, yielded: null});
		expect(fill.evidence).toEqual({nextCursor: object(24).id, lastShownId: object(24).id, scannedPast: false});
		expect(shortPageExplanation(fill)).toBeNull();
	});

	test('a short page with a next_uri continues, and the cursor shows the server scanned past hidden objects', () => {
		const fill = pageFill(page({objects: objects(0, 7), sent: {limit: 25}, next: object(24).id}), 3);
		expect(fill).toMatchObject({page: 4, shown: 7, kind: 'short', continues: true});
		expect(fill.ratio).toBeCloseTo(0.28);
		expect(fill.evidence.scannedPast).toBe(true);
		expect(shortPageExplanation(fill)).toBe('7 of 25: fewer than limit: permissions or access level; the list continues.');
		expect(cursorEvidenceSentence(fill.evidence)).toBe(
			`next_uri starts after ${object(24).id} but the last object shown is ${object(6).id}: the server scanned past objects this credential cannot see.`,
		);
	});

	test('an empty page with a next_uri is not the end', () => {
		const fill = pageFill(page({objects: [], sent: {limit: 10}, next: object(9).id}), 1);
		expect(fill).toMatchObject({kind: 'empty', shown: 0, continues: true, ratio: 0});
		expect(fill.evidence).toEqual({nextCursor: object(9).id, lastShownId: null, scannedPast: true});
		expect(shortPageExplanation(fill)).toBe('No objects: fewer than limit: permissions or access level; the list continues.');
		expect(cursorEvidenceSentence(fill.evidence)).toContain('this page shows no object');
	});

	test('a short page without next_uri is the end of the list', () => {
		const fill = pageFill(page({objects: objects(0, 3), sent: {limit: 25}, next: null}), 0);
		expect(fill).toMatchObject({kind: 'short', continues: false});
		expect(shortPageExplanation(fill)).toBe('3 of 25 and no next_uri: this is the end of the list.');
		expect(cursorEvidenceSentence(fill.evidence)).toBeNull();
	});

	test('limit 0 is read as the default 25, and commerce yielded is kept', () => {
		const fill = pageFill(page({api: 'commerce', objects: objects(0, 5), sent: {limit: 0}, pagination: {limit: 0}}), 0);
		expect(fill).toMatchObject({limit: 25, yielded: 5, kind: 'short'});
	});
});

describe('fill strip and chart', () => {
	test('one cell per page, height by fill, empty pages marked, only full pages reach the top', () => {
		expect(fillCell({kind: 'full', ratio: 1})).toBe('█');
		expect(fillCell({kind: 'short', ratio: 24 / 25})).toBe('▇');
		expect(fillCell({kind: 'short', ratio: 0.01})).toBe('▁');
		expect(fillCell({kind: 'short', ratio: 0.5})).toBe('▄');
		expect(fillCell({kind: 'empty', ratio: 0})).toBe('·');
		const fills = [{kind: 'full', ratio: 1}, {kind: 'short', ratio: 0.3}, {kind: 'empty', ratio: 0}, {kind: 'full', ratio: 1}] as const;
		expect(fillStrip(fills)).toBe('█▃·█');
	});

	test('a strip wider than its room keeps the newest pages behind an ellipsis', () => {
		const fills = [{kind: 'empty', ratio: 0}, ...Array.from({length: 9}, () => ({kind: 'full', ratio: 1}) as const)] as const;
		expect(fillStrip(fills, 5)).toBe('…████');
		expect(fillStrip(fills, 0)).toBe('');
		expect([...fillStrip(fills, 5)]).toHaveLength(5);
	});

	test('the chart folds long walks and never averages a short page away', () => {
		const pages = Array.from({length: 400}, (_, index) => pageFill(page({objects: objects(0, index === 123 ? 0 : 25), next: 'x'}), index));
		const chart = fillChart(pages, {perRow: 50, maxCells: 200});
		expect(chart.pagesPerCell).toBe(2);
		const cells = chart.lines.map((line) => line.split(' ').at(-1)).join('');
		expect(cells).toHaveLength(200);
		expect(cells.indexOf('·')).toBe(61);
		expect(chart.lines[0]).toMatch(/^p1 +█/);
	});

	test('min and median fill count only pages the list continued after', () => {
		const fills = [
			pageFill(page({objects: objects(0, 25), next: 'a'}), 0),
			pageFill(page({objects: objects(0, 5), next: 'b'}), 1),
			pageFill(page({objects: objects(0, 25), next: 'c'}), 2),
			pageFill(page({objects: objects(0, 1), next: null}), 3),
		];
		expect(summarizeFill(fills)).toEqual({pages: 4, short: 2, empty: 0, min: 0.2, median: 1});
	});
});
