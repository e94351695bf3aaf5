import {contractDefaults, cursorParameters, pageFill, type Finding} from '../core/contract.js';
import {PagewalkError} from '../core/errors.js';
import type {FillMark} from '../core/fill-strip.js';
import {stringifyOrNote, tooDeepNote} from '../core/flatten.js';
import type {FailedExchange, Order, Page, RetryNotice} from '../core/types.js';
import {shownPageRows, visibleRows, type Row, type RowSort} from './cells.js';
import {pageFindings} from './page-findings.js';
import {jumpUrl, type JumpCursor} from './jump.js';
import type {SearchBound, SearchDirection, SearchEnd, SearchOutcome} from './search-pages.js';

/**
 * The page stack: every page the user walked to, as a pure reducer. Requests
 * are not made here; the state says which request it wants (`pending`, and
 * `prefetch` for the next page) with a request id, the task runner (tasks.ts) runs them, and the
 * answer comes back as an action carrying that id. An answer whose id is no
 * longer wanted is stale and changes nothing, which is how an aborted or
 * superseded request can never land.
 */

export type Settings = {order: Order; limit: number};

/** How full a page was: all the fill strip needs once the page itself is evicted. */
export type {FillMark} from '../core/fill-strip.js';

/** `findings`: what the contract's per-page checks found when the page landed (none when it keeps every rule). */
export type Entry = {url: string; page: Page | null; selected: number; fill?: FillMark; findings?: Finding[]};

/**
 * What a wanted page does once it arrives: `push` it on top (next page),
 * `pop` to it (back onto an entry whose page was evicted), `reset` the stack
 * to it (first page, new walk, previous_uri at the bottom), `refresh` the top;
 * `probe` asks whether anything is new past the followed end (F) and shows nothing itself.
 */
export type RequestKind = 'push' | 'pop' | 'reset' | 'refresh' | 'probe';

/** `retrying`: the client's last retry notice while it waits (worded by the status model). */
/** `focus`: the id to select once the page lands (the object `o` flipped the order around). */
export type Pending = {requestId: number; url: string; kind: RequestKind; retrying: RetryNotice | null; jump?: true; focus?: string};

export type Prefetch = {requestId: number; url: string; page: Page | null};

/** `retryable`: whether asking again can help (not after 401, 403, 404: the fix is elsewhere). */
/** A failed load: the error's message, and its `problem` (the message without its advice) where a caller may advise better. */
export type LoadError = {message: string; url: string; kind: RequestKind; retryable: boolean; problem?: string; jump?: true; exchange?: FailedExchange};

/**
 * What the last action did, as data: the status model words it (the
 * reducer holds no sentences, so wording changes never touch navigation).
 */
export type Notice =
	| {kind: 'end-of-list'; reason: 'no-next-uri' | 'loops-back'}
	| {kind: 'refreshed'; changed: false}
	| {kind: 'refreshed'; changed: true; added: number; removed: number}
	| {kind: 'keys-dropped'; count: number}
	| {kind: 'stopped-loading'}
	| {kind: 'already-first'}
	| {kind: 'no-previous'}
	| {kind: 'following-previous'}
	| {kind: 'new-walk'; change: 'order'; order: Order; at?: string}
	| {kind: 'new-walk'; change: 'limit'; limit: number}
	| {kind: 'limit-stays'; limit: number; maximum: number}
	| {kind: 'retrying'}
	| {kind: 'bound'; flag: 'max-pages' | 'max-items'; limit: number}
	// Jump to a cursor (`:`) and search across pages (`n`, `N`).
	| {kind: 'jump'; cursor: JumpCursor}
	| {kind: 'jump-empty'}
	| {kind: 'jump-malformed'}
	| {kind: 'search-no-filter'}
	| {kind: 'search-busy'}
	| {kind: 'search-found'; direction: SearchDirection; searched: number; page: number; before: boolean}
	| {kind: 'search-end'; direction: SearchDirection; searched: number; filter: string; end: SearchEnd}
	| {kind: 'search-bound'; direction: SearchDirection; searched: number; filter: string; bound: SearchBound}
	| {kind: 'search-stopped'; direction: SearchDirection; searched: number; moved: boolean; by: 'escape' | 'error'}
	| {kind: 'follow-stopped'; count: number};

