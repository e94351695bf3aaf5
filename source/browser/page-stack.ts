import {contractDefaults, type Finding} from '../contract/contract.js';
import type {FillMark} from '../contract/fill-strip.js';
import type {FailedExchange, Order, Page, RetryNotice} from '../contract/types.js';
import type {LoopEnd} from '../http/walk-rules.js';
import type {ClipboardWrite} from './clipboard.js';
import {shownPageRows, visibleRows, type RowSort} from './cells.js';
import {arrived, pollFollow, probed, startFollow, type Moves} from './follow-steps.js';
import {jumpUrl, type JumpCursor} from './jump.js';
import {searchLanded} from './search-landing.js';
import type {SearchBound, SearchDirection, SearchEnd, SearchOutcome} from './search-pages.js';
import {
	addSeen,
	atLoop,
	checkedEntry,
	clamp,
	describeChange,
	enqueue,
	ensurePrefetch,
	evict,
	flipInPlace,
	focusAfterFlip,
	keptAsPrefetch,
	keptSelection,
	loopAhead,
	navigating,
	newWalk,
	reachedBound,
	recordWalked,
	replaceTop,
	request,
	selectedRow,
	shownRows,
	takeBackForward,
	top,
	visibleCount,
	withoutCursor,
} from './stack-steps.js';

export {boundReached, fillMark, firstPageUrl, loadFailure, maxQueuedKeys, selectedRow, shownRows, top} from './stack-steps.js';
export {searchStart} from './search-landing.js';

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
export type {FillMark} from '../contract/fill-strip.js';

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
/**
 * `focus`: the id to select once the page lands (the object `o` flipped the
 * order around); `near`: the other ids of its page, nearest first, the one
 * selected instead when it is gone by then.
 */
export type Pending = {requestId: number; url: string; kind: RequestKind; retrying: RetryNotice | null; jump?: true; focus?: string; near?: readonly string[]};

/** `retrying`: the client's last retry notice while the prefetch waits, kept for → to adopt with it. */
export type Prefetch = {requestId: number; url: string; page: Page | null; retrying?: RetryNotice};

/** `retryable`: whether asking again can help (not after 401, 403, 404: the fix is elsewhere). */
/** A failed load: the error's message, and its `problem` (the message without its advice) where a caller may advise better. */
export type LoadError = {message: string; url: string; kind: RequestKind; retryable: boolean; problem?: string; jump?: true; exchange?: FailedExchange};

/**
 * The status line's one message: what the last key, or the task it started
 * (a copy, a write, a search), did, as data. The status model words it and
 * gives it its level (status-model.ts), so the reducers hold no sentences.
 * The next key clears it (browser-state.ts), a newer one replaces it, and a
 * page landing drops what it makes stale (see `landed`).
 */
