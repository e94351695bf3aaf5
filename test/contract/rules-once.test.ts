/**
 * Rules of one clause checked in one pass share that pass: the echo check and
 * the commerce counts run once per page however many rules read them, and
 * what each rule finds is what its pass found for its id.
 */
import fc from 'fast-check';
import {beforeEach, describe, expect, it, vi} from 'vitest';
import type * as contractModule from '../../source/contract/contract.js';
import type {Consumer, PageRule} from '../../source/contract/rules.js';
import type {Finding} from '../../source/contract/contract.js';
import type {Page} from '../../source/contract/types.js';
import {object, page} from '../audit/pages.js';

vi.mock('../../source/contract/contract.js', async importOriginal => {
	const real = await importOriginal<typeof contractModule>();
	return {...real, checkEcho: vi.fn(real.checkEcho), checkCommerceCounts: vi.fn(real.checkCommerceCounts)};
});

// The unit project shares its workers' modules (vitest.config.ts): another file
// may have loaded the rules with the real checks, so load them again, mocked.
vi.resetModules();
const contract = await import('../../source/contract/contract.js');
const {checkRules, contractRules, pageContext, pageRulesOf} = await import('../../source/contract/rules.js');

const consumers: Consumer[] = ['browser', 'dump', 'audit'];
const pageRules = contractRules.filter((rule): rule is PageRule => rule.scope === 'page');

/** What the rules found when each ran its own pass: every rule's check alone, kept to its id. */
function eachAlone(rules: readonly PageRule[], at: Page): Finding[] {
	const context = pageContext(at);
	return rules.flatMap(rule => rule.check(at, context).filter(finding => finding.check === rule.id));
}

const anyPage = fc.record({
	api: fc.constantFrom('account' as const, 'commerce' as const),
	count: fc.integer({min: 0, max: 6}),
	limit: fc.integer({min: 1, max: 5}),
	order: fc.constantFrom('asc' as const, 'desc' as const),
	cursor: fc.option(fc.constantFrom('id-0001', 'id-0009'), {nil: undefined}),
	echoed: fc.record({
		limit: fc.integer({min: 0, max: 9}),
		order: fc.constantFrom('asc', 'desc', 'up'),
		starting_after: fc.constantFrom(null, 'id-0001', 'x'),
		ending_before: fc.constantFrom(null, 'x'),
		yielded: fc.integer({min: 0, max: 6}),
		cursor_range: fc.constantFrom([], ['id-0000', 'id-0001'], null),
	}, {requiredKeys: []}),
}).map(({api, count, limit, order, cursor, echoed}) => page({
	api,
	objects: Array.from({length: count}, (_, n) => object(n, order)),
	sent: {limit, order, starting_after: cursor},
	next: count === 0 ? null : `id-${count}`,
	pagination: Object.fromEntries(Object.entries(echoed).filter(([field]) => api === 'commerce' || (field !== 'yielded' && field !== 'cursor_range'))),
}));

describe('checks shared by rules run once per page', () => {
	beforeEach(() => {
		vi.mocked(contract.checkEcho).mockClear();
		vi.mocked(contract.checkCommerceCounts).mockClear();
	});

	it('the echo and the commerce counts are read once per page by every consumer\'s rules', () => {
		const pages = [
			page({objects: [object(0)], sent: {limit: 0, order: 'asc', starting_after: 'x'}, pagination: {limit: 0, order: 'desc', starting_after: null}}),
			page({api: 'commerce', objects: [object(0), object(1)], sent: {limit: 2}, pagination: {yielded: 3, cursor_range: null}}),
		];
		for (const consumer of consumers) {
			for (const at of pages) {
				vi.mocked(contract.checkEcho).mockClear();
				vi.mocked(contract.checkCommerceCounts).mockClear();
				expect(checkRules(pageRulesOf(consumer), at, pageContext(at)).length).toBeGreaterThan(0);
				expect(contract.checkEcho, consumer).toHaveBeenCalledTimes(1);
				expect(contract.checkCommerceCounts, consumer).toHaveBeenCalledTimes(1);
			}
		}
	});

	it('what the rules find is what each found alone, in the table\'s order, for every consumer and any page', () => {
		fc.assert(fc.property(anyPage, fc.constantFrom(...consumers), (at, consumer) => {
			const rules = pageRulesOf(consumer);
			expect(checkRules(rules, at, pageContext(at))).toEqual(eachAlone(rules, at));
		}), {numRuns: 300});
	});

	it('a subset of the rules finds only for its own ids', () => {
		const at = page({objects: [object(0)], sent: {limit: 0, order: 'asc', starting_after: 'x'}, pagination: {limit: 0, order: 'desc', starting_after: null}});
		const echoOrder = pageRules.filter(rule => rule.id === 'echo-order');
		expect(checkRules(echoOrder, at, pageContext(at))).toEqual([{check: 'echo-order', sent: 'asc', reported: 'desc'}]);
		expect(contract.checkEcho).toHaveBeenCalledTimes(1);
	});
});