export type StackAction =
	| {type: 'next'}
	| {type: 'previous'}
	| {type: 'first'}
	| {type: 'toggle-order'}
	| {type: 'change-limit'; delta: number}
	| {type: 'set-limit'; limit: number}
	| {type: 'refresh'}
	| {type: 'move'; delta: number}
	| {type: 'move-to'; position: 'top' | 'bottom'}
	| {type: 'set-filter'; filter: string}
	| {type: 'loaded'; requestId: number; page: Page}
	| {type: 'failed'; requestId: number; message: string; retryable?: boolean; problem?: string; exchange?: FailedExchange}
	| {type: 'retrying'; requestId: number; retry: RetryNotice}
	// Jump to a cursor: a new walk from the walk's first URL with this cursor (same order and limit).
	| {type: 'jump'; cursor: JumpCursor; id: string}
	// A search across pages ended: land where it says, if the stack is still the one it started from.
	| {type: 'searched'; outcome: SearchOutcome; from: SearchStart}
	| {type: 'notice'; notice: Notice}
	// F: start or stop following the newest end; a poll asks whether anything arrived.
	| {type: 'follow'}
	| {type: 'unfollow'}
	| {type: 'follow-poll'}
	// s: sort the rows on screen by a column, or back to the server's order.
	| {type: 'sort'; sort: RowSort | null};

/** The stack a search started from: its outcome applies to this stack only. */
export type SearchStart = {walk: number; depth: number; url: string};

export type PageStackState = {
	settings: Settings;
	/** Where the list starts in the current settings (no cursor). */
	firstUrl: string;
	/** Bottom to top; the top is the page on screen. */
	entries: Entry[];
	pending: Pending | null;
	prefetch: Prefetch | null;
	/** Keys pressed while a page was loading, replayed in order when it lands. */
	queue: StackAction[];
	nextRequestId: number;
	/** Counts walks: a new order or limit starts the next one. */
	walk: number;
	/** Distinct ids seen in this walk. */
	seen: ReadonlySet<string>;
	error: LoadError | null;
	/** What the last action did, for the status line. */
	notice: Notice | null;
	filter: string;
	/** Pages kept in memory below the top; deeper entries keep only their URL. */
	maxCachedPages: number;
	/** --max-pages and --max-items: → stops following next_uri there, saying so. */
	bounds: Bounds;
	/** Following the newest end (F), or null. */
	follow: Follow | null;
	/** The rows of every page sorted on screen by a column (`s`), or null for the server's order. */
	sort: RowSort | null;
};

/**
 * Following the newest end of the list (F, like less +F): `count` objects
 * arrived since it began, `fresh` are the ids of the last arrival (marked
 * new until the next poll), `failures` in a row stretch the pause between polls.
 */
export type Follow = {count: number; fresh: readonly string[]; failures: number};

export type Bounds = {maxPages: number | null; maxItems: number | null};

export const limitStep = 5;
export const maxLimit = contractDefaults.maximumLimit;

/** `url` with the given order and limit and no cursor: the first page in those settings. */
export function firstPageUrl(url: string, settings: Settings): string {
	const parsed = new URL(url);
	for (const name of cursorParameters) {
		parsed.searchParams.delete(name);
	}

	parsed.searchParams.set('limit', String(settings.limit));
	parsed.searchParams.set('order', settings.order);
	return parsed.href;
}

function withoutCursor(url: string): string {
	const parsed = new URL(url);
	for (const name of cursorParameters) {
		parsed.searchParams.delete(name);
	}

	return parsed.href;
}

export function initialState(options: {startUrl: string; settings: Settings; maxCachedPages?: number; bounds?: Bounds}): PageStackState {
	return {
		settings: options.settings,
		firstUrl: withoutCursor(options.startUrl),
		entries: [],
		pending: {requestId: 1, url: options.startUrl, kind: 'reset', retrying: null},
		prefetch: null,
		queue: [],
		nextRequestId: 2,
		walk: 1,
		seen: new Set(),
		error: null,
		notice: null,
		filter: '',
		maxCachedPages: options.maxCachedPages ?? 20,
		follow: null,
		sort: null,
		bounds: options.bounds ?? {maxPages: null, maxItems: null},
	};
}

/** The bound reached after `pages` pages holding `objects` distinct objects, if any: the stack's and the search's. */
export function boundReached({maxPages, maxItems}: PageStackState['bounds'], pages: number, objects: number): {flag: 'max-pages' | 'max-items'; limit: number} | undefined {
	if (maxPages !== null && pages >= maxPages) {
		return {flag: 'max-pages', limit: maxPages};
	}

	if (maxItems !== null && objects >= maxItems) {
		return {flag: 'max-items', limit: maxItems};
	}

	return undefined;
}

/** The bound the walk has reached (pages walked, or distinct objects seen), if any. */
function reachedBound(state: PageStackState): Notice | null {
	const bound = boundReached(state.bounds, state.entries.length, state.seen.size);
	return bound ? {kind: 'bound', ...bound} : null;
}

/** How full a page was, kept for the fill strip when the page itself is forgotten. */
export function fillMark(page: Page, index: number): FillMark {
	const {kind, ratio} = pageFill(page, index);
	return {kind, ratio};
}

