import {setTimeout as sleep} from 'node:timers/promises';
// undici's entry module loads every dispatcher, fetch and WebSocket: half this
// chunk and ~40 ms of start-up. These three modules are all the client uses;
// they are internal paths, so undici is pinned to an exact version.
import undiciErrors from 'undici/lib/core/errors.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';
import {PagewalkError} from './errors.js';
import {apiError, excerpt, oneLine, parseJson, validateEnvelope} from './envelope.js';
import {checkSameOrigin, resolveLink} from './links.js';
import {firstPageUrl, type WalkConfig, type WalkQuery} from './options.js';
import {Secret} from './secret.js';
import type {Page, RetryNotice} from './types.js';

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

export type FetchOptions = {
	signal?: AbortSignal;
	onRetry?: (notice: RetryNotice) => void;
};

export type PageClient = {
	api: WalkConfig['api'];
	/** The configured origin: the only one that ever receives the credential. */
	origin: string;
	/** The first page of the configured walk. */
	firstUrl: string;
	/** The first page for another query (order toggle, new limit, a cursor). */
	urlFor(query: WalkQuery): string;
	/** Resolves a `next_uri`/`previous_uri` against the base; null at the end. */
	resolveLink(uri: string | null | undefined): string | null;
	/** Fetches and validates one page. Rejects with a PagewalkError, or the signal's reason when aborted. */
	fetchPage(url: string, options?: FetchOptions): Promise<Page>;
	/** Closes the keep-alive connections. */
	close(): Promise<void>;
};

const retryStatuses = new Set([429, 502, 503, 504]);
const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/** Retry-After as milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (value === undefined || value.trim() === '') {
		return undefined;
	}

	if (/^\s*\d+(?:\.\d+)?\s*$/.test(value)) {
		return Math.round(Number(value) * 1000);
	}

	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with equal jitter: half the step fixed, half random. */
function backoffMs(attempt: number, baseMs: number, capMs: number): number {
	const step = Math.min(capMs, baseMs * 2 ** (attempt - 1));
	return Math.round(step / 2 + Math.random() * step / 2);
}

type Raw = {status: number; headers: Record<string, string | string[] | undefined>; body: string; bytes: number};

class Retryable extends Error {
	constructor(readonly reason: string, readonly final: PagewalkError, readonly waitMs?: number) {
		super(reason);
	}
}

function errorCode(error: unknown): string | undefined {
	const code = (error as {code?: unknown})?.code;
	return typeof code === 'string' ? code : undefined;
}

