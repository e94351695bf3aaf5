import type {Page} from '../../contract/types.js';
import {jumpUrl} from './jump.js';
import type {Follow, PageStackState} from './types.js';
import {request, top} from './stack-steps.js';

/**
 * `F`: following the end of the list. The stack polls past the followed end
 * (a probe), and a poll that finds objects loads the page again (or, in asc,
 * the next one); the objects a reload brings are counted and marked fresh.
 * `first` and `next` are the stack's own moves, given so this module does
 * not import the reducer.
 */

/** The stack's moves a follow step takes. */
export type Moves = {first(state: PageStackState): PageStackState; next(state: PageStackState): PageStackState};

/** F: follow from the first page in desc (going there first), from the page on screen in asc. */
export function startFollow(state: PageStackState, moves: Moves): PageStackState {
	const follow: Follow = {count: 0, fresh: [], failures: 0};
	if (state.settings.order === 'desc' && (state.entries.length > 1 || top(state)?.url !== state.firstUrl)) {
		return {...moves.first({...state, queue: []}), follow, notice: null};
	}

	return {...state, follow, notice: null};
}

/**
 * A poll: is anything past the followed end? In desc, the objects before the
 * first one (`ending_before` it); in asc, those after the last one
 * (`starting_after` it) of the page on screen. An empty answer costs an empty
 * page; only an arrival loads the page again.
 */
export function pollFollow(state: PageStackState): PageStackState {
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
export function probed(state: PageStackState, page: Page, moves: Moves): PageStackState {
	const follow = state.follow ? {...state.follow, failures: 0} : null;
	if (page.objects.length === 0 || !follow) {
		return {...state, follow: follow && {...follow, fresh: []}};
	}

	const entry = top(state)!;
	if (state.settings.order === 'asc' && entry.page?.nextUrl) {
		// The next page fetched ahead was fetched before what the poll found: asked for again.
		return moves.next({...state, follow, prefetch: null});
	}

	return request({...state, follow}, entry.url, 'refresh');
}

/**
 * The objects a page of the followed end brought (the page loaded again, or
 * in asc the next one): those never seen in this walk, each counted once and
 * marked new. Seen means on a page the walk showed (`seen`), or on the page
 * it fetched ahead (`ahead`): when objects on the page are removed, that
 * next page's first objects move up onto it, and they are not new.
 */
export function arrived(follow: Follow, seen: ReadonlySet<string>, after: Page, ahead?: Page | null): Follow {
	const aheadIds = new Set(ahead?.objects.map(object => String(object.id)));
	const fresh = new Set<string>();
	for (const object of after.objects) {
		const id = String(object.id);
		if (!seen.has(id) && !aheadIds.has(id)) {
			fresh.add(id);
		}
	}

	return {...follow, count: follow.count + fresh.size, fresh: [...fresh], failures: 0};
}
