import type {FetchOptions} from '../../http/http-client.js';
import type {Page, RetryNotice, WalkEnd} from '../../contract/types.js';
import {leadsBack} from '../../http/walk-rules.js';
import {walk, type PageSource} from '../../http/walker.js';
import {mayMatch, visibleRows} from '../stack/cells.js';
import {boundReached, fillMark, loadFailure, top} from '../stack/stack-steps.js';
import {withIds} from '../stack/seen-ids.js';
import type {PageStackState, PassedPage, RequestKind, SearchBound, SearchDirection, SearchEnd, SearchLanding, SearchOutcome, SearchProgress, WalkBound} from '../stack/types.js';

/**
 * Search across pages (`n` forward, `N` backward): walks the list with the
 * core walker (http/walker.ts: its read-ahead, loop and bound rules) until a
 * page holds a row the filter lets through. It runs outside the reducer, as
 * a plain async loop over the browser's `loadPage`, so the pages it passes
 * cost a request and a match each, not a render; the app lands on the
 * outcome with one action. The match is the filter's own (`visibleRows`), so
 * `n` stops on exactly the pages where `/` would show rows.
 *
 * Memory stays bounded as on a walk by hand: a passed page is dropped as
 * soon as it is matched, and only its URL and fill mark are kept (the stack
 * holds them as evicted entries, re-fetched when the user goes back).
 */

/**
 * Pages a search walks when no --max-pages bounds the walk: enough to cross
 * a long list in a few seconds, few enough that a filter matching nothing
 * does not walk a list of millions. `n` again goes on from where it stopped.
 */
export const defaultSearchPages = 1000;

export type LoadPage = (url: string, options: {signal: AbortSignal; onRetry?: (notice: RetryNotice) => void; onLink?: FetchOptions['onLink']}) => Promise<Page>;

export type SearchOptions = {
	loadPage: LoadPage;
	signal: AbortSignal;
	onProgress?: (progress: SearchProgress) => void;
	/** Told when a page the search asks for waits before it is sent (see `waiting`). */
	onRetry?: (notice: RetryNotice) => void;
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

/** Where a search stopped short of a match when a page failed (`kind`: the request it was, for r to ask again), or Esc. */
function stopped(error: unknown, options: SearchOptions, url: string, kind: RequestKind): Stop {
	return options.signal.aborted ? {result: 'cancelled'} : {result: 'failed', error: {...loadFailure(error), url, kind}};
}

/**
 * The search's view of the browser's loader as a page source for the core
 * walker: the page the stack prefetched is handed over instead of asked for
 * again, and the URL each page and each failure came from is kept, since the
 * stack keeps pages by the link that led to them.
 */
function searchSource(firstUrl: string, options: SearchOptions, prefetched?: {url: string; page: Page | null} | null) {
	const pageUrls = new WeakMap<Page, string>();
	const failedUrls = new WeakMap<object, string>();
	let handed = prefetched?.page ? prefetched : null;
	const source: PageSource = {
		firstUrl,
		async fetchPage(url, fetchOptions = {}) {
			if (handed?.url === url && handed.page) {
				const {page} = handed;
				handed = null;
				pageUrls.set(page, url);
				return page;
			}

			handed = null;
			try {
				const page = await options.loadPage(url, {...fetchOptions, signal: fetchOptions.signal ?? options.signal, ...(options.onRetry ? {onRetry: options.onRetry} : {})});
				pageUrls.set(page, url);
				return page;
			} catch (error: unknown) {
				if (typeof error === 'object' && error !== null) {
					failedUrls.set(error, url);
				}

				throw error;
			}
		},
	};
	return {
		source,
		urlOf: (page: Page) => pageUrls.get(page) ?? page.requestUrl,
		failedUrl: (error: unknown) => (typeof error === 'object' && error !== null ? failedUrls.get(error) : undefined) ?? firstUrl,
	};
}

/** A page a search reaches, and how the stack would land on it. */
type Reached = {page: Page; landing: SearchLanding};

/** How a search ends short of a match: the list's end (or start, or a loop), a bound, Esc, a page that failed. */
type Stop =
	| {result: 'end'; end: SearchEnd}
	| {result: 'bound'; bound: SearchBound}
	| {result: 'cancelled'}
	| {result: 'failed'; error: NonNullable<SearchOutcome['error']>};

/**
 * One direction of a search (forward from the top page's next_uri; backward
 * down the stack, then past its bottom through previous_uri): the pages it
 * reaches in order, each with its landing, then how it stops (the
 * generator's return); `say` tells the status line the page it is about to
 * look at (null: past the walk's start). Both run the one loop, {@link walkToMatch}.
 */
type Way = {
	direction: SearchDirection;
	pages: (say: (page: number | null) => void) => AsyncGenerator<Reached, Stop>;
	/** The ids seen, where a search this way grows them (forward); null where it leaves them as they were. */
	seen: () => ReadonlySet<string> | null;
};

/**
 * The one search loop: a way's pages one at a time, counted, until one
 * matches or the way stops. Letting go of the way lets go of the walker under
 * it, which cancels what it read ahead.
 */
async function walkToMatch(way: Way, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	let searched = 0;
	let reached: SearchLanding | null = null;
	const pages = way.pages(page => {
		options.onProgress?.({direction: way.direction, page, searched});
	});
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const step = await pages.next();
			if (step.done) {
				return outcome(way, filter, searched, reached, step.value);
			}

			searched += 1;
			reached = step.value.landing;
			if (pageMatches(step.value.page, filter)) {
				return outcome(way, filter, searched, reached, {result: 'found'});
			}
		}
	} finally {
		await pages.return({result: 'cancelled'});
	}
}