/** What a failed page load shows, and whether retrying it can help. */
export function loadFailure(error: unknown): {message: string; retryable: boolean; problem?: string; exchange?: FailedExchange} {
	const problem = error instanceof PagewalkError ? error.problem : undefined;
	const exchange = error instanceof PagewalkError ? error.exchange : undefined;
	return {
		message: error instanceof Error ? error.message : String(error),
		retryable: !(error instanceof PagewalkError) || error.retryable,
		...(problem === undefined ? {} : {problem}),
		...(exchange === undefined ? {} : {exchange}),
	};
}

export function top(state: PageStackState): Entry | undefined {
	return state.entries.at(-1);
}

/** The rows of the page on screen as shown: filtered, and sorted when a sort is set. */
export function shownRows(state: PageStackState, sort: RowSort | null = state.sort): Row[] {
	const page = top(state)?.page;
	return page ? shownPageRows(page.objects, state.filter, page.objectTexts, sort) : [];
}

export function selectedRow(state: PageStackState): Row | undefined {
	const entry = top(state);
	return entry ? shownRows(state)[entry.selected] : undefined;
}

/** Where the object with this id is among `rows`, or -1. */
function indexOfId(rows: readonly Row[], id: string): number {
	return rows.findIndex(row => String(row.object.id) === id);
}

/** Requests the state wants running now: the page tasks of tasks.ts. */
export function wantedRequests(state: PageStackState): Array<{requestId: number; url: string}> {
	if (state.pending) {
		return [{requestId: state.pending.requestId, url: state.pending.url}];
	}

	// The prefetch only runs while nothing else does: one request at a time.
	if (state.prefetch && !state.prefetch.page) {
		return [{requestId: state.prefetch.requestId, url: state.prefetch.url}];
	}

	return [];
}

/** Whether a navigation (not a refresh) is on its way: row keys then wait for it. */
function navigating(state: PageStackState): boolean {
	return state.pending !== null && state.pending.kind !== 'refresh';
}

function request(state: PageStackState, url: string, kind: RequestKind): PageStackState {
	return {
		...state,
		pending: {requestId: state.nextRequestId, url, kind, retrying: null},
		nextRequestId: state.nextRequestId + 1,
		// A new navigation drops whatever the old one had queued, and the
		// prefetch of a page that is no longer next.
		queue: [],
		prefetch: kind === 'refresh' ? state.prefetch : null,
		error: null,
	};
}

function clamp(value: number, low: number, high: number): number {
	return Math.min(Math.max(value, low), high);
}

function visibleCount(state: PageStackState, entry: Entry): number {
	return entry.page ? visibleRows(entry.page.objects, state.filter, entry.page.objectTexts).length : 0;
}

/** The entry of a page landing on top of `below`, checked against the contract as it arrives. */
function checkedEntry(below: readonly Entry[], url: string, page: Page, selected: number): Entry {
	const earlier = below.flatMap((entry, index) => (entry.page ? [{number: index + 1, page: entry.page}] : []));
	return {url, page, selected, findings: pageFindings(page, earlier, below.length > 0)};
}

function replaceTop(state: PageStackState, entry: Entry): PageStackState {
	return {...state, entries: [...state.entries.slice(0, -1), entry]};
}

/** Starts the next prefetch when the page on top has a next page not yet fetched. */
function ensurePrefetch(state: PageStackState): PageStackState {
	if (state.pending) {
		return state;
	}

	const next = top(state)?.page?.nextUrl ?? null;
	if (next === null || next === top(state)?.url || reachedBound(state)) {
		return state.prefetch ? {...state, prefetch: null} : state;
	}

	if (state.prefetch?.url === next) {
		return state;
	}

	return {...state, prefetch: {requestId: state.nextRequestId, url: next, page: null}, nextRequestId: state.nextRequestId + 1};
}

/** Forgets the pages of the entries below `keepFrom`, keeping how full each was (the fill strip). */
function forgetBelow(state: PageStackState, keepFrom: number): PageStackState {
	return {
		...state,
		entries: state.entries.map((entry, index) => {
			if (index >= keepFrom || !entry.page) {
				return entry;
			}

			return {...entry, page: null, fill: fillMark(entry.page, index)};
		}),
	};
}

/** Forgets the pages of entries deep in the stack: memory stays bounded on long walks. */
function evict(state: PageStackState): PageStackState {
	const keepFrom = state.entries.length - state.maxCachedPages;
	if (keepFrom <= 0 || state.entries[keepFrom - 1]?.page === null) {
		return state;
	}

	return forgetBelow(state, keepFrom);
}

