/**
 * Which API and path the endpoint argument names. Pure and synchronous; a
 * wrong endpoint is one UsageError sentence.
 */
import {UsageError} from '../text/errors.js';
import {quote} from './flag-values.js';
import {inert} from '../text/inert.js';
import type {LinkBase} from '../contract/links.js';
import type {Api} from '../contract/types.js';
import {again, closestName, flag, credentialCommands, type UserLine} from './hints.js';
import {editDistance} from '../text/edit-distance.js';

/** The lists every account has of its own that `transactions` and `addresses` walk, each account's in turn. */
export const eachLists = ['transactions', 'addresses'] as const;
export type EachList = (typeof eachLists)[number];

/** `each`: the endpoint names a list of every account (transactions, addresses), walked from the accounts list at `path`. */
export type Endpoint = {api: Api; path: string; query: URLSearchParams; each?: EachList};

const knownNames: Record<string, Api> = {accounts: 'account', checkouts: 'commerce', charges: 'commerce'};

function under(pathname: string, base: LinkBase): string | undefined {
	if (base.prefix === '') {
		return pathname;
	}

	if (pathname === base.prefix) {
		return '/';
	}

	return pathname.startsWith(`${base.prefix}/`) ? pathname.slice(base.prefix.length) : undefined;
}

function splitPath(raw: string): {path: string; query: URLSearchParams} {
	const url = new URL(raw, 'http://x');
	return {path: url.pathname, query: url.searchParams};
}

/**
 * Reads the positional endpoint argument: a name (accounts, checkouts,
 * charges), a path under the API base, or a full URL on one of the two bases.
 * Decides the API (--api wins) and splits off the query, which the caller
 * reads as flags. `line`: the user's command, for the hint of a name one
 * slip from a known one.
 */
export function resolveEndpoint(raw: string, apiFlag: Api | undefined, bases: Record<Api, LinkBase>, line?: UserLine): Endpoint {
	if (/^[a-z][a-z\d+.-]*:/i.test(raw) && !raw.startsWith('/')) {
		let url: URL;
		try {
			url = new URL(raw);
		} catch {
			throw new UsageError(`The endpoint ${quote(raw)} is not a valid URL.`);
		}

		if (url.username !== '' || url.password !== '') {
			throw new UsageError('The endpoint URL must not carry a user name or password; credentials come only from the environment.');
		}

		const candidates = (['account', 'commerce'] as const)
			.filter(api => apiFlag === undefined || api === apiFlag)
			.map(api => ({api, path: url.origin === bases[api].origin ? under(url.pathname, bases[api]) : undefined}))
			.filter((candidate): candidate is {api: Api; path: string} => candidate.path !== undefined);
		const chosen = candidates.length > 1
			? candidates.find(candidate => (candidate.api === 'account') === candidate.path.startsWith('/v2/')) ?? candidates[0]
			: candidates[0];
		if (!chosen) {
			throw new UsageError(`The endpoint URL is on ${inert(url.origin)}, which is neither ${flag(credentialCommands, 'baseUrl', `${bases.account.origin}${bases.account.prefix}`)} nor ${flag(credentialCommands, 'commerceUrl', `${bases.commerce.origin}${bases.commerce.prefix}`)}; set the matching base.`);
		}

		return {api: chosen.api, path: chosen.path, query: url.searchParams};
	}

	if (raw.startsWith('/')) {
		if (/^\/[/\\]/.test(raw) || raw.includes('#')) {
			throw new UsageError(`The endpoint ${quote(raw)} must be a path such as /v2/accounts.`);
		}

		const {path, query} = splitPath(raw);
		return {api: apiFlag ?? (path.startsWith('/v2/') ? 'account' : 'commerce'), path, query};
	}

	if (!/^[a-z\d_-]+(?:\/[A-Za-z\d_.-]+)*$/i.test(raw)) {
		throw new UsageError(`The endpoint ${quote(raw)} must be a name such as accounts or checkouts, a path such as /v2/accounts, or a full URL.`);
	}

	if ((eachLists as readonly string[]).includes(raw) && apiFlag === undefined) {
		return {api: 'account', path: '/v2/accounts', query: new URLSearchParams(), each: raw as EachList};
	}

	const api = apiFlag ?? knownNames[raw];
	if (api === undefined) {
		// A slip for a name (`checkout`, `acounts`) is that name, not a path on whichever API the guess picks.
		const meant = closestName(raw.toLowerCase(), Object.keys(knownNames), editDistance, 2);
		const slip = meant === undefined ? '' : ` (did you mean ${line === undefined ? meant : again('endpoint-slip', line, {endpoint: meant}).phrase}?)`;
		throw new UsageError(`Unknown endpoint ${quote(raw)}${slip}: use accounts, checkouts or charges (or, with dump or audit, transactions or addresses), a path such as /v2/accounts or /checkouts, or ${flag(credentialCommands, 'api', 'account|commerce')} for a path on that API.`);
	}

	return {api, path: api === 'account' ? `/v2/${raw}` : `/${raw}`, query: new URLSearchParams()};
}