/**
 * What a search did, either way: `found` and a stop land on the last page
 * reached (none when none was); an end does not move.
 */
function outcome(way: Way, filter: string, searched: number, reached: SearchLanding | null, stop: Stop | {result: 'found'}): SearchOutcome {
	const base = {direction: way.direction, filter, searched};
	switch (stop.result) {
		case 'found': {
			return {...base, result: 'found', landing: reached, seen: way.seen()};
		}

		case 'end': {
			// The end of the list, or a link back into the walk: nothing matched, and the search does not move.
			return {...base, result: 'end', landing: null, seen: null, end: stop.end};
		}

		case 'bound': {
			return {...base, result: 'bound', landing: reached, seen: way.seen(), bound: stop.bound};
		}

		case 'cancelled': {
			return {...base, result: 'cancelled', landing: reached, seen: reached ? way.seen() : null};
		}

		case 'failed': {
			return {...base, result: 'failed', landing: reached, seen: reached ? way.seen() : null, error: stop.error};
		}
	}
}

/** How a way takes the pages the core walker reads for it. */
type Leg = {
	/** The request a failed page was, for r to ask again: a page above the stack, or a new bottom. */
	kind: RequestKind;
	/** The landing on `page`, reached at `url`: told every page, in order. */
	reach: (page: Page, url: string) => SearchLanding;
	bound: (kind: WalkBound['flag']) => SearchBound;
	/** What the end of the list is called this way. */
	listEnd: 'no-next-uri' | 'no-previous';
	/** Told each page that did not match: a stop there (backward: the walk's first page, the start of the list), or none. */
	passed: (page: Page, url: string) => Stop | undefined;
};

/** The core walker's pages as a way's pages: each with its landing, then how the walk ended, the walker let go however the search ends. */
async function * walkerPages(pages: AsyncGenerator<Page, WalkEnd>, source: {urlOf: (page: Page) => string; failedUrl: (error: unknown) => string}, options: SearchOptions, leg: Leg): AsyncGenerator<Reached, Stop> {
	try {
		for (;;) {
			let step: IteratorResult<Page, WalkEnd>;
			try {
				// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
				step = await pages.next();
			} catch (error: unknown) {
				return stopped(error, options, source.failedUrl(error), leg.kind);
			}

			if (step.done) {
				const {kind} = step.value;
				return kind === 'max-pages' || kind === 'max-items' ? {result: 'bound', bound: leg.bound(kind)} : {result: 'end', end: kind === 'not-advancing' ? 'loops-back' : leg.listEnd};
			}

			const page = step.value;
			const url = source.urlOf(page);
			yield {page, landing: leg.reach(page, url)};
			const stop = leg.passed(page, url);
			if (stop) {
				return stop;
			}
		}
	} finally {
		await pages.return(undefined as unknown as WalkEnd);
	}
}

/** Runs one search from the stack as it is now; never throws (a failed page is an outcome). */
export async function searchPages(stack: PageStackState, direction: SearchDirection, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	return walkToMatch(direction === 'forward' ? forward(stack, options) : backward(stack, options), filter, options);
}

/**
 * Forward: the core walker from the top page's next_uri, with the stack as
 * the pages walked before (a link back into it is a loop) and its bounds
 * less what the stack has used. The walker reads each page ahead from the
 * first bytes of the one before, so matching a page overlaps the server's
 * work on the next.
 */
