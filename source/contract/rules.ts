/**
 * The one catalogue of the contract's rules that pagewalk checks: each rule
 * its id, the clause of docs/contract.md it enforces, its one wording, its
 * scope and, for a page rule, its pure check. The browser's per-page findings,
 * dump's findings and audit's checks all run the rules of this table (and no
 * other), so a rule cannot be checked by one and missing from another: a
 * consumer that does not show a rule says why here, and
 * test/contract/rules.test.ts holds each consumer to the table.
 *
 * Scopes: a `page` rule is checked on each page as it comes, from the page and
 * what its chain carries from the pages before it (the last object, for the
 * order across the boundary; the ids seen, for repeats). A `walk` rule is a
 * property of a whole walk, decided by what walks it: a `total` that moves,
 * two ends that disagree where they meet (http/both-ends.ts).
 */
import {
	checkCommerceCounts, checkEcho, checkNextUri, checkOrder, checkOverLimit, checkRepeatedIds, contractDefaults, sentParameters,
	type Finding, type OrderCarry, type SentParameters,
} from './contract.js';
import type {ListObject, Order, Page} from './types.js';

export type Consumer = 'browser' | 'dump' | 'audit';
export type RuleScope = 'page' | 'walk';
export type RuleId = Finding['check'] | 'total' | 'ends-agree';

/** A heading of docs/contract.md's rules: the clause a rule enforces. */
export type Clause = 'page-size' | 'pagination-echo' | 'next-uri-carries-parameters' | 'commerce-counts' | 'default-order' | 'consistent-under-change';

/** What a page rule may look at beside the page: what its chain carries from the pages before it. */
export type PageContext = {
	sent: SentParameters;
	/** The order asked for (the server's default when none was sent), not the one echoed. */
	order: Order;
	/** The last object of the page before on this chain, for the order across the boundary; null on a chain's first page. */
	carry: OrderCarry | null;
	/** The page's objects that are the walk's: from both ends, the meeting page holds the other chain's beyond them. */
	taken: readonly ListObject[];
	/** Looks an id up among the earlier pages the consumer keeps: the page it was on, or undefined. */
	earlier: (id: string) => number | undefined;
};

type RuleBase = {
	id: RuleId;
	clause: Clause;
	/** The clause in words, as the audit report quotes it beside the title. */
	rule: string;
	/** What the rule checks, in the one wording every consumer and doc uses. */
	title: string;
	/** A `note` is told, never failed: the contract does not forbid it. */
	kind: 'finding' | 'note';
	/** Of the commerce API only (its pagination alone has the fields). */
	commerceOnly?: true;
	/** Each consumer that does not show this rule, and why. */
	excluded?: Partial<Record<Consumer, string>>;
};

/**
 * A page check: what one pass over a page finds. Rules of one clause checked in one pass share one
 * check (the same function), which may find for each of them; `checkRules` runs each check once per
 * page and hands each rule the findings of its id.
 */
export type PageCheck = (page: Page, context: PageContext) => Finding[];
export type PageRule = RuleBase & {scope: 'page'; check: PageCheck};
export type WalkRule = RuleBase & {scope: 'walk'; decidedBy: string};
export type Rule = PageRule | WalkRule;

const echo: PageCheck = (page, context) => checkEcho(page, context.sent);
const commerceCounts: PageCheck = page => checkCommerceCounts(page);

const oneChain = 'the browser walks one chain, page by page, and never sees a whole walk';