export type Notice =
	| {kind: 'end-of-list'; reason: 'no-next-uri'}
	// → stopped where the walk rules (http/walk-rules.ts) stop every walk: `end` says how it would loop.
	| {kind: 'end-of-list'; reason: 'loops-back'; end: LoopEnd}
	| {kind: 'refreshed'; changed: false}
	| {kind: 'refreshed'; changed: true; added: number; removed: number}
	| {kind: 'keys-dropped'; count: number}
	| {kind: 'stopped-loading'}
	// ← took back a → that waited for the page loading: the walk now stops at page `stopsAt`.
	| {kind: 'took-back'; stopsAt: number}
	| {kind: 'already-first'}
	| {kind: 'no-previous'}
	| {kind: 'following-previous'}
	// `gone`: the object `at` was no longer there when the page came; `neighbour` was selected instead.
	// `place`: the page showed no row, so the walk starts where the page was (its cursor turned round); `noRow`: nor had it a cursor.
	| {kind: 'new-walk'; change: 'order'; order: Order; at?: string; gone?: {neighbour: string | undefined}; place?: {cursor: JumpCursor; id: string}; noRow?: true}
	// `clamped`: + or - went past the contract's bounds, so the limit is the bound.
	| {kind: 'new-walk'; change: 'limit'; limit: number; clamped?: true}
	| {kind: 'limit-stays'; limit: number; maximum: number; refused?: LimitRefusal}
	| {kind: 'retrying'}
	| {kind: 'bound'; flag: 'max-pages' | 'max-items'; limit: number}
	// Jump to a cursor (`:`) and search across pages (`n`, `N`).
	| {kind: 'jump'; cursor: JumpCursor}
	| {kind: 'jump-empty'}
	| {kind: 'jump-malformed'}
	// The id typed after : is longer than jump.ts takes (maxJumpId): `length` characters.
	| {kind: 'jump-too-long'; length: number}
	| {kind: 'search-no-filter'}
	| {kind: 'search-busy'}
	| {kind: 'search-found'; direction: SearchDirection; searched: number; page: number; before: boolean}
	| {kind: 'search-end'; direction: SearchDirection; searched: number; filter: string; end: SearchEnd}
	| {kind: 'search-bound'; direction: SearchDirection; searched: number; filter: string; bound: SearchBound}
	| {kind: 'search-stopped'; direction: SearchDirection; searched: number; moved: boolean; by: 'escape' | 'error'}
	// `loop`: following stopped itself, where the next page would loop.
	| {kind: 'follow-stopped'; count: number; loop?: LoopEnd}
	// What a copy or a write (effects.ts) came to, and where a find in a pane landed.
	| {kind: 'copied'; words: string; label: string; write: ClipboardWrite; caveat: boolean}
	| {kind: 'nothing-to-copy'}
	| {kind: 'cannot'; what: 'curl' | 'write'}
	| {kind: 'no-file-name'}
	| {kind: 'nothing-to-write'}
	| {kind: 'wrote'; name: string; counts: {objects: number; pages: number; refetched: number}; walk: boolean}
	| {kind: 'kept'; name: string}
	| {kind: 'exists'; name: string}
	/** The command's one sentence for a write that failed. */
	| {kind: 'write-failed'; message: string}
	| {kind: 'found'; text: string; line: number; lines: number}
	| {kind: 'not-found'; text: string};

/** A limit typed after L that is none: nothing typed, not a whole number, or over the contract's maximum. */
export type LimitRefusal = {typed: string; why: 'empty' | 'not-whole' | 'over'};

export type StackAction =
	| {type: 'next'}
	| {type: 'previous'}
	| {type: 'first'}
	| {type: 'toggle-order'}
	| {type: 'change-limit'; delta: number}
	// `refused`: what was typed after L when it is no limit (the reducer says so and keeps the limit).
	| {type: 'set-limit'; limit: number; refused?: LimitRefusal}
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
	/**
	 * Distinct ids seen in this walk: those of every page it showed. Bounded
	 * by the walk: one page's ids (at most the contract's maximum limit, 100)
	 * per page landed; a new walk starts it empty.
	 */
	seen: ReadonlySet<string>;
	/**
	 * How full each page of this walk was, from its first page (`page 1`) to
	 * the deepest reached: the fill strip. ← keeps the pages it leaves; a new
	 * walk, or a new first page, starts them over (see recordWalked). One
	 * mark per page, as the stack keeps one URL per page.
	 */
	walked: readonly FillMark[];
	error: LoadError | null;
	/** The status line's message: what the last key, or the task it started, did. */
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
	/** The page the server answered last (a prefetch too): the request budget it stated is the one to show. */
	answered?: Page;
};

/**
 * Following the newest end of the list (F, like less +F): `count` objects
 * arrived since it began (ids never seen in this walk, each once; see
 * follow-steps.ts), `fresh` are the ids of the last arrival (marked new
 * until the next poll), `failures` in a row stretch the pause between polls.
 */
export type Follow = {count: number; fresh: readonly string[]; failures: number};

export type Bounds = {maxPages: number | null; maxItems: number | null};

export const limitStep = 5;
export const maxLimit = contractDefaults.maximumLimit;

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
		walked: [],
		error: null,
		notice: null,
		filter: '',
		maxCachedPages: options.maxCachedPages ?? 20,
		follow: null,
		sort: null,
		bounds: options.bounds ?? {maxPages: null, maxItems: null},
	};
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
		const next = step({...current, queue: []}, action!);
		current = rest.length === 0 ? next : {...next, queue: [...next.queue, ...rest]};
	}

	return current;
}