function forward(stack: PageStackState, options: SearchOptions): Way {
	// Grown in place, as the stack grows it (seen-ids.ts): a copy would cost every id seen.
	let seen = stack.seen;
	return {
		direction: 'forward',
		seen: () => seen,
		async * pages(say) {
			const entry = top(stack);
			const start = entry?.page?.nextUrl ?? null;
			const walked = stack.entries.map(item => item.url);
			if (start === null || leadsBack(start, walked, 'next_uri')) {
				return {result: 'end', end: start === null ? 'no-next-uri' : 'loops-back'};
			}

			const {maxPages, maxItems} = stack.bounds;
			const searchLimit = options.maxSearchPages ?? defaultSearchPages;
			const depth = stack.entries.length;
			const searchBound: SearchBound = maxPages === null ? {flag: 'search', limit: searchLimit} : {flag: 'max-pages', limit: maxPages};
			const already = boundReached(stack.bounds, depth, seen.size) ?? (maxPages === null && searchLimit <= 0 ? searchBound : undefined);
			if (already) {
				return {result: 'bound', bound: already};
			}

			const {source, urlOf, failedUrl} = searchSource(start, options, stack.prefetch);
			const pages = walk(source, {maxPages: null, maxItems: null}, {
				signal: options.signal,
				readAhead: true,
				maxPages: (maxPages ?? searchLimit) - (maxPages === null ? 0 : depth),
				maxItems: maxItems === null ? null : maxItems - seen.size,
				walked: {urls: walked, pages: stack.entries.flatMap(item => (item.page ? [item.page] : []))},
			});
			// The pages passed become entries above the old top, evicted: only their URL and fill mark are kept.
			const passed: PassedPage[] = [];
			say(depth + 1);
			return yield * walkerPages(pages, {urlOf, failedUrl}, options, {
				kind: 'push',
				reach(page, url) {
					seen = withIds(seen, page.objects);
					passed.push({url, fill: fillMark(page, depth + passed.length)});
					return {kind: 'forward', passed: passed.slice(0, -1), url, page};
				},
				bound: kind => (kind === 'max-pages' ? searchBound : {flag: 'max-items', limit: maxItems!}),
				listEnd: 'no-next-uri',
				passed(page) {
					if (page.nextUrl !== null) {
						say(depth + passed.length + 1);
					}

					return undefined;
				},
			});
		},
	};
}

/**
 * Backward: down the stack first (cached pages cost nothing, evicted ones
 * are fetched again), then past its bottom through previous_uri with the
 * core walker, until the walk's first page.
 */
function backward(stack: PageStackState, options: SearchOptions): Way {
	return {
		direction: 'backward',
		seen: () => null,
		async * pages(say) {
			const limit = stack.bounds.maxPages ?? options.maxSearchPages ?? defaultSearchPages;
			const bound: SearchBound = {flag: stack.bounds.maxPages === null ? 'search' : 'max-pages', limit};
			let fetched = 0;
			let bottom: Page | null = null;
			for (let index = stack.entries.length - 2; index >= 0; index--) {
				const entry = stack.entries[index]!;
				let {page} = entry;
				if (!page) {
					if (fetched >= limit) {
						return {result: 'bound', bound};
					}

					say(index + 1);
					try {
						// eslint-disable-next-line no-await-in-loop -- one page at a time, as the user would walk back
						page = await options.loadPage(entry.url, {signal: options.signal, ...(options.onRetry ? {onRetry: options.onRetry} : {})});
					} catch (error: unknown) {
						return stopped(error, options, entry.url, 'pop');
					}

					fetched += 1;
				}

				yield {page, landing: {kind: 'stack', index, page}};
				bottom = page;
			}

			// Below the bottom of the stack: previous_uri, page after page.
			const first = stack.entries[0];
			const from = first ? {url: first.url, page: bottom ?? first.page} : null;
			if (!from?.page || from.url === stack.firstUrl) {
				return {result: 'end', end: 'start-of-list'};
			}

			const previous = from.page.previousUrl;
			const walked = stack.entries.map(item => item.url);
			if (previous === null || leadsBack(previous, walked, 'previous_uri')) {
				return {result: 'end', end: previous === null ? 'no-previous' : 'loops-back'};
			}

			if (fetched >= limit) {
				return {result: 'bound', bound};
			}

			const {source, urlOf, failedUrl} = searchSource(previous, options);
			const pages = walk(source, {maxPages: limit - fetched, maxItems: null}, {signal: options.signal, follow: 'previous', walked: {urls: walked, pages: []}});
			say(null);
			// A page past the bottom is a new stack of that one page.
			return yield * walkerPages(pages, {urlOf, failedUrl}, options, {
				kind: 'reset',
				reach: (page, url) => ({kind: 'before', url, page}),
				bound: () => bound,
				listEnd: 'no-previous',
				passed(_page, url) {
					if (url === stack.firstUrl) {
						return {result: 'end', end: 'start-of-list'};
					}

					say(null);
					return undefined;
				},
			});
		},
	};
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
