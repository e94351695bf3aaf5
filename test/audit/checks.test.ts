import {describe, expect, test} from 'vitest';
import {type CheckId, ContractChecks} from '../../source/audit/checks.js';
import type {Page} from '../../source/contract/types.js';
import {cleanWalk, object, page} from './pages.js';

function run(pages: Page[]) {
	const checks = new ContractChecks();
	for (const entry of pages) {
		checks.add(entry);
	}

	return checks.results();
}

function failed(pages: Page[]) {
	return run(pages).filter((check) => check.status === 'failed');
}

function onlyFailure(pages: Page[], id: CheckId) {
	const failures = failed(pages);
	expect(failures.map((check) => check.id)).toEqual([id]);
	return failures[0]!;
}

describe('contract checks', () => {
	test.each([
		['account', 'desc'],
		['account', 'asc'],
		['commerce', 'desc'],
		['commerce', 'asc'],
	] as const)('a clean %s walk in %s passes every check', (api, order) => {
		const results = run(cleanWalk(103, 10, {api, order}));
		const expected = api === 'account' ? 'skipped' : 'passed';
		expect(Object.fromEntries(results.map((check) => [check.id, check.status]))).toEqual({
			'unique-ids': 'passed',
			order: 'passed',
			'over-limit': 'passed',
			'echo-limit': 'passed',
			'echo-order': 'passed',
			'echo-cursors': 'passed',
			'next-uri-params': 'passed',
			yielded: expected,
			'cursor-range': expected,
			total: expected,
		});
	});

	test('a duplicate across pages names both pages', () => {
		const pages = cleanWalk(50, 10);
		pages[2]!.objects[0] = object(19);
		const check = onlyFailure(pages, 'unique-ids');
		expect(check.evidence).toEqual([{page: 3, message: `id ${object(19).id} on page 3 was already on page 2`}]);
	});

	test('an unordered page fails the order check at that page', () => {
		const pages = cleanWalk(50, 10, {order: 'asc'});
		pages[3]!.objects.reverse();
		const check = onlyFailure(pages, 'order');
		expect(check.evidence[0]!.page).toBe(4);
		expect(check.evidence[0]!.message).toContain('in asc order');
	});

	test('order is compared across page boundaries and skipped without created_at', () => {
		const pages = cleanWalk(30, 10);
		[pages[1]!.objects[0], pages[0]!.objects[9]] = [pages[0]!.objects[9]!, pages[1]!.objects[0]!];
		expect(failed(pages).map((check) => check.id)).toContain('order');
		const bare = cleanWalk(30, 10);
		for (const entry of bare) {
			entry.objects = entry.objects.map((item) => ({id: item.id}));
		}

		expect(run(bare).find((check) => check.id === 'order')!.status).toBe('skipped');
	});

	test('a wrong echo of limit fails echo-limit only', () => {
		const pages = cleanWalk(50, 10);
		(pages[2]!.pagination as {limit: number}).limit = 11;
		const check = onlyFailure(pages, 'echo-limit');
		expect(check.evidence).toEqual([{page: 3, message: 'sent limit=10 but pagination.limit is 11'}]);
	});

	test('a page holding more objects than the limit in effect fails over-limit only (page-size)', () => {
		const pages = cleanWalk(30, 10);
		// Page 3's first object moves to the end of page 2: still in order, each id once.
		pages[1]!.objects.push(pages[2]!.objects.shift()!);
		const check = onlyFailure(pages, 'over-limit');
		expect(check.evidence).toEqual([{page: 2, message: 'data holds 11 objects, more than the limit of 10'}]);
	});

	test('limit=0 and no limit expect the default 25', () => {
		expect(failed([page({objects: [object(0)], sent: {limit: 0}, pagination: {limit: 25}})])).toEqual([]);
		expect(failed([page({objects: [object(0)], sent: {}, pagination: {limit: 25}})])).toEqual([]);
		const check = onlyFailure([page({objects: [object(0)], sent: {limit: 0}, pagination: {limit: 0}})], 'echo-limit');
		expect(check.evidence[0]!.message).toBe('sent limit=0 (default 25) but pagination.limit is 0');
	});

	test('a wrong echo of order or cursors', () => {
		const pages = cleanWalk(30, 10, {order: 'asc'});
		(pages[1]!.pagination as {order: string}).order = 'desc';
		expect(onlyFailure(pages, 'echo-order').evidence).toEqual([{page: 2, message: 'sent order=asc but pagination.order is "desc"'}]);
		const cursors = cleanWalk(30, 10);
		cursors[1]!.pagination.starting_after = null;
		expect(onlyFailure(cursors, 'echo-cursors').evidence[0]).toEqual({
			page: 2,
			message: `starting_after sent "${object(9).id}", reported null`,
		});
	});

	test('next_uri missing a parameter in use fails next-uri-params with the page and the uri', () => {
		const pages = cleanWalk(50, 10, {order: 'asc'});
		const broken = page({objects: pages[2]!.objects, sent: {limit: 10, order: 'asc', starting_after: object(19, 'asc').id}, next: object(29, 'asc').id, nextParameters: {order: 'asc'}});
		pages[2] = broken;
		const check = onlyFailure(pages, 'next-uri-params');
		expect(check.evidence[0]!.page).toBe(3);
		expect(check.evidence[0]!.message).toMatch(/^limit=10 was sent but next_uri has no limit \(http/);
	});

	test('a next_uri that keeps an unsent limit or drops an unsent order is fine; no cursor is not', () => {
		expect(failed([page({objects: [object(0)], sent: {}, next: object(0).id, nextParameters: {limit: 25}})])).toEqual([]);
		expect(failed([page({objects: [object(0)], sent: {}, next: object(0).id, nextParameters: {}})])).toEqual([]);
		const noCursor = page({objects: [object(0)], sent: {limit: 5}});
		noCursor.nextUrl = 'http://127.0.0.1:9/v2/accounts?limit=5';
		expect(onlyFailure([noCursor], 'next-uri-params').evidence[0]!.message).toContain('next_uri has no cursor');
	});

	test('commerce yielded mismatch and cursor_range', () => {
		const pages = cleanWalk(50, 10, {api: 'commerce'});
		(pages[2]!.pagination as {yielded: number}).yielded = 9;
		expect(onlyFailure(pages, 'yielded').evidence).toEqual([{page: 3, message: 'yielded is 9 but data holds 10 objects'}]);
		const ranges = cleanWalk(50, 10, {api: 'commerce'});
		(ranges[1]!.pagination as {cursor_range: unknown}).cursor_range = [object(10).id, object(18).id];
		expect(onlyFailure(ranges, 'cursor-range').evidence[0]!.page).toBe(2);
	});

	test('commerce empty pages take [] or null as cursor_range', () => {
		const empty = page({api: 'commerce', objects: [], sent: {limit: 10}, next: 'x'});
		expect(failed([empty])).toEqual([]);
		(empty.pagination as {cursor_range: unknown}).cursor_range = null;
		expect(failed([empty])).toEqual([]);
		(empty.pagination as {cursor_range: unknown}).cursor_range = ['a', 'b'];
		expect(onlyFailure([empty], 'cursor-range').evidence[0]!.message).toBe('the page is empty but cursor_range is ["a","b"]');
	});

	test('a changing total is noted, not failed', () => {
		const pages = cleanWalk(30, 10, {api: 'commerce'});
		(pages[2]!.pagination as {total: number}).total = 1001;
		const total = run(pages).find((check) => check.id === 'total')!;
		expect(total).toMatchObject({status: 'noted', failures: 0, evidence: [{page: 3, message: 'total changed from 1000 to 1001 on page 3'}]});
		expect(failed(pages)).toEqual([]);
	});

	test('evidence is bounded', () => {
		const pages = cleanWalk(300, 10);
		for (const entry of pages) {
			(entry.pagination as {limit: number}).limit = 9;
		}

		const check = onlyFailure(pages, 'echo-limit');
		expect(check.failures).toBe(30);
		expect(check.evidence).toHaveLength(10);
	});
});
