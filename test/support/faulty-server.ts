/**
 * A deliberately broken list server on 127.0.0.1, for the walker and dump
 * tests. Each fault lives under its own path prefix, `/f/<fault>`, so a test
 * points --base-url (account faults) or --commerce-url (commerce faults) at
 * `http://127.0.0.1:<port>/f/<fault>`: that also exercises a base with a
 * path prefix. A second server, `evil`, is the "other origin" that hostile
 * links and redirects point at; it must never receive a request.
 *
 * Every request is recorded with the credential headers it carried, so tests
 * can prove the canary credential reached no server but the configured one.
 *
 * Some faults take settings after a `~` in their prefix, `/f/<fault>~a=1,b=2`
 * (base(fault, {a: 1, b: 2})): the list faults of the walk from both ends.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import zlib from 'node:zlib';

export type Received = {
	server: 'faulty' | 'evil';
	path: string;
	authorization?: string;
	apiKey?: string;
};

export type FaultyServer = {
	/** Origin of the faulty server, e.g. http://127.0.0.1:41234. */
	origin: string;
	/** Origin of the server every hostile link points to. */
	evilOrigin: string;
	/** The base URL for a fault: `${origin}/f/${fault}`, with its settings when given (`~a=1,b=2`). */
	base(fault: FaultName, settings?: Record<string, number | string>): string;
	received: Received[];
	/** Forget recorded requests and per-fault counters. */
	reset(): void;
	close(): Promise<void>;
};

type Api = 'account' | 'commerce';

type Context = {
	api: Api;
	fault: FaultName;
	/** Path after the fault prefix, e.g. /v2/accounts. */
	path: string;
	query: URLSearchParams;
	/** How many requests this fault has seen, this one included. */
	hit: number;
	/** The fault's settings (`~a=1,b=2` after its name), as strings. */
	settings: Map<string, string>;
	/** Counts under `key` for this fault, this call included (reset with the server's counters). */
	tally(key: string): number;
	origin: string;
	evilOrigin: string;
	request: http.IncomingMessage;
	response: http.ServerResponse;
};

const page = (n: number, size: number, tag = 'obj') => Array.from({length: size}, (_, index) => ({id: `${tag}-${n}-${index}`, name: `Object ${n}.${index}`, nested: {amount: `${n}.${index}`}}));

function accountPagination(next: string | null, limit = 3): Record<string, unknown> {
	return {ending_before: null, starting_after: null, limit, order: 'desc', previous_uri: null, next_uri: next};
}

function commercePagination(next: string | null, data: Array<{id: string}>, limit = 3): Record<string, unknown> {
	return {
		order: 'desc', starting_after: null, ending_before: null, total: 99, yielded: data.length, limit,
		previous_uri: null, next_uri: next,
		cursor_range: data.length === 0 ? [] : [data[0]!.id, data.at(-1)!.id],
	};
}

