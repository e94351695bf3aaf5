/**
 * Scenario presets: the clean sandbox (`restricted`, the demo's default), one
 * that changes while you walk (`churn`), and faulty ones that each break
 * exactly one rule of the contract so that every audit check can be shown
 * failing on purpose. A fault rewrites the rendered envelope of one page only
 * (the second page of a walk from the start), so the rest of the walk stays
 * clean and the check that catches it names that page.
 */
import type {ScenarioName} from './scenario-names.js';
import type {ListObject} from '../../contract/types.js';
import type {Viewer} from '../data/ordered-index.js';
import type {Collection} from '../data/store.js';
import type {Window} from '../data/window.js';
import type {Finding} from '../../contract/contract.js';

// The names live with the contract, so the client can check --scenario
// without importing the sandbox.
export {isScenario, scenarioNames, type ScenarioName} from './scenario-names.js';

/** Changes a second made by the `churn` preset. */
export const churnPerSecond = 5;

/**
 * The contract's rules each scenario breaks: the checks `audit` fails on it, and nothing else
 * (test/audit/scenarios.test.ts audits each scenario against this table).
 */
export const scenarioBreaks: Readonly<Record<ScenarioName, ReadonlyArray<Finding['check']>>> = {
	restricted: [],
	churn: [],
	duplicate: ['unique-ids', 'over-limit'],
	'wrong-limit': ['echo-limit'],
	unordered: ['order'],
	'yielded-mismatch': ['yielded'],
	'missing-param': ['next-uri-params'],
};

const scenarioWords: Record<ScenarioName, string> = {
	restricted: 'clean; the restricted credential sees clumps of the list (the default)',
	churn: `clean, with ${churnPerSecond} inserts and removals a second while you walk`,
	duplicate: 'page 2 repeats the last object of page 1',
	'wrong-limit': 'page 2 reports a limit other than the one sent',
	unordered: 'page 2 has two objects out of order',
	'yielded-mismatch': 'commerce page 2 reports yielded one more than data holds',
	'missing-param': 'next_uri of page 2 drops the limit in use',
};

/** One line each, for `--help` and the README: what the scenario does, and the checks audit fails on it. */
export const scenarioSummaries = Object.fromEntries(Object.entries(scenarioWords).map(([name, words]) => {
	const breaks = scenarioBreaks[name as ScenarioName];
	return [name, breaks.length === 0 ? words : `${words} (audit: ${breaks.join(', ')})`];
})) as Record<ScenarioName, string>;

export type Envelope = {pagination: Record<string, unknown>; data: ListObject[]} & Record<string, unknown>;

export type PageContext = {window: Window; collection: Collection; viewer: Viewer};

/** Rewrites one rendered envelope; the identity for clean scenarios. */
export type Fault = (envelope: Envelope, page: PageContext) => Envelope;

/**
 * Whether this page is the second of a walk from the start: its
 * `starting_after` cursor is the `limit`-th object of the list in this order.
 */
function isSecondPage({window, collection}: PageContext): boolean {
	const {startingAfter, limit, order} = window.query;
	if (startingAfter === null) {
		return false;
	}

	const {index} = collection;
	const serial = index.serialOf(startingAfter);
	if (serial === undefined) {
		return false;
	}

	const position = index.positionOf(serial);
	const rank = order === 'asc' ? position + 1 : index.length - position;
	return rank === limit;
}

/**
 * The last object of page 1 the caller saw: the cursor (page 1's last
 * object), or, where the cursor is hidden from a restricted caller, the
 * visible one nearest before it on that page. Undefined when page 1 showed
 * the caller nothing.
 */
function lastSeenOnPageOne({window, collection, viewer}: PageContext): number | undefined {
	const {index} = collection;
	const cursor = index.serialOf(window.query.startingAfter!);
	if (cursor === undefined) {
		return undefined;
	}

	const step = window.query.order === 'asc' ? -1 : 1;
	let position = index.positionOf(cursor);
	for (let looked = 0; looked < window.query.limit && position >= 0 && position < index.length; looked++, position += step) {
		const serial = index.serialAt(position);
		if (index.isLiveAt(position) && (viewer === 'full' || !index.isHiddenSerial(serial))) {
			return serial;
		}
	}

	return undefined;
}

const faults: Partial<Record<ScenarioName, (envelope: Envelope, page: PageContext) => void>> = {
	duplicate(envelope, page) {
		// Page 1's last object shown again repeats it across pages; a faulty
		// server still keeps permissions: never one the caller may not see.
		const serial = lastSeenOnPageOne(page);
		if (serial === undefined) {
			return;
		}

		const {data, pagination} = envelope;
		data.unshift(page.collection.render(serial));
		// A commerce server that repeats an object still reports the page it sent:
		// only uniqueness breaks, not yielded or cursor_range.
		if ('yielded' in pagination) {
			pagination.yielded = data.length;
			pagination.cursor_range = [data[0]!.id, data.at(-1)!.id];
		}
	},
	'wrong-limit'(envelope) {
		envelope.pagination.limit = Number(envelope.pagination.limit) + 1;
	},
	unordered(envelope) {
		// The middle two swap, so first and last (cursor_range, links) stay right.
		const {data} = envelope;
		if (data.length >= 4) {
			[data[1], data[2]] = [data[2]!, data[1]!];
		}
	},
	'yielded-mismatch'(envelope) {
		if (typeof envelope.pagination.yielded === 'number') {
			envelope.pagination.yielded += 1;
		}
	},
	'missing-param'(envelope) {
		const next = envelope.pagination.next_uri;
		if (typeof next === 'string') {
			envelope.pagination.next_uri = next.replace(/([?&])limit=\d+&?/, '$1').replace(/[?&]$/, '');
		}
	},
};

/** The envelope rewrite of a scenario: a fault on page 2, or nothing. */
export function faultFor(scenario: ScenarioName): Fault {
	const fault = faults[scenario];
	if (!fault) {
		return envelope => envelope;
	}

	return (envelope, page) => {
		if (isSecondPage(page)) {
			fault(envelope, page);
		}

		return envelope;
	};
}
