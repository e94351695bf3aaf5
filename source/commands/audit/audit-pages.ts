import {canWalkBothEnds, walkBothEnds, type EndsStep} from '../../http/both-ends.js';
import type {PageClient} from '../../http/http-client.js';
import {walk} from '../../http/walker.js';
import type {WalkConfig, WalkQuery} from '../../config/options.js';
import type {Order, Page, RetryNotice, WalkEnd} from '../../contract/types.js';
import {WalkFindings} from '../../output/walk-findings.js';

/**
 * The walk of one list's audit, the same for an audit of one list
 * (audit.ts) and of every account's (audit-lists.ts): its bound, whether it
 * goes from both ends, its pages.
 */

/** Generous, so a real list is read to its end, yet bounded so a server that never ends cannot hold CI forever. */
export const defaultMaxPages = 10_000;

/**
 * Whether a walk of the audit goes from both ends. Only when asked
 * (--both-ends): an audit checks the pages a walk in the order asked for
 * meets, and from both ends the pages past the meeting point in either order
 * are never read, so a fault on one of them would pass unseen. Where any walk
 * may (canWalkBothEnds), under the same bound in pages; not where walks are
 * compared page by page (`compared`: --both-orders, a second credential):
 * their pages must fall alike.
 */
export function auditsBothEnds(config: WalkConfig, options: {bothEnds?: boolean}, compared: boolean): boolean {
	return options.bothEnds === true && !compared && canWalkBothEnds(config);
}

/**
 * The pages of one walk of the audit, through `client` from the first page
 * of `query`: the walker's, or from both ends (`bothEnds`, auditsBothEnds),
 * whose other end's pages are checked apart first (a finding there lets
 * that chain go, and the audit is one chain's) and whose ends' disagreements
 * are told in `disagreements` as the walk goes (the ends-agree check). The
 * one walk of a list's audit: of one list, and of each account's
 * (audit-lists.ts).
 */
export function auditPages(client: PageClient, config: WalkConfig, query: WalkQuery, options: {order: Order; bothEnds: boolean; signal: AbortSignal | undefined; onRetry: (notice: RetryNotice) => void}): {pages: AsyncGenerator<Page | EndsStep, WalkEnd>; disagreements?: string[]} {
	const {order, signal, onRetry} = options;
	if (!options.bothEnds) {
		return {pages: walk(client, config, {startUrl: client.urlFor(query), signal, readAhead: true, maxPages: config.maxPages ?? defaultMaxPages, onRetry})};
	}

	const backFindings = new WalkFindings();
	const doubt = (page: Page) => {
		backFindings.add(page);
		return backFindings.total > 0 ? 'a page in the other order broke a contract rule' : undefined;
	};

	// Where the two ends disagree they meet, the walk goes on as one chain and ends-agree fails.
	const disagreements: string[] = [];
	const onDisagreement = (reason: string) => {
		disagreements.push(reason);
	};

	return {pages: walkBothEnds(client, query, {order, signal, onRetry, back: 'hold', doubt, maxPages: defaultMaxPages, quickMs: 0, onDisagreement}), disagreements};
}

