import {requestSent, type FetchOptions, type PageClient} from './http-client.js';
import {linkIdentity, type Cursor} from './links.js';
import type {Page, WalkEnd} from './types.js';

/**
 * Walks a list by following `next_uri` from the first page. Only a null or
 * empty `next_uri` is the end: short and empty pages with a link are followed
 * (docs/contract.md#end-of-list, #short-pages). A link that would not advance (a URL or cursor already
 * requested in this walk, or an empty page pointing back at its own request)
 * ends the walk with a note instead of looping, and the --max-pages and
 * --max-items bounds end it with a WalkEnd that says so.
 *
 * Errors (HTTP, envelope, a link to another origin) are thrown by the
 * generator after every earlier page has been yielded, so nothing read is lost.
 */

export type WalkOptions = FetchOptions & {
	/** Start somewhere other than the client's first page. */
	startUrl?: string;
	/** Override the config's bounds (null: unbounded). */
	maxPages?: number | null;
	maxItems?: number | null;
	/**
	 * Ask for the next page as soon as this one is read and checked, before
	 * handing it on: the server prepares it while the caller writes this
	 * one (dump and audit). The page is asked for only when the walk goes on
	 * to it; if the walk ends first, the request is cancelled.
	 */
	readAhead?: boolean;
};

export type WalkBounds = {maxPages: number | null; maxItems: number | null};

function describeCursor(cursor: Cursor): string | undefined {
	if (cursor.starting_after !== undefined) {
		return `starting_after=${cursor.starting_after}`;
	}

	if (cursor.ending_before !== undefined) {
		return `ending_before=${cursor.ending_before}`;
	}

	return undefined;
}

function pageKey(page: Page): string {
	return `${page.objects.length}\u0000${page.objects[0]?.id ?? ''}\u0000${page.objects.at(-1)?.id ?? ''}`;
}

/** Why `page` repeats an earlier one, or undefined when it brings something new. */
function repeatedPage(page: Page, keys: Map<string, number>, previous: readonly string[]): string | undefined {
	if (page.objects.length === 0) {
		return undefined;
	}

	const earlier = keys.get(pageKey(page));
	if (earlier !== undefined) {
		return `page ${keys.size + 1} holds the same objects as page ${earlier}`;
	}

	// Almost every page starts with an object the page before did not hold:
	// one pass of string compares says so, and the set of that page's ids
	// (a hundred inserts) is built only when it did.
	const firstId = page.objects[0]!.id;
	if (!previous.includes(firstId)) {
		return undefined;
	}

	const previousIds = new Set(previous);
	if (page.objects.every(object => previousIds.has(object.id))) {
		return `every object of page ${keys.size + 1} was already on page ${keys.size}`;
	}

	return undefined;
}

/** Where the walk goes after a page: on to `url`, or to its end. */
type Step = {end: WalkEnd} | {url: string; canonical: string; cursor: string | undefined};

