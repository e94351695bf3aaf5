import {PagewalkError} from '../text/errors.js';
import {apiError, excerpt, redactedLine} from './envelope.js';
import {credentialAdvice, type Credential} from '../config/credentials.js';
import {connectionErrorKind} from './undici-adapter.js';
import {retryAfterMs, type ConnectionErrorKind, type Failure} from './retry-policy.js';
import type {JwtSummary} from '../contract/types.js';
import {walkFlag} from '../config/hints.js';

/**
 * The client's sentences for a request that failed: below HTTP (a refused
 * or reset connection, a timeout) or with a status, each naming the cause
 * and what to do, in the words of the API and the credential in use; and
 * what the retry policy decides on.
 */

/** The largest body read (undici's maxResponseSize): a page beyond it ends with advice to ask for smaller pages. */
export const maxBodyBytes = 32 * 1024 * 1024;

export function seconds(ms: number): string {
	const value = ms / 1000;
	return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/**
 * The most request header bytes sent: what a Node server reads by default
 * (its maxHeaderSize, as pagewalk reads of a response); many proxies read 8 KiB.
 */
export const maxRequestHeaderBytes = 16 * 1024;

function kib(bytes: number): string {
	return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Request headers too large for a server to read, refused before they are
 * sent, naming the header and why it is that large: a server answers them
 * with a bare 400 or 431, or closes the connection, none of which says which.
 */
export function oversizedHeaders(headers: Readonly<Record<string, string>>, credential: Credential, credentialHeader: string): PagewalkError | undefined {
	const sizes = Object.entries(headers).map(([name, value]) => ({name, bytes: Buffer.byteLength(name) + Buffer.byteLength(value) + 4}));
	const total = sizes.reduce((sum, header) => sum + header.bytes, 0);
	if (total <= maxRequestHeaderBytes) {
		return undefined;
	}

	const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
	const start = `The request's headers come to ${kib(total)}, more than servers read (${kib(maxRequestHeaderBytes)}; many proxies 8 KiB)`;
	if (largest.name.toLowerCase() !== credentialHeader.toLowerCase()) {
		return new PagewalkError(`${start}: the ${largest.name} header is ${kib(largest.bytes)}; shorten that ${walkFlag('header')}.`, {retryable: false});
	}

	if (credential.kind === 'cdp-key') {
		return new PagewalkError(`${start}: the JWT in ${credentialHeader} is ${kib(largest.bytes)} because the CDP key's name is ${credential.key.name.length.toLocaleString('en-US')} characters long (a JWT holds it twice, as kid and sub; a key's name from the portal is about 100); check the key's name in ${credential.from}.`, {retryable: false});
	}

	return new PagewalkError(`${start}: the credential from ${credential.from} is ${kib(largest.bytes)}; check that it holds the token alone.`, {retryable: false});
}

/** A response as the client read it. */
export type Raw = {status: number; headers: Record<string, string | string[] | undefined>; body: string; data: Buffer; bytes: number; jwtClaims: JwtSummary | undefined; roundTripMs?: number};

/** What the sentences name: the origin, the API, the --timeout in words, the credential. */
export type FailureContext = {origin: string; apiName: string; timeoutText: string; credential: Credential};

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
export class DeadlineExceeded extends Error {
	/** @param phase What we were waiting for when it fired. */
	constructor(readonly phase: 'headers' | 'body') {
		super('deadline exceeded');
	}
}

/** A failed try: what the retry policy decides on, the error shown if it stops, and the reason shown if it waits. */
export type Failed = {failure: Failure; final: PagewalkError; reason: string};

function connectionError({origin, timeoutText}: FailureContext, error: unknown, kind: ConnectionErrorKind, attempt: number): PagewalkError {
	switch (kind) {
		case 'connect-timeout': {
			return new PagewalkError(`${origin} did not accept a connection within ${timeoutText}; check the URL or raise ${walkFlag('timeout')}.`);
		}

		case 'headers-timeout': {
			return new PagewalkError(`${origin} sent no response headers within ${timeoutText}; try again later or raise ${walkFlag('timeout')}.`);
		}

		case 'body-timeout': {
			return new PagewalkError(`${origin} stopped sending the response body for ${timeoutText}; try again later or raise ${walkFlag('timeout')}.`);
		}

		case 'too-large': {
			return new PagewalkError(`The response is larger than the ${maxBodyBytes / 1024 / 1024} MiB limit; ask for smaller pages with ${walkFlag('limit')}.`, {retryable: false});
		}

		case 'refused': {
			return new PagewalkError(`Could not connect to ${origin} (connection refused); check ${walkFlag('baseUrl')} / ${walkFlag('commerceUrl')} or that the server runs.`);
		}

		case 'dns': {
			return new PagewalkError(`Could not find the host of ${origin} (DNS lookup failed); check ${walkFlag('baseUrl')} / ${walkFlag('commerceUrl')} and the network.`);
		}

		case 'reset': {
			return new PagewalkError(`The connection to ${origin} was reset${attempt > 0 ? ` ${attempt + 1} times` : ''} before the page was complete; try again later.`);
		}

		case 'truncated': {
			return new PagewalkError(`${origin} closed the connection before the whole body arrived; try again later.`);
		}

		case 'other': {
			// Retrying cannot help a server whose headers are too large to read.
			if ((error as {code?: unknown} | undefined)?.code === 'UND_ERR_HEADERS_OVERFLOW') {
				return new PagewalkError(`${origin} sent response headers larger than pagewalk reads (16 KiB); check the server or a proxy in between.`);
			}

			const detail = error instanceof Error ? error.message : String(error);
			return new PagewalkError(`The request to ${origin} failed (${detail}); try again later.`);
		}
	}
}

/**
 * An answer that is a web page rather than the API's JSON (its content type
 * says HTML, or its body starts with a tag), with the page's title when it
 * has one: a sign-in page or a proxy's, said as what it is, since neither
 * the credential nor asking again is the fix.
 */
export function htmlPage(raw: Pick<Raw, 'headers' | 'body'>): {title: string | undefined} | undefined {
	const type = String(raw.headers['content-type'] ?? '');
	const head = raw.body.slice(0, 1024);
	if (!/^\s*</.test(head) && !(/html/i.test(type) && !/^\s*[{[]/.test(head))) {
		return undefined;
	}

	// Bounded: the title is looked for in the page's head only.
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(raw.body.slice(0, 16 * 1024))?.[1];
	const shown = title === undefined ? '' : redactedLine(title, 60);
	return {title: shown === '' ? undefined : shown};
}

/** The sentence for an HTML page where a list page (or the API's error) was expected: what it likely is and what to do. */
export function htmlPageError({origin, apiName}: Pick<FailureContext, 'origin' | 'apiName'>, status: number, title: string | undefined): PagewalkError {
	const page = `an HTML page${title === undefined ? '' : ` titled "${title}"`}`;
	return new PagewalkError(`${origin} answered ${status} with ${page}, not the ${apiName}'s JSON: most likely a sign-in page or a proxy in between; open ${origin} in a web browser and sign in if it asks, check that the base URL points at the API itself, then run again.`, {retryable: false});
}

/** The sentence for a failed status; `id` and `message` are the API's error, when the body held one. */
function statusError({origin, apiName, credential}: FailureContext, raw: Raw, attempts: number, {id, message}: ReturnType<typeof apiError>): PagewalkError {
	const {status} = raw;
	// Redacted before the cut, so no run of a credential or JWT the server echoed is left behind.
	const told = message === undefined ? '' : redactedLine(message, 160);
	const said = id !== undefined || message !== undefined
		? `${status}${id ? ` ${id}` : ''}${told === '' ? '' : `: ${told}`}`
		: `${status}${raw.body.trim() === '' ? '' : `, body ${excerpt(raw.body)}`}`;
	const retried = attempts > 0 ? ` after ${attempts} ${attempts === 1 ? 'retry' : 'retries'}` : '';
	if (status >= 300 && status < 400) {
		const location = raw.headers.location;
		let where = '';
		if (typeof location === 'string') {
			try {
				const target = new URL(location, origin);
				where = ` to ${target.origin}${target.pathname}`;
			} catch {
				where = ` to ${excerpt(location, 60)}`;
			}
		}

		return new PagewalkError(`The server answered ${status} with a redirect${where}; pagewalk does not follow redirects, so point the base URL at the final address.`, {retryable: false});
	}

	// A sign-in or proxy page answering for the API: no credential advice fits it.
	const html = id === undefined && message === undefined && (status === 401 || status === 403 || status === 407) ? htmlPage(raw) : undefined;
	if (html) {
		return htmlPageError({origin, apiName}, status, html.title);
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
		// A time only when the server gave one: a guess is not said as its figure.
		const advice = wait === undefined ? 'it did not say for how long: wait a minute and retry' : `wait ${seconds(Math.max(wait, 1000))} and retry`;
		return new PagewalkError(`The ${apiName} is rate limiting (${said})${retried}; ${advice}.`);
	}

	if (status >= 500) {
		return new PagewalkError(`The ${apiName} failed (${said})${retried}; try again later.`);
	}

	if (status === 431) {
		return new PagewalkError(`The ${apiName} refused the request's headers as too large (${said}); check ${walkFlag('header')} values and the credential's size.`, {retryable: false});
	}

	const problem = `The ${apiName} rejected the request (${said})`;
	return new PagewalkError(`${problem}; check the endpoint and the query flags.`, {retryable: false, problem});
}

export function connectionFailed(context: FailureContext, error: unknown, attempt: number): Failed {
	const {origin, timeoutText} = context;
	// Our own sentences (a body that cannot be decoded) and the whole-page
	// deadline are final: the deadline already waited --timeout.
	if (error instanceof PagewalkError) {
		return {failure: {connection: 'other'}, final: error, reason: 'failed'};
	}

	if (error instanceof DeadlineExceeded) {
		return {failure: {connection: 'other'}, final: new PagewalkError(error.phase === 'headers'
			? `${origin} did not answer within ${timeoutText}; check the URL, try again later or raise ${walkFlag('timeout')}.`
			: `${origin} did not send the whole page within ${timeoutText}; try again later or raise ${walkFlag('timeout')}.`), reason: 'deadline'};
	}

	const kind = connectionErrorKind(error);
	return {failure: {connection: kind}, final: connectionError(context, error, kind, attempt), reason: 'connection reset'};
}

export function statusFailed(context: FailureContext, raw: Raw, attempt: number): Failed {
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw.body);
	} catch {
		// Not JSON: the error is worded from the status and an excerpt instead.
	}

	const apiSaid = apiError(parsed);
	return {
		failure: {status: raw.status, retryAfter: raw.headers['retry-after']},
		final: statusError(context, raw, attempt, apiSaid),
		reason: `${raw.status}${apiSaid.id ? ` ${apiSaid.id}` : ''}`,
	};
}
