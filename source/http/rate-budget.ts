/**
 * The request budget a server says it has left, read from its answers, so a
 * walk paces itself instead of running into 429. The real APIs document no
 * budget headers (docs/rate-limits.md); where a server sends them, these are
 * read: the IETF draft's `RateLimit-Remaining` / `RateLimit-Reset` (seconds
 * from now) and the common `X-RateLimit-Remaining` / `X-RateLimit-Reset`
 * (seconds from now, or a time in epoch seconds when it is that large).
 * Without them nothing changes: the walk honours 429 and Retry-After as before.
 *
 * One budget per client: every request of a walk (read-ahead, both chains of
 * a walk from both ends, the browser's prefetch and search) spends from it,
 * so a request sent before the answer to the one before it arrives is counted
 * too. A stated budget is taken to leave out every request still in flight
 * when it was stated: with two chains, one chain's answer can state the
 * budget before the server has counted the other chain's request.
 */

export type BudgetSnapshot = {limit: number | undefined; remaining: number; resetAt: number};

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

function first(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? (value as readonly string[])[0] : (value as string | undefined);
}

function wholeNumber(text: string | undefined): number | undefined {
	return text !== undefined && /^\s*\d{1,12}\s*$/.test(text) ? Number(text) : undefined;
}

/** A reset value as a time: a small number is seconds from now, a large one a time in epoch seconds. */
function resetTime(seconds: number, now: number): number {
	return seconds > 1_000_000_000 ? seconds * 1000 : now + (seconds * 1000);
}

export class RateBudget {
	#known: BudgetSnapshot | undefined;
	/** Requests sent since the last answer that said the budget, or in flight when it came: each spends one. */
	#unanswered = 0;
	/** Requests sent and not yet answered (or failed). */
	#inFlight = 0;
	/**
	 * Requests given up before their answer (cancelled: the read-ahead of a
	 * chain let go) since the window began: the server may count them
	 * after any answer, so every answer is taken to leave them out too.
	 */
	#lost = 0;
	/** No request goes before this time: a 429's Retry-After, which holds every request of the client, not only the one refused. */
	#heldUntil = 0;
	/** The longest window an answer stated (its reset, from then): how long a new window lasts at most. */
	#windowMs = 0;
	/**
	 * A new window no answer has stated the budget of yet: at most its limit
	 * (the last one stated) go until one does, so requests that waited for
	 * the reset together (the lists of a walk of every account) do not send
	 * more than the window holds.
	 */
	#fresh: {limit: number; sent: number; until: number} | undefined;
	readonly #now: () => number;

	constructor(now: () => number = Date.now) {
		this.#now = now;
	}

	/** An answer came (its headers): reads the budget it states, if it states one. */
	update(headers: Headers): void {
		this.#inFlight = Math.max(0, this.#inFlight - 1);
		const remaining = wholeNumber(first(headers, 'ratelimit-remaining') ?? first(headers, 'x-ratelimit-remaining'));
		const reset = wholeNumber(first(headers, 'ratelimit-reset') ?? first(headers, 'x-ratelimit-reset'));
		if (remaining === undefined || reset === undefined) {
			return;
		}

		const limit = wholeNumber(first(headers, 'ratelimit-limit') ?? first(headers, 'x-ratelimit-limit'));
		const now = this.#now();
		if (this.#known === undefined || remaining > this.#known.remaining) {
			// A new window (more is left than before): what was lost counted in the old one.
			this.#lost = 0;
		}

		this.#known = {limit, remaining, resetAt: resetTime(reset, now)};
		this.#windowMs = Math.max(this.#windowMs, this.#known.resetAt - now);
		this.#unanswered = this.#inFlight + this.#lost;
		this.#fresh = undefined;
	}

	/** A request sent got no answer (a connection error, a timeout, cancelled). */
	lost(): void {
		this.#inFlight = Math.max(0, this.#inFlight - 1);
		this.#lost += 1;
	}

	/**
	 * A 429 asked to wait `ms` (its Retry-After, within --max-wait): every
	 * request of the client waits as long, so requests sent at once (the lists
	 * of a walk of every account, both chains of a walk from both ends) do not
	 * each run into a 429 of their own.
	 */
	hold(ms: number): void {
		this.#heldUntil = Math.max(this.#heldUntil, this.#now() + ms);
	}

	/** Milliseconds left of a hold (hold()); 0 when none. */
	heldMs(): number {
		return Math.max(0, this.#heldUntil - this.#now());
	}

	/** Milliseconds to wait before the next request may go: 0 while the budget lasts or is unknown, and no hold is on. */
	waitMs(): number {
		const held = this.heldMs();
		return held > 0 ? held : this.#budgetWaitMs();
	}

	#budgetWaitMs(): number {
		const known = this.#known;
		const now = this.#now();
		if (known === undefined) {
			return this.#freshWaitMs(now);
		}

		if (now >= known.resetAt) {
			// A new window: the budget is what it was at its start, unknown until the next answer; until then, no more than its limit go.
			this.#known = undefined;
			this.#unanswered = 0;
			this.#lost = 0;
			this.#fresh = known.limit === undefined ? undefined : {limit: known.limit, sent: 0, until: now + this.#windowMs};
			return 0;
		}

		return known.remaining - this.#unanswered > 0 ? 0 : known.resetAt - now;
	}

	/** A new window with no answer yet: the wait once its limit went, until it is surely over. */
	#freshWaitMs(now: number): number {
		const fresh = this.#fresh;
		if (fresh === undefined || fresh.sent < fresh.limit) {
			return 0;
		}

		if (now >= fresh.until) {
			fresh.sent = 0;
			fresh.until = now + this.#windowMs;
			return 0;
		}

		return fresh.until - now;
	}

	/** Counts a request as sent. */
	spend(): void {
		this.#inFlight += 1;
		if (this.#known !== undefined) {
			this.#unanswered += 1;
		} else if (this.#fresh !== undefined) {
			this.#fresh.sent += 1;
		}
	}

	/** What the server last said, less what was sent since; undefined when it never said. */
	snapshot(): BudgetSnapshot | undefined {
		const known = this.#known;
		return known === undefined ? undefined : {...known, remaining: Math.max(0, known.remaining - this.#unanswered)};
	}
}
