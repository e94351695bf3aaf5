/**
 * Parsing and validating what a client sends: the query string, the
 * pagination parameters, the version headers. Pure; every failure is an
 * {@link ApiProblem} that names the parameter, which each API renders in its
 * own error shape.
 */
import {contractDefaults, paginationParameters} from '../../contract/contract.js';
import type {Order} from '../../contract/types.js';
import type {Link, PageQuery} from '../data/window.js';

/** An error before any page is built; `code` is the account `id` / commerce `type`. */
export type ApiProblem = {status: number; code: string; message: string; headers?: Record<string, string>};

export type Parsed<T> = {ok: true; value: T} | {ok: false; problem: ApiProblem};

/** Parameters the sandbox reads; anything else in a query is ignored, as real servers do. */
const known = new Set<string>([...paginationParameters, 'access_token']);

export const defaultLimit = contractDefaults.limit;
export const maximumLimit = contractDefaults.maximumLimit;

export function badRequest(message: string, code = 'validation_error'): ApiProblem {
	return {status: 400, code, message};
}

/** Quotes a client's value for an error message, short and JSON-safe. */
export function quote(value: string): string {
	return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

function decode(text: string): string | undefined {
	try {
		return decodeURIComponent(text.replaceAll('+', ' '));
	} catch {
		return undefined;
	}
}

/**
 * The known parameters of a raw query string (without `?`). A parameter
 * repeated with the same value is accepted (some SDKs append their parameters
 * to `next_uri` again); repeated with different values it is a 400.
 */
export function parseQueryString(raw: string): Parsed<Map<string, string>> {
	const parameters = new Map<string, string>();
	for (const segment of raw.split('&')) {
		if (segment === '') {
			// Tolerates the documented `?&limit=…` and trailing `&`.
			continue;
		}

		const equals = segment.indexOf('=');
		const rawName = equals === -1 ? segment : segment.slice(0, equals);
		const name = decode(rawName);
		if (name === undefined) {
			return {ok: false, problem: badRequest(`The query string has a malformed percent-escape in the parameter name ${quote(rawName)}.`, 'invalid_request')};
		}

		if (!known.has(name)) {
			continue;
		}

		const value = decode(equals === -1 ? '' : segment.slice(equals + 1));
		if (value === undefined) {
			return {ok: false, problem: badRequest(`The value of ${name} has a malformed percent-escape.`, 'invalid_request')};
		}

		const earlier = parameters.get(name);
		if (earlier !== undefined && earlier !== value) {
			// Never repeat a credential back, not even in an error message.
			const values = name === 'access_token' ? '' : ` (${quote(earlier)} and ${quote(value)})`;
			return {ok: false, problem: badRequest(`${name} is given twice with different values${values}; give it once.`)};
		}

		parameters.set(name, value);
	}

	return {ok: true, value: parameters};
}

const uuid = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/;

function cursor(name: 'starting_after' | 'ending_before', value: string | undefined): Parsed<string | null> {
	if (value === undefined) {
		return {ok: true, value: null};
	}

	const id = value.toLowerCase();
	if (!uuid.test(id)) {
		return {ok: false, problem: badRequest(`${name} must be the id of an object in this list (a UUID); got ${quote(value)}.`)};
	}

	return {ok: true, value: id};
}

/**
 * The pagination parameters in effect. `limit=0` is accepted and served as the
 * default page size, reported as 25: the limit in effect, and a `next_uri` that
 * cannot loop on empty pages (see docs/contract.md#limit-zero and #pagination-echo).
 */
export function pageQuery(parameters: Map<string, string>): Parsed<PageQuery> {
	let limit: number = defaultLimit;
	const rawLimit = parameters.get('limit');
	if (rawLimit !== undefined) {
		if (!/^\d{1,9}$/.test(rawLimit) || Number(rawLimit) > maximumLimit) {
			return {ok: false, problem: badRequest(`limit must be a whole number from 0 to ${maximumLimit} (0 means the default, ${defaultLimit}); got ${quote(rawLimit)}.`)};
		}

		limit = Number(rawLimit) === 0 ? defaultLimit : Number(rawLimit);
	}

	let order: Order = contractDefaults.order;
	const rawOrder = parameters.get('order');
	if (rawOrder !== undefined) {
		if (rawOrder !== 'asc' && rawOrder !== 'desc') {
			return {ok: false, problem: badRequest(`order must be asc or desc; got ${quote(rawOrder)}.`)};
		}

		order = rawOrder;
	}

	const startingAfter = cursor('starting_after', parameters.get('starting_after'));
	if (!startingAfter.ok) {
		return startingAfter;
	}

	const endingBefore = cursor('ending_before', parameters.get('ending_before'));
	if (!endingBefore.ok) {
		return endingBefore;
	}

	if (startingAfter.value !== null && endingBefore.value !== null) {
		return {ok: false, problem: badRequest('starting_after and ending_before cannot be used together; give one cursor.')};
	}

	return {ok: true, value: {limit, order, startingAfter: startingAfter.value, endingBefore: endingBefore.value}};
}

/**
 * Checks a version header: absent is fine (the API answers with a warning),
 * otherwise it must be a real calendar date written YYYY-MM-DD.
 */
export function checkVersion(header: string, value: string | string[] | undefined): Parsed<'present' | 'missing'> {
	if (value === undefined) {
		return {ok: true, value: 'missing'};
	}

	const text = Array.isArray(value) ? value.join(', ') : value;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
	if (match) {
		const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
		const date = new Date(Date.UTC(year, month - 1, day));
		if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) {
			return {ok: true, value: 'present'};
		}
	}

	return {ok: false, problem: badRequest(`The ${header} header must be an API version date written YYYY-MM-DD; got ${quote(text)}.`)};
}

/** Builds a query string from parameters, keys in alphabetical order. */
export function queryString(parameters: Record<string, string | number>): string {
	return Object.keys(parameters)
		.sort()
		.map((key) => `${key}=${encodeURIComponent(String(parameters[key]))}`)
		.join('&');
}

/** The query string of a link: every pagination parameter in effect, keys in alphabetical order. */
export function linkQuery(link: Link, query: PageQuery): string {
	const parameters: Record<string, string | number> = {limit: query.limit, order: query.order};
	if ('startingAfter' in link) {
		parameters.starting_after = link.startingAfter;
	} else if ('endingBefore' in link) {
		parameters.ending_before = link.endingBefore;
	}

	return queryString(parameters);
}
