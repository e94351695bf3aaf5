/**
 * The contract checks of an audit, fed one page at a time so a walk of a
 * million objects is checked as it streams, without keeping its pages. Each
 * check ends passed, failed (with the page and the evidence), skipped (does
 * not apply to this API or walk) or noted (something worth telling that the
 * contract does not forbid).
 */
import type {ListObject, Order, Page} from '../core/types.js';
import {defaultLimit, queryParameter} from './fill.js';

export type CheckId =
	| 'unique-ids'
	| 'order'
	| 'echo-limit'
	| 'echo-order'
	| 'echo-cursors'
	| 'next-uri-params'
	| 'yielded'
	| 'cursor-range'
	| 'total';

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'noted';

export type Evidence = {page: number; message: string};

export type CheckResult = {
	id: CheckId;
	title: string;
	/** The contract rule or section it checks. */
	rule: string;
	status: CheckStatus;
	/** How many pages (or objects, for unique-ids and order) broke it. */
	failures: number;
	/** The first few failures (or notes), each with its page. */
	evidence: Evidence[];
};

type Definition = {id: CheckId; title: string; rule: string; commerceOnly?: boolean};

export const checkDefinitions: readonly Definition[] = [
	{id: 'unique-ids', title: 'every object id is unique across the walk', rule: 'rule 4, rule 8'},
	{id: 'order', title: 'objects are in the order asked for, by created_at then id', rule: 'rule 3, 4.2 order'},
	{id: 'echo-limit', title: 'pagination.limit reports the limit sent', rule: 'rule 9'},
	{id: 'echo-order', title: 'pagination.order reports the order sent', rule: 'rule 9'},
	{id: 'echo-cursors', title: 'pagination.starting_after and ending_before report the cursors sent', rule: 'rule 9'},
	{id: 'next-uri-params', title: 'next_uri carries every pagination parameter in use', rule: 'rule 5'},
	{id: 'yielded', title: 'commerce yielded equals the number of objects in data', rule: '2.3 yielded', commerceOnly: true},
	{id: 'cursor-range', title: 'commerce cursor_range is the first and last id of the page', rule: '2.3 cursor_range', commerceOnly: true},
	{id: 'total', title: 'commerce total stays the same through the walk', rule: '2.3 total', commerceOnly: true},
];

/** Evidence kept per check: enough to act on, bounded so a broken server cannot flood the report. */
export const evidenceLimit = 10;

/** What the request asked for, read back from its URL. */
export type SentParameters = {
	/** The raw `limit` value, or null when not sent. */
	limit: string | null;
	order: string | null;
	startingAfter: string | null;
	endingBefore: string | null;
};

export function sentParameters(url: string): SentParameters {
	return {
		limit: queryParameter(url, 'limit'),
		order: queryParameter(url, 'order'),
		startingAfter: queryParameter(url, 'starting_after'),
		endingBefore: queryParameter(url, 'ending_before'),
	};
}

/** The limit the server should report for what was sent: omitted or 0 mean the default of 25. */
export function expectedLimit(sent: string | null): number {
	if (sent === null || sent === '' || Number(sent) === 0) {
		return defaultLimit;
	}

	return Number(sent);
}

/** Whether `value` in next_uri keeps the limit in use: the same number, or 25 for a sent 0. */
function sameLimit(sent: string, value: string): boolean {
	return Number(value) === Number(sent) || (Number(sent) === 0 && Number(value) === defaultLimit);
}

/** created_at as a number when it parses; the raw string otherwise; null when absent. */
function createdKey(object: ListObject): number | string | null {
	const value = object['created_at'];
	if (typeof value !== 'string') {
		return null;
	}

	const time = Date.parse(value);
	return Number.isNaN(time) ? value : time;
}

