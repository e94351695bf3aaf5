import {orderCarry, type Finding} from '../../contract/contract.js';
import {checkRules, pageContext, pageRulesOf} from '../../contract/rules.js';
import type {Page} from '../../contract/types.js';

/**
 * The contract's page rules (contract/rules.ts, those the browser shows), run
 * on every page the browser lands on. Memory stays bounded: repeated ids are
 * looked up among the pages still cached below (the page cache's bound), and
 * order across the boundary only needs the last object of the page just below.
 */

/** A cached page below the new one; `number` is its 1-based place in the walk. */
export type EarlierPage = {number: number; page: Page};

const rules = pageRulesOf('browser');

/**
 * Findings of `page`. `below` are the cached pages before it in this walk
 * (the one right below last), used for repeated ids and for the order across
 * the page boundary when `continues` says the new page follows it directly.
 */
export function pageFindings(page: Page, below: readonly EarlierPage[], continues: boolean): Finding[] {
	const previous = continues ? below.at(-1)?.page : undefined;
	const ids = new Map<string, number>();
	for (const {number, page: earlier} of below) {
		for (const object of earlier.objects) {
			if (!ids.has(object.id)) {
				ids.set(object.id, number);
			}
		}
	}

	return checkRules(rules, page, pageContext(page, {carry: orderCarry(previous?.objects ?? [], null), earlier: id => ids.get(id)}));
}
