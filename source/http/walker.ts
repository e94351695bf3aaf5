import {requestSent, type FetchOptions, type PageClient} from './http-client.js';
import type {Order, Page, WalkEnd} from '../contract/types.js';
import {WalkRules, type WalkLimits} from './walk-rules.js';

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

/**
 * What a walk reads its pages through: the HTTP client for dump and audit,
 * the browser's page loader for its search across pages.
 */
export type PageSource = Pick<PageClient, 'firstUrl' | 'fetchPage'>;

export type WalkOptions = FetchOptions & {
	/** Start somewhere other than the client's first page. */
	startUrl?: string;
	/**
	 * The link the walk follows: `next_uri` (forward, the default) or
	 * `previous_uri` (the browser's search backward past its stack).
	 */
	follow?: 'next' | 'previous';
	/**
	 * Pages walked before `startUrl` (the browser's page stack, oldest
	 * first): a link back to one of them ends the walk as a loop, and so does
	 * a page holding the same objects as one of `pages` (those still in
	 * memory; the last is the page just before `startUrl`).
	 */
	walked?: {urls: readonly string[]; pages: readonly Page[]};
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
	/**
	 * The order the walk asked for, where a page in another order is of no
	 * use to the caller (the walk from both ends lets such a chain go on its
	 * first page): nothing is read ahead past a page whose pagination reports
	 * another, from its first bytes or once parsed.
	 */
	order?: Order;
};

export type WalkBounds = WalkLimits;

export async function * walk(client: PageSource, config: WalkBounds, options: WalkOptions = {}): AsyncGenerator<Page, WalkEnd> {
	const backward = options.follow === 'previous';
	const linkOf = (page: Page) => (backward ? page.previousUrl : page.nextUrl);
	let url = options.startUrl ?? client.firstUrl;
	const rules = new WalkRules(url, {
		maxPages: options.maxPages === undefined ? config.maxPages : options.maxPages,
		maxItems: options.maxItems === undefined ? config.maxItems : options.maxItems,
	}, backward ? 'previous_uri' : 'next_uri', options.walked);
	// A request read ahead is cancelled when the walk ends before it is
	// used (the reader of the dump went away, an error): one controller for
	// the whole walk, joined with the caller's signal once.
	const cancel = options.readAhead ? new AbortController() : undefined;
	const signal = cancel && options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel?.signal ?? options.signal;
	const fetchOptions: FetchOptions = {signal, onRetry: options.onRetry, lane: options.lane};
	// With read-ahead, each request tells the link of its own page
	// (FetchOptions.onLink); only a next_uri is read from the first bytes.
	const optionsFor = (url: string): FetchOptions => (cancel && !backward ? {...fetchOptions, onLink: (next, {order}) => readAheadEarly(url, next, order)} : fetchOptions);
	const otherOrder = (order: Order) => options.order !== undefined && order !== options.order;

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
	function readAheadEarly(from: string, next: string | null, order: Order): boolean {
		const step = awaiting === from && ahead === undefined && !otherOrder(order) ? rules.stepAfter(rules.pages + 1, next) : undefined;
		if (step === undefined || !('url' in step)) {
			return false;
		}

		readAhead(step.url);
		return true;
	}

	// The page being walked, let go of (below) before the next is asked for,
	// so it is not kept through the collections that parsing the next one
	// starts: kept, pages reached the old generation and a long walk needed
	// more full collections (--trace-gc).
	let page: Page | undefined;
	try {
		for (;;) {
			rules.requesting();
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

			const repeated = rules.take(page);
			if (repeated) {
				return repeated;
			}

			const step = rules.stepAfter(rules.pages, linkOf(page), page.objects.length)!;
			// Only a page the walk goes on to: never past a bound, a loop or a page
			// in another order than asked; and not twice, when the page's first
			// bytes already started it.
			if (cancel && 'url' in step && aheadUrl() !== step.url && !otherOrder(page.pagination.order)) {
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

			url = step.url;
			rules.moveTo(step);
		}
	} finally {
		// Cancelled, and let on to see it (its response may be here already).
		cancel?.abort();
		ahead?.turnTo();
	}
}

