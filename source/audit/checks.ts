/**
 * The contract checks of an audit, fed one page at a time so a walk of a
 * million objects is checked as it streams, without keeping its pages. The
 * checks themselves are the contract module's pure per-page functions; this
 * module is the report over a walk: it carries what crosses pages (ids seen,
 * the last object for order, the first total) and keeps a bounded sample of
 * evidence per check. Each check ends passed, failed (with the page and the
 * evidence), skipped (does not apply to this API or walk) or noted (something
 * worth telling that the contract does not forbid).
 */
import {
	checkCommerceCounts, checkEcho, checkNextUri, checkOrder, checkRepeatedIds, sentParameters, type Finding, type OrderCarry,
} from '../contract/contract.js';
import {findingMessage} from '../contract/contract-text.js';
import type {Page} from '../contract/types.js';

export {expectedLimit, sentParameters, type SentParameters} from '../contract/contract.js';

export type CheckId =
	| 'unique-ids'
	| 'order'
	| 'echo-limit'
	| 'echo-order'
	| 'echo-cursors'
	| 'next-uri-params'
	| 'yielded'
	| 'cursor-range'
	| 'total'
	| 'ends-agree';

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

export const checkDefinitions: readonly Definition[] = [
	{id: 'unique-ids', title: 'every object id is unique across the walk', rule: 'a walk sees each object once, even while the list changes'},
	{id: 'order', title: 'objects are in the order asked for, by created_at then id', rule: 'the list comes in the order asked for, newest first by default'},
	{id: 'echo-limit', title: 'pagination.limit reports the limit sent', rule: 'pagination reports what was sent'},
	{id: 'echo-order', title: 'pagination.order reports the order sent', rule: 'pagination reports what was sent'},
	{id: 'echo-cursors', title: 'pagination.starting_after and ending_before report the cursors sent', rule: 'pagination reports what was sent'},
	{id: 'next-uri-params', title: 'next_uri carries every pagination parameter in use', rule: 'following next_uri keeps the parameters in use'},
	{id: 'yielded', title: 'commerce yielded equals the number of objects in data', rule: 'commerce counts describe the page and the list', commerceOnly: true},
	{id: 'cursor-range', title: 'commerce cursor_range is the first and last id of the page', rule: 'commerce counts describe the page and the list', commerceOnly: true},
	{id: 'total', title: 'commerce total stays the same through the walk', rule: 'commerce counts describe the page and the list', commerceOnly: true},
	// Reported of a walk from both ends only (http/both-ends.ts): the overlap where the chains meet, and a commerce total against the count.
	{id: 'ends-agree', title: 'the two ends agree where they meet', rule: 'asc is the exact reverse of desc', bothEndsOnly: true},
];

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
	/** Pairs of neighbours whose created_at could be compared; none means the order was not checked. */
	private ordered = 0;
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
		const sent = sentParameters(page.requestUrl);
		const taken = take === page.objects.length ? page.objects : page.objects.slice(0, take);
		this.record(number, checkRepeatedIds(taken, id => this.seen.get(id)));
		for (const object of taken) {
			if (!this.seen.has(object.id)) {
				this.seen.set(object.id, number);
			}
		}

		// The order asked for (default desc), not the one echoed: echo-order checks the echo.
		const order = checkOrder(page.objects, sent.order === 'asc' ? 'asc' : 'desc', this.previous.get(chain) ?? null);
		this.previous.set(chain, order.carry);
		this.ordered += order.compared;
		this.record(number, order.findings);
		this.record(number, checkEcho(page, sent));
		this.record(number, checkNextUri(page, sent));
		if (page.api === 'commerce') {
			this.commerce = true;
			this.record(number, checkCommerceCounts(page));
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
			const unchecked = (definition.id === 'order' && this.ordered === 0) || (definition.id === 'ends-agree' && state.failures === 0 && !this.met);
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
			// Over-limit is a contract check the audit does not report yet.
			const state = this.state.get(finding.check as CheckId);
			if (!state) {
				continue;
			}

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
