import {inert} from '../../text/inert.js';
import {withPrefix, type LinkBase} from '../../contract/links.js';
import {cutToWidth} from '../../text/text-width.js';
import type {Api} from '../../contract/types.js';

/**
 * Related lists: the lists an object has of its own (an account's
 * transactions, addresses, ...), derived from the object's `resource` and
 * `resource_path` and a small table of known child lists. Pure: the browser
 * offers what this returns and opens one as a new walk.
 *
 * `resource_path` is server text: it is only ever a path on the walk's own
 * origin. Anything else (another host in disguise, a dot segment, a query, an
 * encoded slash, a control character) offers no related list at all, so no
 * request can leave for a place the server chose.
 */

/**
 * The lists known under each kind of resource, in the account API's names.
 * The commerce API has no links between its lists (a checkout names no
 * charges list): it has no entry, and its objects offer none.
 */
export const childLists: ReadonlyMap<string, readonly string[]> = new Map([
	// The real API's lists of an account. The sandbox serves the first two;
	// the others answer 404 there, which the browser shows as one sentence
	// (and Backspace leaves, like any list).
	['account', ['transactions', 'addresses', 'deposits', 'withdrawals', 'buys', 'sells']],
]);

export type RelatedList = {
	/** The list's name, as the table has it: `transactions`. */
	name: string;
	/** Absolute URL of the list, no query: the walk adds its own limit and order. */
	url: string;
	/** The list's path under the API base, as the status line shows it: `/v2/accounts/<id>/transactions`. */
	path: string;
	/**
	 * The path with the object's own segment written `:id`
	 * (`/v2/accounts/:id/transactions`): one name for the same list of every
	 * account, under which the column picker's choice is remembered.
	 */
	pattern: string;
};

/** Longer resource paths are not believed: real ones are under a hundred characters. */
const maxResourcePathLength = 512;

/** Cells an object's name takes at most in the breadcrumb. */
export const labelWidth = 24;

// Path characters of RFC 3986 (unreserved, sub-delims, ':' and '@', or a
// percent-encoded octet), in non-empty segments: no `//`, no backslash, no
// query or fragment, nothing outside ASCII.
const pathShape = /^(?:\/(?:[\w\-.~!$&'()*+,;=:@]|%[\dA-Fa-f]{2})+)+$/;

/**
 * `value` when it is a path pagewalk may append a list name to and request
 * on the walk's origin, else undefined. Segments that decode to `.` or `..`,
 * or to anything holding a slash, a backslash or a control character, are
 * refused: servers and proxies decode them, and the request would land
 * elsewhere than it reads.
 */
export function safeResourcePath(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length > maxResourcePathLength || !pathShape.test(value)) {
		return undefined;
	}

	for (const segment of value.slice(1).split('/')) {
		let decoded: string;
		try {
			decoded = decodeURIComponent(segment);
		} catch {
			return undefined;
		}

		if (decoded === '.' || decoded === '..' || /[/\\\p{Cc}]/u.test(decoded)) {
			return undefined;
		}
	}

	return value;
}

/**
 * The base a walk's links and related lists resolve against: the origin of
 * its start URL, and the path prefix in front of `endpoint` (a proxy), if any.
 */
export function walkBase(startUrl: string, endpoint: string): LinkBase {
	const url = new URL(startUrl);
	const path = url.pathname;
	const prefix = endpoint !== '' && path.endsWith(endpoint) ? path.slice(0, path.length - endpoint.length).replace(/\/+$/, '') : '';
	return {origin: url.origin, prefix};
}

/**
 * The related lists of `object`, in the table's order: none unless the API
 * is the account API, `resource` names a kind the table knows and
 * `resource_path` is a safe path (see {@link safeResourcePath}) that stays on
 * `base`'s origin once resolved.
 */
export function relatedLists(object: Readonly<Record<string, unknown>>, base: LinkBase, api: Api): RelatedList[] {
	if (api !== 'account' || typeof object['resource'] !== 'string') {
		return [];
	}

	const names = childLists.get(object['resource']);
	const path = safeResourcePath(object['resource_path']);
	if (!names || path === undefined) {
		return [];
	}

	// Written from the server's side of a proxy, like the account API's links:
	// a base with a prefix gets it in front unless the path already has it.
	const prefixed = withPrefix(path, base);
	let url: URL;
	try {
		url = new URL(prefixed, `${base.origin}/`);
	} catch {
		return [];
	}

	// The parser must have had nothing to resolve: same origin, the very path given.
	if (url.origin !== base.origin || url.pathname !== prefixed || url.search !== '' || url.hash !== '') {
		return [];
	}

	const shown = path.startsWith(`${base.prefix}/`) && base.prefix !== '' ? path.slice(base.prefix.length) : path;
	const pattern = shown.replace(/\/[^/]+$/, '/:id');
	return names.map(name => ({name, url: `${url.href}/${name}`, path: `${shown}/${name}`, pattern: `${pattern}/${name}`}));
}

/** How the breadcrumb names an object: its `name` when it has one, else its id; cut to `width` cells, inert. */
export function objectLabel(object: Readonly<Record<string, unknown>>, width = labelWidth): string {
	const name = object['name'];
	const text = typeof name === 'string' && name.trim() !== '' ? name : String(object['id']);
	// A bounded prefix first: a megabyte name costs no more than a short one.
	return cutToWidth(inert(cutToWidth(text, width)), width);
}

/** The name of the list at `path`, for the breadcrumb: its last segment (`/v2/accounts` → `accounts`), inert. */
export function listName(path: string): string {
	const segment = path.replace(/\/+$/, '').split('/').at(-1) ?? '';
	return cutToWidth(inert(segment === '' ? path : segment), labelWidth);
}
