import type {FetchOptions} from '../../http/http-client.js';
import type {Page, RetryNotice, WalkEnd} from '../../contract/types.js';
import {leadsBack} from '../../http/walk-rules.js';
import {walk, type PageSource} from '../../http/walker.js';
import {mayMatch, visibleRows} from '../stack/cells.js';
import {boundReached, fillMark, loadFailure, top} from '../stack/stack-steps.js';
import {withIds} from '../stack/seen-ids.js';
import type {PageStackState, PassedPage, RequestKind, SearchBound, SearchDirection, SearchLanding, SearchOutcome, SearchProgress} from '../stack/types.js';

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

/** What stopped a search short of a match or the list's end: Esc, or a page that failed. */
function stopped(error: unknown, options: SearchOptions, urlOf: (error: unknown) => string): {result: 'cancelled'} | {result: 'failed'; error: {message: string; url: string; retryable: boolean}} {
	return options.signal.aborted ? {result: 'cancelled'} : {result: 'failed', error: {...loadFailure(error), url: urlOf(error)}};
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

/** The next page of a search's walk, how the walk ended, or what stopped it (the failed page's request named as `kind`). */
type Walked = {page: Page} | {end: WalkEnd} | {stopped: 'cancelled' | 'failed'; error?: NonNullable<SearchOutcome['error']>};

async function nextPage(pages: AsyncGenerator<Page, WalkEnd>, options: SearchOptions, failedUrl: (error: unknown) => string, kind: RequestKind): Promise<Walked> {
	try {
		const step = await pages.next();
		return step.done ? {end: step.value} : {page: step.value};
	} catch (error: unknown) {
		const stop = stopped(error, options, failedUrl);
		return 'error' in stop ? {stopped: 'failed', error: {...stop.error, kind}} : {stopped: 'cancelled'};
	}
}

/**
 * One direction of a search's walk past the pages the stack holds (forward
 * from the top page's next_uri, backward from the bottom's previous_uri): how
 * a page it reaches would be landed on, and what its bound and its end are
 * called. Both directions run the one loop, {@link walkToMatch}.
 */
type Way = {
	direction: SearchDirection;
	/** The request a failed page was, for r to ask again: a page above the stack, or a new bottom. */
	kind: RequestKind;
	/** Pages looked at before this walk (the stack's own, searching backward), and the last of them, where a stop lands. */
	before: number;
	reached: SearchLanding | null;
	/** The landing on `page`, reached at `url`: told every page, in order. */
	reach: (page: Page, url: string) => SearchLanding;
	/** The ids seen, where a search this way grows them (forward); null where it leaves them as they were. */
	seen: () => ReadonlySet<string> | null;
	bound: (kind: 'max-pages' | 'max-items') => SearchBound;
	/** What the end of the list is called this way. */
	listEnd: 'no-next-uri' | 'no-previous';
	/** Whether the walk ends at `url`, matched or not (backward: the walk's first page, the start of the list). */
	startOfList?: (url: string) => boolean;
	/** What the status line says before the first page (`page` undefined) and after each page without a match (undefined: nothing new). */
	progress: (searched: number, page?: Page) => SearchProgress | undefined;
};

/**
 * The one search loop: the core walker's pages one at a time until one
 * matches, the walk ends (the list's end, a loop, a bound) or it is stopped
 * (Esc, a failed page). A walk that ends cancels what it read ahead.
 */
async function walkToMatch(pages: AsyncGenerator<Page, WalkEnd>, filter: string, options: SearchOptions, source: {urlOf: (page: Page) => string; failedUrl: (error: unknown) => string}, way: Way): Promise<SearchOutcome> {
	const base = {direction: way.direction, filter};
	let searched = way.before;
	let {reached} = way;
	const say = (progress: SearchProgress | undefined) => {
		if (progress) {
			options.onProgress?.(progress);
		}
	};

	say(way.progress(searched));
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const step = await nextPage(pages, options, source.failedUrl, way.kind);
			if ('stopped' in step) {
				return {...base, result: step.stopped, searched, landing: reached, seen: reached ? way.seen() : null, ...(step.error ? {error: step.error} : {})};
			}

			if ('end' in step) {
				const {end} = step;
				if (end.kind === 'max-pages' || end.kind === 'max-items') {
					return {...base, result: 'bound', searched, landing: reached, seen: way.seen(), bound: way.bound(end.kind)};
				}

				// The end of the list, or a link back into the walk: nothing matched, and the search does not move.
				return {...base, result: 'end', searched, landing: null, seen: null, end: end.kind === 'not-advancing' ? 'loops-back' : way.listEnd};
			}

			const {page} = step;
			const url = source.urlOf(page);
			searched += 1;
			reached = way.reach(page, url);
			if (pageMatches(page, filter)) {
				return {...base, result: 'found', searched, landing: reached, seen: way.seen()};
			}

			if (way.startOfList?.(url)) {
				return {...base, result: 'end', searched, landing: null, seen: null, end: 'start-of-list'};
			}

			say(way.progress(searched, page));
		}
	} finally {
		await pages.return(undefined as unknown as WalkEnd);
	}
}

/** Runs one search from the stack as it is now; never throws (a failed page is an outcome). */
export async function searchPages(stack: PageStackState, direction: SearchDirection, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	return direction === 'forward' ? searchForward(stack, filter, options) : searchBackward(stack, filter, options);
}

