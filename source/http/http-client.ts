import {isUtf8} from 'node:buffer';
import {setImmediate, setTimeout as sleep} from 'node:timers/promises';
import {PagewalkError} from '../text/errors.js';
import {connectionFailed, DeadlineExceeded, htmlPage, htmlPageError, maxBodyBytes, oversizedHeaders, seconds, statusFailed, type FailureContext, type Raw} from './http-failures.js';
import {openConnections, type Connections} from './undici-adapter.js';
import {leadingPagination, parseJson, validateEnvelope} from './envelope.js';
import {checkSameOrigin, resolveLink} from '../contract/links.js';
import {firstPageUrl, type WalkConfig, type WalkQuery} from '../config/options.js';
import {RateBudget, type BudgetSnapshot} from './rate-budget.js';
import {decideRetry} from './retry-policy.js';
import {credentialHeader, describeCredential, type Credential} from '../config/credentials.js';
import {signRequest} from '../config/jwt-sign.js';
import {redact, Secret, secretLikeHeader} from '../text/secret.js';
import {decodeBodyBytes, withoutBom} from './body-bytes.js';
import {getResponse, type Received} from './response-bytes.js';
import {ResponsePage} from './response-page.js';
import type {FailedExchange, JwtSummary, Page, Pagination, RetryNotice} from '../contract/types.js';
import {walkFlag} from '../config/hints.js';

/**
 * Fetches one list page at a time from the configured API, safely: one
 * keep-alive pool for the one origin we trust, timeouts on every phase, a
 * size cap, bounded retries where a GET can be retried, no redirects, and the
 * credential attached only after the URL passed the origin check.
 *
 * The retry loop is ours rather than undici's `interceptors.retry`: callers
 * must be told each wait as it starts (onRetry, shown in the browser and the
 * dump's progress), a Retry-After above --max-wait must end the walk with
 * advice instead of a silent long sleep, and the wait must end at once when
 * the caller aborts. The interceptor offers none of those hooks.
 */

/**
 * Settles once a request just asked of the client is on the wire. undici
 * writes a request on a reused connection only after a turn to the check
 * phase (it first looks for a close the server sent meanwhile; GHSA-35p6-
 * xmwp-9g52): a caller that reads a page ahead takes that turn before its
 * own work on the page before, or the request waits for that work.
 */
export async function requestSent(): Promise<void> {
	await setImmediate();
}

/** How much of a body's start is searched for its pagination (see leadingLink): both APIs' fit in a few hundred bytes. */
const leadingBytes = 4096;

export type FetchOptions = {
	signal?: AbortSignal;
	onRetry?: (notice: RetryNotice) => void;
	/**
	 * Told the page's next link (resolved, or null at the end), with the
	 * pagination it came in, as soon as it can be read from the first bytes
	 * of a 2xx body, before the body is decoded and parsed; returns whether
	 * it sent a request on it (the
	 * walker's read-ahead), and the client then lets that request reach the
	 * wire before it parses this page. The page itself is validated as ever:
	 * its nextUrl has the last word.
	 */
	onLink?: (next: string | null, pagination: Pagination) => boolean;
	/**
	 * A page read ahead: its response is read as it comes, but decoded,
	 * parsed and checked only once this settles (when the walker turns to
	 * it), so a page and the one read ahead are not parsed and held at once.
	 */
	until?: Promise<unknown>;
	/**
	 * Which of the client's connections carries the request (ClientOptions.lanes):
	 * each chain of a walk from both ends keeps to its own, so neither waits
	 * behind the other's pages. 0 when absent.
	 */
	lane?: number;
};

export type PageClient = {
	api: WalkConfig['api'];
	/** The configured origin: the only one that ever receives the credential. */
	origin: string;
	/** The first page of the configured walk. */
	firstUrl: string;
	/** The first page for another query (order toggle, new limit, a cursor). */
	urlFor(query: WalkQuery): string;
	/** Resolves a `next_uri`/`previous_uri` against the request it came from (or the base); null at the end. */
	resolveLink(uri: string | null | undefined, requestUrl?: string): string | null;
	/** Fetches and validates one page. Rejects with a PagewalkError, or the signal's reason when aborted. */
	fetchPage(url: string, options?: FetchOptions): Promise<Page>;
	/** Closes the keep-alive connections; again, does nothing more. */
	close(): Promise<void>;
	/** The request budget the server stated last, less what was sent since (rate-budget.ts); undefined when it never stated one. */
	budget?(): BudgetSnapshot | undefined;
};

