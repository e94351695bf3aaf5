/**
 * The contract checks of an audit, fed one page at a time so a walk of a
 * million objects is checked as it streams, without keeping its pages. The
 * checks are the rules of the contract's catalogue the audit shows
 * (contract/rules.ts: each page rule its pure check); this
 * module is the report over a walk: it carries what crosses pages (ids seen,
 * the last object for order, the first total) and keeps a bounded sample of
 * evidence per check. Each check ends passed, failed (with the page and the
 * evidence), skipped (does not apply to this API or walk) or noted (something
 * worth telling that the contract does not forbid).
 */
import {orderCarry, orderComparable, type Finding, type OrderCarry} from '../contract/contract.js';
import {findingMessage} from '../contract/contract-text.js';
import {checkRules, pageContext, pageRulesOf, rulesShownBy, type RuleId} from '../contract/rules.js';
import type {Page} from '../contract/types.js';

export {expectedLimit, sentParameters, type SentParameters} from '../contract/contract.js';

/** An audit check is a rule of the contract's catalogue (contract/rules.ts) that the audit shows. */
export type CheckId = RuleId;

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'noted';

export type Evidence = {page: number; message: string};

export type CheckResult = {
	id: CheckId;
	title: string;
	/** The contract rule it checks, in words (each explained in docs/contract.md). */
	rule: string;
	status: CheckStatus;
	/** How many pages (or objects, for unique-ids and order) broke it. */
	failures: number;
	/** The first few failures (or notes), each with its page. */
	evidence: Evidence[];
};

type Definition = {id: CheckId; title: string; rule: string; commerceOnly?: boolean; bothEndsOnly?: boolean};

/** The audit's checks: the catalogue's rules it shows, in the catalogue's order; ends-agree is of a walk from both ends only. */
export const checkDefinitions: readonly Definition[] = rulesShownBy('audit').map(({id, title, rule, commerceOnly}) => ({
	id, title, rule, ...(commerceOnly ? {commerceOnly} : {}), ...(id === 'ends-agree' ? {bothEndsOnly: true} : {}),
}));

const rules = pageRulesOf('audit');

/** Evidence kept per check: enough to act on, bounded so a broken server cannot flood the report. */
export const evidenceLimit = 10;

/** A streaming checker: `add()` every page as it arrives, then `results()`. */
export class ContractChecks {
	private readonly state = new Map<CheckId, {failures: number; evidence: Evidence[]; notes: Evidence[]}>();
	private readonly seen = new Map<string, number>();
	/** The order carried across page boundaries, per chain of a walk from both ends (http/both-ends.ts). */
	private readonly previous = new Map<string, OrderCarry | null>();
	private firstTotal: number | null = null;
	private lastTotal: number | null = null;
	private commerce = false;
	private pages = 0;
	/** Whether two neighbours' created_at could be compared: not one means the order was not checked. */
	private ordered = false;
	/** A page of the back chain was taken: the two ends met (and agreed, or disagree() said otherwise). */
	private met = false;
	private readonly bothEnds: boolean;

	/** `bothEnds`: the walk is from both ends, and ends-agree is reported. */
	constructor({bothEnds = false}: {bothEnds?: boolean} = {}) {
		this.bothEnds = bothEnds;
		for (const definition of checkDefinitions) {
			this.state.set(definition.id, {failures: 0, evidence: [], notes: []});
		}
	}

	/**
	 * Checks one page; `page` numbers are 1-based and follow the walk (the
	 * order pages were read in). In a walk from both ends, `chain` names the
	 * page's chain (the order is checked along each) and only its first
	 * `take` objects are the walk's (the rest, past the meeting, the other
	 * chain's): ids are counted of those.
	 */
	add(page: Page, {chain = 'forward', take = page.objects.length}: {chain?: string; take?: number} = {}): void {
		this.pages += 1;
		this.met ||= chain === 'back';
		const number = this.pages;
		const taken = take === page.objects.length ? page.objects : page.objects.slice(0, take);
		const carry = this.previous.get(chain) ?? null;
		this.record(number, checkRules(rules, page, pageContext(page, {carry, taken, earlier: id => this.seen.get(id)})));
		for (const object of taken) {
			if (!this.seen.has(object.id)) {
				this.seen.set(object.id, number);
			}
		}

		// Once one pair of neighbours could be compared, the order was checked: the rest need not be looked at for it.
		this.ordered ||= orderComparable(page.objects, carry);

		this.previous.set(chain, orderCarry(page.objects, carry));
		if (page.api === 'commerce') {
			this.commerce = true;
			this.checkTotal(page, number);
		}
	}

	/**
	 * From both ends: the two ends disagreed where they met (`message` says
	 * how), after `page` pages; the walk went on as one chain from there.
	 */
	disagree(page: number, message: string): void {
		const state = this.state.get('ends-agree')!;
		state.failures += 1;
		if (state.evidence.length < evidenceLimit) {
			state.evidence.push({page, message});
		}
	}

	results(): CheckResult[] {
		return checkDefinitions.filter(definition => this.bothEnds || !definition.bothEndsOnly).map((definition) => {
			const state = this.state.get(definition.id)!;
			let status: CheckStatus = state.failures > 0 ? 'failed' : 'passed';
			if (status === 'passed' && state.notes.length > 0) {
				status = 'noted';
			}

			// The ends never met when the other end was let go first (the walk was one chain): nothing to compare.
			const unchecked = (definition.id === 'order' && !this.ordered) || (definition.id === 'ends-agree' && state.failures === 0 && !this.met);
			if ((definition.commerceOnly && !this.commerce) || this.pages === 0 || unchecked) {
				status = 'skipped';
			}

			return {
				id: definition.id,
				title: definition.title,
				rule: definition.rule,
				status,
				failures: state.failures,
				evidence: state.failures > 0 ? state.evidence : state.notes,
			};
		});
	}

	/** Counts each finding against its check; words only the first few (the rest cost nothing to keep). */
	private record(page: number, findings: readonly Finding[]): void {
		for (const finding of findings) {
			const state = this.state.get(finding.check)!;
			state.failures += 1;
			if (state.evidence.length < evidenceLimit) {
				state.evidence.push({page, message: findingMessage(finding, page)});
			}
		}
	}

	private note(id: CheckId, page: number, message: string): void {
		const state = this.state.get(id)!;
		if (state.notes.length < evidenceLimit) {
			state.notes.push({page, message});
		}
	}

	/** `total` is a property of the walk, not of one page: the audit notes when it moves. */
	private checkTotal(page: Page, number: number): void {
		const {pagination} = page;
		if (!('total' in pagination)) {
			return;
		}

		const {total} = pagination;
		if (this.firstTotal === null) {
			this.firstTotal = total;
		} else if (total !== this.lastTotal) {
			this.note('total', number, `total changed from ${this.lastTotal} to ${total} on page ${number}`);
		}

		this.lastTotal = total;
	}
}
