/**
 * The list pagination contract as code: its defaults, the fields of both
 * pagination objects, what a short page is, and the checks one page can be
 * put to. One truth for the client, the sandbox, the audit and the browser
 * (see docs/contract.md for the rules in words).
 *
 * Pure and dependency-free: the sandbox may import this module (and types.ts)
 * and nothing else outside sandbox/, so nothing here may reach the client, the walker
 * or the options.
 */
import type {Api, ListObject, Order, Page} from './types.js';

// ---------------------------------------------------------------------------
// Defaults and bounds

/** What a server uses when the request leaves them out, and the bounds of `limit`. */
export const contractDefaults = {
	/** Page size when `limit` is absent, or 0 (served as the default). */
	limit: 25,
	order: 'desc',
	/** The largest `limit` a server accepts. */
	maximumLimit: 100,
	/** The smallest `limit` a client may send (0 reads as the default). */
	minimumLimit: 0,
} as const satisfies {limit: number; order: Order; maximumLimit: number; minimumLimit: number};

/** The query parameters of the contract, as they appear on the wire. */
export const paginationParameters = ['limit', 'order', 'starting_after', 'ending_before'] as const;

/** The cursor parameters: at most one of them in a request. */
export const cursorParameters = ['starting_after', 'ending_before'] as const;

// ---------------------------------------------------------------------------
// The pagination objects

type FieldCheck = (value: unknown) => boolean;
const stringOrNull: FieldCheck = value => value === null || typeof value === 'string';
const count: FieldCheck = value => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const orderValue: FieldCheck = value => value === 'asc' || value === 'desc';
const cursorRange: FieldCheck = value => value === null
	|| (Array.isArray(value) && (value.length === 0 || (value.length === 2 && value.every(item => typeof item === 'string'))));

/** One field of a pagination object: how to check it, how to name what it should be, and whether it must be there. */
export type FieldRule = {check: FieldCheck; expected: string; required: boolean};

// Required: what the walker and the views cannot do without. Optional fields
// may be absent (real servers differ) but must have the right type if present.
// Both pagination objects share these six fields.
const sharedFields: Record<string, FieldRule> = {
	limit: {check: count, expected: 'a whole number', required: true},
	order: {check: orderValue, expected: '"asc" or "desc"', required: true},
	next_uri: {check: stringOrNull, expected: 'a string or null', required: true},
	previous_uri: {check: stringOrNull, expected: 'a string or null', required: false},
	starting_after: {check: stringOrNull, expected: 'a string or null', required: false},
	ending_before: {check: stringOrNull, expected: 'a string or null', required: false},
};

/** The fields of each API's pagination object, with their rules. */
export const paginationFields: Readonly<Record<Api, Readonly<Record<string, FieldRule>>>> = {
	account: {
		...sharedFields,
		next_starting_after: {check: stringOrNull, expected: 'a string or null', required: false},
		previous_ending_before: {check: stringOrNull, expected: 'a string or null', required: false},
	},
	commerce: {
		...sharedFields,
		total: {check: count, expected: 'a whole number', required: true},
		yielded: {check: count, expected: 'a whole number', required: true},
		cursor_range: {check: cursorRange, expected: 'two ids, an empty array or null', required: false},
	},
};

/** Fields real account servers add beside the contract's; absent, they stay absent rather than read as null. */
export const extraAccountFields: readonly string[] = ['next_starting_after', 'previous_ending_before'];

/** A field of a pagination object that is missing or of the wrong type. */
export type FieldProblem =
	| {kind: 'missing'; field: string}
	| {kind: 'wrong-type'; field: string; value: unknown; expected: string};

/**
 * Checks a pagination object field by field. Returns the first problem, or
 * null and the object with absent optional cursors and links read as null.
 */
export function checkPaginationFields(api: Api, pagination: Record<string, unknown>): {problem: FieldProblem; normalized: null} | {problem: null; normalized: Record<string, unknown>} {
	const normalized: Record<string, unknown> = {...pagination};
	for (const [field, rule] of Object.entries(paginationFields[api])) {
		const value = pagination[field];
		if (value === undefined) {
			if (rule.required) {
				return {problem: {kind: 'missing', field}, normalized: null};
			}

			if (!extraAccountFields.includes(field)) {
				normalized[field] = null;
			}

			continue;
		}

		if (!rule.check(value)) {
			return {problem: {kind: 'wrong-type', field, value, expected: rule.expected}, normalized: null};
		}
	}

	return {problem: null, normalized};
}

