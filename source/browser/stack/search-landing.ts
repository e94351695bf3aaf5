import type {Entry, Notice, PageStackState, SearchStart, SearchOutcome} from './types.js';
import {addSeen, checkedEntry, ensurePrefetch, evict, keptAsPrefetch, top} from './stack-steps.js';

/**
 * How a search across pages (search-pages.ts) lands on the page stack: in
 * one action, checked against where the stack was when the search started.
 */

/** Where a search starts from: checked again when it lands. */
export function searchStart(state: PageStackState): SearchStart {
	return {walk: state.walk, depth: state.entries.length, url: top(state)?.url ?? ''};
}

export function searchNotice(outcome: SearchOutcome, page: number): Notice {
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
export function searchLanded(state: PageStackState, outcome: SearchOutcome, from: SearchStart): PageStackState {
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
	const prefetch = keptAsPrefetch(state, landing.page, above);
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
	return error ? evict(moved) : ensurePrefetch(evict(moved));
}
