import type {FillMark} from '../core/fill-strip.js';
import {requestSent, type FetchOptions} from '../core/http-client.js';
import {canonicalUrl} from '../core/links.js';
import type {Page, RetryNotice} from '../core/types.js';
import {mayMatch, visibleRows} from './cells.js';
import {boundReached, fillMark, loadFailure, top, type PageStackState, type RequestKind} from './page-stack.js';

/**
 * Search across pages (`n` forward, `N` backward): walks the list until a
 * page holds a row the filter lets through. It runs outside the reducer, as
 * a plain async loop over `loadPage`, so the pages it passes cost a request
 * and a match each, not a render; the app lands on the outcome with one
 * action. The match is the filter's own (`visibleRows`), so `n` stops on
 * exactly the pages where `/` would show rows.
 *
 * Memory stays bounded as on a walk by hand: a passed page is dropped as
 * soon as it is matched, and only its URL and fill mark are kept (the stack
 * holds them as evicted entries, re-fetched when the user goes back).
 */

export type SearchDirection = 'forward' | 'backward';

/**
 * Pages a search walks when no --max-pages bounds the walk: enough to cross
 * a long list in a few seconds, few enough that a filter matching nothing
 * does not walk a list of millions. `n` again goes on from where it stopped.
 */
export const defaultSearchPages = 1000;

export type LoadPage = (url: string, options: {signal: AbortSignal; onRetry?: (notice: RetryNotice) => void; onLink?: FetchOptions['onLink']}) => Promise<Page>;

/** A page searched and passed: where it was and how full, as an evicted stack entry keeps it. */
export type PassedPage = {url: string; fill: FillMark};

/**
 * Where a search lands. `forward`: the pages passed become entries above the
 * old top, then the landing page. `stack`: back down the stack to entry
 * `index` (its page, re-fetched when it had been evicted). `before`: past the
 * bottom of the stack through previous_uri, a new stack of that one page.
 */
export type SearchLanding =
	| {kind: 'forward'; passed: PassedPage[]; url: string; page: Page}
	| {kind: 'stack'; index: number; page: Page}
	| {kind: 'before'; url: string; page: Page};

export type SearchEnd = 'no-next-uri' | 'loops-back' | 'start-of-list' | 'no-previous';

export type SearchBound = {flag: 'max-pages' | 'max-items' | 'search'; limit: number};

/**
 * What a search did. `found`: landing on the matching page. `end`: the list
 * ends (or its start is reached) with no match; the search does not move.
 * `bound`, `cancelled` and `failed` stop on the last page reached (no landing
 * when none was). `searched` counts the pages looked at, fetched or cached.
 */
export type SearchOutcome = {
	direction: SearchDirection;
	filter: string;
	result: 'found' | 'end' | 'bound' | 'cancelled' | 'failed';
	searched: number;
	landing: SearchLanding | null;
	/** Ids seen in the walk, the pages searched forward included (null: unchanged). */
	seen: ReadonlySet<string> | null;
	end?: SearchEnd;
	bound?: SearchBound;
	error?: {message: string; url: string; kind: RequestKind; retryable: boolean};
};

/** What the status line says while a search runs: the page being looked at. */
export type SearchProgress = {
	direction: SearchDirection;
	/** Page number in this walk, or null past its start (through previous_uri). */
	page: number | null;
	/** Pages looked at so far. */
	searched: number;
};

export type SearchOptions = {
	loadPage: LoadPage;
	signal: AbortSignal;
	onProgress?: (progress: SearchProgress) => void;
	/** Pages a search walks when --max-pages is not given. */
	maxSearchPages?: number;
};

/**
 * Whether the filter lets a row of `page` through: the `/` filter's own test
 * (visibleRows), asked only when the quick scan says the page may match.
 */
export function pageMatches(page: Page, filter: string): boolean {
	return mayMatch(page.objects, filter, page.objectTexts) && visibleRows(page.objects, filter, page.objectTexts).length > 0;
}

class Stop {
	constructor(readonly result: 'cancelled' | 'failed', readonly error?: {message: string; url: string; retryable: boolean}) {}
}

async function fetchOrStop(options: SearchOptions, url: string, onLink?: FetchOptions['onLink']): Promise<Page | Stop> {
	if (options.signal.aborted) {
		return new Stop('cancelled');
	}

	try {
		return await options.loadPage(url, {signal: options.signal, ...(onLink ? {onLink} : {})});
	} catch (error: unknown) {
		if (options.signal.aborted) {
			return new Stop('cancelled');
		}

		return new Stop('failed', {...loadFailure(error), url});
	}
}

/** Runs one search from the stack as it is now; never throws (a failed page is an outcome). */
export async function searchPages(stack: PageStackState, direction: SearchDirection, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	return direction === 'forward' ? searchForward(stack, filter, options) : searchBackward(stack, filter, options);
}

