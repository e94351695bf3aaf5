import {describe, expect, it, test} from 'vitest';
import {
	isIntegrityFinding,
	worstFirst,
	checkCommerceCounts, checkEcho, checkNextUri, checkOrder, checkOverLimit, checkPage, checkPaginationFields, checkRepeatedIds,
	contractDefaults, paginationFields, shortPage, shortPageOf,
} from '../../source/contract/contract.js';
import {findingMessage, shortPageSentence} from '../../source/contract/contract-text.js';
import {cleanWalk, object, page} from '../audit/pages.js';

describe('the contract module', () => {
	test('defaults and the fields of both pagination objects', () => {
		expect(contractDefaults).toEqual({limit: 25, order: 'desc', maximumLimit: 100, minimumLimit: 0});
		expect(Object.keys(paginationFields.account).sort()).toEqual(
			['ending_before', 'limit', 'next_starting_after', 'next_uri', 'order', 'previous_ending_before', 'previous_uri', 'starting_after'],
		);
		expect(Object.keys(paginationFields.commerce).sort()).toEqual(
			['cursor_range', 'ending_before', 'limit', 'next_uri', 'order', 'previous_uri', 'starting_after', 'total', 'yielded'],
		);
		expect(checkPaginationFields('commerce', {limit: 2, order: 'asc', next_uri: null, total: 3})).toEqual({problem: {kind: 'missing', field: 'yielded'}, normalized: null});
		expect(checkPaginationFields('account', {limit: 2, order: 'up', next_uri: null}).problem).toEqual({kind: 'wrong-type', field: 'order', value: 'up', expected: '"asc" or "desc"'});
		expect(checkPaginationFields('account', {limit: 2, order: 'asc', next_uri: null}).normalized).toEqual({
			limit: 2, order: 'asc', next_uri: null, previous_uri: null, starting_after: null, ending_before: null,
		});
	});

	test('a short page is defined once: fewer shown than the limit in effect; next_uri says whether more follow', () => {
		expect(shortPage(25, 25, true)).toBeNull();
		expect(shortPage(30, 25, false)).toBeNull();
		expect(shortPage(7, 25, true)).toEqual({shown: 7, limit: 25, kind: 'short', more: true});
		expect(shortPage(0, 25, false)).toEqual({shown: 0, limit: 25, kind: 'empty', more: false});
		expect(shortPageSentence(shortPage(7, 25, true)!)).toBe('7 of 25: fewer than limit: permissions or access level; the list continues.');
		expect(shortPageSentence(shortPage(0, 25, false)!)).toBe('No objects and no next_uri: this is the end of the list.');
		// limit=0 is served as the default page size.
		expect(shortPageOf(page({objects: [object(0)], sent: {limit: 0}, next: object(0).id}))).toMatchObject({limit: 25, kind: 'short', more: true});
	});

	test('a clean page has no findings', () => {
		for (const api of ['account', 'commerce'] as const) {
			for (const entry of cleanWalk(23, 5, {api})) {
				expect(checkPage(entry)).toEqual([]);
			}
		}
	});

	test('more objects than the limit', () => {
		const over = page({objects: [object(0), object(1), object(2)], sent: {limit: 2}, pagination: {limit: 2}});
		expect(checkOverLimit(over)).toEqual([{check: 'over-limit', shown: 3, limit: 2}]);
		expect(findingMessage(checkOverLimit(over)[0]!, 1)).toBe('data holds 3 objects, more than the limit of 2');
	});

	test('the echo of limit, order and cursors', () => {
		const echoed = page({objects: [object(0)], sent: {limit: 0, order: 'asc', starting_after: 'x'}, pagination: {limit: 0, order: 'desc', starting_after: null}});
		const findings = checkEcho(echoed);
		expect(findings).toEqual([
			{check: 'echo-limit', sent: '0', reported: 0},
			{check: 'echo-order', sent: 'asc', reported: 'desc'},
			{check: 'echo-cursors', cursors: [{field: 'starting_after', sent: 'x', reported: null}]},
		]);
		expect(findings.map(finding => findingMessage(finding, 2))).toEqual([
			'sent limit=0 (default 25) but pagination.limit is 0',
			'sent order=asc but pagination.order is "desc"',
			'starting_after sent "x", reported null',
		]);
	});

	test('next_uri carries every parameter in use', () => {
		const dropped = page({objects: [object(0)], sent: {limit: 5, order: 'asc'}, next: object(0).id, nextParameters: {order: 'desc'}});
		const [finding] = checkNextUri(dropped);
		expect(finding).toMatchObject({check: 'next-uri-params', problems: [{parameter: 'limit', sent: '5', carried: null}, {parameter: 'order', sent: 'asc', carried: 'desc'}]});
		expect(findingMessage(finding!, 1)).toBe(`limit=5 was sent but next_uri has no limit; order=asc was sent but next_uri has order=desc (${dropped.nextUrl})`);
		// A sent 0 is kept by next_uri carrying the default.
		expect(checkNextUri(page({objects: [object(0)], sent: {limit: 0}, next: object(0).id, nextParameters: {limit: 25}}))).toEqual([]);
	});

	test('commerce yielded and cursor_range', () => {
		const wrong = page({api: 'commerce', objects: [object(0), object(1)], pagination: {yielded: 3, cursor_range: [object(0).id, object(0).id]}});
		expect(checkCommerceCounts(wrong)).toEqual([
			{check: 'yielded', yielded: 3, shown: 2},
			{check: 'cursor-range', range: [object(0).id, object(0).id], first: object(0).id, last: object(1).id},
		]);
		expect(checkCommerceCounts(page({objects: [object(0)]}))).toEqual([]);
	});

	test('order by created_at then id, across the page boundary through the carry', () => {
		const [first, second] = cleanWalk(10, 5, {order: 'asc'});
		const one = checkOrder(first!.objects, 'asc');
		expect(one).toMatchObject({findings: [], compared: 4});
		const swapped = [second!.objects[1]!, second!.objects[0]!, ...second!.objects.slice(2)];
		const two = checkOrder(swapped, 'asc', one.carry);
		expect(two.compared).toBe(5);
		expect(two.findings).toEqual([{check: 'order', object: second!.objects[0], after: second!.objects[1], order: 'asc'}]);
	});

	test('ids repeated within a page or from an earlier one', () => {
		const earlier = new Map([[object(1).id, 1]]);
		const findings = checkRepeatedIds([object(1), object(2), object(2)], id => earlier.get(id));
		expect(findings).toEqual([
			{check: 'unique-ids', id: object(1).id, firstPage: 1},
			{check: 'unique-ids', id: object(2).id, firstPage: null},
		]);
		expect(findings.map(finding => findingMessage(finding, 3))).toEqual([
			`id ${object(1).id} on page 3 was already on page 1`,
			`id ${object(2).id} appears twice on page 3`,
		]);
	});
});

describe('worstFirst', () => {
	it('puts findings about the walk itself (repeated, misordered objects) before those about how the page was described', () => {
		const over = {check: 'over-limit', shown: 11, limit: 10} as const;
		const echo = {check: 'echo-limit', sent: '10', reported: 11} as const;
		const repeated = {check: 'unique-ids', id: 'a', firstPage: 1} as const;
		expect(worstFirst([over, echo, repeated]).map(finding => finding.check)).toEqual(['unique-ids', 'over-limit', 'echo-limit']);
		expect(isIntegrityFinding(repeated)).toBe(true);
		expect(isIntegrityFinding(over)).toBe(false);
	});
});
