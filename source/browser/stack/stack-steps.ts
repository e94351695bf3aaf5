import {cursorParameters, pageFill} from '../../contract/contract.js';
import {PagewalkError} from '../../text/errors.js';
import type {FillMark} from '../../contract/fill-strip.js';
import {stringifyOrNote, tooDeepNote} from '../../cells/flatten.js';
import type {FailedExchange, Order, Page} from '../../contract/types.js';
import {loopAt, type LoopEnd} from '../../http/walk-rules.js';
import {shownPageRows, visibleRows, type Row, type RowSort} from './cells.js';
import {jumpUrl} from './jump.js';
import {pageFindings} from './page-findings.js';
import {withIds} from './seen-ids.js';
import type {Entry, Notice, Pending, PageStackState, Prefetch, RequestKind, Settings, StackAction, WalkBound} from './types.js';

/**
 * The steps the page stack's actions are made of (page-stack.ts): asking
 * for a page, keeping the next one as the prefetch, forgetting deep pages,
 * where the selection goes. Pure, each a function of the state.
 */

/** Keys held while loading: far more than anyone presses ahead, few enough to replay in one go. */
export const maxQueuedKeys = 1000;

/** `url` with the given order and limit and no cursor: the first page in those settings. */
export function firstPageUrl(url: string, settings: Settings): string {
	const parsed = new URL(withoutCursor(url));
	parsed.searchParams.set('limit', String(settings.limit));
	parsed.searchParams.set('order', settings.order);
	return parsed.href;
}

/** `url` with no cursor: where its walk starts. */
export function withoutCursor(url: string): string {
	const parsed = new URL(url);
	for (const name of cursorParameters) {
		parsed.searchParams.delete(name);
	}

	return parsed.href;
}

/** The bound reached after `pages` pages holding `objects` distinct objects, if any: the stack's and the search's. */
export function boundReached({maxPages, maxItems}: PageStackState['bounds'], pages: number, objects: number): WalkBound | undefined {
	if (maxPages !== null && pages >= maxPages) {
		return {flag: 'max-pages', limit: maxPages};
	}

	if (maxItems !== null && objects >= maxItems) {
		return {flag: 'max-items', limit: maxItems};
	}

	return undefined;
}

/** The bound the walk has reached (pages walked, or distinct objects seen), if any. */
export function reachedBound(state: PageStackState): Notice | null {
	const bound = boundReached(state.bounds, state.entries.length, state.seen.size);
	return bound ? {kind: 'bound', ...bound} : null;
}

/** How full a page was, kept for the fill strip when the page itself is forgotten. */
export function fillMark(page: Page, index: number): FillMark {
	const {kind, ratio} = pageFill(page, index);
	return {kind, ratio};
}

/** How full an entry's page was: from the page, or the mark it left when evicted. */
function entryMark(entry: Entry, index: number): FillMark | undefined {
	return entry.page ? fillMark(entry.page, index) : entry.fill;
}

/**
 * The walk's fill marks after an action (`walked`): the stack's own pages,
 * then the pages beyond the top that ← left, kept. A new walk, or a new
 * first page, starts them over, except the page previous_uri led to from
 * the first page, which goes in front of them (it is the new page 1).
 */