/** Compares two objects for `asc`: negative when `a` comes first. Null when created_at cannot be compared. */
function compareAscending(a: ListObject, aKey: number | string | null, b: ListObject, bKey: number | string | null): number | null {
	if (aKey === null || bKey === null || typeof aKey !== typeof bKey) {
		return null;
	}

	if (aKey !== bKey) {
		return aKey < bKey ? -1 : 1;
	}

	return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

function stamp(object: ListObject): string {
	const created = object['created_at'];
	return typeof created === 'string' ? `${object.id} (created_at ${created})` : object.id;
}

/** A streaming checker: `add()` every page as it arrives, then `results()`. */
export class ContractChecks {
	private readonly state = new Map<CheckId, {failures: number; evidence: Evidence[]; notes: Evidence[]}>();
	private readonly seen = new Map<string, number>();
	private previous: {object: ListObject; key: number | string | null} | null = null;
	private firstTotal: number | null = null;
	private lastTotal: number | null = null;
	private commerce = false;
	private pages = 0;
	/** Pairs of neighbours whose created_at could be compared; none means the order was not checked. */
	private ordered = 0;

	constructor() {
		for (const definition of checkDefinitions) {
			this.state.set(definition.id, {failures: 0, evidence: [], notes: []});
		}
	}

	/** Checks one page; `page` numbers are 1-based and follow the walk. */
	add(page: Page): void {
		this.pages += 1;
		const number = this.pages;
		const sent = sentParameters(page.requestUrl);
		this.checkIds(page, number);
		this.checkOrder(page, number, sent);
		this.checkEcho(page, number, sent);
		this.checkNextUri(page, number, sent);
		if (page.api === 'commerce') {
			this.commerce = true;
			this.checkCommerce(page, number);
		}
	}

	results(): CheckResult[] {
		return checkDefinitions.map((definition) => {
			const state = this.state.get(definition.id)!;
			let status: CheckStatus = state.failures > 0 ? 'failed' : 'passed';
			if (status === 'passed' && state.notes.length > 0) {
				status = 'noted';
			}

			const unchecked = definition.id === 'order' && this.ordered === 0;
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

	private fail(id: CheckId, page: number, message: () => string): void {
		const state = this.state.get(id)!;
		state.failures += 1;
		if (state.evidence.length < evidenceLimit) {
			state.evidence.push({page, message: message()});
		}
	}

	private note(id: CheckId, page: number, message: string): void {
		const state = this.state.get(id)!;
		if (state.notes.length < evidenceLimit) {
			state.notes.push({page, message});
		}
	}

	private checkIds(page: Page, number: number): void {
		for (const object of page.objects) {
			const first = this.seen.get(object.id);
			if (first === undefined) {
				this.seen.set(object.id, number);
			} else {
				this.fail('unique-ids', number, () =>
					first === number
						? `id ${object.id} appears twice on page ${number}`
						: `id ${object.id} on page ${number} was already on page ${first}`);
			}
		}
	}

	private checkOrder(page: Page, number: number, sent: SentParameters): void {
		// The order asked for (default desc), not the one echoed: echo-order checks the echo.
		const direction = sent.order === 'asc' ? 1 : -1;
		const order: Order = direction === 1 ? 'asc' : 'desc';
		for (const object of page.objects) {
			const key = createdKey(object);
			const previous = this.previous;
			this.previous = {object, key};
			if (previous === null) {
				continue;
			}

			const comparison = compareAscending(previous.object, previous.key, object, key);
			if (comparison === null) {
				continue;
			}

			this.ordered += 1;
			if (comparison * direction > 0) {
				this.fail('order', number, () => `${stamp(object)} on page ${number} follows ${stamp(previous.object)} in ${order} order`);
			}
		}
	}

	private checkEcho(page: Page, number: number, sent: SentParameters): void {
		const pagination = page.pagination;
		const limit = expectedLimit(sent.limit);
		if (pagination.limit !== limit) {
			const asked = sent.limit === null ? 'no limit (default 25)' : Number(sent.limit) === 0 ? 'limit=0 (default 25)' : `limit=${sent.limit}`;
			this.fail('echo-limit', number, () => `sent ${asked} but pagination.limit is ${JSON.stringify(pagination.limit)}`);
		}

		const order = sent.order ?? 'desc';
		if (pagination.order !== order) {
			const asked = sent.order === null ? 'no order (default desc)' : `order=${sent.order}`;
			this.fail('echo-order', number, () => `sent ${asked} but pagination.order is ${JSON.stringify(pagination.order)}`);
		}

		const wrong: string[] = [];
		if ((pagination.starting_after ?? null) !== sent.startingAfter) {
			wrong.push(`starting_after sent ${JSON.stringify(sent.startingAfter)}, reported ${JSON.stringify(pagination.starting_after ?? null)}`);
		}

		if ((pagination.ending_before ?? null) !== sent.endingBefore) {
			wrong.push(`ending_before sent ${JSON.stringify(sent.endingBefore)}, reported ${JSON.stringify(pagination.ending_before ?? null)}`);
		}

		if (wrong.length > 0) {
			this.fail('echo-cursors', number, () => wrong.join('; '));
		}
	}

	private checkNextUri(page: Page, number: number, sent: SentParameters): void {
		if (page.nextUrl === null) {
			return;
		}

		const next = sentParameters(page.nextUrl);
		const problems: string[] = [];
		if (sent.limit !== null) {
			if (next.limit === null) {
				problems.push(`limit=${sent.limit} was sent but next_uri has no limit`);
			} else if (!sameLimit(sent.limit, next.limit)) {
				problems.push(`limit=${sent.limit} was sent but next_uri has limit=${next.limit}`);
			}
		}

		if (sent.order !== null) {
			if (next.order === null) {
				problems.push(`order=${sent.order} was sent but next_uri has no order`);
			} else if (next.order !== sent.order) {
				problems.push(`order=${sent.order} was sent but next_uri has order=${next.order}`);
			}
		}

		if (next.startingAfter === null && next.endingBefore === null) {
			problems.push('next_uri has no cursor');
		}

		if (problems.length > 0) {
			this.fail('next-uri-params', number, () => `${problems.join('; ')} (${page.nextUrl})`);
		}
	}

	private checkCommerce(page: Page, number: number): void {
		const pagination = page.pagination;
		if (!('yielded' in pagination)) {
			return;
		}

		if (pagination.yielded !== page.objects.length) {
			this.fail('yielded', number, () => `yielded is ${pagination.yielded} but data holds ${page.objects.length} objects`);
		}

		const first = page.objects[0]?.id;
		const last = page.objects.at(-1)?.id;
		const range = pagination.cursor_range;
		if (first === undefined || last === undefined) {
			if (range !== null && range.length !== 0) {
				this.fail('cursor-range', number, () => `the page is empty but cursor_range is ${JSON.stringify(range)}`);
			}
		} else if (range === null || range.length !== 2 || range[0] !== first || range[1] !== last) {
			this.fail('cursor-range', number, () => `cursor_range is ${JSON.stringify(range)} but the page runs from ${first} to ${last}`);
		}

		const total = pagination.total;
		if (this.firstTotal === null) {
			this.firstTotal = total;
		} else if (total !== this.lastTotal) {
			this.note('total', number, `total changed from ${this.lastTotal} to ${total} on page ${number}`);
		}

		this.lastTotal = total;
	}
}
