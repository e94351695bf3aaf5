import type {ColumnChoice} from '../../cells/column-order.js';
import type {LinkBase} from '../../contract/links.js';
import {listName, objectLabel, relatedLists, walkBase, type RelatedList} from './related-lists.js';
import type {Api} from '../../contract/types.js';
import type {BrowserState, ParentWalk, View, WalkPlace, Walks} from '../state/types.js';
import {initialState} from '../stack/page-stack.js';
import {firstPageUrl} from '../stack/stack-steps.js';
import type {PageStackState, Settings} from '../stack/types.js';

/**
 * Walks inside walks: Enter on a related list in the detail view opens it as
 * a new walk (its own page stack, order and limit), and Backspace returns to
 * the walk it was opened from exactly as it was left: the same pages, row,
 * filter, columns. The walks left behind wait on a stack of parents. Pure, so
 * every move is tested without React.
 *
 * Tasks (tasks.ts): the runner runs what the current walk wants and aborts
 * the rest, so opening a related list aborts whatever its parent had in
 * flight. The page stack's counter numbers every task, so a new walk goes on
 * from its parent's counter, and a parent taken up again gets fresh ids for
 * the requests it still wants: an answer to a request of another walk can
 * never land on it.
 */

/**
 * Related lists open at most this deep. The table of known lists goes one
 * deep today (an account's lists hold no lists of their own); the bound keeps
 * memory bounded whatever a server's objects claim: each parent keeps at most
 * its page stack's maxCachedPages pages, so all walks together keep at most
 * (maxParents + 1) × maxCachedPages pages.
 */
export const maxParents = 8;

export function initialWalks(options: {startUrl: string; endpoint?: string; api?: Api; settings: Settings; remembered?: Readonly<Record<string, ColumnChoice>>}): Walks {
	const endpoint = options.endpoint ?? new URL(options.startUrl).pathname;
	return {
		parents: [],
		place: {name: listName(endpoint), endpoint, columnsKey: endpoint},
		api: options.api ?? 'account',
		base: walkBase(options.startUrl, endpoint),
		settings: options.settings,
		remembered: options.remembered ?? {},
	};
}

// Asked on every key and frame of the detail view: derived once per loaded
// object (objects never change once loaded), per base (one per browser).
const derived = new WeakMap<LinkBase, WeakMap<object, RelatedList[]>>();

/** The related lists of `object` in the current walks (none on the commerce API). */
export function relatedOf(walks: Walks, object: Readonly<Record<string, unknown>> | undefined): RelatedList[] {
	if (!object) {
		return [];
	}

	let byObject = derived.get(walks.base);
	if (!byObject) {
		byObject = new WeakMap();
		derived.set(walks.base, byObject);
	}

	let lists = byObject.get(object);
	if (!lists) {
		lists = relatedLists(object, walks.base, walks.api);
		byObject.set(object, lists);
	}

	return lists;
}

/** `accounts › BTC Wallet › transactions`: every parent's list and the object opened there, then this list. */
export function breadcrumb(walks: Walks): string {
	return [...walks.parents.flatMap(parent => [parent.place.name, parent.via]), walks.place.name].join(' › ');
}

/** `stack` with its requests numbered from `first` on: a new walk's ids follow its parent's. */
function numberedFrom(stack: PageStackState, first: number): PageStackState {
	let next = Math.max(first, stack.nextRequestId);
	const pending = stack.pending ? {...stack.pending, requestId: next++} : null;
	// A prefetch already answered is no request any more; one still wanted is asked again.
	const prefetch = stack.prefetch && !stack.prefetch.page ? {...stack.prefetch, requestId: next++} : stack.prefetch;
	return {...stack, pending, prefetch, nextRequestId: next};
}

/**
 * Opens related list `index` of `object` (the selected row) as a new walk
 * from its first page, in the browser's own order and limit. Unchanged when
 * there is no such list or the parents are {@link maxParents} deep.
 */
export function openRelated(state: BrowserState, object: Readonly<Record<string, unknown>> | undefined, index: number): BrowserState {
	const {walks} = state;
	const list = relatedOf(walks, object)[index];
	if (!list || !object || walks.parents.length >= maxParents) {
		return state;
	}

	const parent: ParentWalk = {stack: state.stack, view: state.view, place: walks.place, via: objectLabel(object)};
	const {settings} = walks;
	const fresh = initialState({startUrl: firstPageUrl(list.url, settings), settings, maxCachedPages: state.stack.maxCachedPages, bounds: state.stack.bounds});
	const stack = numberedFrom(fresh, state.stack.nextRequestId);
	const view: View = {choice: walks.remembered[list.pattern], offset: 0, wrap: state.view.wrap, paneColumn: 0, chosen: 0};
	const place: WalkPlace = {name: list.name, endpoint: list.path, columnsKey: list.pattern};
	return {...state, stack, view, screen: {kind: 'table'}, walks: {...walks, parents: [...walks.parents, parent], place}};
}

/**
 * Back to the walk the current one was opened from, as it was left. The
 * columns chosen here are remembered for the next list of the same kind.
 * Unchanged at the first walk.
 */
export function returnToParent(state: BrowserState): BrowserState {
	const {walks} = state;
	const parent = walks.parents.at(-1);
	if (!parent) {
		return state;
	}

	const remembered = state.view.chosen > 0 && state.view.choice ? {...walks.remembered, [walks.place.columnsKey]: state.view.choice} : walks.remembered;
	return {
		...state,
		stack: numberedFrom(parent.stack, state.stack.nextRequestId),
		view: parent.view,
		screen: {kind: 'table'},
		walks: {...walks, parents: walks.parents.slice(0, -1), place: parent.place, remembered},
	};
}

