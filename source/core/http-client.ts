import {isUtf8} from 'node:buffer';
import {setImmediate, setTimeout as sleep} from 'node:timers/promises';
// Three of undici's internal modules, not its public entry: the entry loads
// every dispatcher, fetch, WebSocket and the caches, doubling the bundle's
// undici chunk (0.5 MB -> 1.1 MB) and, measured, ~50-60 ms more CPU for
// every start (`dump` 460 -> 510 ms CPU, loading undici alone 220 -> 280 ms,
// medians of 25 on a loaded 2-core machine), with `bench:startup` already
// near its 3x-the-bare-node bound. These paths are not undici's promise, so
// package.json allows patch releases only (~7.30.x) and
// test/core/undici-parts.test.ts fails, naming the path, when one moves or
// stops being what the public entry exports. Types: ./undici-parts.d.ts.
import undiciErrors from 'undici/lib/core/errors.js';
import Client from 'undici/lib/dispatcher/client.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import {PagewalkError} from './errors.js';
import {apiError, excerpt, leadingPagination, oneLine, parseJson, validateEnvelope} from './envelope.js';
import {checkSameOrigin, resolveLink} from './links.js';
import {firstPageUrl, type WalkConfig, type WalkQuery} from './options.js';
import {RateBudget} from './rate-budget.js';
import {decideRetry, retryAfterMs, type ConnectionErrorKind, type Failure} from './retry-policy.js';
import {credentialAdvice, credentialHeader, describeCredential, type Credential} from './credentials.js';
import {signRequest} from './jwt-sign.js';
import {redact, rememberJwt, Secret, secretLikeHeader} from './secret.js';
import {decodeBodyBytes, withoutBom} from './body-bytes.js';
import {getResponse, type Received} from './response-bytes.js';
import {ResponsePage} from './response-page.js';
import type {JwtSummary, Page, RetryNotice} from './types.js';

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

export const maxBodyBytes = 32 * 1024 * 1024;

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
	 * Told the page's next link (resolved, or null at the end) as soon as it
	 * can be read from the first bytes of a 2xx body, before the body is
	 * decoded and parsed; returns whether it sent a request on it (the
	 * walker's read-ahead), and the client then lets that request reach the
	 * wire before it parses this page. The page itself is validated as ever:
	 * its nextUrl has the last word.
	 */
	onLink?: (next: string | null) => boolean;
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
};

const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

type Raw = {status: number; headers: Record<string, string | string[] | undefined>; body: string; data: Buffer; bytes: number; jwtClaims: JwtSummary | undefined};

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
	 * sockets: a whole `dump --all` against `pagewalk serve` measured 0.96x
	 * bench:walk's floor with one connection, 1.05x with four (7 alternated
	 * runs). And a pool queues a request its busy client cannot take until
	 * that client drains, a turn later again, so the walker's read-ahead
	 * (walker.ts) would reach the wire only after the page before it was
	 * written, not while it is.
	 * The browser keeps a pool of four: the page on screen, the prefetched
	 * next one and a search reading ahead may be in flight together.
	 */
	sequential?: boolean;
	/**
	 * With `sequential`, this many connections, one per chain of a walk
	 * from both ends (FetchOptions.lane); 1 when absent.
	 */
	lanes?: number;
};

/**
 * The credential header for one request. A CDP key gets a JWT of its own,
 * made here, right before the request is sent and after the origin check:
 * for this request's host and path only, never reused (a retry, the next
 * page, the prefetch and the compare view each get a fresh one). The JWT is
 * registered for redaction before it leaves, in case a server echoes it.
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
			rememberJwt(jwt);
			return {value: `Bearer ${jwt}`, jwtClaims: {alg: header.alg, kid: header.kid, uri: payload.uri, nbf: payload.nbf, exp: payload.exp}};
		}
	}
}

/** A 401 message or error id that says a JWT's time window was wrong: the clock, not the key. */
function looksLikeClockSkew(id: string | undefined, message: string | undefined): boolean {
	const text = message ?? '';
	return id === 'expired_token' || /^(exp|nbf)\b/i.test(text) || /expired|not yet valid|not valid yet|clock/i.test(text);
}

/** A 401 that says the JWT's uri claim is not this request's. */
function looksLikeUriMismatch(message: string | undefined): boolean {
	return /^uri\b/i.test(message ?? '') || /\buri\b.*(match|query)/i.test(message ?? '');
}

/** Our whole-request deadline (--timeout) fired, as opposed to the caller's abort. */
class DeadlineExceeded extends Error {
	/** @param phase What we were waiting for when it fired. */
	constructor(readonly phase: 'headers' | 'body') {
		super('deadline exceeded');
	}
}

