/**
 * Whether a failed request is tried again, and after how long. Pure: the
 * clock and the jitter come in as arguments, so every wait is tested exactly
 * (test/http/retry-policy.test.ts) and the HTTP client only carries out the
 * decision: it words the errors and sleeps.
 */

/** Statuses worth another try of a GET: rate limiting and a gateway or server that may recover. */
export const retryStatuses: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * What went wrong below HTTP, as the client classifies it. Only a connection
 * cut short is retried: a timeout already waited --timeout, and a refused
 * connection, a failed DNS lookup or an oversized body will not change by
 * asking again at once.
 */
export type ConnectionErrorKind =
	| 'connect-timeout'
	| 'headers-timeout'
	| 'body-timeout'
	| 'too-large'
	| 'refused'
	| 'dns'
	/** Reset or broken pipe before the response was complete. */
	| 'reset'
	/** The server closed the connection before the whole body arrived. */
	| 'truncated'
	| 'other';

const retryConnections: ReadonlySet<ConnectionErrorKind> = new Set(['reset', 'truncated']);

export type Failure =
	| {status: number; retryAfter?: string | readonly string[] | undefined}
	| {connection: ConnectionErrorKind};

export type RetryInput = {
	failure: Failure;
	/** Retries already made for this request (0 after the first try failed). */
	attempt: number;
	/** How many retries are allowed (--retries). */
	retries: number;
	/** The longest single wait (--max-wait), and the cap of the backoff. */
	maxWaitMs: number;
	/** The first backoff step; each further retry doubles it up to maxWaitMs. */
	baseMs: number;
	/** Now, in ms since the epoch: Retry-After may be a date. */
	now: number;
	/** A number in [0, 1), as Math.random gives: the backoff's jitter. */
	random: () => number;
};

export type RetryDecision =
	/** `reason`: whether the server's Retry-After set the wait, or our backoff. */
	| {kind: 'wait'; ms: number; reason: 'retry-after' | 'backoff'}
	| {kind: 'stop'; why: 'not-retryable' | 'attempts-exhausted'}
	/**
	 * The server asked for a longer wait than --max-wait allows: it is not
	 * slept through; the error tells the user how long the server asked for.
	 */
	| {kind: 'stop'; why: 'retry-after-beyond-max-wait'; retryAfterMs: number};

/**
 * Retry-After in milliseconds, or undefined when absent or unreadable.
 *
 * - Delta seconds, decimals allowed ("120", "1.5"), as ky and browsers read them.
 * - An HTTP date: the time left until it, 0 when it has passed.
 * - A negative number ("-5") is not a valid Retry-After and is ignored as if
 *   absent, so the backoff applies: reading it as "retry at once" would let a
 *   broken server make us hammer it, and `Date.parse` would read it as a year.
 * - Garbage is ignored the same way. Values too large to count are capped at
 *   the largest safe integer: still far beyond any --max-wait.
 */
export function retryAfterMs(header: string | readonly string[] | undefined, now: number): number | undefined {
	const value = (typeof header === 'string' ? header : header?.[0])?.trim();
	if (value === undefined || value === '') {
		return undefined;
	}

	if (/^\d+(?:\.\d+)?$/.test(value)) {
		return Math.min(Math.round(Number(value) * 1000), Number.MAX_SAFE_INTEGER);
	}

	// HTTP dates name a day or a month; `Date.parse` alone would also take
	// bare numbers ("-5", "2015") as years.
	if (!/[a-z]/i.test(value)) {
		return undefined;
	}

	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with equal jitter: the step doubles from `baseMs` for
 * each retry (attempt 1, 2, ...) up to `capMs`; half of it is fixed, half random.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number): number {
	const step = Math.min(capMs, baseMs * 2 ** (attempt - 1));
	return Math.round(step / 2 + random() * step / 2);
}

export function isRetryable(failure: Failure): boolean {
	return 'status' in failure ? retryStatuses.has(failure.status) : retryConnections.has(failure.connection);
}

export function decideRetry(input: RetryInput): RetryDecision {
	const {failure} = input;
	if (!isRetryable(failure)) {
		return {kind: 'stop', why: 'not-retryable'};
	}

	if (input.attempt >= input.retries) {
		return {kind: 'stop', why: 'attempts-exhausted'};
	}

	const asked = 'status' in failure ? retryAfterMs(failure.retryAfter, input.now) : undefined;
	if (asked !== undefined) {
		// Exactly --max-wait is still waited; one millisecond more is not.
		return asked > input.maxWaitMs
			? {kind: 'stop', why: 'retry-after-beyond-max-wait', retryAfterMs: asked}
			: {kind: 'wait', ms: asked, reason: 'retry-after'};
	}

	return {kind: 'wait', ms: backoffMs(input.attempt + 1, input.baseMs, input.maxWaitMs, input.random), reason: 'backoff'};
}