function addSeen(seen: ReadonlySet<string>, page: Page): ReadonlySet<string> {
	if (page.objects.every(object => seen.has(object.id))) {
		return seen;
	}

	const next = new Set(seen);
	for (const object of page.objects) {
		next.add(object.id);
	}

	return next;
}

/**
 * Replays keys queued during a load, until one of them starts another
 * request; the keys pressed after that one stay queued for the page it brings (so
 * holding → for a hundred pages reaches the hundredth).
 */
function drain(state: PageStackState): PageStackState {
	let current = state;
	// Any request in flight stops the replay (a queued refresh too): the keys
	// after it wait for its answer, which drains again.
	while (current.queue.length > 0 && current.pending === null) {
		const [action, ...rest] = current.queue;
		const next = pageStackReducer({...current, queue: []}, action!);
		current = rest.length === 0 ? next : {...next, queue: [...next.queue, ...rest]};
	}

	return current;
}

/** Keys held while loading: far more than anyone presses ahead, few enough to replay in one go. */
export const maxQueuedKeys = 1000;

function enqueue(state: PageStackState, action: StackAction): PageStackState {
	if (state.queue.length >= maxQueuedKeys) {
		const count = state.notice?.kind === 'keys-dropped' ? state.notice.count + 1 : 1;
		return {...state, notice: {kind: 'keys-dropped', count}};
	}

	return {...state, queue: [...state.queue, action]};
}

/**
 * Where the selection goes when the filter changes: onto the same object,
 * else the first row after where it was; or, on `next` (the page loaded
 * again), onto the same object by id.
 */
function keptSelection(page: Page, before: string, after: string, selected: number, next: Page = page, sort: RowSort | null = null): number {
	const old = shownPageRows(page.objects, before, page.objectTexts, sort)[selected];
	if (old === undefined) {
		return 0;
	}

	const rows = shownPageRows(next.objects, after, next.objectTexts, sort);
	if (next !== page || sort) {
		// Another load of the page, or rows in a sorted order: the same object by its id, else the first row.
		return Math.max(0, indexOfId(rows, String(old.object.id)));
	}

	const at = rows.findIndex(row => row.index >= old.index);
	return at === -1 ? Math.max(0, rows.length - 1) : at;
}

/**
 * ← while → is still under way takes back the last → (and the row moves
 * meant for the page it brings): `lllh` in one read ends where three → and
 * one ← lead, without loading a page only to leave it. With no → waiting, ←
 * stops the page that loads: the user changed their mind. Anything else
 * waiting (a new order, a refresh) keeps ← in line after it.
 */
function takeBackForward(state: PageStackState): PageStackState | undefined {
	let index = state.queue.length - 1;
	while (index >= 0 && (state.queue[index]!.type === 'move' || state.queue[index]!.type === 'move-to')) {
		index--;
	}

	if (index >= 0) {
		return state.queue[index]!.type === 'next' ? {...state, queue: state.queue.slice(0, index)} : undefined;
	}

	return state.pending?.kind === 'push' ? {...state, pending: null, queue: [], notice: {kind: 'stopped-loading'}} : undefined;
}

/**
 * Whether two loads of a page hold the same objects: by their exact texts
 * when both have them (cheaper, and safe for objects nested too deep for
 * JSON.stringify), else by serializing; a page too deep to serialize counts
 * as changed.
 */
function sameObjects(before: Page, after: Page): boolean {
	if (before.objectTexts !== undefined && after.objectTexts !== undefined) {
		return before.objectTexts.length === after.objectTexts.length && before.objectTexts.every((text, index) => text === after.objectTexts![index]);
	}

	const text = stringifyOrNote(before.objects);
	return text !== tooDeepNote && text === stringifyOrNote(after.objects);
}

function describeChange(before: Page, after: Page): Notice {
	const same =
		before.objects.length === after.objects.length &&
		sameObjects(before, after) &&
		stringifyOrNote(before.rawPagination) === stringifyOrNote(after.rawPagination);
	if (same) {
		return {kind: 'refreshed', changed: false};
	}

	const beforeIds = new Set(before.objects.map(object => object.id));
	const afterIds = new Set(after.objects.map(object => object.id));
	const added = [...afterIds].filter(id => !beforeIds.has(id)).length;
	const removed = [...beforeIds].filter(id => !afterIds.has(id)).length;
	return {kind: 'refreshed', changed: true, added, removed};
}

/**
 * `o` keeps the selected object on screen: the walk in the other order
 * starts at it. One request cannot ask for "this object and its
 * neighbours", so the cursor is a neighbour on the page: the object above it
 * as `ending_before` (in the new order the page ends with the selected
 * object, the ones that were below it before it), else the one below it as
 * `starting_after` (the page starts with it); at an end of the page, the
 * cursor the page was asked with is that neighbour. Flipping back does the
 * same, so `o` twice comes back to the same object. No neighbour known (the
 * only object of a first page): undefined, and the walk starts from the first page.
 */
