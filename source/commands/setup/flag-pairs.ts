/**
 * Pairs of dump's and audit's flags where one would silently undo the
 * other: refused before anything is sent, in one sentence naming both
 * (their names made from the flag table), never one of them dropped
 * unsaid. Pairs that work together are not here: --all with --max-pages or
 * --max-items (a bound on the whole walk), --quiet with --fail-on-findings
 * (the closing count still says why the status is 1).
 */
import {kebabName, type auditFlags, type dumpFlags} from '../../config/flags.js';
import {flag} from '../../config/hints.js';
import type {WalkQuery} from '../../config/options.js';
import {UsageError} from '../../text/errors.js';

type FlagName = keyof typeof dumpFlags | keyof typeof auditFlags;
type Flags = Partial<Record<FlagName, unknown>>;

/** Who prints each sentence: a flag it names is checked against these commands' tables (hints.ts). */
const audit = ['audit'] as const;
const dump = ['dump'] as const;
const both = ['dump', 'audit'] as const;

const given = (flags: Flags, name: FlagName) => flags[name] !== undefined && flags[name] !== false;

/** The first of `names` given, if any. */
const firstGiven = <N extends FlagName>(flags: Flags, names: readonly N[]) => names.find(name => given(flags, name));

/** A walk from both ends reads both ends at once: a bound or a cursor asks for one end and its order. `endpoint`: the cursor was written into the endpoint. */
function refuseBoundOrCursor(flags: Flags, endpoint = false): void {
	const bound = firstGiven(flags, ['maxPages', 'maxItems']);
	if (bound) {
		throw new UsageError(`Give ${flag(both, bound)} or ${flag(both, 'bothEnds')}, not both: a bound counts from the first page in one order, and a walk from both ends reads from both ends of the list at once.`);
	}

	const cursor = firstGiven(flags, ['startingAfter', 'endingBefore']);
	if (cursor) {
		const named = endpoint ? `an endpoint with ${kebabName(cursor).replace('-', '_')}` : flag(both, cursor);
		throw new UsageError(`Give ${named} or ${flag(both, 'bothEnds')}, not both: a walk from both ends reads a whole list, from its first page and its last, not from a cursor.`);
	}
}

/** Audit: --both-ends with a flag that would make it walk one chain anyway. */
export function refuseAuditPairs(flags: Flags): void {
	if (!given(flags, 'bothEnds')) {
		return;
	}

	if (given(flags, 'bothOrders')) {
		throw new UsageError(`Give ${flag(audit, 'bothOrders')} or ${flag(audit, 'bothEnds')}, not both: ${flag(audit, 'bothOrders')} compares two whole walks, one in each order, and a walk from both ends reads each order only up to where they meet.`);
	}

	const compare = firstGiven(flags, ['compareEnv', 'compareProfile']);
	if (compare) {
		throw new UsageError(`Give ${flag(audit, compare)} or ${flag(audit, 'bothEnds')}, not both: the walks of two credentials are compared page by page, so each walks from the first page.`);
	}

	refuseBoundOrCursor(flags);
}

/** Dump: --both-ends where one chain is walked anyway, and --no-csv-guard where there are no cells to guard. */
export function refuseDumpPairs(flags: Flags, format: string): void {
	if (given(flags, 'noCsvGuard') && format !== 'csv') {
		throw new UsageError(`${flag(dump, 'noCsvGuard')} applies to ${flag(dump, 'format')} csv only: ${format} writes no spreadsheet cells to guard.`);
	}

	if (!given(flags, 'bothEnds')) {
		return;
	}

	if (!given(flags, 'all')) {
		throw new UsageError(`${flag(dump, 'bothEnds')} walks a whole list: give it with ${flag(dump, 'all')} (without it dump writes one page).`);
	}

	if (format !== 'ndjson' && format !== 'json') {
		throw new UsageError(`Give ${flag(dump, 'format')} ${format} or ${flag(dump, 'bothEnds')}, not both: ${format} text depends on how the pages fall, so it is written from the first page only.`);
	}

	if (given(flags, 'failOnFindings')) {
		throw new UsageError(`Give ${flag(dump, 'failOnFindings')} or ${flag(dump, 'bothEnds')}, not both: findings are checked along one walk, every page in order from the first.`);
	}

	refuseBoundOrCursor(flags);
}

/** Either command: a cursor written into the endpoint (`…?starting_after=…`) counts as its flag. */
export function refuseCursorInEndpoint(flags: Flags, query: WalkQuery): void {
	if (given(flags, 'bothEnds') && (query.startingAfter !== undefined || query.endingBefore !== undefined)) {
		// A cursor flag was refused before the config was read: this one is the endpoint's.
		refuseBoundOrCursor({bothEnds: true, ...(query.startingAfter === undefined ? {endingBefore: query.endingBefore} : {startingAfter: query.startingAfter})}, true);
	}
}
