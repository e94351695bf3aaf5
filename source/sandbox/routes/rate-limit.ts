/**
 * A per-credential rate limit for the account API (the real one allows
 * 10,000 requests an hour per key), so a client's backoff on 429 can be tried
 * offline. Off unless asked for.
 *
 * Fixed windows, not a sliding log or token bucket: one counter per
 * credential whatever N is, and Retry-After is exact (the end of the window),
 * which is what a backoff test wants to read.
 */
export type RateLimit = {
	/** Requests allowed per window. */
	count: number;
	/** The window, in milliseconds. */
	perMs: number;
	/**
	 * Whether answers state the budget left (RateLimit-* headers; default
	 * true). The real API documents none, so false is the strictly faithful
	 * server: only 429 and Retry-After.
	 */
	headers?: boolean;
};

/** What is left of a credential's window after a request: the figures of the budget headers. */
export type RateBudget = {limit: number; remaining: number; resetSeconds: number};

export type RateDecision = ({ok: true} | {ok: false; retryAfterSeconds: number}) & {budget: RateBudget};

/**
 * The budget as response headers. The real API documents none (see
 * docs/rate-limits.md): the sandbox sends the IETF draft's three fields
 * (draft-ietf-httpapi-ratelimit-headers: RateLimit-Limit, RateLimit-Remaining,
 * RateLimit-Reset in seconds), the form most APIs that send any use, so a
 * client's pacing can be tried; a client must still work without them.
 */
export function budgetHeaders({limit, remaining, resetSeconds}: RateBudget): Record<string, string> {
	return {'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(resetSeconds)};
}

export class RateLimiter {
	readonly #limit: RateLimit;
	readonly #now: () => number;
	/** Per credential; only credentials that passed authentication get here, so the map stays as small as the key list. */
	readonly #windows = new Map<string, {start: number; used: number}>();

	constructor(limit: RateLimit, now: () => number = Date.now) {
		if (!Number.isInteger(limit.count) || limit.count < 1 || !Number.isFinite(limit.perMs) || limit.perMs <= 0) {
			throw new RangeError(`rateLimit must allow a whole number of requests (1 or more) per a positive number of milliseconds; got ${limit.count} per ${limit.perMs} ms.`);
		}

		this.#limit = limit;
		this.#now = now;
	}

	/** Whether answers carry the budget headers. */
	get statesBudget(): boolean {
		return this.#limit.headers !== false;
	}

	/** Counts one request of `credential`, or says how long until it may ask again. */
	take(credential: string): RateDecision {
		const now = this.#now();
		let window = this.#windows.get(credential);
		if (!window || now >= window.start + this.#limit.perMs) {
			window = {start: now, used: 0};
			this.#windows.set(credential, window);
		}

		const resetSeconds = Math.max(1, Math.ceil((window.start + this.#limit.perMs - now) / 1000));
		if (window.used >= this.#limit.count) {
			return {ok: false, retryAfterSeconds: resetSeconds, budget: {limit: this.#limit.count, remaining: 0, resetSeconds}};
		}

		window.used++;
		return {ok: true, budget: {limit: this.#limit.count, remaining: this.#limit.count - window.used, resetSeconds}};
	}
}

const units: Record<string, number> = {s: 1000, sec: 1000, second: 1000, m: 60_000, min: 60_000, minute: 60_000, h: 3_600_000, hour: 3_600_000};

/**
 * Reads `N/h`, `N/m` or `N/s` (also `N/hour`, ...), as `serve --rate-limit`
 * will take it; the message is one sentence for a usage error.
 */
export function parseRateLimit(text: string): {ok: true; value: RateLimit} | {ok: false; message: string} {
	const match = /^\s*(\d{1,9})\s*\/\s*([a-z]+)\s*$/i.exec(text);
	const perMs = match ? units[match[2]!.toLowerCase()] : undefined;
	if (!match || perMs === undefined || Number(match[1]) < 1) {
		return {ok: false, message: `--rate-limit must be a number of requests per hour, minute or second, such as 10000/h or 5/s; got "${text.slice(0, 40)}".`};
	}

	return {ok: true, value: {count: Number(match[1]), perMs}};
}