function flipInPlace(state: PageStackState, order: Order): PageStackState | undefined {
	const page = top(state)?.page;
	const row = selectedRow(state);
	if (!page || !row) {
		return undefined;
	}

	// At an end of the page, the page's own cursor names the neighbour beyond it.
	const cursors = new URL(page.requestUrl).searchParams;
	const above = page.objects[row.index - 1]?.id ?? (row.index === 0 ? cursors.get('starting_after') : null);
	const below = page.objects[row.index + 1]?.id ?? (row.index === page.objects.length - 1 ? cursors.get('ending_before') : null);
	const jump = above ? {cursor: 'ending_before' as const, id: String(above)} : below ? {cursor: 'starting_after' as const, id: String(below)} : undefined;
	if (!jump) {
		return undefined;
	}

	const settings = {...state.settings, order};
	const firstUrl = firstPageUrl(state.firstUrl, settings);
	const id = String(row.object.id);
	const flipped = request({...state, settings, firstUrl, walk: state.walk + 1, seen: new Set()}, jumpUrl(firstUrl, jump), 'reset');
	return {...flipped, pending: {...flipped.pending!, focus: id}, notice: {kind: 'new-walk', change: 'order', order, at: id}};
}

function newWalk(state: PageStackState, settings: Settings, notice: Notice): PageStackState {
	const firstUrl = firstPageUrl(state.firstUrl, settings);
	return {
		...request({...state, settings, firstUrl, walk: state.walk + 1, seen: new Set(), entries: state.entries}, firstUrl, 'reset'),
		notice,
	};
}

function landed(state: PageStackState, pending: Pending, page: Page): PageStackState {
	// A jump to a cursor is a new walk once its page is here (a failed one leaves the old walk as it was).
	const base = pending.jump
		? {...state, pending: null, error: null, seen: addSeen(new Set(), page), walk: state.walk + 1}
		: {...state, pending: null, error: null, seen: addSeen(state.seen, page)};
	switch (pending.kind) {
		case 'push': {
			return {...base, entries: [...state.entries, checkedEntry(state.entries, pending.url, page, 0)], notice: null};
		}

		case 'pop': {
			const below = state.entries.slice(0, -1);
			const target = below.at(-1);
			return {...base, entries: [...below.slice(0, -1), checkedEntry(below.slice(0, -1), pending.url, page, target?.selected ?? 0)], notice: null};
		}

		case 'reset': {
			// The page we came from is the next page of one reached through
			// previous_uri: keep it as the prefetch so → is instant.
			const old = top(state);
			const prefetch = old?.page && page.nextUrl === old.url ? {requestId: state.nextRequestId, url: old.url, page: old.page} : null;
			const focused = pending.focus === undefined ? -1 : indexOfId(shownPageRows(page.objects, state.filter, page.objectTexts, state.sort), pending.focus);
			return {
				...base,
				entries: [checkedEntry([], pending.url, page, Math.max(0, focused))],
				prefetch,
				nextRequestId: prefetch ? state.nextRequestId + 1 : state.nextRequestId,
			};
		}

		case 'probe': {
			return probed(base, page);
		}

		case 'refresh': {
			const entry = top(state);
			if (!entry) {
				return {...base, entries: [checkedEntry([], pending.url, page, 0)]};
			}

			const notice = entry.page ? describeChange(entry.page, page) : null;
			const refreshed = checkedEntry(state.entries.slice(0, -1), entry.url, page, entry.selected);
			const count = visibleRows(page.objects, state.filter, page.objectTexts).length;
			refreshed.selected = clamp(entry.selected, 0, Math.max(0, count - 1));
			// The old next page may be gone: prefetch again from the new one.
			const follow = base.follow && entry.page ? arrived(base.follow, entry.page, page) : base.follow;
			if (follow && entry.page) {
				// Following: the selection stays on its object as new ones arrive above it.
				refreshed.selected = keptSelection(entry.page, state.filter, state.filter, entry.selected, page, state.sort);
			}

			return {...replaceTop(base, refreshed), notice: follow ? null : notice, prefetch: null, follow};
		}
	}
}