/**
 * Forward: the core walker from the top page's next_uri, with the stack as
 * the pages walked before (a link back into it is a loop) and its bounds
 * less what the stack has used. The walker reads each page ahead from the
 * first bytes of the one before, so matching a page overlaps the server's
 * work on the next.
 */
async function searchForward(stack: PageStackState, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	const base = {direction: 'forward' as const, filter};
	const entry = top(stack);
	if (!entry?.page) {
		return {...base, result: 'end', searched: 0, landing: null, seen: null, end: 'no-next-uri'};
	}

	const {maxPages, maxItems} = stack.bounds;
	const searchLimit = options.maxSearchPages ?? defaultSearchPages;
	const walked = stack.entries.map(item => item.url);
	const start = entry.page.nextUrl;
	if (start === null || leadsBack(start, walked, 'next_uri')) {
		// The end of the list: nothing matched, and the search does not move.
		return {...base, result: 'end', searched: 0, landing: null, seen: null, end: start === null ? 'no-next-uri' : 'loops-back'};
	}

	// Grown in place, as the stack grows it (seen-ids.ts): a copy would cost every id seen.
	let seen = stack.seen;
	const depth = stack.entries.length;
	const searchBound: SearchBound = maxPages === null ? {flag: 'search', limit: searchLimit} : {flag: 'max-pages', limit: maxPages};
	const already = boundReached(stack.bounds, depth, seen.size) ?? (maxPages === null && searchLimit <= 0 ? searchBound : undefined);
	if (already) {
		return {...base, result: 'bound', searched: 0, landing: null, seen, bound: already};
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
	return walkToMatch(pages, filter, options, {urlOf, failedUrl}, {
		direction: 'forward',
		kind: 'push',
		before: 0,
		reached: null,
		reach(page, url) {
			seen = withIds(seen, page.objects);
			passed.push({url, fill: fillMark(page, depth + passed.length)});
			return {kind: 'forward', passed: passed.slice(0, -1), url, page};
		},
		seen: () => seen,
		bound: kind => (kind === 'max-pages' ? searchBound : {flag: 'max-items', limit: maxItems!}),
		listEnd: 'no-next-uri',
		progress: (searched, page) => (page?.nextUrl === null ? undefined : {direction: 'forward', page: depth + searched + 1, searched}),
	});
}

/**
 * Backward: down the stack first (cached pages cost nothing, evicted ones
 * are fetched again), then past its bottom through previous_uri with the
 * core walker, until the walk's first page.
 */
async function searchBackward(stack: PageStackState, filter: string, options: SearchOptions): Promise<SearchOutcome> {
	const base = {direction: 'backward' as const, filter, seen: null};
	const limit = stack.bounds.maxPages ?? options.maxSearchPages ?? defaultSearchPages;
	const bound: SearchBound = {flag: stack.bounds.maxPages === null ? 'search' : 'max-pages', limit};
	let searched = 0;
	let fetched = 0;
	let reached: SearchLanding | null = null;
	const stop = (result: 'bound' | 'cancelled' | 'failed', extra: Partial<SearchOutcome> = {}): SearchOutcome => ({...base, result, searched, landing: reached, ...extra});

	let bottom: Page | null = null;
	for (let index = stack.entries.length - 2; index >= 0; index--) {
		const entry = stack.entries[index]!;
		let page = entry.page;
		if (!page) {
			if (fetched >= limit) {
				return stop('bound', {bound});
			}

			options.onProgress?.({direction: 'backward', page: index + 1, searched});
			try {
				// eslint-disable-next-line no-await-in-loop -- one page at a time, as the user would walk back
				page = await options.loadPage(entry.url, {signal: options.signal, ...(options.onRetry ? {onRetry: options.onRetry} : {})});
			} catch (error: unknown) {
				const outcome = stopped(error, options, () => entry.url);
				return stop(outcome.result, 'error' in outcome ? {error: {...outcome.error, kind: 'pop'}} : {});
			}

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
	const from = first ? {url: first.url, page: bottom ?? first.page} : null;
	if (!from?.page || from.url === stack.firstUrl) {
		return {...base, result: 'end', searched, landing: null, end: 'start-of-list'};
	}

	const previous = from.page.previousUrl;
	const walked = stack.entries.map(item => item.url);
	if (previous === null || leadsBack(previous, walked, 'previous_uri')) {
		return {...base, result: 'end', searched, landing: null, end: previous === null ? 'no-previous' : 'loops-back'};
	}

	if (fetched >= limit) {
		return stop('bound', {bound});
	}

	const {source, urlOf, failedUrl} = searchSource(previous, options);
	const pages = walk(source, {maxPages: limit - fetched, maxItems: null}, {signal: options.signal, follow: 'previous', walked: {urls: walked, pages: []}});
	// A page past the bottom is a new stack of that one page.
	return walkToMatch(pages, filter, options, {urlOf, failedUrl}, {
		direction: 'backward',
		kind: 'reset',
		before: searched,
		reached,
		reach: (page, url) => ({kind: 'before', url, page}),
		seen: () => null,
		bound: () => bound,
		listEnd: 'no-previous',
		startOfList: url => url === stack.firstUrl,
		progress: searched => ({direction: 'backward', page: null, searched}),
	});
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