export type ClientOptions = {
	/**
	 * Keep each page's body bytes and where its objects lie in them
	 * (Page.objectBytes), so a writer can copy them instead of encoding the
	 * texts again: the dump. Off for the browser, whose cached pages would
	 * hold the bytes for nothing.
	 */
	keepBytes?: boolean;
	/**
	 * A walk from start to end (dump, audit): one connection, reused for
	 * every page, through undici's Client itself rather than a pool of one.
	 * With more connections, undici hands the next page to a second one,
	 * because it lets a socket that just finished a response wait a full
	 * event-loop turn before reuse, and the walk alternates between two
	 * sockets, which bench:walk finds slower than one connection
	 * (docs/benchmarks.md). And a pool queues a request its busy client cannot take until
	 * that client drains, a turn later again, so the walker's read-ahead
	 * (walker.ts) would reach the wire only after the page before it was
	 * written, not while it is.
	 * The browser keeps a pool of four: the page on screen, the prefetched
	 * next one and a search reading ahead may be in flight together.
	 */
	sequential?: boolean;
	/**
	 * With `sequential`, this many connections, one per chain of a walk
	 * from both ends (FetchOptions.lane); 1 when absent. Without it, lane 0
	 * is the pool and each lane after it one connection of its own: the
	 * browser's export of every account's lists (commands/browse/export-lists.ts)
	 * walks its lists on those, so the pages the user asks for meanwhile
	 * never queue behind them, and every request shares the one budget.
	 */
	lanes?: number;
};

/**
 * The credential header for one request. A CDP key gets a JWT of its own,
 * made here, right before the request is sent and after the origin check:
 * for this request's host and path only, never reused (a retry, the next
 * page, the prefetch and the compare view each get a fresh one). The signer
 * registers the JWT for redaction before it leaves, in case a server echoes it.
 */
export function authorizationFor(credential: Credential, url: URL): {value: string; jwtClaims: JwtSummary | undefined} {
	switch (credential.kind) {
		case 'bearer': {
			return {value: `Bearer ${credential.secret.reveal()}`, jwtClaims: undefined};
		}

		case 'api-key': {
			return {value: credential.secret.reveal(), jwtClaims: undefined};
		}

		case 'cdp-key': {
			const {jwt, header, payload} = signRequest(credential.key, {method: 'GET', url});
			return {value: `Bearer ${jwt}`, jwtClaims: {alg: header.alg, kid: header.kid, uri: payload.uri, nbf: payload.nbf, exp: payload.exp}};
		}
	}
}

/** The request headers as the debug view shows them: the credential and anything credential-like by name replaced by a mark. */
function requestHeadersShown(config: WalkConfig): Record<string, string> {
	const shown: Record<string, string> = {};
	for (const [name, value] of Object.entries(config.headers)) {
		shown[name] = secretLikeHeader(name) ? Secret.mark : value;
	}

	shown[credentialHeader(config.api)] = Secret.mark;
	return shown;
}

/** Response headers for the debug view: cookies and anything credential-like redacted by name, the rest by value. */
function responseHeaders(headers: Raw['headers']): Record<string, string> {
	const shown: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) {
			const text = Array.isArray(value) ? value.join(', ') : value;
			shown[name] = secretLikeHeader(name) ? Secret.mark : redact(text);
		}
	}

	return shown;
}

/**
 * The whole-request deadlines (--timeout) of the requests in flight share
 * one timer, set for the earliest of them, instead of a timer made and
 * cleared per request, which cost a measurable share of a walk's CPU
 * (docs/benchmarks.md). Unref'd: a request in flight keeps the process
 * alive through its socket, so the timer need not.
 */