export function pageStackReducer(state: PageStackState, action: StackAction): PageStackState {
	switch (action.type) {
		case 'loaded': {
			if (state.prefetch?.requestId === action.requestId && !state.prefetch.page) {
				return {...state, prefetch: {...state.prefetch, page: action.page}};
			}

			if (state.pending?.requestId !== action.requestId) {
				return state; // Stale: superseded or aborted.
			}

			return drain(ensurePrefetch(evict(landed(state, state.pending, action.page))));
		}

		case 'failed': {
			if (state.prefetch?.requestId === action.requestId) {
				// A failed prefetch is not the user's problem yet; → will fetch again.
				return {...state, prefetch: null};
			}

			if (state.pending?.requestId !== action.requestId) {
				return state;
			}

			const {url, kind, jump} = state.pending;
			if (state.follow) {
				// Following goes on, pausing longer after each failure in a row (the error shows meanwhile).
				state = {...state, follow: {...state.follow, failures: state.follow.failures + 1}};
			}

			const dropped = state.queue.length;
			return {
				...state,
				pending: null,
				queue: [],
				error: {
					message: action.message,
					url,
					kind,
					retryable: action.retryable ?? true,
					...(action.problem === undefined ? {} : {problem: action.problem}),
					...(jump ? {jump: true as const} : {}),
					...(action.exchange === undefined ? {} : {exchange: action.exchange}),
				},
				notice: dropped > 0 ? {kind: 'keys-dropped', count: dropped} : state.notice,
			};
		}

		case 'retrying': {
			if (state.pending?.requestId !== action.requestId) {
				return state;
			}

			return {...state, pending: {...state.pending, retrying: action.retry}};
		}

		case 'next': {
			if (state.pending) {
				return enqueue(state, action);
			}

			const entry = top(state);
			if (!entry?.page) {
				return state;
			}

			const next = entry.page.nextUrl;
			if (next === null) {
				return {...state, notice: {kind: 'end-of-list', reason: 'no-next-uri'}};
			}

			if (next === entry.url) {
				return {...state, notice: {kind: 'end-of-list', reason: 'loops-back'}};
			}

			const bound = reachedBound(state);
			if (bound) {
				return {...state, notice: bound};
			}

			if (state.prefetch?.url === next && state.prefetch.page) {
				const page = state.prefetch.page;
				return ensurePrefetch(
					evict({
						...state,
						entries: [...state.entries, checkedEntry(state.entries, next, page, 0)],
						prefetch: null,
						seen: addSeen(state.seen, page),
						notice: null,
						error: null,
					}),
				);
			}

			if (state.prefetch?.url === next) {
				// Already on its way: adopt the prefetch instead of asking twice.
				return {...state, pending: {requestId: state.prefetch.requestId, url: next, kind: 'push', retrying: null}, prefetch: null, error: null};
			}

			return request(state, next, 'push');
		}

		case 'previous': {
			const current = state;
			if (current.pending) {
				const takenBack = takeBackForward(current);
				if (takenBack) {
					return takenBack;
				}

				// Loading the first page, a new walk, a page back or a refresh:
				// ← applies to the page that lands, like any key pressed meanwhile.
				return enqueue(current, action);
			}

			if (current.entries.length > 1) {
				const popped = top(current)!;
				const below = current.entries.slice(0, -1);
				const target = below.at(-1)!;
				// The page we leave is the next page of the one we return to.
				// (A prefetch for the page we leave is of no use any more.)
				const prefetch =
					popped.page && target.page?.nextUrl === popped.url
						? {requestId: current.nextRequestId, url: popped.url, page: popped.page}
						: null;
				const moved = {...current, prefetch, nextRequestId: current.nextRequestId + 1, notice: null, error: null};
				if (target.page) {
					return ensurePrefetch({...moved, entries: below});
				}

				return {...request(moved, target.url, 'pop'), prefetch};
			}

			const entry = top(current);
			if (!entry) {
				return current;
			}

			if (entry.url === current.firstUrl) {
				return {...current, notice: {kind: 'already-first'}};
			}

			const previous = entry.page?.previousUrl ?? null;
			if (previous === null) {
				return {...current, notice: {kind: 'no-previous'}};
			}

			return {...request(current, previous, 'reset'), notice: {kind: 'following-previous'}};
		}

		case 'first': {
			let current = state.pending ? {...state, pending: null, queue: []} : state;
			const bottom = current.entries[0];
			if (bottom?.page && bottom.url === current.firstUrl) {
				if (current.entries.length === 1) {
					return {...current, notice: {kind: 'already-first'}};
				}

				const second = current.entries[1]!;
				const prefetch =
					second.page && bottom.page.nextUrl === second.url ? {requestId: current.nextRequestId, url: second.url, page: second.page} : null;
				current = {...current, entries: [bottom], prefetch, nextRequestId: current.nextRequestId + 1, notice: null, error: null};
				return ensurePrefetch(current);
			}

			return request(current, current.firstUrl, 'reset');
		}

		case 'toggle-order': {
			const order = state.settings.order === 'desc' ? 'asc' : 'desc';
			return flipInPlace(state, order) ?? newWalk(state, {...state.settings, order}, {kind: 'new-walk', change: 'order', order});
		}

		case 'change-limit':
		case 'set-limit': {
			const wanted = action.type === 'set-limit' ? action.limit : state.settings.limit + action.delta;
			const limit = clamp(Math.round(wanted), 0, maxLimit);
			if (!Number.isFinite(limit) || limit === state.settings.limit) {
				return {...state, notice: {kind: 'limit-stays', limit: state.settings.limit, maximum: maxLimit}};
			}

			return newWalk(state, {...state.settings, limit}, {kind: 'new-walk', change: 'limit', limit});
		}

		case 'refresh': {
			if (state.error) {
				// After an error, r retries exactly what failed.
				const retried = request(state, state.error.url, state.error.kind);
				const pending = state.error.jump ? {...retried.pending!, jump: true as const} : retried.pending;
				return {...retried, pending, notice: {kind: 'retrying'}};
			}

			if (state.pending) {
				return navigating(state) ? enqueue(state, action) : state;
			}

			const entry = top(state);
			return entry ? request(state, entry.url, 'refresh') : state;
		}

		case 'move':
		case 'move-to': {
			if (navigating(state)) {
				return enqueue(state, action);
			}

			const entry = top(state);
			if (!entry) {
				return state;
			}

			const last = Math.max(0, visibleCount(state, entry) - 1);
			const target =
				action.type === 'move' ? entry.selected + action.delta : action.position === 'top' ? 0 : last;
			const selected = clamp(target, 0, last);
			return selected === entry.selected ? state : replaceTop(state, {...entry, selected});
		}

		case 'set-filter': {
			// The page on screen keeps its place: the object selected stays
			// selected when the filter changes (or the first row after it, when
			// the filter hides it). Pages below start at their first row.
			const entries = state.entries.map((entry, index) => {
				if (index === state.entries.length - 1 && entry.page) {
					return {...entry, selected: keptSelection(entry.page, state.filter, action.filter, entry.selected, entry.page, state.sort)};
				}

				return entry.selected === 0 ? entry : {...entry, selected: 0};
			});
			return {...state, filter: action.filter, entries};
		}

		case 'jump': {
			// The page on screen stays until the jump's page lands: a cursor the
			// server does not know is an error banner over the old page, not a blank.
			const jumping = request({...state, pending: null, queue: []}, jumpUrl(state.firstUrl, action), 'reset');
			return {...jumping, pending: {...jumping.pending!, jump: true}, notice: {kind: 'jump', cursor: action.cursor}};
		}

		case 'searched': {
			return searchLanded(state, action.outcome, action.from);
		}

		case 'notice': {
			return {...state, notice: action.notice};
		}

		case 'follow': {
			return startFollow(state);
		}

		case 'unfollow': {
			return state.follow ? {...state, follow: null, notice: {kind: 'follow-stopped', count: state.follow.count}} : state;
		}

		case 'follow-poll': {
			return pollFollow(state);
		}

		case 'sort': {
			// The selected object stays selected in the new order.
			const selected = selectedRow(state);
			const sorted = {...state, sort: action.sort};
			if (!selected) {
				return sorted;
			}

			return replaceTop(sorted, {...top(state)!, selected: Math.max(0, shownRows(state, action.sort).indexOf(selected))});
		}
	}
}