function landed(state: PageStackState, pending: Pending, page: Page): PageStackState {
	// A jump to a cursor is a new walk once its page is here (a failed one leaves the old walk as it was).
	const base = pending.jump
		? {...state, pending: null, error: null, seen: addSeen(new Set(), page), walk: state.walk + 1}
		: {...state, pending: null, error: null, seen: addSeen(state.seen, page)};
	switch (pending.kind) {
		case 'push': {
			const loop = loopAhead(state, pending.url, page);
			if (loop) {
				// Not shown: kept as the next page, so → asks the rules again without a request.
				const prefetch = {requestId: state.nextRequestId, url: pending.url, page};
				return atLoop({...state, pending: null, error: null, prefetch, nextRequestId: state.nextRequestId + 1}, loop);
			}

			const follow = state.follow && arrived(state.follow, state.seen, page);
			// What ← took back is still said once the page it waited for is here.
			const notice = state.notice?.kind === 'took-back' ? state.notice : null;
			return {...base, entries: [...state.entries, checkedEntry(state.entries, pending.url, page, 0)], notice, follow};
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
			const prefetch = keptAsPrefetch(state, page, old);
			const focused = focusAfterFlip(shownPageRows(page.objects, state.filter, page.objectTexts, state.sort), pending, state);
			return {
				...base,
				entries: [checkedEntry([], pending.url, page, focused.selected)],
				prefetch,
				nextRequestId: prefetch ? state.nextRequestId + 1 : state.nextRequestId,
				notice: focused.notice,
			};
		}

		case 'probe': {
			// Not shown: what it found is seen when the page that shows it lands (arrived).
			return probed({...base, seen: state.seen}, page, moves);
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
			const follow = base.follow && arrived(base.follow, state.seen, page, state.prefetch?.page);
			if (follow && entry.page) {
				// Following: the selection stays on its object as new ones arrive above it.
				refreshed.selected = keptSelection(entry.page, state.filter, state.filter, entry.selected, page, state.sort);
			}

			return {...replaceTop(base, refreshed), notice: follow ? null : notice, prefetch: null, follow};
		}
	}
}

function onLoaded(state: PageStackState, action: Extract<StackAction, {type: 'loaded'}>): PageStackState {
	if (state.prefetch?.requestId === action.requestId && !state.prefetch.page) {
		return {...state, prefetch: {requestId: state.prefetch.requestId, url: state.prefetch.url, page: action.page}, answered: action.page};
	}

	if (state.pending?.requestId !== action.requestId) {
		return state; // Stale: superseded or aborted.
	}

	// `retrying` said r was taken; the page that came says the rest (a notice a new walk left stays).
	const settled = {...state, notice: state.notice?.kind === 'retrying' ? null : state.notice, answered: action.page};
	return drain(ensurePrefetch(evict(landed(settled, state.pending, action.page))));
}