class Deadlines {
	private readonly inFlight = new Set<{deadline: number; expire(): void}>();
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly ms: number) {}

	/** Calls `expire` once the deadline passes, unless the returned function is called first. */
	start(expire: () => void): () => void {
		const entry = {deadline: performance.now() + this.ms, expire};
		this.inFlight.add(entry);
		this.timer ??= this.arm(this.ms);
		return () => {
			this.inFlight.delete(entry);
		};
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private arm(ms: number): NodeJS.Timeout {
		return setTimeout(() => {
			this.check();
		}, ms).unref();
	}

	private check(): void {
		this.timer = undefined;
		const now = performance.now();
		let earliest = Number.POSITIVE_INFINITY;
		for (const entry of this.inFlight) {
			if (entry.deadline <= now) {
				this.inFlight.delete(entry);
				entry.expire();
			} else {
				earliest = Math.min(earliest, entry.deadline);
			}
		}

		// A request that started after this timer was set ends later than it fired.
		if (earliest !== Number.POSITIVE_INFINITY) {
			this.timer = this.arm(Math.max(1, Math.ceil(earliest - now)));
		}
	}
}

/**
 * The next link of a 2xx response, and the pagination it is in, read from the first bytes of its body
 * (see leadingPagination), or undefined when it cannot be read there: a
 * coded body, or a head that is not whole UTF-8 or does not hold the
 * pagination.
 */
function leadingLink(config: WalkConfig, received: Received, url: URL): {next: string | null; pagination: Pagination} | undefined {
	if (received.status < 200 || received.status >= 300 || received.headers['content-encoding'] !== undefined) {
		return undefined;
	}

	const head = withoutBom(received.data).subarray(0, leadingBytes);
	const pagination = isUtf8(head) ? leadingPagination(config.api, head.toString()) : undefined;
	return pagination === undefined ? undefined : {next: resolveLink(pagination.next_uri, config.base, url.href), pagination};
}

/** Sleeps `ms`, or throws the caller's reason as soon as it aborts. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	try {
		await sleep(ms, undefined, {signal});
	} catch {
		throw signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
	}
}

/**
 * Waits, before a request, while the server's stated budget is spent (see
 * rate-budget.ts): the caller is told the wait as it starts, as for a
 * retry; one longer than --max-wait ends the walk with that advice.
 */
async function waitForBudget(budget: RateBudget, config: WalkConfig, wait: number, {signal, onRetry}: FetchOptions): Promise<void> {
	if (budget.heldMs() > 0) {
		// Another request's 429 asked the client to wait (its Retry-After, within --max-wait): this one waits with it.
		onRetry?.({attempt: 0, waitMs: wait, reason: 'another request was answered 429', pacing: true, retryAfter: true});
		await pause(wait, signal);
		return;
	}

	const limit = budget.snapshot()?.limit;
	const left = `0${limit === undefined ? '' : ` of ${limit}`} left`;
	if (wait > config.maxWaitMs) {
		const until = wait < 120_000 ? `${Math.ceil(wait / 1000)} s` : `${Math.ceil(wait / 60_000)} min`;
		throw new PagewalkError(`The ${apiNameOf(config)} says its request budget is spent (${left}) for ${until}, longer than ${walkFlag('maxWait')} allows (${seconds(config.maxWaitMs)}); run again once it has passed, or raise ${walkFlag('maxWait')}.`);
	}

	// The reason is the count alone: whoever words the wait says what was spent (status-model, progress).
	onRetry?.({attempt: 0, waitMs: wait, reason: left, pacing: true});
	await pause(wait, signal);
}

function apiNameOf(config: WalkConfig): string {
	return config.api === 'account' ? 'account API' : 'commerce API';
}

/** A request as sent: what a page or a failure tells of it. */
type Sent = {target: URL; requestHeaders: Record<string, string>; credential: string | undefined; startedAt: number; retries: number};

