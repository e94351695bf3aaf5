import {describe, expect, it, test} from 'vitest';
import {comparePageRows, compareSummary, compareWalks, type WalkIds} from '../../source/audit/compare.js';
import {compareViewLines, namesById, shortLabel} from '../../source/contract/page-compare.js';

describe('compareWalks', () => {
	test('per page and in total, pages paired by cursor', () => {
		const full: WalkIds = [
			{cursor: null, ids: ['a', 'b', 'c']},
			{cursor: 'c', ids: ['d', 'e', 'f']},
			{cursor: 'f', ids: ['g']},
		];
		const restricted: WalkIds = [
			{cursor: null, ids: ['a', 'c']},
			{cursor: 'c', ids: []},
			{cursor: 'f', ids: ['g']},
		];
		const comparison = compareWalks(full, restricted, {a: 'full', b: 'restricted'});
		expect(comparison).toEqual({
			a: 'full',
			b: 'restricted',
			alignedBy: 'cursor',
			objectsA: 7,
			objectsB: 3,
			onlyA: ['b', 'd', 'e', 'f'],
			onlyB: [],
			pages: [
				{pageA: 1, pageB: 1, cursor: null, onlyA: ['b'], onlyB: [], both: 2},
				{pageA: 2, pageB: 2, cursor: 'c', onlyA: ['d', 'e', 'f'], onlyB: [], both: 0},
			],
		});
	});

	test('walks of different shapes pair by position and count ids seen anywhere', () => {
		const asc: WalkIds = [{cursor: null, ids: ['a', 'b']}, {cursor: 'b', ids: ['c', 'x']}];
		const desc: WalkIds = [{cursor: null, ids: ['c', 'b', 'a', 'y']}];
		const comparison = compareWalks(asc, desc, {a: 'asc', b: 'desc'});
		expect(comparison.alignedBy).toBe('position');
		expect(comparison.onlyA).toEqual(['x']);
		expect(comparison.onlyB).toEqual(['y']);
		expect(comparison.pages).toEqual([
			{pageA: 1, pageB: 1, cursor: null, onlyA: [], onlyB: ['y'], both: 2},
			{pageA: 2, pageB: null, cursor: null, onlyA: ['x'], onlyB: [], both: 1},
		]);
	});
});

describe('comparePageRows', () => {
	test('ids only the second credential sees are placed where it saw them', () => {
		const rows = comparePageRows(['a', 'c', 'e'], ['z', 'a', 'b', 'e']);
		expect(rows).toEqual([
			{id: 'z', a: false, b: true},
			{id: 'a', a: true, b: true},
			{id: 'b', a: false, b: true},
			{id: 'c', a: true, b: false},
			{id: 'e', a: true, b: true},
		]);
		expect(compareSummary(rows, {a: 'COINBASE_ACCESS_TOKEN', b: 'OTHER_TOKEN'})).toBe(
			'2 seen by both, 1 only by COINBASE_ACCESS_TOKEN, 2 only by OTHER_TOKEN.',
		);
	});

	test('empty pages', () => {
		expect(comparePageRows([], [])).toEqual([]);
		expect(comparePageRows([], ['q'])).toEqual([{id: 'q', a: false, b: true}]);
	});
});

describe('the compare view: names and short labels', () => {
	it('shows each object\'s name beside its id, and a key file by its name, not its path', () => {
		const rows = comparePageRows(['a', 'b'], ['b', 'c'], namesById([{id: 'a', name: 'BTC Wallet'}], [{id: 'c', name: 'x\u001B[2Jy'}, {id: 'b'}]));
		const view = compareViewLines(rows, {a: shortLabel('CDP key ES256 from --key-file \'/home/me/keys/cdp.json\''), b: 'COMPARE_TOKEN'});
		expect(view.lines).toEqual([
			'✓ ·  a  BTC Wallet  only CDP key ES256 from --key-file \'cdp.json\'',
			'✓ ✓  b',
			String.raw`· ✓  c  x\x1b[2Jy  only COMPARE_TOKEN`,
		]);
		expect(shortLabel('profile work')).toBe('profile work');
	});
});