// ---------------------------------------------------------------------------
// What was sent

/** Reads one query parameter of an absolute URL; null when absent or when the URL does not parse. */
export function queryParameter(url: string | null, name: string): string | null {
	if (!url) {
		return null;
	}

	try {
		return new URL(url).searchParams.get(name);
	} catch {
		return null;
	}
}

/** What a request asked for, read back from its URL. */
export type SentParameters = {
	/** The raw `limit` value, or null when not sent. */
	limit: string | null;
	order: string | null;
	startingAfter: string | null;
	endingBefore: string | null;
};

export function sentParameters(url: string): SentParameters {
	let parameters: URLSearchParams;
	try {
		parameters = new URL(url).searchParams;
	} catch {
		return {limit: null, order: null, startingAfter: null, endingBefore: null};
	}

	return {
		limit: parameters.get('limit'),
		order: parameters.get('order'),
		startingAfter: parameters.get('starting_after'),
		endingBefore: parameters.get('ending_before'),
	};
}

/** The limit the server should report for what was sent: omitted or 0 mean the default. */
export function expectedLimit(sent: string | null): number {
	if (sent === null || sent === '' || Number(sent) === 0) {
		return contractDefaults.limit;
	}

	return Number(sent);
}

/** The `limit` a page was served with: the reported one, else the one asked for, else the default. */
export function effectiveLimit(page: Page): number {
	const reported = page.pagination.limit;
	if (Number.isInteger(reported) && reported > 0) {
		return reported;
	}

	const sent = queryParameter(page.requestUrl, 'limit');
	const asked = sent === null ? Number.NaN : Number(sent);
	return Number.isInteger(asked) && asked > 0 ? asked : contractDefaults.limit;
}

// ---------------------------------------------------------------------------
// Short pages

export type FillKind = 'full' | 'short' | 'empty';

/**
 * What a short page is, defined once: fewer objects shown than the limit in
 * effect. A short page with a `next_uri` is not the end (more follow: the
 * server filtered objects out); without one it is the end of the list.
 */
export type ShortPage = {shown: number; limit: number; kind: 'short' | 'empty'; more: boolean};

export function fillKind(shown: number, limit: number): FillKind {
	return shown === 0 ? 'empty' : shown < limit ? 'short' : 'full';
}

/** The short-page finding of a page, or null when it shows `limit` objects or more. */
export function shortPage(shown: number, limit: number, more: boolean): ShortPage | null {
	const kind = fillKind(shown, limit);
	return kind === 'full' ? null : {shown, limit, kind, more};
}

/**
 * Where the next page starts against what this page showed. A cursor that is
 * not the last object shown means the server scanned past objects this
 * credential cannot see.
 */
export type CursorEvidence = {
	/** `starting_after` carried by `next_uri`, or null when there is no next page or no such parameter. */
	nextCursor: string | null;
	/** Id of the last object on the page, or null for an empty page. */
	lastShownId: string | null;
	/** True when the list continues from an id that this page did not show. */
	scannedPast: boolean;
};

export function cursorEvidence(page: Page): CursorEvidence {
	const lastShownId = page.objects.at(-1)?.id ?? null;
	const nextCursor = page.nextUrl === null ? null : queryParameter(page.nextUrl, 'starting_after');
	return {
		nextCursor,
		lastShownId,
		scannedPast: nextCursor !== null && nextCursor !== lastShownId,
	};
}

export type PageFill = {
	/** 1-based position in the walk. */
	page: number;
	/** Objects in `data`. */
	shown: number;
	/** Page size in effect (as reported, 0 read as the default). */
	limit: number;
	/** Commerce `yielded` as reported; null for the account API. */
	yielded: number | null;
	kind: FillKind;
	/** `shown / limit`, clamped to 0..1. */
	ratio: number;
	/** True when the page has a `next_uri`: a short page then is not the end. */
	continues: boolean;
	evidence: CursorEvidence;
};

/** The fill of one page; `index` is its 0-based position in the walk. */
export function pageFill(page: Page, index: number): PageFill {
	const limit = effectiveLimit(page);
	const shown = page.objects.length;
	const pagination = page.pagination;
	return {
		page: index + 1,
		shown,
		limit,
		yielded: 'yielded' in pagination ? pagination.yielded : null,
		kind: fillKind(shown, limit),
		ratio: Math.min(1, shown / limit),
		continues: page.nextUrl !== null,
		evidence: cursorEvidence(page),
	};
}