function send(context: Context, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	context.response.writeHead(status, {'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers});
	context.response.end(text);
}

let bomb: Buffer | undefined;

/** Calls `step` every 20 ms until the client goes away: a server that never finishes. */
function forever(context: Context, step: () => void): void {
	const timer = setInterval(() => {
		if (context.request.socket.destroyed) {
			clearInterval(timer);
			return;
		}

		step();
	}, 20);
	context.request.socket.once('close', () => {
		clearInterval(timer);
	});
}

/** A good page of this fault's API, page number from the `starting_after` cursor `p<n>`. */
function goodPage(context: Context, pages: number, size = 3): void {
	const cursor = context.query.get('starting_after');
	const n = cursor === null ? 1 : Number(cursor.slice(1)) + 1;
	const data = page(n, size);
	const more = n < pages;
	const next = more ? link(context, `starting_after=p${n}`) : null;
	send(context, 200, {pagination: context.api === 'account' ? accountPagination(next) : commercePagination(next, data), data});
}

/** A next_uri as each API writes it: relative for account (no prefix: the server sits behind our base prefix), absolute for commerce. */
function link(context: Context, query: string): string {
	return context.api === 'account'
		? `${context.path}?limit=3&${query}`
		: `${context.origin}/f/${context.fault}${context.path}?limit=3&${query}`;
}

function errorBody(api: Api, id: string, message: string): unknown {
	return api === 'account' ? {errors: [{id, message}]} : {error: {type: id, message}};
}

/**
 * Pieces of `secret` a careless server quotes: cut at one end, the other or
 * both, a JWT's parts, and a middle JSON-escaped (`\/`, `\u00xx`, as text
 * the client's JSON.parse leaves escaped) and percent-encoded (lower-case hex),
 * upper-cased, split by spaces, and base64-encoded after `user:` (a Basic header).
 */
export function secretCuts(secret: string): string[] {
	const half = Math.floor(secret.length / 2);
	const cuts = [secret.slice(0, -6), secret.slice(3), secret.slice(5, -5), secret.slice(0, 8), secret.slice(-8), secret.slice(half - 5, half + 5)];
	const parts = secret.split('.');
	if (parts.length === 3) {
		cuts.push(...parts, `${parts[0]}.${parts[1]}`, parts[2]!.slice(2, -2));
	}

	const middle = secret.slice(2, -2);
	const hex = (character: string) => character.charCodeAt(0).toString(16).padStart(2, '0');
	cuts.push(
		JSON.stringify(middle).slice(1, -1).replaceAll('/', '\\/'),
		[...middle].map(character => /[a-z]/.test(character) ? character : `\\u00${hex(character)}`).join(''),
		[...middle].map(character => `%${hex(character)}`).join(''),
		secret.toUpperCase(),
		middle.replaceAll(/.{4}(?=.)/g, '$& '),
		Buffer.from(`user:${secret}`).toString('base64'),
	);
	return cuts;
}

/**
 * The echo-runs faults: a first page that quotes the credential's pieces in
 * a header, its warnings and an extra pagination field, then a 401 that
 * quotes them in its message.
 */
function echoRuns(c: Context): void {
	const secret = c.api === 'account' ? String(c.request.headers.authorization).replace(/^Bearer /, '') : String(c.request.headers['x-cc-api-key']);
	const cuts = secretCuts(secret);
	if (c.query.has('starting_after')) {
		send(c, 401, errorBody(c.api, c.api === 'account' ? 'invalid_token' : 'authentication_error', `Not valid: ${cuts.join(' | ')}`));
		return;
	}

	const data = page(1, 3);
	const next = `${c.api === 'account' ? '/v2/accounts' : '/checkouts'}?limit=3&starting_after=obj-1-2`;
	const pagination = c.api === 'account' ? accountPagination(next) : commercePagination(`${c.origin}/f/${c.fault}${next}`, data);
	send(c, 200, {pagination: {...pagination, echo: cuts.join(' | ')}, data, warnings: cuts.map((cut, index) => ({id: `echo_${index}`, message: `You sent ${cut}`}))}, {'x-echo': cuts.join(' | ')});
}

const bytesPagination = (next: string | null) => JSON.stringify(accountPagination(next));

/** The two pages of the `bytes-ascii` and `bytes-utf8` faults, compact JSON. */
export const bytesPages = {
	ascii: [
		`{"pagination":${bytesPagination('/v2/accounts?limit=3&starting_after=a3')},"data":[{"id":"a1","s":"caf\\u00e9 \\u001b[0m","n":1.0},{"id":"a2","x":[1,{"y":null}],"10":"ten"},{"id":"a3"}]}`,
		`{"data":[{"id":"a4","big":9007199254740993}],"pagination":${bytesPagination(null)}}`,
	],
	utf8: [
		`{"pagination":${bytesPagination('/v2/accounts?limit=3&starting_after=u4')},"data":[{"id":"u1","name":"Caf\u00e9 \u00dc"},{"id":"u2","name":"\u65c5\u884c\u306e\u8caf\u91d1 \u2614"},{"id":"u3","bidi":"\u202Eevil"},{"id":"u4", "spaced": true}]}`,
		`{"pagination":${bytesPagination(null)},"data":[{"id":"u5","home":"\u{1F3E0}","n":1.50},{"id":"u6","flag":"\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}"},{"id":"u7","tail":"\u00e9"}]}`,
	],
} as const;

/**
 * A body whose objects JSON.parse + JSON.stringify would change: digits past
 * 2^53, long decimals, 1.0, 1e400, an integer-like key before id, duplicate
 * keys, a literal dotted key beside a nested one, an ideographic variation
 * selector (U+E0100), a subdivision flag (tag characters), a literal bidi
 * override and C1 control, an escaped ESC, a formula and a negative number.
 */
export const exactBody = `{
  "pagination": {"ending_before": null, "starting_after": null, "limit": 3, "order": "desc",
                 "previous_uri": null, "next_uri": null},
  "data": [
    {"id": "big", "n": 9007199254740993, "d": 0.1000000000000000055511151231257827, "f": 1.0, "e": 1e400, "neg": -0.0},
    {"10": "ten", "id": "keys", "dup": 1, "dup": 2, "a.b": "literal", "a": {"b": "nested"}},
    {
      "id": "text",
      "name": "\u845b\u{E0100}\u98fe",
      "flag": "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
      "esc": "\\u001b[2J",
      "bidi": "\u202Eabc",
      "c1": "\u0085x",
      "formula": "=1+1",
      "minus": -5
    }
  ]
}`;

/** A body built once, on first use, and kept: the size faults are megabytes. */
function lazy(build: () => string): () => string {
	let text: string | undefined;
	return () => {
		text ??= build();
		return text;
	};
}

/** A one-page account body around `data`, written as JSON text (the size faults build their own). */
function accountBody(dataText: string): string {
	return `{"pagination":${JSON.stringify(accountPagination(null))},"data":[${dataText}]}`;
}

/** `data` is a 20 MiB string. */
const dataHugeStringBody = lazy(() => `{"pagination":${JSON.stringify(accountPagination(null))},"data":"${'d'.repeat(20 * 1024 * 1024)}"}`);
/** 31 MiB of whitespace and nothing else: under the size cap. */
const whitespaceBody = lazy(() => ' \n\t\r'.repeat(31 * 256 * 1024));
/** A good page with 1,000,000 distinct warnings. */
const manyWarningsBody = lazy(() => `{"pagination":${JSON.stringify(accountPagination(null))},"data":[{"id":"w"}],"warnings":[${Array.from({length: 1_000_000}, (_, index) => `"warning ${index}"`).join(',')}]}`);

export const deepLevels = 50_000;
/** Plain neighbours around two objects nested 50,000 levels deep (one in objects, one in arrays). */
const deepBody = lazy(() => accountBody([
	'{"id":"before","name":"first"}',
	`{"id":"deep-object","name":"nested","v":${'{"a":'.repeat(deepLevels)}1${'}'.repeat(deepLevels)}}`,
	`{"id":"deep-array","name":"nested","v":${'['.repeat(deepLevels)}${']'.repeat(deepLevels)}}`,
	'{"id":"after","name":"last"}',
].join(',')));
/** One cell of 4 MiB (UTF-8) of non-ASCII text and emoji between two small objects. */
export const hugeCellUnit = 'é漢字🎉👩‍👩‍👧';
const hugeCellBody = lazy(() => accountBody(`{"id":"small-1","note":"a"},{"id":"huge","note":"${hugeCellUnit.repeat(Math.ceil(4 * 1024 * 1024 / Buffer.byteLength(hugeCellUnit)))}"},{"id":"small-2","note":"b"}`));
export const manyObjects = 300_000;
const manyObjectsBody = lazy(() => accountBody(Array.from({length: manyObjects}, (_, index) => `{"id":"o${index}","n":${index}}`).join(',')));
export const wideFields = 100_000;
const wideBody = lazy(() => accountBody(`{"id":"wide",${Array.from({length: wideFields}, (_, index) => `"f${index}":${index}`).join(',')}},{"id":"narrow","f0":"x"}`));

/** ESC, a bidi override, a line separator, a tag character, a C1 control and a zero-width joiner, with text between. */
export const hostileText = 'h\u001B[2J\u202Eevil\u2028x\u{E0041}y\u0085z\u200D!';

/** Object `n` (1 the newest) of a list fault: an id and a created_at, so the audit's order check applies. */
export function listObject(n: number): {id: string; created_at: string; name: string} {
	return {id: `item-${String(n).padStart(4, '0')}`, created_at: new Date(Date.UTC(2025, 0, 1) - (n * 60_000)).toISOString(), name: `Item ${n}`};
}

/** A list fault's whole list in `order`, as object numbers (1 the newest): what a server that keeps the contract answers. */
export function listNumbers(size: number, order: 'asc' | 'desc'): number[] {
	const desc = Array.from({length: size}, (_, index) => index + 1);
	return order === 'desc' ? desc : desc.reverse();
}

const numberSetting = (c: Context, name: string, fallback: number) => Number(c.settings.get(name) ?? fallback);

/**
 * A list of `size` objects (setting, default 200) in both orders, paged by
 * `limit` (default 25) from a `starting_after` id, with both APIs'
 * pagination, as the sandbox serves one: the list faults of the walk from
 * both ends. `spoil` gives the list this request sees in the order asked,
 * from the true one and the cursor's place in it (a fault in one order
 * only); `delay` (setting, ms) holds every answer that long, a real link's
 * pace, so that a dump walks from both ends by default; `holdFirst` (ms)
 * holds only the first page in desc (a walk from both ends: the forward
 * chain's), so the other end's first page comes, and what it reads ahead is
 * sent, before it.
 */
function listPage(c: Context, spoil?: (list: number[], order: 'asc' | 'desc', cursorAt: number) => number[], {ignoreOrder = false, misreport, size = numberSetting(c, 'size', 200), objectOf = listObject}: {ignoreOrder?: boolean; misreport?: (pagination: Record<string, unknown>) => void; size?: number; objectOf?: typeof listObject} = {}): void {
	const sentLimit = c.query.get('limit');
	const limit = sentLimit === null || Number(sentLimit) === 0 ? 25 : Number(sentLimit);
	const sentOrder = ignoreOrder ? null : c.query.get('order');
	const order = sentOrder === 'asc' ? 'asc' : 'desc';
	const cursor = c.query.get('starting_after');
	const truth = listNumbers(size, order);
	const list = spoil ? spoil(truth, order, cursor === null ? -1 : truth.findIndex(n => objectOf(n).id === cursor)) : truth;
	const at = cursor === null ? -1 : list.findIndex(n => objectOf(n).id === cursor);
	// A cursor the list does not hold: nothing, and the end (never the list from its start again).
	const numbers = cursor !== null && at === -1 ? [] : list.slice(at + 1, at + 1 + limit);
	const data = numbers.map(n => objectOf(n));
	const more = numbers.length > 0 && list.at(-1) !== numbers.at(-1);
	const settings = c.settings.size > 0 ? `~${[...c.settings].map(([key, value]) => `${key}=${value}`).join(',')}` : '';
	const parameters = `${sentLimit === null ? '' : `limit=${sentLimit}&`}${sentOrder === null ? '' : `order=${sentOrder}&`}starting_after=${data.at(-1)?.id ?? ''}`;
	const next = more ? (c.api === 'account' ? `${c.path}?${parameters}` : `${c.origin}/f/${c.fault}${settings}${c.path}?${parameters}`) : null;
	const pagination: Record<string, unknown> = {
		ending_before: null, starting_after: cursor, limit, order, previous_uri: null, next_uri: next,
		...(c.api === 'commerce' ? {total: size, yielded: data.length, cursor_range: data.length === 0 ? [] : [data[0]!.id, data.at(-1)!.id]} : {}),
	};
	misreport?.(pagination);
	const delay = numberSetting(c, 'delay', 0) + (cursor === null && c.query.get('order') !== 'asc' ? numberSetting(c, 'holdFirst', 0) : 0);
	const answer = () => {
		send(c, 200, {pagination, data});
	};

	if (delay > 0) {
		setTimeout(answer, delay);
	} else {
		answer();
	}
}

/**
 * `asc-lacks-one`: the list in order asc lacks object `missing` (setting, by
 * its number, default 150: in the half a walk from both ends reads in asc),
 * which the list in desc holds; `total` still counts it. A server breaking
 * "asc reverses desc".
 */
function lacksOne(c: Context): void {
	const missing = numberSetting(c, 'missing', 150);
	listPage(c, (list, order) => (order === 'asc' ? list.filter(n => n !== missing) : list));
}

/**
 * `asc-replaces-one`, `asc-replaces-one-commerce`: the list in order asc has
 * another object in the place of object `replace` (setting, by its number,
 * default 195: near its far end, on the first page a walk from both ends
 * reads in asc, far from where the ends meet): `item-195.5`, created between
 * its neighbours, so every page is in order. Its count, and so `total`, is
 * right: a server breaking "asc reverses desc" where nothing but reading
 * that stretch in desc can tell.
 */
function replacesOne(c: Context): void {
	const replace = numberSetting(c, 'replace', 195);
	listPage(c, (list, order) => (order === 'asc' ? list.map(n => (n === replace ? n + 0.5 : n)) : list));
}

/**
 * `cursor-varies`: a page for the same cursor is not always the same page.
 * Every `every`-th request (setting, default 2; a first page included) in
 * order `vary` (setting, default asc) is answered from `skip` (setting,
 * default 4) objects further on, counted per order: deterministic for a
 * test, as "once in five" is not.
 */
function variesByRequest(c: Context): void {
	const vary = c.settings.get('vary') ?? 'asc';
	const every = numberSetting(c, 'every', 2);
	const skip = numberSetting(c, 'skip', 4);
	listPage(c, (list, order, cursorAt) => {
		if (order !== vary || c.tally(order) % every !== 0) {
			return list;
		}

		return list.filter((_, index) => index <= cursorAt || index > cursorAt + skip);
	});
}

/**
 * `account-lists`: an accounts list of `size` accounts (setting, default 6),
 * and each account's own lists (`/v2/accounts/:id/transactions`, and
 * `addresses`) of 7 objects for each of its number, in both orders; but the
 * list of account 2 is refused (403), account 3's is gone (404) and account
 * 4's fails every time (503): the lists a walk of every account's list
 * loses, one by one, while it writes the others. With the setting `odd`,
 * account 2's id holds what a path, a shell and a terminal read specially
 * (its list is found only at that id percent-encoded).
 */
const oddSuffix = '/\u001B[31m?#\'';
function accountLists(c: Context): void {
	const odd = c.settings.has('odd');
	const own = /^\/v2\/accounts\/item-(\d+)([^/]*)\/(?:transactions|addresses)$/.exec(c.path);
	if (own === null) {
		listPage(c, undefined, odd ? {objectOf: n => (n === 2 ? {...listObject(n), id: `${listObject(n).id}${oddSuffix}`} : listObject(n))} : {});
		return;
	}

	const n = Number(own[1]);
	if (own[2] !== (odd && n === 2 ? encodeURIComponent(oddSuffix) : '')) {
		send(c, 404, errorBody('account', 'not_found', 'There is no such account'));
	} else if (n === 2) {
		send(c, 403, errorBody('account', 'invalid_scope', 'Forbidden: the credential may not read this account'));
	} else if (n === 3) {
		send(c, 404, errorBody('account', 'not_found', `There is no account item-${own[1]!}`));
	} else if (n === 4) {
		send(c, 503, errorBody('account', 'service_unavailable', 'Try again later'));
	} else {
		listPage(c, undefined, {size: 7 * n});
	}
}

/**
 * The faults. Each entry: the API it speaks and what it does. The expected
 * outcome of each is asserted in test/walker/faults.test.ts.
 */
const faults = {
	'non-json': {api: 'account', handle: c => send(c, 200, 'hello, this is not JSON')},
	'html-502': {api: 'account', handle: c => send(c, 502, '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>', {'content-type': 'text/html'})},
	// A sign-in page answering for the API (a captive portal, a company proxy): 200, and 401 from a proxy.
	'html-login': {api: 'account', handle: c => send(c, 200, '<!doctype html>\n<html><head><title>Sign in \u2013 Example SSO</title></head><body><form></form></body></html>', {'content-type': 'text/html; charset=utf-8'})},
	'html-401': {api: 'account', handle: c => send(c, 401, '<html><head><title>Proxy login</title></head><body>Log in to continue</body></html>', {'content-type': 'text/html'})},
	// A proxy in front that reads fewer header bytes than pagewalk sends (most read 8 KiB).
	'headers-too-large': {api: 'account', handle: c => send(c, 431, {errors: [{id: 'request_header_fields_too_large', message: 'Request Header Fields Too Large'}]})},
	truncated: {api: 'account', handle: c => send(c, 200, JSON.stringify({pagination: accountPagination(null), data: page(1, 3)}).slice(0, 70), {'content-type': 'application/json'})},
	'no-pagination': {api: 'account', handle: c => send(c, 200, {data: page(1, 2)})},
	'bad-pagination': {api: 'commerce', handle: c => send(c, 200, {pagination: {...commercePagination(null, []), limit: '25'}, data: []})},
	'data-not-array': {api: 'account', handle: c => send(c, 200, {pagination: accountPagination(null), data: {id: 'x'}})},
	'no-ids': {api: 'commerce', handle: c => send(c, 200, {pagination: commercePagination(null, []), data: [{id: 'a'}, {name: 'no id'}]})},
	'foreign-next': {api: 'commerce', handle(c) {
		const data = page(1, 3);
		send(c, 200, {pagination: commercePagination(`${c.evilOrigin}/checkouts?starting_after=${data[2]!.id}`, data), data});
	}},
	'userinfo-next': {api: 'commerce', handle(c) {
		const data = page(1, 3);
		const at = c.origin.replace('http://', 'http://user:secret@');
		send(c, 200, {pagination: commercePagination(`${at}/f/userinfo-next/checkouts?starting_after=x`, data), data});
	}},
	'protocol-relative-next': {api: 'account', handle(c) {
		send(c, 200, {pagination: accountPagination(`//${c.evilOrigin.slice('http://'.length)}/v2/accounts?starting_after=x`), data: page(1, 3)});
	}},
	'backslash-next': {api: 'account', handle(c) {
		send(c, 200, {pagination: accountPagination(`/\\${c.evilOrigin.slice('http://'.length)}/v2/accounts?starting_after=x`), data: page(1, 3)});
	}},
	redirect: {api: 'account', handle: c => send(c, 302, '', {location: `${c.evilOrigin}/v2/accounts`})},
	cycle: {api: 'account', handle(c) {
		// Three pages whose next_uri goes 1 → 2 → 3 → 1.
		const cursor = c.query.get('starting_after');
		const n = cursor === null ? 1 : Number(cursor.slice(1)) % 3 + 1;
		send(c, 200, {pagination: accountPagination(`/v2/accounts?&limit=3&starting_after=p${n}`), data: page(n, 3)});
	}},
	'loop-back': {api: 'account', handle(c) {
		// Page 2's next_uri, a cursor not seen before, leads back to page 1
		// (its objects and its next_uri again); so does any cursor but page 1's
		// last id, such as the browser's follow (F) asking past page 2.
		const second = c.query.get('starting_after') === 'obj-1-2';
		const next = second ? '/v2/accounts?limit=3&starting_after=obj-2-2' : '/v2/accounts?limit=3&starting_after=obj-1-2';
		send(c, 200, {pagination: accountPagination(next), data: page(second ? 2 : 1, 3)});
	}},
	'empty-same': {api: 'account', handle(c) {
		// An empty page whose next_uri is its own request, forever.
		send(c, 200, {pagination: accountPagination(`${c.path}?${c.query.toString()}`), data: []});
	}},
	'empty-fresh': {api: 'commerce', handle(c) {
		// Endless empty pages, each with a new cursor: only a bound stops it.
		send(c, 200, {pagination: commercePagination(link(c, `starting_after=e${c.hit}`), []), data: []});
	}},
	oversized: {api: 'account', async handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json'});
		const chunk = Buffer.alloc(1024 * 1024, 0x20);
		c.response.write('{"data":[],"pagination":null, "pad":"');
		for (let index = 0; index < 40 && !c.response.destroyed; index++) {
			if (!c.response.write(chunk)) {
				// eslint-disable-next-line no-await-in-loop -- waits for the reader to drain before the next megabyte
				await new Promise<void>(resolve => {
					// Both listeners go once either fires: one left per megabyte added up on the response.
					const done = () => {
						c.response.off('drain', done);
						c.response.off('close', done);
						resolve();
					};

					c.response.once('drain', done);
					c.response.once('close', done);
				});
			}
		}

		c.response.end('"}');
	}},
	'no-headers': {api: 'account', handle() {
		// Never answers.
	}},
	'stall-body': {api: 'commerce', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json', 'content-length': '5000'});
		c.response.write('{"data":[{"id":"a"');
	}},
	'reset-always': {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json', 'content-length': '5000'});
		c.response.write('{"data":[{"id":"a"', () => c.request.socket.destroy());
	}},
	'reset-once': {api: 'account', handle(c) {
		if (c.hit === 1) {
			c.request.socket.destroy();
			return;
		}

		goodPage(c, 1);
	}},
	'rate-limit': {api: 'account', handle(c) {
		if (c.hit === 1) {
			send(c, 429, errorBody('account', 'rate_limit_exceeded', 'Too many requests'), {'retry-after': '1'});
			return;
		}

		goodPage(c, 1);
	}},
	// 429 with no Retry-After, as the real APIs may: no time is known to say.
	'rate-limit-silent': {api: 'account', handle: c => send(c, 429, errorBody('account', 'rate_limit_exceeded', 'Too many requests'))},
	'rate-limit-long': {api: 'commerce', handle: c => send(c, 429, errorBody('commerce', 'rate_limit_exceeded', 'Too many requests'), {'retry-after': '3600'})},
	'unavailable-once': {api: 'commerce', handle(c) {
		if (c.hit === 1) {
			send(c, 503, errorBody('commerce', 'internal_server_error', 'Service unavailable'), {'retry-after': '0'});
			return;
		}

		goodPage(c, 2);
	}},
	'gateway-timeout-once': {api: 'account', handle(c) {
		if (c.hit === 1) {
			send(c, 504, '<html><body>504 Gateway Time-out</body></html>', {'content-type': 'text/html', 'retry-after': '0'});
			return;
		}

		goodPage(c, 1);
	}},
	'unauthorized-account': {api: 'account', handle: c => send(c, 401, errorBody('account', 'invalid_token', 'The access token is invalid'))},
	'unauthorized-commerce': {api: 'commerce', handle: c => send(c, 401, errorBody('commerce', 'authentication_error', 'No such API Key.'))},
	'forbidden-account': {api: 'account', handle: c => send(c, 403, errorBody('account', 'invalid_scope', 'Invalid scope'))},
	'forbidden-commerce': {api: 'commerce', handle: c => send(c, 403, errorBody('commerce', 'authorization_error', 'Forbidden'))},
	'not-found': {api: 'account', handle: c => send(c, 404, errorBody('account', 'not_found', 'Not found'))},
	'bad-request': {api: 'commerce', handle: c => send(c, 400, errorBody('commerce', 'validation_error', 'limit must be at most 100'))},
	escapes: {api: 'account', handle(c) {
		// Terminal escapes inside object strings: ESC[2J, an OSC 52 clipboard write, a bidi override, a bell, C1 CSI.
		const data = [{id: 'esc-1', name: '\u001B[2Jwiped\u0007', note: '\u001B]52;c;cHduZWQ=\u0007', bidi: 'abc\u202Edcba', c1: '\u009B31mred'}];
		send(c, 200, {pagination: accountPagination(null), data});
	}},
	'escape-error': {api: 'account', handle: c => send(c, 400, errorBody('account', 'invalid_request\u001B[31m', 'bad \u001B]8;;http://evil\u0007link\u001B]8;;\u0007 \u001B[2J\u202Eetirw'))},
	'escape-id-fails': {api: 'account', handle(c) {
		// A walk whose last good id holds escapes, then a failure: the resume hint must stay inert.
		if (c.query.get('starting_after') === null) {
			send(c, 200, {pagination: accountPagination('/v2/accounts?limit=3&starting_after=evil'), data: [{id: 'x\u001B[2J\'$(rm)'}]});
			return;
		}

		send(c, 500, errorBody('account', 'internal_server_error', 'boom'));
	}},
	'fail-midway': {api: 'commerce', handle(c) {
		// Two good pages, then a 500 that stays.
		const cursor = c.query.get('starting_after');
		if (cursor === 'p2') {
			send(c, 500, errorBody('commerce', 'internal_server_error', 'Something went wrong'));
			return;
		}

		goodPage(c, 5);
	}},
	warnings: {api: 'account', handle(c) {
		send(c, 200, {
			pagination: accountPagination(null),
			data: page(1, 2),
			warnings: [{id: 'missing_version', message: 'Please supply API version (YYYY-MM-DD) as CB-VERSION header \u001B[5m', url: 'https://example.invalid'}],
		});
	}},
	quirks: {api: 'account', handle(c) {
		// The documented `?&`, a repeated parameter, and a short page that is not the end.
		const cursor = c.query.get('starting_after');
		if (cursor === null) {
			send(c, 200, {pagination: accountPagination('/v2/accounts?&limit=3&limit=3&starting_after=obj-1-0'), data: page(1, 1)});
			return;
		}

		send(c, 200, {pagination: accountPagination(null), data: page(2, 3)});
	}},
	'hang-after-first': {api: 'account', handle(c) {
		// A good first page, then a server that never answers.
		if (c.query.get('starting_after') === null) {
			goodPage(c, 5);
		}
	}},
	// Objects that JSON.parse + JSON.stringify would change, pretty-printed.
	exact: {api: 'account', handle: c => send(c, 200, exactBody, {'content-type': 'application/json'})},
	// Deadlines: each sends a good first page, then holds the second forever
	// with bytes that restart undici's per-phase timers.
	'trickle-body': {api: 'account', handle(c) {
		if (c.query.get('starting_after') === null) {
			goodPage(c, 5);
			return;
		}

		c.response.writeHead(200, {'content-type': 'application/json'});
		c.response.write('{"data":[');
		forever(c, () => c.response.write(' '));
	}},
	'endless-1xx': {api: 'account', handle(c) {
		if (c.query.get('starting_after') === null) {
			goodPage(c, 5);
			return;
		}

		forever(c, () => {
			c.response.writeProcessing();
		});
	}},
	'dribble-headers': {api: 'commerce', handle(c) {
		if (c.query.get('starting_after') === null) {
			goodPage(c, 5);
			return;
		}

		const {socket} = c.request;
		socket.write('HTTP/1.1 200 OK\r\n');
		let n = 0;
		forever(c, () => socket.write(`x-dribble-${n++}: a\r\n`));
	}},
	// Credentials echoed back: in an error message, a body excerpt (cut in the
	// middle of the credential), a warning, and a link.
	'echo-in-error': {api: 'account', handle: c => send(c, 401, errorBody('account', 'invalid_token', `The access token ${c.request.headers.authorization ?? ''} (${encodeURIComponent(String(c.request.headers.authorization))}) is invalid`))},
	'echo-in-excerpt': {api: 'commerce', handle: c => send(c, 500, `${'x'.repeat(70)} key=${String(c.request.headers['x-cc-api-key'])} and more`)},
	'echo-in-body': {api: 'account', handle: c => send(c, 200, `not json ${'y'.repeat(60)}${String(c.request.headers.authorization)}`)},
	'echo-in-warning': {api: 'commerce', handle(c) {
		const data = page(1, 2);
		send(c, 200, {pagination: commercePagination(null, data), data, warnings: [{id: 'key_in_use', message: `You used ${String(c.request.headers['x-cc-api-key'])}`}]});
	}},
	'echo-in-pagination': {api: 'commerce', handle(c) {
		const data = page(1, 2);
		send(c, 200, {pagination: {...commercePagination(null, data), limit: `${'z'.repeat(30)}${String(c.request.headers['x-cc-api-key'])}`}, data});
	}},
	// Pieces of the credential (or JWT) echoed: cut, JSON-escaped, percent-encoded.
	'echo-runs': {api: 'account', handle: echoRuns},
	'echo-runs-commerce': {api: 'commerce', handle: echoRuns},
	'echo-in-link': {api: 'account', handle(c) {
		const token = String(c.request.headers.authorization).replace('Bearer ', '');
		send(c, 200, {pagination: accountPagination(`/v2/accounts?limit=3&starting_after=p1&t=${encodeURIComponent(token)}`), data: page(1, 3)});
	}},
	'credential-param-next': {api: 'commerce', handle(c) {
		const data = page(1, 3);
		send(c, 200, {pagination: commercePagination(`${c.origin}/f/credential-param-next/checkouts?starting_after=p1&API%5FKey=stolen`, data), data});
	}},
	// Links relative to the request: query-only and path-relative.
	'query-only-next': {api: 'account', handle(c) {
		const cursor = c.query.get('starting_after');
		const n = cursor === null ? 1 : Number(cursor.slice(1)) + 1;
		send(c, 200, {pagination: accountPagination(n < 3 ? `?limit=3&starting_after=p${n}` : null), data: page(n, 3)});
	}},
	'path-relative-next': {api: 'account', handle(c) {
		const cursor = c.query.get('starting_after');
		const n = cursor === null ? 1 : Number(cursor.slice(1)) + 1;
		send(c, 200, {pagination: accountPagination(n < 3 ? `accounts?limit=3&starting_after=p${n}` : null), data: page(n, 3)});
	}},
	'repeat-previous': {api: 'account', handle(c) {
		// Page 2 (a fresh cursor) holds page 1's objects again, in another order.
		const cursor = c.query.get('starting_after');
		const data = page(1, 3);
		send(c, 200, {pagination: accountPagination(`/v2/accounts?limit=3&starting_after=p${cursor === null ? 1 : 2}`), data: cursor === null ? data : data.reverse()});
	}},
	'awkward-ids': {api: 'account', handle(c) {
		// Ids a shell would mangle, then a failure: the resume hint must carry the last one.
		if (c.query.get('starting_after') === null) {
			const ids = ['-rf', 'a b  c', 'it\'s "q" $HOME `x` \\ !', `long-${'x'.repeat(1000)}`, '--all \'q\' "$HOME" x'];
			send(c, 200, {pagination: accountPagination('/v2/accounts?limit=3&starting_after=next'), data: ids.map(id => ({id}))});
			return;
		}

		send(c, c.query.get('starting_after') === 'next' ? 500 : 200, c.query.get('starting_after') === 'next'
			? errorBody('account', 'internal_server_error', 'boom')
			: {pagination: accountPagination(null), data: [{id: 'after'}]});
	}},
	// Bytes and headers.
	bom: {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json; charset=utf-8'});
		c.response.end(Buffer.concat([Buffer.from([0xEF, 0xBB, 0xBF]), Buffer.from(JSON.stringify({pagination: accountPagination(null), data: page(1, 3)}))]));
	}},
	'invalid-utf8': {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json'});
		c.response.end(Buffer.concat([Buffer.from('{"data":[{"id":"caf'), Buffer.from([0xE9]), Buffer.from(`"}],"pagination":${JSON.stringify(accountPagination(null))}}`)]));
	}},
	gzip: {api: 'commerce', handle(c) {
		const data = page(1, 3);
		c.response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'gzip'});
		c.response.end(zlib.gzipSync(JSON.stringify({pagination: commercePagination(null, data), data})));
	}},
	deflate: {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'deflate'});
		c.response.end(zlib.deflateSync(JSON.stringify({pagination: accountPagination(null), data: page(1, 3)})));
	}},
	'gzip-bomb': {api: 'account', handle(c) {
		// 40 MiB of spaces, gzipped to ~40 KiB: the decoded size is capped too.
		c.response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'gzip'});
		bomb ??= zlib.gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
		c.response.end(bomb);
	}},
	'unknown-encoding': {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'zstd'});
		c.response.end('(\u00B5/\u00FD not really zstd');
	}},
	'no-content': {api: 'account', handle(c) {
		c.response.writeHead(204);
		c.response.end();
	}},
	'not-modified': {api: 'commerce', handle(c) {
		c.response.writeHead(304, {etag: '"x"'});
		c.response.end();
	}},
	'json-as-text': {api: 'account', handle(c) {
		// A good page with the wrong Content-Type: read as the JSON it is.
		c.response.writeHead(200, {'content-type': 'text/plain'});
		c.response.end(JSON.stringify({pagination: accountPagination(null), data: page(1, 3)}));
	}},
	'truncated-chunked': {api: 'account', handle(c) {
		// A good page cut mid-body on a chunked response: the connection closes early.
		c.response.writeHead(200, {'content-type': 'application/json'});
		c.response.write('{"data":[{"id":"a"},', () => c.request.socket.destroy());
	}},
	'hostile-strings': {api: 'account', handle(c) {
		// A hostile id, twice on page 1 (so the audit's evidence names it) and as
		// the next cursor; page 2 brings fields whose keys are hostile (so the
		// csv note naming fields first seen late quotes them).
		if (c.query.get('starting_after') === null) {
			send(c, 200, {pagination: accountPagination(`/v2/accounts?limit=3&starting_after=${encodeURIComponent(hostileText)}`), data: [{id: hostileText, name: 'one'}, {id: hostileText, name: 'two'}]});
			return;
		}

		send(c, 200, {pagination: accountPagination(null), data: [{id: 'plain', name: 'three', [`k${hostileText}`]: 1, [hostileText]: {[hostileText]: 2}}]});
	}},
	// An attacker's shapes.
	'duplicate-data': {api: 'account', handle(c) {
		// JSON.parse keeps the last `data`; the exact texts must be the same objects.
		send(c, 200, `{"data":[{"id":"first-a"},{"id":"first-b"}],"pagination":${JSON.stringify(accountPagination(null))},"data":[{"id":"last-a"},{"id":"last-b"},{"id":"last-c"}]}`, {'content-type': 'application/json'});
	}},
	'data-huge-string': {api: 'account', handle: c => send(c, 200, dataHugeStringBody(), {'content-type': 'application/json'})},
	'whitespace-body': {api: 'account', handle: c => send(c, 200, whitespaceBody(), {'content-type': 'application/json'})},
	// Compact pages, as real APIs send them, which the dump copies byte for
	// byte (output/exact-bytes.ts): ASCII only, and UTF-8 of two, three and four
	// bytes beside objects that must be rewritten, gzip-coded and after a BOM.
	'bytes-ascii': {api: 'account', handle(c) {
		const first = c.query.get('starting_after') === null;
		send(c, 200, first ? bytesPages.ascii[0] : bytesPages.ascii[1], {'content-type': 'application/json'});
	}},
	'bytes-utf8': {api: 'account', handle(c) {
		if (c.query.get('starting_after') === null) {
			c.response.writeHead(200, {'content-type': 'application/json', 'content-encoding': 'gzip'});
			c.response.end(zlib.gzipSync(bytesPages.utf8[0]));
			return;
		}

		c.response.writeHead(200, {'content-type': 'application/json'});
		c.response.end(Buffer.concat([Buffer.from([0xEF, 0xBB, 0xBF]), Buffer.from(bytesPages.utf8[1])]));
	}},
	'odd-numbers': {api: 'account', handle(c) {
		send(c, 200, `{"pagination":${JSON.stringify(accountPagination(null))},"data":[{"id":"n","a":-0,"b":1E+2,"c":1e-7,"d":0.0,"e":-1.5E-300,"f":123456789012345678901234567890}]}`, {'content-type': 'application/json'});
	}},
	'hostile-pagination': {api: 'account', handle(c) {
		send(c, 200, {pagination: {...accountPagination(null), order: `desc${hostileText}`}, data: page(1, 3)});
	}},
	'hostile-next': {api: 'account', handle(c) {
		send(c, 200, {pagination: accountPagination(`/v2/acc${hostileText}ounts?limit=3&starting_after=${hostileText}`), data: page(1, 3)});
	}},
	'many-warnings': {api: 'account', handle: c => send(c, 200, manyWarningsBody(), {'content-type': 'application/json'})},
	'long-header': {api: 'account', handle(c) {
		c.response.writeHead(200, {'content-type': 'application/json', 'x-junk': 'j'.repeat(1024 * 1024)});
		c.response.end(JSON.stringify({pagination: accountPagination(null), data: page(1, 3)}));
	}},
	'retry-after-combo': {api: 'account', handle(c) {
		if (c.hit === 1) {
			// Two Retry-After headers, the first one readable: the first counts.
			c.response.setHeader('retry-after', ['0', 'Fri, 31 Dec 9999 23:59:59 GMT']);
			c.response.writeHead(503, {'content-type': 'application/json'});
			c.response.end(JSON.stringify(errorBody('account', 'unavailable', 'later')));
			return;
		}

		if (c.hit === 2) {
			send(c, 503, errorBody('account', 'unavailable', 'later'), {'retry-after': `${'9'.repeat(5000)}`});
			return;
		}

		goodPage(c, 1);
	}},
	// Size and shape: each a single page, built once.
	deep: {api: 'account', handle: c => send(c, 200, deepBody(), {'content-type': 'application/json'})},
	'huge-cell': {api: 'account', handle: c => send(c, 200, hugeCellBody(), {'content-type': 'application/json'})},
	'many-objects': {api: 'account', handle: c => send(c, 200, manyObjectsBody(), {'content-type': 'application/json'})},
	wide: {api: 'account', handle: c => send(c, 200, wideBody(), {'content-type': 'application/json'})},
	'good-account': {api: 'account', handle: c => goodPage(c, 4)},
	'good-commerce': {api: 'commerce', handle: c => goodPage(c, 4)},
	// The list faults of the walk from both ends (test/dump/both-ends.test.ts, test/audit/both-ends.test.ts).
	list: {api: 'account', handle: c => listPage(c)},
	'list-commerce': {api: 'commerce', handle: c => listPage(c)},
	'asc-lacks-one': {api: 'account', handle: lacksOne},
	'asc-lacks-one-commerce': {api: 'commerce', handle: lacksOne},
	'asc-replaces-one': {api: 'account', handle: replacesOne},
	'asc-replaces-one-commerce': {api: 'commerce', handle: replacesOne},
	'cursor-varies': {api: 'account', handle: variesByRequest},
	'cursor-varies-commerce': {api: 'commerce', handle: variesByRequest},
	// Lists in desc whatever order is asked for (and says so): a server or endpoint with one order only.
	'ignores-order': {api: 'account', handle: c => listPage(c, undefined, {ignoreOrder: true})},
	// Every account's list, three of them failing (test/dump/every-account.test.ts).
	'account-lists': {api: 'account', handle: accountLists},
	// The list, with one pagination field misreported on every page after the first: a rule of contract/rules.ts each (test/contract/rules.test.ts).
	'cursor-not-echoed': {api: 'account', handle: c => listPage(c, undefined, {misreport: p => Object.assign(p, p['starting_after'] === null ? {} : {starting_after: null})})},
	'range-reversed': {api: 'commerce', handle: c => listPage(c, undefined, {misreport: p => Object.assign(p, p['starting_after'] === null ? {} : {cursor_range: [...(p['cursor_range'] as string[])].reverse()})})},
	'total-moves': {api: 'commerce', handle: c => listPage(c, undefined, {misreport: p => Object.assign(p, p['starting_after'] === null ? {} : {total: (p['total'] as number) + 1})})},
} satisfies Record<string, {api: Api; handle(context: Context): void | Promise<void>}>;