/** A failed try: what the retry policy decides on, the error shown if it stops, and the reason shown if it waits. */
type Failed = {failure: Failure; final: PagewalkError; reason: string};

function errorCode(error: unknown): string | undefined {
	const code = (error as {code?: unknown})?.code;
	return typeof code === 'string' ? code : undefined;
}

/** Sorts an error from below HTTP (undici or the socket) into the kinds the retry policy knows. */
function connectionErrorKind(error: unknown): ConnectionErrorKind {
	const code = errorCode(error);
	if (error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
		return 'connect-timeout';
	}

	if (error instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
		return 'headers-timeout';
	}

	if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
		return 'body-timeout';
	}

	if (error instanceof undiciErrors.ResponseExceededMaxSizeError || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
		return 'too-large';
	}

	if (code === 'ECONNREFUSED') {
		return 'refused';
	}

	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return 'dns';
	}

	if (code !== undefined && resetCodes.has(code)) {
		return 'reset';
	}

	return code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ? 'truncated' : 'other';
}

export function createClient(config: WalkConfig, {keepBytes = false, sequential = false, lanes = 1}: ClientOptions = {}): PageClient {
	const {base} = config;
	const connection = {
		connectTimeout: config.timeoutMs,
		headersTimeout: config.timeoutMs,
		bodyTimeout: config.timeoutMs,
		keepAliveTimeout: 10_000,
		maxResponseSize: maxBodyBytes,
	};
	const pools = sequential
		? Array.from({length: Math.max(1, lanes)}, () => new Client(base.origin, connection))
		: [new Pool(base.origin, {...connection, connections: 4})];
	const {credential} = config;
	const credentialName = credentialHeader(config.api).toLowerCase();
	const credentialText = describeCredential(credential);
	const redactedHeaders: Record<string, string> = {};
	for (const [name, value] of Object.entries(config.headers)) {
		redactedHeaders[name] = secretLikeHeader(name) ? Secret.mark : value;
	}

	redactedHeaders[credentialHeader(config.api)] = Secret.mark;
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

	const timeoutText = `${seconds(config.timeoutMs)} (--timeout)`;
	const apiName = config.api === 'account' ? 'account API' : 'commerce API';
	const budget = new RateBudget();

	/**
	 * Waits, before a request, while the server's stated budget is spent (see
	 * rate-budget.ts): the caller is told the wait as it starts, as for a
	 * retry; one longer than --max-wait ends the walk with that advice.
	 */
	async function waitForBudget(wait: number, signal: AbortSignal | undefined, onRetry: FetchOptions['onRetry']): Promise<void> {
		const limit = budget.snapshot()?.limit;
		const left = `0${limit === undefined ? '' : ` of ${limit}`} left`;
		if (wait > config.maxWaitMs) {
			const until = wait < 120_000 ? `${Math.ceil(wait / 1000)} s` : `${Math.ceil(wait / 60_000)} min`;
			throw new PagewalkError(`The ${apiName} says its request budget is spent (${left}) for ${until}, longer than --max-wait allows (${seconds(config.maxWaitMs)}); run again once it has passed, or raise --max-wait.`);
		}

		onRetry?.({attempt: 0, waitMs: wait, reason: `request budget spent (${left})`, pacing: true});
		try {
			await sleep(wait, undefined, {signal});
		} catch {
			throw signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
		}
	}

	function connectionError(error: unknown, kind: ConnectionErrorKind, attempt: number): PagewalkError {
		switch (kind) {
			case 'connect-timeout': {
				return new PagewalkError(`${base.origin} did not accept a connection within ${timeoutText}; check the URL or raise --timeout.`);
			}

			case 'headers-timeout': {
				return new PagewalkError(`${base.origin} sent no response headers within ${timeoutText}; try again later or raise --timeout.`);
			}

			case 'body-timeout': {
				return new PagewalkError(`${base.origin} stopped sending the response body for ${timeoutText}; try again later or raise --timeout.`);
			}

			case 'too-large': {
				return new PagewalkError(`The response is larger than the ${maxBodyBytes / 1024 / 1024} MiB limit; ask for smaller pages with --limit.`, {retryable: false});
			}

			case 'refused': {
				return new PagewalkError(`Could not connect to ${base.origin} (connection refused); check --base-url / --commerce-url or that the server runs.`);
			}

			case 'dns': {
				return new PagewalkError(`Could not find the host of ${base.origin} (DNS lookup failed); check --base-url / --commerce-url and the network.`);
			}

			case 'reset': {
				return new PagewalkError(`The connection to ${base.origin} was reset${attempt > 0 ? ` ${attempt + 1} times` : ''} before the page was complete; try again later.`);
			}

			case 'truncated': {
				return new PagewalkError(`${base.origin} closed the connection before the whole body arrived; try again later.`);
			}

			case 'other': {
				// Retrying cannot help a server whose headers are too large to read.
				if ((error as {code?: unknown} | undefined)?.code === 'UND_ERR_HEADERS_OVERFLOW') {
					return new PagewalkError(`${base.origin} sent response headers larger than pagewalk reads (16 KiB); check the server or a proxy in between.`);
				}

				const detail = error instanceof Error ? error.message : String(error);
				return new PagewalkError(`The request to ${base.origin} failed (${detail}); try again later.`);
			}
		}
	}

	/** The sentence for a failed status; `id` and `message` are the API's error, when the body held one. */
	function statusError(raw: Raw, attempts: number, {id, message}: ReturnType<typeof apiError>): PagewalkError {
		const {status} = raw;
		// Redacted before the cut, so no prefix of a credential or JWT the server echoed is left behind.
		const told = message === undefined ? '' : oneLine(redact(message), 160);
		const said = id !== undefined || message !== undefined
			? `${status}${id ? ` ${id}` : ''}${told === '' ? '' : `: ${told}`}`
			: `${status}${raw.body.trim() === '' ? '' : `, body ${excerpt(raw.body)}`}`;
		const retried = attempts > 0 ? ` after ${attempts} ${attempts === 1 ? 'retry' : 'retries'}` : '';
		if (status >= 300 && status < 400) {
			const location = raw.headers.location;
			let where = '';
			if (typeof location === 'string') {
				try {
					const target = new URL(location, base.origin);
					where = ` to ${target.origin}${target.pathname}`;
				} catch {
					where = ` to ${excerpt(location, 60)}`;
				}
			}

			return new PagewalkError(`The server answered ${status} with a redirect${where}; pagewalk does not follow redirects, so point the base URL at the final address.`, {retryable: false});
		}

		if (status === 401) {
			if (credential.kind === 'cdp-key' && looksLikeClockSkew(id, message)) {
				// The JWT's nbf is this machine's clock when it signed: what to compare with real time.
				const signedAt = raw.jwtClaims?.nbf === undefined ? '' : `; it read ${new Date(raw.jwtClaims.nbf * 1000).toISOString().replace('.000Z', 'Z')} when the JWT was signed`;
				return new PagewalkError(`The ${apiName} rejected the credential (${said}); the JWT was refused as expired or not yet valid: check this machine's clock (it must be within a few seconds of real time${signedAt}).`, {retryable: false});
			}

			if (credential.kind === 'cdp-key' && looksLikeUriMismatch(message)) {
				const signed = raw.jwtClaims?.uri === undefined ? '' : `, here ${JSON.stringify(raw.jwtClaims.uri)}`;
				return new PagewalkError(`The ${apiName} rejected the credential (${said}); the JWT's uri claim did not match the request (pagewalk signs GET host/path without the query${signed}).`, {retryable: false});
			}

			if (credential.kind === 'cdp-key' && /^nonce\b|nonce.*(already|twice|replay)/i.test(message ?? '')) {
				return new PagewalkError(`The ${apiName} rejected the credential (${said}); the JWT's nonce was refused as already used: pagewalk signs a fresh JWT for every request, so something between it and the API sent a request twice.`, {retryable: false});
			}

			return new PagewalkError(`The ${apiName} rejected the credential (${said}); ${credentialAdvice(credential)}.`, {retryable: false});
		}

		if (status === 403) {
			return new PagewalkError(credential.kind === 'cdp-key'
				? `The ${apiName} refused access (${said}); give the CDP key from ${credential.from} permission to read this list, or use a key that has it.`
				: `The ${apiName} refused access (${said}); use a credential in ${credential.from} with permission to read this list.`, {retryable: false});
		}

		if (status === 404) {
			const problem = `The ${apiName} has no such list (${said})`;
			return new PagewalkError(`${problem}; check the endpoint path and the base URL.`, {retryable: false, problem});
		}

		if (status === 429) {
			const wait = retryAfterMs(raw.headers['retry-after'], Date.now());
			return new PagewalkError(`The ${apiName} is rate limiting (${said})${retried}; wait ${seconds(Math.max(wait ?? 60_000, 1000))} and retry.`);
		}

		if (status >= 500) {
			return new PagewalkError(`The ${apiName} failed (${said})${retried}; try again later.`);
		}

		const problem = `The ${apiName} rejected the request (${said})`;
		return new PagewalkError(`${problem}; check the endpoint and the query flags.`, {retryable: false, problem});
	}

	function connectionFailed(error: unknown, attempt: number): Failed {
		// Our own sentences (a body that cannot be decoded) and the whole-page
		// deadline are final: the deadline already waited --timeout.
		if (error instanceof PagewalkError) {
			return {failure: {connection: 'other'}, final: error, reason: 'failed'};
		}

		if (error instanceof DeadlineExceeded) {
			return {failure: {connection: 'other'}, final: new PagewalkError(error.phase === 'headers'
				? `${base.origin} did not answer within ${timeoutText}; check the URL, try again later or raise --timeout.`
				: `${base.origin} did not send the whole page within ${timeoutText}; try again later or raise --timeout.`), reason: 'deadline'};
		}

		const kind = connectionErrorKind(error);
		return {failure: {connection: kind}, final: connectionError(error, kind, attempt), reason: 'connection reset'};
	}

	function statusFailed(raw: Raw, attempt: number): Failed {
		let parsed: unknown;
		try {
			parsed = JSON.parse(raw.body);
		} catch {
			// Not JSON: the error is worded from the status and an excerpt instead.
		}

		const apiSaid = apiError(parsed);
		return {
			failure: {status: raw.status, retryAfter: raw.headers['retry-after']},
			final: statusError(raw, attempt, apiSaid),
			reason: `${raw.status}${apiSaid.id ? ` ${apiSaid.id}` : ''}`,
		};
	}

	// The whole-request deadlines (--timeout) of the requests in flight share
	// one timer, set for the earliest of them, instead of a timer made and
	// cleared per request: that cost about 0.05 ms of CPU a page, a few
	// percent of a whole walk (bench:walk). Unref'd: a request in flight
	// keeps the process alive through its socket, so the timer need not.
	const inFlight = new Set<{deadline: number; expire(): void}>();
	let closing: Promise<void> | undefined;
	let deadlineTimer: NodeJS.Timeout | undefined;
	function armDeadlines(ms: number): NodeJS.Timeout {
		return setTimeout(checkDeadlines, ms).unref();
	}

	function checkDeadlines(): void {
		deadlineTimer = undefined;
		const now = performance.now();
		let earliest = Number.POSITIVE_INFINITY;
		for (const entry of inFlight) {
			if (entry.deadline <= now) {
				inFlight.delete(entry);
				entry.expire();
			} else {
				earliest = Math.min(earliest, entry.deadline);
			}
		}

		// A request that started after this timer was set ends later than it fired.
		if (earliest !== Number.POSITIVE_INFINITY) {
			deadlineTimer = armDeadlines(Math.max(1, Math.ceil(earliest - now)));
		}
	}

	/**
	 * The next link of a 2xx response read from the first bytes of its body
	 * (see leadingPagination), or undefined when it cannot be read there: a
	 * coded body, or a head that is not whole UTF-8 or does not hold the
	 * pagination.
	 */
	function leadingLink(received: Received, url: URL): string | null | undefined {
		if (received.status < 200 || received.status >= 300 || received.headers['content-encoding'] !== undefined) {
			return undefined;
		}

		const head = withoutBom(received.data).subarray(0, leadingBytes);
		const pagination = isUtf8(head) ? leadingPagination(config.api, head.toString()) : undefined;
		return pagination === undefined ? undefined : resolveLink(pagination.next_uri, base, url.href);
	}

	async function once(url: URL, signal: AbortSignal | undefined, {onLink, until, lane}: FetchOptions): Promise<Raw> {
		// Credentials are attached here, per request, after the origin check;
		// a CDP key's JWT is signed here, for this very request (see authorizationFor).
		const auth = authorizationFor(credential, url);
		const headers: Record<string, string> = {...config.headers, [credentialName]: auth.value};
		// The whole body is read, to its end (or the pool's maxResponseSize)
		// whatever the status, so the connection goes back to the pool instead of leaking.
		const exchange = getResponse(pools[lane ?? 0] ?? pools[0]!, {path: `${url.pathname}${url.search}`, headers});
		// undici's headers and body timeouts restart on every byte, so a server
		// that trickles a byte at a time, dribbles headers or sends 1xx after
		// 1xx would hold the walk forever: --timeout also bounds the request as
		// a whole. The exchange is ended with the reason, so the caller's abort
		// and the deadline stay apart: the first to come is the one thrown.
		const entry = {
			deadline: performance.now() + config.timeoutMs,
			expire() {
				exchange.end(new DeadlineExceeded(exchange.responding ? 'body' : 'headers'));
			},
		};
		inFlight.add(entry);
		deadlineTimer ??= armDeadlines(config.timeoutMs);
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
			budget.update(received.headers);
			if (until) {
				await until;
				// Its bytes may have come before the walk was stopped: stopped is stopped.
				signal?.throwIfAborted();
			}

			const early = onLink ? leadingLink(received, url) : undefined;
			if (early !== undefined && onLink!(early)) {
				// On the wire before this page is decoded and parsed, not after.
				await requestSent();
			}

			const decoded = decodeBodyBytes(received.status, received.headers, received.data, base.origin);
			return {status: received.status, headers: received.headers, body: decoded.text, data: decoded.bytes, bytes: received.bytes, jwtClaims: auth.jwtClaims};
		} finally {
			inFlight.delete(entry);
			signal?.removeEventListener('abort', forward);
		}
	}

	async function fetchPage(url: string, options: FetchOptions = {}): Promise<Page> {
		const {signal, onRetry} = options;
		const target = checkSameOrigin(url, base, 'The page URL');
		const startedAt = Date.now();
		let retries = 0;
		for (;;) {
			signal?.throwIfAborted();
			// Only a spent budget waits: otherwise the request leaves in this very turn (a read-ahead counts on it).
			const wait = budget.waitMs();
			if (wait > 0) {
				// eslint-disable-next-line no-await-in-loop -- each attempt is paced by the budget the answer before it stated
				await waitForBudget(wait, signal, onRetry);
			}

			budget.spend();
			let raw: Raw | undefined;
			let caught: unknown;
			try {
				// eslint-disable-next-line no-await-in-loop -- attempts are sequential: each waits on the one before
				raw = await once(target, signal, options);
			} catch (error: unknown) {
				if (signal?.aborted) {
					throw signal.reason;
				}

				caught = error;
			}

			if (raw !== undefined && raw.status >= 200 && raw.status < 300) {
				const envelope = validateEnvelope(config.api, parseJson(raw.body, String(raw.headers['content-type'] ?? '')), raw.body);
				// The objects' exact texts are found when first read (see ResponsePage).
				return new ResponsePage({
					api: config.api,
					requestUrl: target.href,
					requestHeaders: {...redactedHeaders},
					responseHeaders: responseHeaders(raw.headers),
					status: raw.status,
					objects: envelope.objects,
					pagination: envelope.pagination,
					rawPagination: envelope.rawPagination,
					nextUrl: resolveLink(envelope.pagination.next_uri, base, target.href),
					previousUrl: resolveLink(envelope.pagination.previous_uri, base, target.href),
					warnings: envelope.warnings,
					startedAt,
					ms: Date.now() - startedAt,
					retries,
					bytes: raw.bytes,
					credential: credentialText,
					...(raw.jwtClaims ? {jwtClaims: raw.jwtClaims} : {}),
				}, raw.body, keepBytes ? raw.data : undefined);
			}

			const failed = raw === undefined ? connectionFailed(caught, retries) : statusFailed(raw, retries);
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
				failed.final.exchange = {
					requestUrl: target.href,
					requestHeaders: {...redactedHeaders},
					...(credentialText === undefined ? {} : {credential: credentialText}),
					...(raw?.jwtClaims ? {jwtClaims: raw.jwtClaims} : {}),
					...(raw === undefined ? {} : {status: raw.status, responseHeaders: responseHeaders(raw.headers)}),
					ms: Date.now() - startedAt,
					retries,
				};
				throw failed.final;
			}

			retries += 1;
			onRetry?.({attempt: retries, waitMs: decision.ms, reason: failed.reason});
			try {
				// eslint-disable-next-line no-await-in-loop -- the backoff between sequential attempts
				await sleep(decision.ms, undefined, {signal});
			} catch {
				throw signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
			}
		}
	}

	return {
		api: config.api,
		origin: base.origin,
		firstUrl: firstPageUrl(config),
		urlFor: query => firstPageUrl(config, query),
		resolveLink: (uri, requestUrl) => resolveLink(uri, base, requestUrl),
		fetchPage,
		async close() {
			clearTimeout(deadlineTimer);
			deadlineTimer = undefined;
			// Closing twice is closing once (undici rejects a second close).
			closing ??= Promise.all(pools.map(async pool => pool.close())).then(() => undefined);
			await closing;
		},
	};
}