/** The short-page finding of a walked page (its limit in effect, and whether a next page follows). */
export function shortPageOf(page: Page): ShortPage | null {
	return shortPage(page.objects.length, effectiveLimit(page), page.nextUrl !== null);
}

// ---------------------------------------------------------------------------
// Per-page checks: pure, each returns typed findings (none when the page keeps the rule)

export type Finding =
	| {check: 'over-limit'; shown: number; limit: number}
	| {check: 'echo-limit'; sent: string | null; reported: unknown}
	| {check: 'echo-order'; sent: string | null; reported: unknown}
	| {check: 'echo-cursors'; cursors: Array<{field: 'starting_after' | 'ending_before'; sent: string | null; reported: unknown}>}
	| {check: 'next-uri-params'; problems: NextUriProblem[]; nextUrl: string}
	| {check: 'yielded'; yielded: number; shown: number}
	| {check: 'cursor-range'; range: unknown; first: string | null; last: string | null}
	| {check: 'order'; object: ListObject; after: ListObject; order: Order}
	| {check: 'unique-ids'; id: string; firstPage: number | null};

/**
 * Findings that say the walk itself may be wrong (an object repeated or out
 * of order: objects skipped or shown twice) come before the ones about how
 * the page was described (an echo, a count, a limit): the user sees the worst first.
 */
const integrityChecks: ReadonlySet<Finding['check']> = new Set(['unique-ids', 'order', 'cursor-range']);

export function isIntegrityFinding(finding: Finding): boolean {
	return integrityChecks.has(finding.check);
}

/** The findings, integrity first, each group in the order found. */
export function worstFirst(findings: readonly Finding[]): Finding[] {
	return [...findings.filter(finding => isIntegrityFinding(finding)), ...findings.filter(finding => !isIntegrityFinding(finding))];
}

export type NextUriProblem =
	| {parameter: 'limit' | 'order'; sent: string; carried: string | null}
	| {parameter: 'cursor'; sent: null; carried: null};

/** More objects in `data` than the limit in effect: a server must never send more than asked. */
export function checkOverLimit(page: Page, sent: SentParameters = sentParameters(page.requestUrl)): Finding[] {
	const limit = expectedLimit(sent.limit);
	return page.objects.length > limit ? [{check: 'over-limit', shown: page.objects.length, limit}] : [];
}

/** The pagination object reports what was sent: the limit in effect, the order, the cursors. */
export function checkEcho(page: Page, sent: SentParameters = sentParameters(page.requestUrl)): Finding[] {
	const findings: Finding[] = [];
	const {pagination} = page;
	if (pagination.limit !== expectedLimit(sent.limit)) {
		findings.push({check: 'echo-limit', sent: sent.limit, reported: pagination.limit});
	}

	if (pagination.order !== (sent.order ?? contractDefaults.order)) {
		findings.push({check: 'echo-order', sent: sent.order, reported: pagination.order});
	}

	const cursors: Array<{field: 'starting_after' | 'ending_before'; sent: string | null; reported: unknown}> = [];
	if ((pagination.starting_after ?? null) !== sent.startingAfter) {
		cursors.push({field: 'starting_after', sent: sent.startingAfter, reported: pagination.starting_after ?? null});
	}

	if ((pagination.ending_before ?? null) !== sent.endingBefore) {
		cursors.push({field: 'ending_before', sent: sent.endingBefore, reported: pagination.ending_before ?? null});
	}

	if (cursors.length > 0) {
		findings.push({check: 'echo-cursors', cursors});
	}

	return findings;
}

/** Whether `carried` in next_uri keeps the limit in use: the same number, or the default for a sent 0. */
function sameLimit(sent: string, carried: string): boolean {
	return Number(carried) === Number(sent) || (Number(sent) === 0 && Number(carried) === contractDefaults.limit);
}