/** F: follow from the first page in desc (going there first), from the page on screen in asc. */
function startFollow(state: PageStackState): PageStackState {
	const follow: Follow = {count: 0, fresh: [], failures: 0};
	if (state.settings.order === 'desc' && (state.entries.length > 1 || top(state)?.url !== state.firstUrl)) {
		return {...pageStackReducer({...state, queue: []}, {type: 'first'}), follow, notice: null};
	}

	return {...state, follow, notice: null};
}

/**
 * A poll: is anything past the followed end? In desc, the objects before the
 * first one (`ending_before` it); in asc, those after the last one
 * (`starting_after` it) of the page on screen. An empty answer costs an empty
 * page; only an arrival loads the page again.
 */
function pollFollow(state: PageStackState): PageStackState {
	const entry = top(state);
	if (!state.follow || state.pending || !entry?.page) {
		return state;
	}

	const {objects} = entry.page;
	const edge = state.settings.order === 'desc' ? objects[0] : objects.at(-1);
	if (edge === undefined) {
		return request(state, entry.url, 'refresh');
	}

	const cursor = state.settings.order === 'desc' ? 'ending_before' : 'starting_after';
	return request(state, jumpUrl(state.firstUrl, {cursor, id: String(edge.id)}), 'probe');
}

/** What a poll found: nothing (the last arrival's marks fade), or objects: the page loads again (in asc, the next page when this one is full). */
function probed(state: PageStackState, page: Page): PageStackState {
	const follow = state.follow ? {...state.follow, failures: 0} : null;
	if (page.objects.length === 0 || !follow) {
		return {...state, follow: follow && {...follow, fresh: []}};
	}

	const entry = top(state)!;
	if (state.settings.order === 'asc' && entry.page?.nextUrl) {
		return pageStackReducer({...state, follow}, {type: 'next'});
	}

	return request({...state, follow}, entry.url, 'refresh');
}