/** The page of a 2xx answer, its envelope checked; the objects' exact texts are found when first read (see ResponsePage). */
function pageFrom(config: WalkConfig, raw: Raw, sent: Sent, keepBytes: boolean): Page {
	const {target} = sent;
	const html = htmlPage(raw);
	if (html) {
		throw htmlPageError({origin: config.base.origin, apiName: apiNameOf(config)}, raw.status, html.title);
	}

	const envelope = validateEnvelope(config.api, parseJson(raw.body, String(raw.headers['content-type'] ?? '')), raw.body);
	return new ResponsePage({
		api: config.api,
		requestUrl: target.href,
		requestHeaders: {...sent.requestHeaders},
		responseHeaders: responseHeaders(raw.headers),
		status: raw.status,
		objects: envelope.objects,
		pagination: envelope.pagination,
		rawPagination: envelope.rawPagination,
		nextUrl: resolveLink(envelope.pagination.next_uri, config.base, target.href),
		previousUrl: resolveLink(envelope.pagination.previous_uri, config.base, target.href),
		warnings: envelope.warnings,
		startedAt: sent.startedAt,
		ms: Date.now() - sent.startedAt,
		retries: sent.retries,
		bytes: raw.bytes,
		credential: sent.credential,
		...(raw.jwtClaims ? {jwtClaims: raw.jwtClaims} : {}),
		...(raw.roundTripMs === undefined ? {} : {roundTripMs: Math.round(raw.roundTripMs)}),
	}, raw.body, keepBytes ? raw.data : undefined);
}

/** The request that failed, for the debug view: credentials redacted, the answer's status and headers when one came. */
function exchangeOf(raw: Raw | undefined, sent: Sent): FailedExchange {
	return {
		requestUrl: sent.target.href,
		requestHeaders: {...sent.requestHeaders},
		...(sent.credential === undefined ? {} : {credential: sent.credential}),
		...(raw?.jwtClaims ? {jwtClaims: raw.jwtClaims} : {}),
		...(raw === undefined ? {} : {status: raw.status, responseHeaders: responseHeaders(raw.headers)}),
		ms: Date.now() - sent.startedAt,
		retries: sent.retries,
	};
}

/** What one request goes through: the connections, the rate budget, the shared deadline timer. */
type Wire = {config: WalkConfig; pools: Connections[]; budget: RateBudget; deadlines: Deadlines};

/**
 * One try of one request: the credential attached (a CDP key's JWT signed
 * for this very request), the answer read whole, bounded by --timeout as a
 * whole, ended at once by the caller's abort.
 */
async function once({config, pools, budget, deadlines}: Wire, url: URL, signal: AbortSignal | undefined, {onLink, until, lane}: FetchOptions): Promise<Raw> {
	const {credential} = config;
	// Credentials are attached here, per request, after the origin check;
	// a CDP key's JWT is signed here, for this very request (see authorizationFor).
	const auth = authorizationFor(credential, url);
	const headers: Record<string, string> = {...config.headers, [credentialHeader(config.api).toLowerCase()]: auth.value};
	const oversized = oversizedHeaders(headers, credential, credentialHeader(config.api));
	if (oversized) {
		budget.lost();
		throw oversized;
	}

	// The whole body is read, to its end (or the pool's maxResponseSize)
	// whatever the status, so the connection goes back to the pool instead of leaking.
	const sentAt = performance.now();
	const exchange = getResponse(pools[lane ?? 0] ?? pools[0]!, {path: `${url.pathname}${url.search}`, headers});
	// undici's headers and body timeouts restart on every byte, so a server
	// that trickles a byte at a time, dribbles headers or sends 1xx after
	// 1xx would hold the walk forever: --timeout also bounds the request as
	// a whole. The exchange is ended with the reason, so the caller's abort
	// and the deadline stay apart: the first to come is the one thrown.
	const done = deadlines.start(() => {
		exchange.end(new DeadlineExceeded(exchange.responding ? 'body' : 'headers'));
	});
	const forward = () => {
		exchange.end(signal!.reason as Error);
	};

	if (signal?.aborted) {
		forward();
	} else {
		signal?.addEventListener('abort', forward, {once: true});
	}

	try {
		const received = await exchange.received.catch((error: unknown) => {
			budget.lost();
			throw error;
		});
		const roundTripMs = performance.now() - sentAt;
		budget.update(received.headers);
		if (until) {
			await until;
			// Its bytes may have come before the walk was stopped: stopped is stopped.
			signal?.throwIfAborted();
		}

		const early = onLink ? leadingLink(config, received, url) : undefined;
		if (early !== undefined && onLink!(early.next, early.pagination)) {
			// On the wire before this page is decoded and parsed, not after.
			await requestSent();
		}

		const decoded = decodeBodyBytes(received.status, received.headers, received.data, config.base.origin);
		return {status: received.status, headers: received.headers, body: decoded.text, data: decoded.bytes, bytes: received.bytes, jwtClaims: auth.jwtClaims, roundTripMs};
	} finally {
		done();
		signal?.removeEventListener('abort', forward);
	}
}