export function recordWalked(before: PageStackState, after: PageStackState): PageStackState {
	if (after.entries === before.entries && after.walk === before.walk) {
		return after;
	}

	const marks = after.entries.flatMap((entry, index) => entryMark(entry, index) ?? []);
	const [bottom] = after.entries;
	const oldBottom = before.entries[0];
	if (after.walk !== before.walk || (bottom !== undefined && oldBottom !== undefined && bottom.url !== oldBottom.url)) {
		const below = after.walk === before.walk && after.entries.length === 1 && bottom?.page?.nextUrl === oldBottom?.url;
		return {...after, walked: below ? [...marks, ...before.walked] : marks};
	}

	return {...after, walked: [...marks, ...before.walked.slice(marks.length)]};
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
export function indexOfId(rows: readonly Row[], id: string): number {
	return rows.findIndex(row => String(row.object.id) === id);
}

/** Whether a navigation (not a refresh) is on its way: row keys then wait for it. */
export function navigating(state: PageStackState): boolean {
	return state.pending !== null && state.pending.kind !== 'refresh';
}

export function request(state: PageStackState, url: string, kind: RequestKind): PageStackState {
	return {
		...state,
		pending: {requestId: state.nextRequestId, url, kind, retrying: null},
		nextRequestId: state.nextRequestId + 1,
		// A new navigation drops whatever the old one had queued, and the
		// prefetch of a page that is no longer next (a refresh, or a follow's
		// probe, leaves the page on top where it is).
		queue: [],
		prefetch: kind === 'refresh' || kind === 'probe' ? state.prefetch : null,
		error: null,
	};
}

export function clamp(value: number, low: number, high: number): number {
	return Math.min(Math.max(value, low), high);
}

export function visibleCount(state: PageStackState, entry: Entry): number {
	return entry.page ? visibleRows(entry.page.objects, state.filter, entry.page.objectTexts).length : 0;
}

/** The entry of a page landing on top of `below`, checked against the contract as it arrives. */
export function checkedEntry(below: readonly Entry[], url: string, page: Page, selected: number): Entry {
	const earlier = below.flatMap((entry, index) => (entry.page ? [{number: index + 1, page: entry.page}] : []));
	return {url, page, selected, findings: pageFindings(page, earlier, below.length > 0)};
}

export function replaceTop(state: PageStackState, entry: Entry): PageStackState {
	return {...state, entries: [...state.entries.slice(0, -1), entry]};
}

/**
 * Whether following `link` from the page on top would loop, by the rules
 * every walk goes by (http/walk-rules.ts, as dump stops): the link leads back
 * into the stack, or `page`, the page it brought, repeats one of it.
 */
export function loopAhead(state: PageStackState, link: string, page?: Page): LoopEnd | undefined {
	return loopAt(state.entries, link, 'next_uri', page);
}

/** → at a loop goes no further, and following stops there: the notice says where it would loop. */
export function atLoop(state: PageStackState, end: LoopEnd): PageStackState {
	return state.follow
		? {...state, follow: null, notice: {kind: 'follow-stopped', count: state.follow.count, loop: end}}
		: {...state, notice: {kind: 'end-of-list', reason: 'loops-back', end}};
}

/** Starts the next prefetch when the page on top has a next page not yet fetched (and not one that loops back). */
export function ensurePrefetch(state: PageStackState): PageStackState {
	if (state.pending) {
		return state;
	}

	const next = top(state)?.page?.nextUrl ?? null;
	if (next === null || reachedBound(state)) {
		return state.prefetch ? {...state, prefetch: null} : state;
	}

	if (state.prefetch?.url === next) {
		return state;
	}

	if (loopAhead(state, next)) {
		return state.prefetch ? {...state, prefetch: null} : state;
	}

	return {...state, prefetch: {requestId: state.nextRequestId, url: next, page: null}, nextRequestId: state.nextRequestId + 1};
}

/** Forgets the pages of the entries below `keepFrom`, keeping how full each was (the fill strip). */
export function forgetBelow(state: PageStackState, keepFrom: number): PageStackState {
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

/**
 * Forgets the pages of every entry below the cached window: memory stays
 * bounded on long walks. Every entry below is looked at, not only the one
 * just past the window: a search lands with evicted entries between cached ones.
 */
export function evict(state: PageStackState): PageStackState {
	const keepFrom = state.entries.length - state.maxCachedPages;
	// From the window down: on a walk by hand the page just past it is the one to forget.
	for (let index = keepFrom - 1; index >= 0; index--) {
		if (state.entries[index]!.page) {
			return forgetBelow(state, keepFrom);
		}
	}

	return state;
}

export function addSeen(seen: ReadonlySet<string>, page: Page): ReadonlySet<string> {
	return withIds(seen, page.objects);
}

export function enqueue(state: PageStackState, action: StackAction): PageStackState {
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
export function keptSelection(page: Page, before: string, after: string, selected: number, next: Page = page, sort: RowSort | null = null): number {
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
export function takeBackForward(state: PageStackState): PageStackState | undefined {
	let index = state.queue.length - 1;
	while (index >= 0 && (state.queue[index]!.type === 'move' || state.queue[index]!.type === 'move-to')) {
		index--;
	}

	if (index >= 0) {
		if (state.queue[index]!.type !== 'next') {
			return undefined;
		}

		// Said, with the page the walk now stops at: the → taken back would have loaded the one after it.
		const queue = state.queue.slice(0, index);
		const stopsAt = state.entries.length + 1 + queue.filter(action => action.type === 'next').length;
		return {...state, queue, notice: {kind: 'took-back', stopsAt}};
	}

	return state.pending?.kind === 'push' ? {...state, pending: null, queue: [], notice: {kind: 'stopped-loading'}} : undefined;
}

/**
 * Whether two loads of a page hold the same objects: by their exact texts
 * when both have them (cheaper, and safe for objects nested too deep for
 * JSON.stringify), else by serializing; a page too deep to serialize counts
 * as changed.
 */
export function sameObjects(before: Page, after: Page): boolean {
	if (before.objectTexts !== undefined && after.objectTexts !== undefined) {
		return before.objectTexts.length === after.objectTexts.length && before.objectTexts.every((text, index) => text === after.objectTexts![index]);
	}

	const text = stringifyOrNote(before.objects);
	return text !== tooDeepNote && text === stringifyOrNote(after.objects);
}

export function describeChange(before: Page, after: Page): Notice {
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
 * The page a move leaves, kept as the prefetch of the page it moves to when
 * it is that page's next page (→ is then instant); null otherwise.
 */
export function keptAsPrefetch(state: PageStackState, to: Page | null | undefined, left: Entry | undefined): Prefetch | null {
	return left?.page && to?.nextUrl === left.url ? {requestId: state.nextRequestId, url: left.url, page: left.page} : null;
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
export function flipInPlace(state: PageStackState, order: Order): PageStackState | undefined {
	const page = top(state)?.page;
	const row = selectedRow(state);
	if (!page) {
		return undefined;
	}

	// At an end of the page, the page's own cursor names the neighbour beyond it.
	const cursors = new URL(page.requestUrl).searchParams;
	if (!row) {
		return flipAtCursor(state, order, cursors);
	}

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
	return {...flipped, pending: {...flipped.pending!, focus: id, near: nearestFirst(page, row.index)}, notice: {kind: 'new-walk', change: 'order', order, at: id}};
}

/**
 * `o` on a page that shows no row (an empty page, or one the filter hides
 * whole): no object to keep, so the place in the list is kept instead, the
 * cursor the page was asked with turned round (`starting_after=x` in desc is
 * `ending_before=x` in asc). A first page has none: undefined, from the first page.
 */
function flipAtCursor(state: PageStackState, order: Order, cursors: URLSearchParams): PageStackState | undefined {
	const after = cursors.get('starting_after');
	const before = cursors.get('ending_before');
	const place = after ? {cursor: 'ending_before' as const, id: after} : before ? {cursor: 'starting_after' as const, id: before} : undefined;
	if (!place) {
		return undefined;
	}

	const settings = {...state.settings, order};
	const firstUrl = firstPageUrl(state.firstUrl, settings);
	const flipped = request({...state, settings, firstUrl, walk: state.walk + 1, seen: new Set()}, jumpUrl(firstUrl, place), 'reset');
	return {...flipped, notice: {kind: 'new-walk', change: 'order', order, place}};
}

/** The ids of `page` but the one at `index`, nearest to it first (the one above before the one below). */
function nearestFirst(page: Page, index: number): string[] {
	const ids: string[] = [];
	for (let distance = 1; distance < page.objects.length; distance++) {
		for (const at of [index - distance, index + distance]) {
			const object = page.objects[at];
			if (object) {
				ids.push(String(object.id));
			}
		}
	}

	return ids;
}

/**
 * The row to select when the page of a flipped walk (`o`) lands: the object
 * the order was flipped around; gone by then (removed meanwhile), its nearest
 * neighbour of the old page that the new page still holds, and the notice
 * says so. The first row when neither is shown.
 */
export function focusAfterFlip(rows: readonly Row[], pending: Pending, state: PageStackState): {selected: number; notice: Notice | null} {
	if (pending.focus === undefined) {
		return {selected: 0, notice: state.notice};
	}

	const at = indexOfId(rows, pending.focus);
	if (at !== -1) {
		return {selected: at, notice: state.notice};
	}

	const neighbour = pending.near?.find(id => indexOfId(rows, id) !== -1);
	const gone = {kind: 'new-walk', change: 'order', order: state.settings.order, at: pending.focus, gone: {neighbour}} as const;
	return {selected: neighbour === undefined ? 0 : indexOfId(rows, neighbour), notice: gone};
}

export function newWalk(state: PageStackState, settings: Settings, notice: Notice): PageStackState {
	const firstUrl = firstPageUrl(state.firstUrl, settings);
	return {
		...request({...state, settings, firstUrl, walk: state.walk + 1, seen: new Set(), entries: state.entries}, firstUrl, 'reset'),
		notice,
	};
}