/** next_uri carries every pagination parameter in use, and a cursor. */
export function checkNextUri(page: Page, sent: SentParameters = sentParameters(page.requestUrl)): Finding[] {
	if (page.nextUrl === null) {
		return [];
	}

	const next = sentParameters(page.nextUrl);
	const problems: NextUriProblem[] = [];
	if (sent.limit !== null && (next.limit === null || !sameLimit(sent.limit, next.limit))) {
		problems.push({parameter: 'limit', sent: sent.limit, carried: next.limit});
	}

	if (sent.order !== null && next.order !== sent.order) {
		problems.push({parameter: 'order', sent: sent.order, carried: next.order});
	}

	if (next.startingAfter === null && next.endingBefore === null) {
		problems.push({parameter: 'cursor', sent: null, carried: null});
	}

	return problems.length > 0 ? [{check: 'next-uri-params', problems, nextUrl: page.nextUrl}] : [];
}

/** Commerce: `yielded` is the number of objects in data, `cursor_range` the first and last id. */
export function checkCommerceCounts(page: Page): Finding[] {
	const {pagination} = page;
	if (!('yielded' in pagination)) {
		return [];
	}

	const findings: Finding[] = [];
	if (pagination.yielded !== page.objects.length) {
		findings.push({check: 'yielded', yielded: pagination.yielded, shown: page.objects.length});
	}

	const first = page.objects[0]?.id ?? null;
	const last = page.objects.at(-1)?.id ?? null;
	const range = pagination.cursor_range;
	if (first === null || last === null) {
		if (range !== null && range.length !== 0) {
			findings.push({check: 'cursor-range', range, first, last});
		}
	} else if (range === null || range.length !== 2 || range[0] !== first || range[1] !== last) {
		findings.push({check: 'cursor-range', range, first, last});
	}

	return findings;
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

/** The last object checked for order, carried from one page to the next. */
export type OrderCarry = {object: ListObject; key: number | string | null};

/**
 * Objects come in the order asked for (default desc), by created_at then id,
 * across page boundaries too: `carry` is the last object of the page before.
 * `compared` counts neighbours whose created_at could be compared (none
 * means the order could not be checked at all).
 */
export function checkOrder(objects: readonly ListObject[], order: Order, carry: OrderCarry | null = null): {findings: Finding[]; compared: number; carry: OrderCarry | null} {
	const direction = order === 'asc' ? 1 : -1;
	const findings: Finding[] = [];
	let compared = 0;
	let previous = carry;
	for (const object of objects) {
		const key = createdKey(object);
		const before = previous;
		previous = {object, key};
		if (before === null) {
			continue;
		}

		const comparison = compareAscending(before.object, before.key, object, key);
		if (comparison === null) {
			continue;
		}

		compared += 1;
		if (comparison * direction > 0) {
			findings.push({check: 'order', object, after: before.object, order});
		}
	}

	return {findings, compared, carry: previous};
}

/** The carry after `objects`: the last of them, or `carry` when there is none. */
export function orderCarry(objects: readonly ListObject[], carry: OrderCarry | null): OrderCarry | null {
	const last = objects.at(-1);
	return last === undefined ? carry : {object: last, key: createdKey(last)};
}

/** Whether any two neighbours (the carry first) have a created_at to compare: none means the order cannot be checked. */
export function orderComparable(objects: readonly ListObject[], carry: OrderCarry | null): boolean {
	let previous = carry;
	for (const object of objects) {
		const key = createdKey(object);
		if (previous !== null && previous.key !== null && key !== null && typeof previous.key === typeof key) {
			return true;
		}

		previous = {object, key};
	}

	return false;
}

/**
 * Ids repeated on this page or seen on an earlier one. `earlierPage` looks an
 * id up among earlier pages (its page number, or undefined); the caller adds
 * this page's ids afterwards, so it decides how much history to keep.
 * `firstPage` is null for an id repeated within this page.
 */
export function checkRepeatedIds(objects: readonly ListObject[], earlierPage: (id: string) => number | undefined): Finding[] {
	const findings: Finding[] = [];
	const here = new Set<string>();
	for (const {id} of objects) {
		const first = earlierPage(id);
		if (first !== undefined) {
			findings.push({check: 'unique-ids', id, firstPage: first});
		} else if (here.has(id)) {
			findings.push({check: 'unique-ids', id, firstPage: null});
		} else {
			here.add(id);
		}
	}

	return findings;
}

/** Every check of one page that needs no other page (order across pages and repeats take their carry). */
export function checkPage(page: Page): Finding[] {
	const sent = sentParameters(page.requestUrl);
	return [...checkOverLimit(page, sent), ...checkEcho(page, sent), ...checkNextUri(page, sent), ...checkCommerceCounts(page)];
}
