/**
 * Page construction, pure: which objects a request's page holds and where its
 * links lead, before any envelope is rendered. Scenario presets can transform
 * a {@link Window} without touching the index or the HTTP layer.
 */
import type {ListObject, Order} from '../../contract/types.js';
import type {OrderedIndex, Viewer} from './ordered-index.js';
import type {Collection} from './store.js';

/** The pagination parameters in effect (see docs/contract.md#pagination-echo). Cursors are lowercase ids. */
export type PageQuery = {
	limit: number;
	order: Order;
	startingAfter: string | null;
	endingBefore: string | null;
};

/** Where a link leads: after a cursor, before a cursor, or to the first page (no cursor). */
export type Link = {startingAfter: string} | {endingBefore: string} | {first: true};

export type Window = {
	query: PageQuery;
	/** Ids of the window: the `limit` live objects the request selects, in order, hidden ones included. */
	windowIds: string[];
	/** The objects the viewer sees: the window without the ones hidden from it. */
	objects: ListObject[];
	next: Link | null;
	previous: Link | null;
	/** Live objects of the whole list the viewer sees. */
	total: number;
};

export type WindowResult = {ok: true; window: Window} | {ok: false; parameter: 'starting_after' | 'ending_before'; cursor: string; message: string};

function unknownCursor(index: OrderedIndex, parameter: 'starting_after' | 'ending_before', cursor: string): WindowResult {
	const message = index.isForgotten(cursor)
		? `${parameter} ${cursor} names an object removed so long ago that the sandbox no longer keeps its place (it keeps the last ${index.keepRemoved} removed); start the walk again from the first page.`
		: `${parameter} ${cursor} is not the id of an object in this list.`;
	return {ok: false, parameter, cursor, message};
}

/**
 * Selects the page for `query`. `starting_after=X` takes the next `limit` live
 * objects after X in the requested order; `ending_before=X` the `limit` live
 * objects just before X, returned in the requested order. X may be removed: it
 * keeps its place (docs/contract.md#consistent-under-change). A restricted viewer gets the
 * same window with its hidden objects dropped, so its pages can be short or
 * empty (docs/contract.md#short-pages).
 */
export function selectWindow(collection: Collection, query: PageQuery, viewer: Viewer): WindowResult {
	const {index} = collection;
	// Walk physical positions (ascending by created_at, id) in the requested direction.
	const step = query.order === 'asc' ? 1 : -1;
	const positions: number[] = [];
	let next: Link | null = null;
	let previous: Link | null = null;

	if (query.endingBefore === null) {
		let from: number;
		if (query.startingAfter === null) {
			from = step === 1 ? -1 : index.length;
		} else {
			const serial = index.serialOf(query.startingAfter);
			if (serial === undefined) {
				return unknownCursor(index, 'starting_after', query.startingAfter);
			}

			from = index.positionOf(serial);
		}

		collect(index, from, step, query.limit, positions);
		if (positions.length > 0) {
			({next, previous} = links(index, positions, step));
		} else {
			// Nothing live after the cursor, so `next` is null and a forward walk
			// ends here. The page before is the `limit` live objects up to the
			// cursor: `ending_before` the farthest entry beyond it, which can only
			// be a removed object. When the cursor is the list's last entry no
			// such cursor exists and `previous` stays null.
			const end = step === 1 ? index.length - 1 : 0;
			if ((end - from) * step > 0 && liveBeyond(index, end, -step)) {
				previous = {endingBefore: index.idOf(index.serialAt(end))};
			}
		}
	} else {
		const serial = index.serialOf(query.endingBefore);
		if (serial === undefined) {
			return unknownCursor(index, 'ending_before', query.endingBefore);
		}

		const at = index.positionOf(serial);
		collect(index, at, -step, query.limit, positions);
		positions.reverse();
		if (positions.length > 0) {
			({next, previous} = links(index, positions, step));
		} else if (index.isLiveAt(at) || liveBeyond(index, at, step)) {
			// Nothing live before the cursor: the objects from the cursor on are
			// exactly the first page, so `next` leads there (no cursor).
			next = {first: true};
		}
	}

	const windowIds: string[] = [];
	const objects: ListObject[] = [];
	for (const position of positions) {
		const serial = index.serialAt(position);
		windowIds.push(index.idOf(serial));
		if (viewer === 'full' || !index.isHiddenSerial(serial)) {
			objects.push(collection.render(serial));
		}
	}

	return {
		ok: true,
		window: {query, windowIds, objects, next, previous, total: viewer === 'full' ? index.live : index.liveVisible},
	};
}

/**
 * Links of a non-empty window: `next` after its last object, `previous` before
 * its first, each only when a live object lies that way. The cursors are window
 * objects, hidden ones included, so a restricted walk never rescans.
 */
function links(index: OrderedIndex, positions: number[], step: number): {next: Link | null; previous: Link | null} {
	const first = positions[0]!;
	const last = positions.at(-1)!;
	return {
		next: liveBeyond(index, last, step) ? {startingAfter: index.idOf(index.serialAt(last))} : null,
		previous: liveBeyond(index, first, -step) ? {endingBefore: index.idOf(index.serialAt(first))} : null,
	};
}

/** Pushes up to `limit` live positions strictly beyond `from` in direction `step`. */
function collect(index: OrderedIndex, from: number, step: number, limit: number, into: number[]): void {
	for (let position = from + step; position >= 0 && position < index.length && into.length < limit; position += step) {
		if (index.isLiveAt(position)) {
			into.push(position);
		}
	}
}

/** Whether a live object lies strictly beyond `from` in direction `step` (tombstones skipped). */
function liveBeyond(index: OrderedIndex, from: number, step: number): boolean {
	for (let position = from + step; position >= 0 && position < index.length; position += step) {
		if (index.isLiveAt(position)) {
			return true;
		}
	}

	return false;
}
