/** Shared helpers of the sandbox tests: real HTTP over loopback, bodies always consumed. */
import type {Sandbox} from '../../source/sandbox/index.js';

export type Api = 'account' | 'commerce';
export type Viewer = 'full' | 'restricted';

/** A JSON body off the wire: its shape is what the tests check, so it is not declared here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;

export type Reply = {status: number; headers: Headers; body: Json};

export async function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
	const response = await fetch(url, {headers});
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		throw new Error(`Not JSON (status ${response.status}): ${text.slice(0, 200)}`);
	}

	return {status: response.status, headers: response.headers, body};
}

/** Headers that authenticate `viewer` and send a version, unless told not to. */
export function authHeaders(sandbox: Sandbox, api: Api, viewer: Viewer = 'full', version = true): Record<string, string> {
	return api === 'account'
		? {authorization: `Bearer ${sandbox.credentials.account[viewer]}`, ...(version ? {'cb-version': '2024-05-01'} : {})}
		: {'x-cc-api-key': sandbox.credentials.commerce[viewer], ...(version ? {'x-cc-version': '2018-03-22'} : {})};
}

/** Absolute URL of a list: accounts or checkouts/charges. */
export function listUrl(sandbox: Sandbox, api: Api, query = '', path?: string): string {
	const base = api === 'account' ? `${sandbox.accountUrl}${path ?? '/v2/accounts'}` : `${sandbox.commerceUrl}${path ?? '/checkouts'}`;
	return query === '' ? base : `${base}?${query}`;
}

/** Resolves a next_uri/previous_uri against the API's base (relative for account, absolute for commerce). */
export function resolve(sandbox: Sandbox, api: Api, uri: string): string {
	return api === 'account' ? new URL(uri, sandbox.accountUrl).href : uri;
}

export type WalkPage = {ids: string[]; pagination: Json};

/** Follows next_uri (or previous_uri) to the end; returns every page. */
export async function walk(sandbox: Sandbox, api: Api, options: {viewer?: Viewer; query?: string; direction?: 'next' | 'previous'; path?: string; /** Stop after this many pages. */ maxPages?: number; onPage?: (page: number) => void} = {}): Promise<WalkPage[]> {
	const headers = authHeaders(sandbox, api, options.viewer ?? 'full');
	let url: string | null = listUrl(sandbox, api, options.query ?? '', options.path);
	const pages: WalkPage[] = [];
	const field = options.direction === 'previous' ? 'previous_uri' : 'next_uri';
	while (url !== null) {
		// eslint-disable-next-line no-await-in-loop -- each page needs the next_uri of the one before
		const reply = await get(url, headers);
		if (reply.status !== 200) {
			throw new Error(`${url} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
		}

		pages.push({ids: reply.body.data.map((object: {id: string}) => object.id), pagination: reply.body.pagination});
		options.onPage?.(pages.length);
		const uri: string | null = reply.body.pagination[field];
		url = uri === null ? null : resolve(sandbox, api, uri);
		if (options.maxPages !== undefined && pages.length >= options.maxPages) {
			break;
		}

		if (pages.length > 10_000) {
			throw new Error('The walk does not end.');
		}
	}

	return pages;
}