function onFailed(state: PageStackState, action: Extract<StackAction, {type: 'failed'}>): PageStackState {
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

function onNext(state: PageStackState, action: Extract<StackAction, {type: 'next'}>): PageStackState {
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

	// The rules of every walk: a link back into the stack, or a page fetched
	// ahead that repeats one of it, goes no further (and stops following).
	const fetched = state.prefetch?.url === next ? state.prefetch.page ?? undefined : undefined;
	const loop = loopAhead(state, next, fetched);
	if (loop) {
		return atLoop(state, loop);
	}

	const bound = reachedBound(state);
	if (bound) {
		return {...state, notice: bound};
	}

	if (fetched) {
		return ensurePrefetch(
			evict({
				...state,
				entries: [...state.entries, checkedEntry(state.entries, next, fetched, 0)],
				prefetch: null,
				seen: addSeen(state.seen, fetched),
				notice: null,
				error: null,
				follow: state.follow && arrived(state.follow, state.seen, fetched),
			}),
		);
	}

	if (state.prefetch?.url === next) {
		// Already on its way: adopt the prefetch instead of asking twice.
		// A wait it is in (a spent budget, a 429) comes with it: said and counted down, not a bare spinner.
		return {...state, pending: {requestId: state.prefetch.requestId, url: next, kind: 'push', retrying: state.prefetch.retrying ?? null}, prefetch: null, error: null};
	}

	return request(state, next, 'push');
}

function onPrevious(state: PageStackState, action: Extract<StackAction, {type: 'previous'}>): PageStackState {
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
		const prefetch = keptAsPrefetch(current, target.page, popped);
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

function onFirst(state: PageStackState): PageStackState {
	let current = state.pending ? {...state, pending: null, queue: []} : state;
	const bottom = current.entries[0];
	if (bottom?.page && bottom.url === current.firstUrl) {
		if (current.entries.length === 1) {
			return {...current, notice: {kind: 'already-first'}};
		}

		const second = current.entries[1]!;
		const prefetch = keptAsPrefetch(current, bottom.page, second);
		current = {...current, entries: [bottom], prefetch, nextRequestId: current.nextRequestId + 1, notice: null, error: null};
		return ensurePrefetch(current);
	}

	return request(current, current.firstUrl, 'reset');
}

function onLimit(state: PageStackState, action: Extract<StackAction, {type: 'change-limit' | 'set-limit'}>): PageStackState {
	if (action.type === 'set-limit' && action.refused) {
		return {...state, notice: {kind: 'limit-stays', limit: state.settings.limit, maximum: maxLimit, refused: action.refused}};
	}

	const wanted = action.type === 'set-limit' ? action.limit : state.settings.limit + action.delta;
	const limit = clamp(Math.round(wanted), contractDefaults.minimumLimit, maxLimit);
	if (!Number.isFinite(limit) || limit === state.settings.limit) {
		return {...state, notice: {kind: 'limit-stays', limit: state.settings.limit, maximum: maxLimit}};
	}

	return newWalk(state, {...state.settings, limit}, {kind: 'new-walk', change: 'limit', limit, ...(limit === wanted ? {} : {clamped: true as const})});
}

function onRefresh(state: PageStackState, action: Extract<StackAction, {type: 'refresh'}>): PageStackState {
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

function onMove(state: PageStackState, action: Extract<StackAction, {type: 'move' | 'move-to'}>): PageStackState {
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

function onSetFilter(state: PageStackState, action: Extract<StackAction, {type: 'set-filter'}>): PageStackState {
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

function onSort(state: PageStackState, action: Extract<StackAction, {type: 'sort'}>): PageStackState {
	// The selected object stays selected in the new order.
	const selected = selectedRow(state);
	const sorted = {...state, sort: action.sort};
	if (!selected) {
		return sorted;
	}

	return replaceTop(sorted, {...top(state)!, selected: Math.max(0, shownRows(state, action.sort).indexOf(selected))});
}

export function pageStackReducer(state: PageStackState, action: StackAction): PageStackState {
	return recordWalked(state, step(state, action));
}

function step(state: PageStackState, action: StackAction): PageStackState {
	switch (action.type) {
		case 'loaded': {
			return onLoaded(state, action);
		}

		case 'failed': {
			return onFailed(state, action);
		}

		case 'retrying': {
			if (state.prefetch?.requestId === action.requestId && !state.prefetch.page) {
				return {...state, prefetch: {...state.prefetch, retrying: action.retry}};
			}

			if (state.pending?.requestId !== action.requestId) {
				return state;
			}

			return {...state, pending: {...state.pending, retrying: action.retry}};
		}

		case 'next': {
			return onNext(state, action);
		}

		case 'previous': {
			return onPrevious(state, action);
		}

		case 'first': {
			return onFirst(state);
		}

		case 'toggle-order': {
			const order = state.settings.order === 'desc' ? 'asc' : 'desc';
			return flipInPlace(state, order) ?? newWalk(state, {...state.settings, order}, {kind: 'new-walk', change: 'order', order, ...(top(state)?.page && !selectedRow(state) ? {noRow: true as const} : {})});
		}

		case 'change-limit':
		case 'set-limit': {
			return onLimit(state, action);
		}

		case 'refresh': {
			return onRefresh(state, action);
		}

		case 'move':
		case 'move-to': {
			return onMove(state, action);
		}

		case 'set-filter': {
			return onSetFilter(state, action);
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
			return startFollow(state, moves);
		}

		case 'unfollow': {
			return state.follow ? {...state, follow: null, notice: {kind: 'follow-stopped', count: state.follow.count}} : state;
		}

		case 'follow-poll': {
			return pollFollow(state);
		}

		case 'sort': {
			return onSort(state, action);
		}
	}
}

/** The moves a follow step takes, as the reducer makes them. */
const moves: Moves = {
	first: state => step(state, {type: 'first'}),
	next: state => step(state, {type: 'next'}),
};
