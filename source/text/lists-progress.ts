import {formatCount} from './format-count.js';

/**
 * Where a walk of every account's lists is, in words: the figures of dump's
 * progress line on stderr (output/progress.ts) and of the browser's status
 * line while it exports (browser/view/status-model.ts), made once so the two
 * say the same. Each figure is its own part, so a narrow status line can
 * give up the least needed ones.
 */

/** Where a walk of every account's lists is (dump transactions, addresses, the browser's export). */
export type ListsState = {
	/** Lists written whole, and all there are (undefined while the accounts list is still read: `known` so far). */
	done: number;
	total: number | undefined;
	known: number;
	/** Objects written, requests sent. */
	objects: number;
	requests: number;
	/** The request budget the server stated last, when it states one. */
	budget: {remaining: number; limit: number | undefined} | undefined;
};

export type ListsFigure = {id: 'lists' | 'objects' | 'requests' | 'budget' | 'left'; text: string};

/**
 * `lists 12/300`, `3,456 objects`, `812 requests`, `budget 80/100`, `40 s
 * left`: the time left at this walk's pace of lists so far, `elapsedMs`
 * since it started with `doneBefore` lists done already (a resumed walk's).
 */
export function listsFigures({done, total, known, objects, requests, budget}: ListsState, elapsedMs: number, doneBefore = 0): ListsFigure[] {
	const figures: ListsFigure[] = [
		{id: 'lists', text: `lists ${formatCount(done)}/${total === undefined ? `${formatCount(known)}+` : formatCount(total)}`},
		{id: 'objects', text: `${formatCount(objects)} objects`},
		{id: 'requests', text: `${formatCount(requests)} requests`},
	];
	if (budget !== undefined) {
		figures.push({id: 'budget', text: `budget ${formatCount(budget.remaining)}${budget.limit === undefined ? '' : `/${formatCount(budget.limit)}`}`});
	}

	const paced = done - doneBefore;
	if (total !== undefined && paced > 0) {
		const remaining = (elapsedMs / paced) * (total - done) / 1000;
		figures.push({id: 'left', text: `${remaining < 120 ? `${Math.ceil(remaining)} s` : `${Math.ceil(remaining / 60)} min`} left`});
	}

	return figures;
}
