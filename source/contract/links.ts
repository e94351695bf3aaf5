import {PagewalkError} from '../text/errors.js';
import {redact} from '../text/secret.js';
import {cutToWidth} from '../text/text-width.js';

/**
 * Resolving `next_uri` / `previous_uri` and deciding whether a URL may carry
 * our credential. The WHATWG URL parser does the resolving, so every trick a
 * hostile link can play (`//evil`, `/\evil`, `\\evil`, tabs inside the scheme,
 * userinfo) is judged by the same rules fetch and undici use; we only compare
 * what it produced with the configured origin.
 */

/** A link that pagewalk refuses to follow; nothing was sent to it. */
export class ForeignLinkError extends PagewalkError {
	readonly foreignOrigin: string;

	constructor(message: string, foreignOrigin: string) {
		super(message);
		this.name = 'ForeignLinkError';
		this.foreignOrigin = foreignOrigin;
	}
}

/** The API base: an origin plus an optional path prefix (a proxy), no trailing slash. */
export type LinkBase = {
	origin: string;
	/** '' or a prefix such as '/proxy/coinbase'. */
	prefix: string;
};

export function parseBase(base: string): LinkBase {
	const url = new URL(base);
	return {origin: url.origin, prefix: url.pathname.replace(/\/+$/, '')};
}

/**
 * Drops empty query segments: the documented first page has `?&limit=…`, and
 * SDKs that append their parameters again produce `&&`. Values are untouched.
 */
export function tidyQuery(url: URL): void {
	const {search} = url;
	// Setting search makes the URL parse its query again: only when there is something to drop.
	if (search === '' || !(search.startsWith('?&') || search.endsWith('&') || search.includes('&&'))) {
		return;
	}

	const parts = search.slice(1).split('&').filter(part => part !== '');
	url.search = parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * `path` as the server's side of a proxy writes it, seen from ours: the
 * base's prefix in front, unless the path already starts with it.
 */
export function withPrefix(path: string, base: LinkBase): string {
	return base.prefix !== '' && path !== base.prefix && !path.startsWith(`${base.prefix}/`) ? `${base.prefix}${path}` : path;
}

/**
 * Resolves a link from a page against the URL of the request that returned
 * the page (RFC 3986, as the WHATWG parser does it), so query-only
 * (`?starting_after=…`) and path-relative links land where a browser would
 * put them, the base's path prefix included. Path-absolute links (the account
 * API) are written from the server's side of a proxy, so a base with a path
 * prefix gets the prefix put in front unless the server already included it.
 * Absolute links (the commerce API) are kept as they are. Returns null for a
 * null or empty link (the end of the list), and the link text itself when it
 * cannot be parsed, so that following it fails with a clear error instead of
 * here. The origin is judged later, by checkSameOrigin.
 */
export function resolveLink(uri: string | null | undefined, base: LinkBase, requestUrl?: string): string | null {
	if (uri === null || uri === undefined || uri.trim() === '') {
		return null;
	}

	let url: URL;
	try {
		url = new URL(uri, requestUrl ?? `${base.origin}${base.prefix}/`);
	} catch {
		return uri;
	}

	// Only a plain path-absolute reference ("/v2/…") gets the prefix: anything
	// that names a host, even in disguise, must be judged as it is.
	const pathAbsolute = /^\/(?![/\\])/.test(uri);
	const prefixed = pathAbsolute && url.origin === base.origin ? withPrefix(url.pathname, base) : url.pathname;
	if (prefixed !== url.pathname) {
		url.pathname = prefixed;
	}

	tidyQuery(url);
	return url.href;
}

/** The origin of `url` as the user should read it, or a description when there is none. */
function describeOrigin(url: URL): string {
	return url.origin === 'null' ? `${url.protocol} URL` : url.origin;
}

/**
 * Checks that `url` may be requested with our credential: exactly the
 * configured scheme, host and port, and no userinfo. Returns the parsed URL;
 * throws a ForeignLinkError naming what it points to otherwise.
 */
export function checkSameOrigin(url: string, base: LinkBase, what = 'The link'): URL {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new PagewalkError(`${what} is not a valid URL (${excerptLink(url)}), so pagewalk stopped without following it.`);
	}

	if (parsed.origin !== base.origin) {
		const origin = describeOrigin(parsed);
		throw new ForeignLinkError(
			`${what} points to ${origin}, not the configured ${base.origin}; pagewalk stopped and sent nothing there.`,
			origin,
		);
	}

	if (parsed.username !== '' || parsed.password !== '') {
		throw new ForeignLinkError(
			`${what} carries a user name or password in the URL (userinfo) for ${parsed.origin}; pagewalk stopped and sent nothing.`,
			parsed.origin,
		);
	}

	const carried = credentialParameter(parsed);
	if (carried !== undefined) {
		throw new ForeignLinkError(
			`${what} carries ${carried} in its query, which looks like a credential; pagewalk stopped and sent nothing (credentials come only from the environment).`,
			parsed.origin,
		);
	}

	return parsed;
}

