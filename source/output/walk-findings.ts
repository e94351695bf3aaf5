import {orderCarry, type OrderCarry} from '../contract/contract.js';
import {findingMessage} from '../contract/contract-text.js';
import {checkRules, pageContext, pageRulesOf, type RuleId} from '../contract/rules.js';
import type {Page} from '../contract/types.js';
import {flag} from '../config/hints.js';

const rules = pageRulesOf('dump');

/**
 * The contract's page rules over a dump, the ones the browser runs on every
 * page it shows (contract/rules.ts, those dump shows, worded by
 * contract/contract-text.ts). Work and memory are bounded as the dump's are: repeats are
 * looked for among the last `windowPages` pages' ids, as the browser looks
 * among the pages it keeps; `audit` checks a whole walk.
 *
 * The first finding of each kind is told at once (one line); the rest are
 * counted, and summary() says how many of each there were. Beside the
 * page rules, the walk rule dump shows: from both ends, the two ends
 * disagreed where they met (`ends-agree`, http/both-ends.ts).
 */
/** The counts of the walks of one dump: several lists (every account's) tell the first of each kind once in all, and one summary. */
export class FindingsTally {
	readonly counts = new Map<RuleId, number>();
	pages = 0;
}

export class WalkFindings {
	readonly #windowPages: number;
	/**
	 * Ids of the last pages, oldest first, one Set a page: a page gone from
	 * the window is dropped whole, and an id's hash is computed once, so a
	 * page costs a Set of its ids and a lookup in each kept one.
	 */
	readonly #recent: Array<{number: number; ids: Set<string>}> = [];
	readonly #tally: FindingsTally;
	readonly #counts: Map<RuleId, number>;
	#carry: OrderCarry | null = null;
	#pages = 0;

	constructor(windowPages = 20, tally = new FindingsTally()) {
		this.#windowPages = windowPages;
		this.#tally = tally;
		this.#counts = tally.counts;
	}

	/** Checks the next page of the walk; returns one sentence for each kind of finding not seen before. */
	add(page: Page): string[] {
		this.#pages += 1;
		this.#tally.pages += 1;
		const number = this.#pages;
		const findings = checkRules(rules, page, pageContext(page, {carry: this.#carry, earlier: id => this.#earlier(id)}));
		this.#carry = orderCarry(page.objects, this.#carry);
		this.#remember(number, page);
		const told: string[] = [];
		for (const finding of findings) {
			const count = this.#counts.get(finding.check) ?? 0;
			this.#counts.set(finding.check, count + 1);
			if (count === 0) {
				told.push(`page ${number}: ${findingMessage(finding, number)}`);
			}
		}

		return told;
	}

	/**
	 * The two ends of a walk from both ends disagreed where they met (the
	 * sentence says how): the walk went on as one chain. The line to tell.
	 */
	disagreement(reason: string): string {
		this.#counts.set('ends-agree', (this.#counts.get('ends-agree') ?? 0) + 1);
		return `from both ends, ${reason}; the rest of the list is walked from the first end alone, as ${flag(['dump', 'audit'], 'oneChain')} walks it.`;
	}

	/** How many findings of each rule there were. */
	get counts(): ReadonlyMap<RuleId, number> {
		return this.#counts;
	}

	/** How many findings there were. */
	get total(): number {
		let sum = 0;
		for (const count of this.#counts.values()) {
			sum += count;
		}

		return sum;
	}

	/**
	 * One line counting the findings by kind, or undefined when there were
	 * none; `audit`: the audit of the same walk, as a command line; `told`:
	 * false when --quiet kept each kind's first line off stderr.
	 */
	summary(audit: () => string, told = true): string | undefined {
		if (this.#counts.size === 0) {
			return undefined;
		}

		const kinds = [...this.#counts].map(([check, count]) => `${check} ${count}`).join(', ');
		const where = told ? 'each kind told once above' : `${flag(['dump'], 'quiet')} left each one out`;
		const pages = this.#tally.pages;
		return `contract findings in ${pages} ${pages === 1 ? 'page' : 'pages'}: ${kinds} (${where}; ${audit()} reports the whole walk).`;
	}

	#earlier(id: string): number | undefined {
		for (const {number, ids} of this.#recent) {
			if (ids.has(id)) {
				return number;
			}
		}

		return undefined;
	}

	#remember(number: number, page: Page): void {
		const ids = new Set<string>();
		for (const object of page.objects) {
			ids.add(object.id);
		}

		this.#recent.push({number, ids});
		if (this.#recent.length > this.#windowPages) {
			this.#recent.shift();
		}
	}
}