async function searchForward(stack: PageStackState, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	const base = {direction: 'forward' as const, filter};
	const entry = top(stack);
	if (!entry?.page) {
		return {...base, result: 'end', searched: 0, landing: null, seen: null, end: 'no-next-uri'};
	}

	const {maxPages} = stack.bounds;
	const searchLimit = options.maxSearchPages ?? defaultSearchPages;
	// Copied once, then grown in place: a copy per page would cost the whole set each time.
	const seen = new Set(stack.seen);
	// A next_uri leading back to a page of this walk would search in circles.
	const visited = new Set(stack.entries.map(item => canonicalUrl(item.url)));
	const passed: PassedPage[] = [];
	let current: {url: string; page: Page} = {url: entry.url, page: entry.page};
	let depth = stack.entries.length;
	let searched = 0;
	const landing = (): SearchLanding | null => (searched === 0 ? null : {kind: 'forward', passed: passed.slice(0, -1), url: current.url, page: current.page});
	/**
	 * The bound that stops the search before it asks for another page, if
	 * any; `more` pages counted as walked and searched (a page not
	 * parsed yet, whose next link is read from its first bytes).
	 */
	const bounded = (more = 0): SearchBound | undefined => boundReached(stack.bounds, depth + more, seen.size)
		?? (maxPages === null && searched + more >= searchLimit ? {flag: 'search', limit: searchLimit} : undefined);

	// The page after the one being matched is asked for before the match runs,
	// as soon as its link is read from the first bytes of the page before it
	// (onLink, as the walker's read-ahead does), so reading and matching a
	// page overlap the server's work on the next one. Esc aborts it with the
	// rest; a page read past the match is aborted when it lands.
	const readAhead = new AbortController();
	const stopReading = () => {
		readAhead.abort();
	};

	options.signal.addEventListener('abort', stopReading, {once: true});
	const load = {...options, signal: readAhead.signal};
	// Typed by assertion so the loop's read of it is not narrowed to its first value.
	let ahead = null as {url: string; page: Promise<Page | Stop>} | null;
	// A function, not `ahead?.url`: onLink sets it while a page is awaited.
	const aheadUrl = () => ahead?.url;
	// The page the loop waits for: only its link may start the read-ahead early.
	let awaited: string | undefined;
	/**
	 * The link of the page awaited, from its first bytes: read ahead on it at
	 * once when the search surely goes on to it (not that page again, not a
	 * page of this walk, no bound reached with it; a --max-items bound needs
	 * the page's objects, so it waits for the page). A search that ends on
	 * the page after all aborts the request.
	 */
	const onLink = (from: string, link: string | null): boolean => {
		if (awaited !== from || ahead !== null || link === null || link === awaited || stack.bounds.maxItems !== null
			|| visited.has(canonicalUrl(link)) || bounded(1)) {
			return false;
		}

		ahead = {url: link, page: fetchOrStop(load, link, linkOf(link))};
		return true;
	};
	// Each request tells the link of its own page: a page let go of starts nothing.
	const linkOf = (from: string) => (link: string | null) => onLink(from, link);

	try {
		for (;;) {
			const next = current.page.nextUrl;
			const canonical = next === null ? '' : canonicalUrl(next);
			if (next === null || next === current.url || visited.has(canonical)) {
				// The end of the list: nothing matched, and the search does not move.
				return {...base, result: 'end', searched, landing: null, seen: null, end: next === null ? 'no-next-uri' : 'loops-back'};
			}

			const bound = bounded();
			if (bound) {
				return {...base, result: 'bound', searched, landing: landing(), seen, bound};
			}

			options.onProgress?.({direction: 'forward', page: depth + 1, searched});
			// The next page may already be here: the stack prefetches it.
			const prefetched = searched === 0 && stack.prefetch?.url === next ? stack.prefetch.page : null;
			const pending = prefetched ?? (ahead?.url === next ? ahead.page : fetchOrStop(load, next, linkOf(next)));
			ahead = null;
			awaited = next;
			let page: Page | Stop;
			try {
				// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
				page = await pending;
			} finally {
				awaited = undefined;
			}

			if (page instanceof Stop) {
				const error = page.error ? {...page.error, kind: 'push' as const} : undefined;
				return {...base, result: page.result, searched, landing: landing(), seen: searched === 0 ? null : seen, error};
			}

			searched += 1;
			depth += 1;
			visited.add(canonical);
			for (const object of page.objects) {
				seen.add(object.id);
			}

			const after: string | null = page.nextUrl;
			// Not twice, when the page's first bytes already started it.
			if (after !== null && after !== next && !bounded() && aheadUrl() !== after) {
				ahead = {url: after, page: fetchOrStop(load, after, linkOf(after))};
				// On the wire while this page is matched, not after.
				// eslint-disable-next-line no-await-in-loop -- one turn of the event loop (requestSent)
				await requestSent();
			}

			passed.push({url: next, fill: fillMark(page, depth - 1)});
			current = {url: next, page};
			if (pageMatches(page, filter)) {
				return {...base, result: 'found', searched, landing: landing(), seen};
			}
		}
	} finally {
		options.signal.removeEventListener('abort', stopReading);
		readAhead.abort();
	}
}