export type FaultName = keyof typeof faults;
export const faultNames = Object.keys(faults) as FaultName[];
export function apiOf(fault: FaultName): Api {
	return faults[fault].api;
}

async function listen(handler: http.RequestListener): Promise<{server: http.Server; origin: string}> {
	const server = http.createServer(handler);
	server.keepAliveTimeout = 1000;
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	return {server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`};
}

function record(server: Received['server'], request: http.IncomingMessage, into: Received[]): void {
	const entry: Received = {server, path: request.url ?? ''};
	if (request.headers.authorization !== undefined) {
		entry.authorization = request.headers.authorization;
	}

	const apiKey = request.headers['x-cc-api-key'];
	if (apiKey !== undefined) {
		entry.apiKey = String(apiKey);
	}

	into.push(entry);
}

export async function startFaultyServer(): Promise<FaultyServer> {
	const received: Received[] = [];
	const hits = new Map<string, number>();
	const tallies = new Map<string, number>();
	const evil = await listen((request, response) => {
		record('evil', request, received);
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({pagination: accountPagination(null), data: [{id: 'stolen'}]}));
	});
	const faulty = await listen((request, response) => {
		record('faulty', request, received);
		const url = new URL(request.url ?? '/', 'http://x');
		const match = /^\/f\/([^/~]+)(?:~([^/]*))?(\/.*)$/.exec(url.pathname);
		const fault = match?.[1] as FaultName | undefined;
		if (!match || fault === undefined || !(fault in faults)) {
			response.writeHead(404, {'content-type': 'application/json'});
			response.end(JSON.stringify({errors: [{id: 'not_found', message: 'no such fault'}]}));
			return;
		}

		const hit = (hits.get(fault) ?? 0) + 1;
		hits.set(fault, hit);
		const {api, handle} = faults[fault];
		const settings = new Map((match[2] ?? '').split(',').filter(Boolean).map(pair => pair.split('=') as [string, string]));
		const tally = (key: string) => {
			const count = (tallies.get(`${fault}\u0000${key}`) ?? 0) + 1;
			tallies.set(`${fault}\u0000${key}`, count);
			return count;
		};

		void Promise.resolve(handle({
			api, fault, path: match[3]!, query: url.searchParams, hit, settings, tally,
			origin: faulty.origin, evilOrigin: evil.origin, request, response,
		})).catch(() => {
			response.destroy();
		});
	});

	return {
		origin: faulty.origin,
		evilOrigin: evil.origin,
		base: (fault, settings) => `${faulty.origin}/f/${fault}${settings === undefined ? '' : `~${Object.entries(settings).map(([key, value]) => `${key}=${value}`).join(',')}`}`,
		received,
		reset() {
			received.length = 0;
			hits.clear();
			tallies.clear();
		},
		async close() {
			await Promise.all([faulty.server, evil.server].map(async server => {
				server.closeAllConnections();
				await new Promise(resolve => {
					server.close(resolve);
				});
			}));
		},
	};
}