export const contractRules: readonly Rule[] = [
	{
		id: 'unique-ids', clause: 'consistent-under-change', scope: 'page', kind: 'finding',
		rule: 'a walk sees each object once, even while the list changes',
		title: 'every object id is unique across the walk',
		check: (_page, context) => checkRepeatedIds(context.taken, context.earlier),
	},
	{
		id: 'order', clause: 'default-order', scope: 'page', kind: 'finding',
		rule: 'the list comes in the order asked for, newest first by default',
		title: 'objects are in the order asked for, by created_at then id',
		check: (page, context) => checkOrder(page.objects, context.order, context.carry).findings,
	},
	{
		id: 'over-limit', clause: 'page-size', scope: 'page', kind: 'finding',
		rule: 'a page never holds more objects than the limit in effect',
		title: 'data holds no more objects than the limit in effect',
		check: (page, context) => checkOverLimit(page, context.sent),
	},
	{
		id: 'echo-limit', clause: 'pagination-echo', scope: 'page', kind: 'finding',
		rule: 'pagination reports what was sent',
		title: 'pagination.limit reports the limit sent',
		check: echo,
	},
	{
		id: 'echo-order', clause: 'pagination-echo', scope: 'page', kind: 'finding',
		rule: 'pagination reports what was sent',
		title: 'pagination.order reports the order sent',
		check: echo,
	},
	{
		id: 'echo-cursors', clause: 'pagination-echo', scope: 'page', kind: 'finding',
		rule: 'pagination reports what was sent',
		title: 'pagination.starting_after and ending_before report the cursors sent',
		check: echo,
	},
	{
		id: 'next-uri-params', clause: 'next-uri-carries-parameters', scope: 'page', kind: 'finding',
		rule: 'following next_uri keeps the parameters in use',
		title: 'next_uri carries every pagination parameter in use',
		check: (page, context) => checkNextUri(page, context.sent),
	},
	{
		id: 'yielded', clause: 'commerce-counts', scope: 'page', kind: 'finding', commerceOnly: true,
		rule: 'commerce counts describe the page and the list',
		title: 'commerce yielded equals the number of objects in data',
		check: commerceCounts,
	},
	{
		id: 'cursor-range', clause: 'commerce-counts', scope: 'page', kind: 'finding', commerceOnly: true,
		rule: 'commerce counts describe the page and the list',
		title: 'commerce cursor_range is the first and last id of the page',
		check: commerceCounts,
	},
	{
		id: 'total', clause: 'commerce-counts', scope: 'walk', kind: 'note', commerceOnly: true,
		rule: 'commerce counts describe the page and the list',
		title: 'commerce total stays the same through the walk',
		decidedBy: 'the audit, from the first total to the last (audit/checks.ts)',
		excluded: {
			browser: oneChain,
			dump: 'a total that moves is a note, not a broken rule (objects may be added during a walk), and dump tells broken rules only',
		},
	},
	{
		id: 'ends-agree', clause: 'default-order', scope: 'walk', kind: 'finding',
		rule: 'asc is the exact reverse of desc',
		title: 'the two ends agree where they meet',
		decidedBy: 'the walk from both ends, where the two chains meet (http/both-ends.ts)',
		excluded: {browser: oneChain},
	},
];

/** The scopes each consumer shows; a rule of a scope it does not show is excluded by name in the table all the same. */
export const consumerScopes: Readonly<Record<Consumer, readonly RuleScope[]>> = {
	browser: ['page'],
	dump: ['page', 'walk'],
	audit: ['page', 'walk'],
};

/** The rules `consumer` shows: of the scopes it shows, and not excluded for it. */
export function rulesShownBy(consumer: Consumer): Rule[] {
	return contractRules.filter(rule => consumerScopes[consumer].includes(rule.scope) && rule.excluded?.[consumer] === undefined);
}

/** The page rules `consumer` runs on every page. */
export function pageRulesOf(consumer: Consumer): PageRule[] {
	return rulesShownBy(consumer).filter((rule): rule is PageRule => rule.scope === 'page');
}

/** The rule of an id. */
export function ruleOf(id: RuleId): Rule {
	return contractRules.find(rule => rule.id === id)!;
}

/** The order a request asked for, read back from its URL: desc (the default) unless it sent asc. */
export function askedOrder(sent: SentParameters): Order {
	return sent.order === 'asc' ? 'asc' : contractDefaults.order;
}

/** The context of a page with nothing carried: its own objects, the order it asked for. */
export function pageContext(page: Page, carried: Partial<Omit<PageContext, 'sent' | 'order'>> = {}): PageContext {
	const sent = sentParameters(page.requestUrl);
	return {sent, order: askedOrder(sent), carry: null, taken: page.objects, earlier: () => undefined, ...carried};
}

/**
 * Runs `rules` on a page: each check they share once, its findings split by rule, in the order of
 * `rules` (each rule's findings in the order its check found them).
 */
export function checkRules(rules: readonly PageRule[], page: Page, context: PageContext): Finding[] {
	const found = [...new Set(rules.map(rule => rule.check))].flatMap(check => check(page, context));
	return rules.flatMap(rule => found.filter(finding => finding.check === rule.id));
}