/**
 * Query parameter names that carry credentials in the APIs people point
 * pagewalk at (OAuth's access_token, api_key and its spellings, signed-URL
 * signatures, JWTs, passwords), compared lowercased with '-' and '_' removed.
 * Any name ending in token, secret, password or apikey counts too
 * (refresh_token, client_secret), except a page token, which is a cursor.
 */
const credentialNames = /^(?:key|sig|signature|jwt|auth|authorization|bearer|credentials?|passwd|session|sessionid|xccapikey)$|(?:token|secret|password|apikey)$/;

function normalizeName(name: string): string {
	let decoded = name;
	try {
		// URLSearchParams decoded once; a second round catches access%255Ftoken.
		decoded = decodeURIComponent(name);
	} catch {}

	return decoded.toLowerCase().replaceAll(/[-_.\s]/g, '');
}

/**
 * The name of the first query parameter of `url` that carries a credential:
 * by its name, or because its value holds a credential pagewalk was given.
 */
export function credentialParameter(url: URL): string | undefined {
	for (const [name, value] of url.searchParams) {
		const normal = normalizeName(name);
		if ((credentialNames.test(normal) && !normal.endsWith('pagetoken')) || redact(value) !== value || redact(name) !== name) {
			return redact(name).slice(0, 40);
		}
	}

	return undefined;
}

function excerptLink(raw: string): string {
	return cutToWidth(redact(raw), 81);
}

/** The `starting_after` / `ending_before` cursor of a URL, when it carries one. */
export type Cursor = {starting_after?: string; ending_before?: string};

/**
 * What the walker compares links by, from one parse of `url`: a canonical
 * form for loop detection (empty segments dropped, parameters sorted, a
 * parameter repeated with the same value kept once, as some SDKs append
 * their parameters again; no fragment) and the cursor it carries. A URL that
 * does not parse is its own canonical form, with no cursor.
 */
export function linkIdentity(url: string): {canonical: string; cursor: Cursor} {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return {canonical: url, cursor: {}};
	}

	const seen = new Set<string>();
	const pairs: Array<[string, string]> = [];
	// The first value of each cursor parameter, as URLSearchParams.get reads it.
	const first: Cursor = {};
	for (const [key, value] of parsed.searchParams) {
		const id = `${key}\u0000${value}`;
		if (!seen.has(id)) {
			seen.add(id);
			pairs.push([key, value]);
		}

		if (key === 'starting_after' || key === 'ending_before') {
			first[key] ??= value;
		}
	}

	// An empty cursor is no cursor.
	const cursor: Cursor = {};
	if (first.starting_after) {
		cursor.starting_after = first.starting_after;
	}

	if (first.ending_before) {
		cursor.ending_before = first.ending_before;
	}

	pairs.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
	const query = new URLSearchParams(pairs).toString();
	// The href up to its query or fragment: neither '?' nor '#' can stand
	// unencoded before them. Built as a string, where setting search and
	// hash would make the URL parse itself twice more.
	const {href} = parsed;
	const cut = /[?#]/.exec(href)?.index ?? href.length;
	return {canonical: `${href.slice(0, cut)}${query === '' ? '' : `?${query}`}`, cursor};
}

/** The canonical form of a request URL for loop detection (see {@link linkIdentity}). */
export function canonicalUrl(url: string): string {
	return linkIdentity(url).canonical;
}

/** The `starting_after` / `ending_before` cursor a URL carries, if any. */
export function cursorOf(url: string): Cursor {
	return linkIdentity(url).cursor;
}

/**
 * `url` with one cursor in place of any it had (the other is dropped: a
 * server may refuse both at once), every other parameter kept. The id is
 * user text: URLSearchParams percent-encodes it, so `&`, `#` or `=` in it
 * stay inside the value and cannot add a parameter of their own.
 */
export function withCursor(url: string, name: 'starting_after' | 'ending_before', id: string): string {
	const parsed = new URL(url);
	parsed.searchParams.delete('starting_after');
	parsed.searchParams.delete('ending_before');
	parsed.searchParams.set(name, id);
	tidyQuery(parsed);
	return parsed.href;
}