export function createClient(config: WalkConfig): PageClient {
	const {base} = config;
	const pool = new Pool(base.origin, {
		connections: 4,
		connectTimeout: config.timeoutMs,
		headersTimeout: config.timeoutMs,
		bodyTimeout: config.timeoutMs,
		keepAliveTimeout: 10_000,
		maxResponseSize: maxBodyBytes,
	});
	const credentialName = config.credential.header.toLowerCase();
	const redactedHeaders: Record<string, string> = {};
	for (const [name, value] of Object.entries(config.headers)) {
		redactedHeaders[name] = /auth|key|token|secret|cookie|session|signature|password/i.test(name) ? Secret.mark : value;
	}

	redactedHeaders[config.credential.header] = Secret.mark;
	const timeoutText = `${seconds(config.timeoutMs)} (--timeout)`;
	const apiName = config.api === 'account' ? 'account API' : 'commerce API';

	function connectionError(error: unknown, attempt: number): PagewalkError | Retryable {
		const code = errorCode(error);
		if (error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
			return new PagewalkError(`${base.origin} did not accept a connection within ${timeoutText}; check the URL or raise --timeout.`);
		}

		if (error instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
			return new PagewalkError(`${base.origin} sent no response headers within ${timeoutText}; try again later or raise --timeout.`);
		}

		if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
			return new PagewalkError(`${base.origin} stopped sending the response body for ${timeoutText}; try again later or raise --timeout.`);
		}

		if (error instanceof undiciErrors.ResponseExceededMaxSizeError || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
			return new PagewalkError(`The response is larger than the ${maxBodyBytes / 1024 / 1024} MiB limit; ask for smaller pages with --limit.`);
		}

		if (code === 'ECONNREFUSED') {
			return new PagewalkError(`Could not connect to ${base.origin} (connection refused); check --base-url / --commerce-url or that the server runs.`);
		}

		if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
			return new PagewalkError(`Could not find the host of ${base.origin} (DNS lookup failed); check --base-url / --commerce-url and the network.`);
		}

		if (code !== undefined && resetCodes.has(code)) {
			return new Retryable('connection reset', new PagewalkError(
				`The connection to ${base.origin} was reset${attempt > 0 ? ` ${attempt + 1} times` : ''} before the page was complete; try again later.`,
			));
		}

		if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
			return new Retryable('connection reset', new PagewalkError(`${base.origin} closed the connection before the whole body arrived; try again later.`));
		}

		const detail = error instanceof Error ? error.message : String(error);
		return new PagewalkError(`The request to ${base.origin} failed (${detail}); try again later.`);
	}

	function statusError(raw: Raw, attempts: number): PagewalkError {
		const {status} = raw;
		let parsed: unknown;
		try {
			parsed = JSON.parse(raw.body);
		} catch {}

		const {id, message} = apiError(parsed);
		const told = message === undefined ? '' : oneLine(message, 160);
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

			return new PagewalkError(`The server answered ${status} with a redirect${where}; pagewalk does not follow redirects, so point the base URL at the final address.`);
		}

		if (status === 401) {
			return new PagewalkError(`The ${apiName} rejected the credential (${said}); set ${config.credential.envName} to a valid ${config.api === 'account' ? 'access token' : 'API key'}.`);
		}

		if (status === 403) {
			return new PagewalkError(`The ${apiName} refused access (${said}); use a credential in ${config.credential.envName} with permission to read this list.`);
		}

		if (status === 404) {
			return new PagewalkError(`The ${apiName} has no such list (${said}); check the endpoint path and the base URL.`);
		}

		if (status === 429) {
			const wait = retryAfterMs(raw.headers['retry-after']);
			return new PagewalkError(`The ${apiName} is rate limiting (${said})${retried}; wait ${seconds(Math.max(wait ?? 60_000, 1000))} and retry.`);
		}

		if (status >= 500) {
			return new PagewalkError(`The ${apiName} failed (${said})${retried}; try again later.`);
		}

		return new PagewalkError(`The ${apiName} rejected the request (${said}); check the endpoint and the query flags.`);
	}

	async function once(url: URL, signal: AbortSignal | undefined): Promise<Raw> {
		// Credentials are attached here, per request, after the origin check.
		const headers: Record<string, string> = {...config.headers, [credentialName]: config.credential.value.reveal()};
		const response = await request.call(pool, {
			path: `${url.pathname}${url.search}`,
			method: 'GET',
			headers,
			signal,
		});
		// Always read the body to its end (or the cap), whatever the status, so
		// the connection goes back to the pool instead of leaking.
		const chunks: Buffer[] = [];
		let bytes = 0;
		for await (const chunk of response.body) {
			bytes += (chunk as Buffer).length;
			if (bytes > maxBodyBytes) {
				response.body.destroy();
				throw Object.assign(new Error('too large'), {code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE'});
			}

			chunks.push(chunk as Buffer);
		}

		return {status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), bytes};
	}

	async function fetchPage(url: string, {signal, onRetry}: FetchOptions = {}): Promise<Page> {
		const target = checkSameOrigin(url, base, 'The page URL');
		const startedAt = Date.now();
		let retries = 0;
		for (;;) {
			signal?.throwIfAborted();
			let failure: PagewalkError | Retryable;
			let raw: Raw | undefined;
			try {
				raw = await once(target, signal);
			} catch (error: unknown) {
				if (signal?.aborted) {
					throw signal.reason;
				}

				failure = connectionError(error, retries);
			}

			if (raw !== undefined) {
				if (raw.status >= 200 && raw.status < 300) {
					const envelope = validateEnvelope(config.api, parseJson(raw.body, String(raw.headers['content-type'] ?? '')), raw.body);
					return {
						api: config.api,
						requestUrl: target.href,
						requestHeaders: {...redactedHeaders},
						status: raw.status,
						objects: envelope.objects,
						pagination: envelope.pagination,
						rawPagination: envelope.rawPagination,
						nextUrl: resolveLink(envelope.pagination.next_uri, base),
						previousUrl: resolveLink(envelope.pagination.previous_uri, base),
						warnings: envelope.warnings,
						startedAt,
						ms: Date.now() - startedAt,
						retries,
						bytes: raw.bytes,
					};
				}

				const final = statusError(raw, retries);
				if (retryStatuses.has(raw.status)) {
					const {id} = apiError((() => {
						try {
							return JSON.parse(raw.body) as unknown;
						} catch {
							return undefined;
						}
					})());
					failure = new Retryable(`${raw.status}${id ? ` ${id}` : ''}`, final, retryAfterMs(raw.headers['retry-after']));
				} else {
					throw final;
				}
			}

			if (!(failure! instanceof Retryable)) {
				throw failure!;
			}

			if (retries >= config.retries) {
				throw failure.final;
			}

			// A Retry-After above --max-wait is not slept through: the error
			// already says how long the server asked to wait.
			if (failure.waitMs !== undefined && failure.waitMs > config.maxWaitMs) {
				throw failure.final;
			}

			retries += 1;
			const waitMs = failure.waitMs ?? backoffMs(retries, config.retryBaseMs, config.maxWaitMs);
			onRetry?.({attempt: retries, waitMs, reason: failure.reason});
			try {
				await sleep(waitMs, undefined, {signal});
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
		resolveLink: uri => resolveLink(uri, base),
		fetchPage,
		async close() {
			await pool.close();
		},
	};
}