export function createClient(config: WalkConfig, {keepBytes = false, sequential = false, lanes = 1}: ClientOptions = {}): PageClient {
	const {base} = config;
	const pools = Array.from({length: Math.max(1, lanes)}, (_, lane) => openConnections(base.origin, {timeoutMs: config.timeoutMs, maxResponseSize: maxBodyBytes, sequential: sequential || lane > 0}));
	const {credential} = config;
	const credentialText = describeCredential(credential);
	const redactedHeaders = requestHeadersShown(config);
	const timeoutText = `${seconds(config.timeoutMs)} (${walkFlag('timeout')})`;
	const failureContext: FailureContext = {origin: base.origin, apiName: apiNameOf(config), timeoutText, credential};
	const budget = new RateBudget();

	const deadlines = new Deadlines(config.timeoutMs);
	const wire: Wire = {config, pools, budget, deadlines};
	let closing: Promise<void> | undefined;

	async function fetchPage(url: string, options: FetchOptions = {}): Promise<Page> {
		const {signal, onRetry} = options;
		const target = checkSameOrigin(url, base, 'The page URL');
		const startedAt = Date.now();
		let retries = 0;
		for (;;) {
			signal?.throwIfAborted();
			// Only a spent budget waits: otherwise the request leaves in this very turn (a read-ahead counts on it).
			// Asked again after each wait: requests that waited together (both
			// chains of a walk, a read-ahead) wake together, and the first to
			// go may have spent the new window already (or an answer said so).
			for (let wait = budget.waitMs(); wait > 0; wait = budget.waitMs()) {
				// eslint-disable-next-line no-await-in-loop -- each attempt is paced by the budget the answer before it stated
				await waitForBudget(budget, config, wait, options);
			}

			budget.spend();
			let raw: Raw | undefined;
			let caught: unknown;
			try {
				// eslint-disable-next-line no-await-in-loop -- attempts are sequential: each waits on the one before
				raw = await once(wire, target, signal, options);
			} catch (error: unknown) {
				if (signal?.aborted) {
					throw signal.reason;
				}

				caught = error;
			}

			if (raw !== undefined && raw.status >= 200 && raw.status < 300) {
				return pageFrom(config, raw, {target, requestHeaders: redactedHeaders, credential: credentialText, startedAt, retries}, keepBytes);
			}

			const failed = raw === undefined ? connectionFailed(failureContext, caught, retries) : statusFailed(failureContext, raw, retries);
			const decision = decideRetry({
				failure: failed.failure,
				attempt: retries,
				retries: config.retries,
				maxWaitMs: config.maxWaitMs,
				baseMs: config.retryBaseMs,
				now: Date.now(),
				random: Math.random,
			});
			// Every stop, a Retry-After above --max-wait included, ends with the
			// error as worded above: for 429 it already says how long the server
			// asked to wait, so a long sleep is never silent.
			if (decision.kind === 'stop') {
				failed.final.exchange = exchangeOf(raw, {target, requestHeaders: redactedHeaders, credential: credentialText, startedAt, retries});
				throw failed.final;
			}

			retries += 1;
			if (decision.reason === 'retry-after' && 'status' in failed.failure && failed.failure.status === 429) {
				budget.hold(decision.ms);
			}

			onRetry?.({attempt: retries, waitMs: decision.ms, reason: failed.reason, ...(decision.reason === 'retry-after' ? {retryAfter: true as const} : {})});
			// eslint-disable-next-line no-await-in-loop -- the backoff between sequential attempts
			await pause(decision.ms, signal);
		}
	}

	return {
		api: config.api,
		origin: base.origin,
		firstUrl: firstPageUrl(config),
		urlFor: query => firstPageUrl(config, query),
		resolveLink: (uri, requestUrl) => resolveLink(uri, base, requestUrl),
		fetchPage,
		budget: () => budget.snapshot(),
		async close() {
			deadlines.stop();
			// Closing twice is closing once (undici rejects a second close).
			closing ??= Promise.all(pools.map(async pool => pool.close())).then(() => undefined);
			await closing;
		},
	};
}
