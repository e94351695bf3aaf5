/**
 * A real link's time, for `serve --latency` and `--demo --latency`: each
 * answer is held before its first byte for a base time, plus or minus a
 * jitter, plus a server time that grows with the page size asked for (a
 * page of 100 costs the server more than a page of 5). The shape is a model
 * of what a client meets over the Internet, not a measurement of the real
 * API: docs/sandbox-latency.md says what it models and what it leaves out.
 */

export type Latency = {
	/** Milliseconds before the first byte of every answer. */
	ms: number;
	/** Each answer's time is drawn uniformly from ms ± jitterMs (never below 0). */
	jitterMs: number;
	/** Server time per object asked for (the page's limit, or 25 when none is given). */
	perObjectMs: number;
};

/** Server time per object asked for, when --latency does not say. */
export const defaultPerObjectMs = 0.2;
const defaultLimit = 25;
const maximumMs = 60_000;

/**
 * Reads `MS`, `MS±J` or `MS+-J` (also `MS+/-J`), and an optional `/P` per
 * object (`80±20/0.5`), as `--latency` takes it.
 */
export function parseLatency(text: string): {ok: true; value: Latency} | {ok: false} {
	const match = /^\s*(\d{1,5})\s*(?:(?:±|\+-|\+\/-)\s*(\d{1,5}))?\s*(?:\/\s*(\d{1,3}(?:\.\d{1,3})?))?\s*$/.exec(text);
	if (!match) {
		return {ok: false};
	}

	const ms = Number(match[1]);
	const jitterMs = match[2] === undefined ? 0 : Number(match[2]);
	if (ms > maximumMs || jitterMs > ms) {
		return {ok: false};
	}

	return {ok: true, value: {ms, jitterMs, perObjectMs: match[3] === undefined ? defaultPerObjectMs : Number(match[3])}};
}

/** The page size a request asks for: its `limit` when it is 1 to 100, else the server's default. */
function requestedLimit(url: string): number {
	const value = /[?&]limit=(\d{1,3})(?:&|#|$)/.exec(url)?.[1];
	const limit = value === undefined ? 0 : Number(value);
	return limit >= 1 && limit <= 100 ? limit : defaultLimit;
}

/** How long to hold the answer to a request for `url`. `random` gives [0, 1). */
export function delayFor(latency: Latency, url: string, random: () => number = Math.random): number {
	const jitter = latency.jitterMs === 0 ? 0 : ((random() * 2) - 1) * latency.jitterMs;
	return Math.max(0, latency.ms + jitter + (latency.perObjectMs * requestedLimit(url)));
}
