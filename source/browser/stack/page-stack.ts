import {contractDefaults} from '../../contract/contract.js';
import type {Page} from '../../contract/types.js';
import {shownPageRows, visibleRows} from './cells.js';
import {arrived, pollFollow, probed, startFollow, type Moves} from './follow-steps.js';
import {jumpUrl} from './jump.js';
import {searchLanded} from './search-landing.js';
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
import type {Bounds, PageStackState, Pending, Settings, StackAction} from './types.js';

/**
 * The page stack: every page the user walked to, as a pure reducer. Requests
 * are not made here; the state says which request it wants (`pending`, and
 * `prefetch` for the next page) with a request id. These are the one record
 * of each page request: the browser's tasks (state/tasks.ts) are made from
 * them, one runner (components/use-tasks.ts) runs them, and the
 * answer comes back as an action carrying that id. An answer whose id is no
 * longer wanted is stale and changes nothing, which is how an aborted or
 * superseded request can never land.
 */

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