async function searchBackward(stack: PageStackState, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	const base = {direction: 'backward' as const, filter, seen: null};
	const limit = stack.bounds.maxPages ?? options.maxSearchPages ?? defaultSearchPages;
	let searched = 0;
	let fetched = 0;
	let reached: SearchLanding | null = null;
	const stop = (result: 'bound' | 'cancelled' | 'failed', extra: Partial<SearchOutcome> = {}): SearchOutcome => ({...base, result, searched, landing: reached, ...extra});

	// Down the stack first: cached pages cost nothing, evicted ones are fetched again.
	let bottom: Page | null = null;
	for (let index = stack.entries.length - 2; index >= 0; index--) {
		const entry = stack.entries[index]!;
		let page = entry.page;
		if (!page) {
			if (fetched >= limit) {
				return stop('bound', {bound: {flag: stack.bounds.maxPages === null ? 'search' : 'max-pages', limit}});
			}

			options.onProgress?.({direction: 'backward', page: index + 1, searched});
			// eslint-disable-next-line no-await-in-loop -- one page at a time, as the user would walk back
			const loaded = await fetchOrStop(options, entry.url);
			if (loaded instanceof Stop) {
				return stop(loaded.result, {error: loaded.error ? {...loaded.error, kind: 'pop'} : undefined});
			}

			page = loaded;
			fetched += 1;
		}

		searched += 1;
		reached = {kind: 'stack', index, page};
		if (pageMatches(page, filter)) {
			return {...base, result: 'found', searched, landing: reached};
		}

		bottom = page;
	}

	// Below the bottom of the stack: previous_uri, page after page.
	const first = stack.entries[0];
	let current: {url: string; page: Page} | null = first ? {url: first.url, page: bottom ?? first.page!} : null;
	if (!current?.page) {
		return {...base, result: 'end', searched, landing: null, end: 'start-of-list'};
	}

	const visited = new Set(stack.entries.map(item => canonicalUrl(item.url)));
	for (;;) {
		if (current.url === stack.firstUrl) {
			return {...base, result: 'end', searched, landing: null, end: 'start-of-list'};
		}

		const previous: string | null = current.page.previousUrl;
		if (previous === null || visited.has(canonicalUrl(previous))) {
			return {...base, result: 'end', searched, landing: null, end: previous === null ? 'no-previous' : 'loops-back'};
		}

		if (fetched >= limit) {
			return stop('bound', {bound: {flag: stack.bounds.maxPages === null ? 'search' : 'max-pages', limit}});
		}

		options.onProgress?.({direction: 'backward', page: null, searched});
		// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
		const page = await fetchOrStop(options, previous);
		if (page instanceof Stop) {
			return stop(page.result, {error: page.error ? {...page.error, kind: 'reset'} : undefined});
		}

		fetched += 1;
		searched += 1;
		visited.add(canonicalUrl(previous));
		current = {url: previous, page};
		reached = {kind: 'before', url: previous, page};
		if (pageMatches(page, filter)) {
			return {...base, result: 'found', searched, landing: reached};
		}
	}
}

/** The clock a throttle reads and schedules with; tests give it one of their own. */
export type ThrottleClock = {now(): number; setTimeout(run: () => void, ms: number): unknown; clearTimeout(timer: unknown): void};

const realClock: ThrottleClock = {
	now: () => performance.now(),
	setTimeout: (run, ms) => setTimeout(run, ms),
	clearTimeout(timer) {
		clearTimeout(timer as ReturnType<typeof setTimeout>);
	},
};

/**
 * Calls `call` at most once per `intervalMs`: progress of a fast search would
 * otherwise draw a frame for every page. The first call goes through at once
 * (or, with `leading: false`, an interval after the throttle was made); a
 * call held back is made when the interval is over (so a page that takes
 * long shows its number), unless a later one replaced it or `cancel` came first.
 */
export function throttled<T>(call: (value: T) => void, intervalMs: number, clock: ThrottleClock = realClock, options: {leading?: boolean} = {}): {(value: T): void; cancel(): void} {
	let last = options.leading === false ? clock.now() : Number.NEGATIVE_INFINITY;
	let timer: unknown;
	let held: {value: T} | null = null;
	const flush = () => {
		timer = undefined;
		if (held) {
			const {value} = held;
			held = null;
			last = clock.now();
			call(value);
		}
	};

	const throttle = (value: T) => {
		const time = clock.now();
		if (time - last >= intervalMs && timer === undefined) {
			last = time;
			call(value);
			return;
		}

		held = {value};
		timer ??= clock.setTimeout(flush, Math.max(0, intervalMs - (time - last)));
	};

	throttle.cancel = () => {
		held = null;
		if (timer !== undefined) {
			clock.clearTimeout(timer);
			timer = undefined;
		}
	};

	return throttle;
}