/** The objects a refresh of the followed page brought: counted, and marked new. */
function arrived(follow: Follow, before: Page, after: Page): Follow {
	const known = new Set(before.objects.map(object => String(object.id)));
	const fresh = after.objects.map(object => String(object.id)).filter(id => !known.has(id));
	return {...follow, count: follow.count + fresh.length, fresh, failures: 0};
}

/** Where a search starts from: checked again when it lands. */
export function searchStart(state: PageStackState): SearchStart {
	return {walk: state.walk, depth: state.entries.length, url: top(state)?.url ?? ''};
}

/**
 * Forgets the pages of every entry below the cached window. A search lands
 * with evicted entries between cached ones, which `evict` (made for one page
 * at a time) would stop at.
 */
function evictBelow(state: PageStackState): PageStackState {
	const keepFrom = state.entries.length - state.maxCachedPages;
	if (keepFrom <= 0 || !state.entries.slice(0, keepFrom).some(entry => entry.page)) {
		return state;
	}

	return forgetBelow(state, keepFrom);
}

function searchNotice(outcome: SearchOutcome, page: number): Notice {
	const {direction, searched, filter} = outcome;
	switch (outcome.result) {
		case 'found': {
			return {kind: 'search-found', direction, searched, page, before: outcome.landing?.kind === 'before'};
		}

		case 'end': {
			return {kind: 'search-end', direction, searched, filter, end: outcome.end ?? 'no-next-uri'};
		}

		case 'bound': {
			return {kind: 'search-bound', direction, searched, filter, bound: outcome.bound!};
		}

		case 'cancelled':
		case 'failed': {
			return {kind: 'search-stopped', direction, searched, moved: outcome.landing !== null, by: outcome.result === 'failed' ? 'error' : 'escape'};
		}
	}
}

/**
 * A search's one landing: the matching page (or the last one reached, when
 * it stopped) goes on top, the pages passed below it as evicted entries, so
 * ← walks back through them as through any page walked by hand.
 */
function searchLanded(state: PageStackState, outcome: SearchOutcome, from: SearchStart): PageStackState {
	const start = searchStart(state);
	if (state.pending || start.walk !== from.walk || start.depth !== from.depth || start.url !== from.url) {
		return state; // The stack moved on meanwhile: the outcome is stale.
	}

	const error = outcome.error ? {message: outcome.error.message, url: outcome.error.url, kind: outcome.error.kind, retryable: outcome.error.retryable} : null;
	const landing = outcome.landing;
	if (!landing) {
		// Nothing moved; the prefetch the search dropped when it started is wanted again.
		const stayed = {...state, notice: searchNotice(outcome, state.entries.length), error};
		return error ? stayed : ensurePrefetch(stayed);
	}

	let entries: Entry[];
	let seen = outcome.seen ?? state.seen;
	switch (landing.kind) {
		case 'forward': {
			const below = [
				...state.entries,
				...landing.passed.map((passed): Entry => ({url: passed.url, page: null, selected: 0, fill: passed.fill})),
			];
			entries = [...below, checkedEntry(below, landing.url, landing.page, 0)];
			break;
		}

		case 'stack': {
			const below = state.entries.slice(0, landing.index);
			const entry = state.entries[landing.index]!;
			const selected = outcome.result === 'found' ? 0 : entry.selected;
			entries = [...below, entry.page === landing.page ? {...entry, selected} : checkedEntry(below, entry.url, landing.page, selected)];
			break;
		}

		case 'before': {
			entries = [checkedEntry([], landing.url, landing.page, 0)];
			seen = addSeen(state.seen, landing.page);
			break;
		}
	}

	// The page above the landing, when it is still in memory, is its next page: keep it for →.
	const above = landing.kind === 'stack' ? state.entries[landing.index + 1] : undefined;
	const prefetch = above?.page && landing.page.nextUrl === above.url ? {requestId: state.nextRequestId, url: above.url, page: above.page} : null;
	const moved: PageStackState = {
		...state,
		entries,
		seen,
		prefetch,
		nextRequestId: state.nextRequestId + 1,
		queue: [],
		error,
		notice: searchNotice(outcome, entries.length),
	};
	// After a failed page, nothing is fetched ahead: r retries what failed.
	return error ? evictBelow(moved) : ensurePrefetch(evictBelow(moved));
}