export async function * walk(client: PageClient, config: WalkBounds, options: WalkOptions = {}): AsyncGenerator<Page, WalkEnd> {
	const maxPages = options.maxPages === undefined ? config.maxPages : options.maxPages;
	const maxItems = options.maxItems === undefined ? config.maxItems : options.maxItems;
	// A request read ahead is cancelled when the walk ends before it is
	// used (the reader of the dump went away, an error): one controller for
	// the whole walk, joined with the caller's signal once.
	const cancel = options.readAhead ? new AbortController() : undefined;
	const signal = cancel && options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel?.signal ?? options.signal;
	const fetchOptions: FetchOptions = {signal, onRetry: options.onRetry, lane: options.lane};
	// With read-ahead, each request tells the link of its own page (FetchOptions.onLink).
	const optionsFor = (url: string): FetchOptions => (cancel ? {...fetchOptions, onLink: next => readAheadEarly(url, next)} : fetchOptions);
	// Page number (1-based) at which each canonical URL and cursor was requested.
	const visitedUrls = new Map<string, number>();
	const visitedCursors = new Map<string, number>();
	// A link can lead back to an earlier page under a URL not seen before (a
	// fresh cursor that points backwards). Such a page is caught by its
	// contents before it is yielded, so its objects are not written twice:
	// each page's first id, last id and size (one short key per page, so memory
	// stays bounded by pages, not objects), and the ids of the previous page.
	const pageKeys = new Map<string, number>();
	let previousIds: string[] = [];
	let url = options.startUrl ?? client.firstUrl;
	// Each URL is read once: as the next link, then as the request.
	const first = linkIdentity(url);
	let canonical = first.canonical;
	let cursor = describeCursor(first.cursor);
	let pages = 0;
	let items = 0;

	/**
	 * Whether the walk goes on from page `number`, whose next link is `next`,
	 * and where to. `objects` is the page's count, counted into `items`
	 * already; undefined when the page is not parsed yet (its link read from
	 * its first bytes), and then undefined is returned where the answer
	 * needs the objects (a --max-items bound).
	 */
	function stepAfter(number: number, next: string | null, objects?: number): Step | undefined {
		if (next === null) {
			return {end: {kind: 'end'}};
		}

		const identity = linkIdentity(next);
		const nextCursor = describeCursor(identity.cursor);
		if (identity.canonical === canonical && objects === 0) {
			return {end: {kind: 'not-advancing', note: `page ${number} was empty and its next_uri repeats its own request, so the list cannot advance`}};
		}

		const seenUrl = visitedUrls.get(identity.canonical);
		if (seenUrl !== undefined) {
			return {end: {kind: 'not-advancing', note: `the next_uri of page ${number} leads back to page ${seenUrl}, so following it would loop`}};
		}

		const seenCursor = nextCursor === undefined ? undefined : visitedCursors.get(nextCursor);
		if (seenCursor !== undefined) {
			return {end: {kind: 'not-advancing', note: `the next_uri of page ${number} repeats the cursor ${nextCursor!} of page ${seenCursor}, so following it would not advance`}};
		}

		if (maxItems !== null) {
			if (objects === undefined) {
				return undefined;
			}

			if (items >= maxItems) {
				return {end: {kind: 'max-items', limit: maxItems}};
			}
		}

		if (maxPages !== null && number >= maxPages) {
			return {end: {kind: 'max-pages', limit: maxPages}};
		}

		return {url: next, canonical: identity.canonical, cursor: nextCursor};
	}

	// The next page, asked for before this one is handed on (read-ahead).
	let ahead: {url: string; page: Promise<Page>; turnTo(): void} | undefined;
	// The page the walker waits for: only its link may start the read-ahead early.
	let awaiting: string | undefined;

	// A function, not `ahead?.url`: readAheadEarly sets it while a page is awaited.
	const aheadUrl = () => ahead?.url;

	function readAhead(url: string): void {
		// One on another link (the page's last word differed from its first
		// bytes) is let go: read to its end, its page unused, its link ignored.
		ahead?.turnTo();
		// Its response is read at once, and parsed when the walk turns to it (FetchOptions.until).
		let turnTo!: () => void;
		const until = new Promise<void>(resolve => {
			turnTo = resolve;
		});
		const page = client.fetchPage(url, {...optionsFor(url), until});
		// Its failure is thrown where it is awaited, after the page before it.
		page.catch(() => {});
		ahead = {url, page, turnTo};
	}

	/**
	 * The link of the page being waited for, read from its first bytes
	 * (FetchOptions.onLink): the read-ahead starts on it at once, before that
	 * page is parsed, when the walk goes on to it by the same rules as after
	 * it is parsed (stepAfter; a --max-items bound needs the page's objects,
	 * so it waits for them). The page, once parsed, has the last word; a
	 * walk that ends there after all cancels the request.
	 */
	function readAheadEarly(from: string, next: string | null): boolean {
		const step = awaiting === from && ahead === undefined ? stepAfter(pages + 1, next) : undefined;
		if (step === undefined || !('url' in step)) {
			return false;
		}

		readAhead(step.url);
		return true;
	}

	// The page being walked, let go of (below) before the next is asked for,
	// so it is not kept through the collections that parsing the next one
	// starts: kept, pages reached the old generation and a walk of 1,000
	// pages needed more full collections (--trace-gc: 8 against 4).
	let page: Page | undefined;
	try {
		for (;;) {
			visitedUrls.set(canonical, pages + 1);
			if (cursor !== undefined) {
				visitedCursors.set(cursor, pages + 1);
			}

			const current = ahead?.url === url ? ahead.page : client.fetchPage(url, optionsFor(url));
			ahead?.turnTo();
			ahead = undefined;
			awaiting = url;
			try {
				// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
				page = await current;
			} finally {
				awaiting = undefined;
			}

			pages += 1;
			const repeated = repeatedPage(page, pageKeys, previousIds);
			if (repeated !== undefined) {
				return {kind: 'not-advancing', note: pages === 1 ? repeated : `the next_uri of page ${pages - 1} leads back: ${repeated}, so following it would loop`};
			}

			pageKeys.set(pageKey(page), pages);
			previousIds = page.objects.map(object => object.id);
			items += page.objects.length;
			const step = stepAfter(pages, page.nextUrl, page.objects.length)!;
			// Only a page the walk goes on to: never past a bound or a loop; and
			// not twice, when the page's first bytes already started it.
			if (cancel && 'url' in step && aheadUrl() !== step.url) {
				readAhead(step.url);
				// On the wire while the reader handles this page, not after.
				// eslint-disable-next-line no-await-in-loop -- one turn of the event loop (requestSent)
				await requestSent();
			}

			yield page;
			page = undefined;
			if ('end' in step) {
				return step.end;
			}

			({url, canonical, cursor} = step);
		}
	} finally {
		// Cancelled, and let on to see it (its response may be here already).
		cancel?.abort();
		ahead?.turnTo();
	}
}

/** One sentence for a WalkEnd, for stderr and the status line (not yet inert). */
export function describeEnd(end: WalkEnd): string {
	switch (end.kind) {
		case 'end': {
			return 'reached the end of the list (next_uri was empty)';
		}

		case 'max-pages': {
			return `stopped after ${end.limit} ${end.limit === 1 ? 'page' : 'pages'} (--max-pages); more pages follow`;
		}

		case 'max-items': {
			return `stopped after ${end.limit} ${end.limit === 1 ? 'object' : 'objects'} (--max-items); more pages follow`;
		}

		case 'not-advancing': {
			return `stopped: ${end.note}`;
		}
	}
}
