/**
 * What one walk saw that another did not: two credentials over the same list
 * (what a credential may not see makes their pages differ), or the same list in both orders. Pure:
 * it takes the ids each walk showed, page by page.
 */

/** The ids one walk showed, page by page, with the cursor each page was asked for. */
export type WalkIds = Array<{cursor: string | null; ids: string[]}>;

export type PageDifference = {
	/** 1-based page of walk A (null when only B has a page here). */
	pageA: number | null;
	pageB: number | null;
	/** The cursor both pages were asked for, when aligned by cursor. */
	cursor: string | null;
	/** Ids on this page of A that B never showed, anywhere in its walk. */
	onlyA: string[];
	onlyB: string[];
	/** Ids on A's page that B also showed. */
	both: number;
};

export type Comparison = {
	a: string;
	b: string;
	/** `cursor`: page n of both walks was asked with the same cursor; `position`: pages paired by number only. */
	alignedBy: 'cursor' | 'position';
	objectsA: number;
	objectsB: number;
	/** In the order A showed them. */
	onlyA: string[];
	/** In the order B showed them. */
	onlyB: string[];
	/** Only pages with a difference. */
	pages: PageDifference[];
};

function idSet(walk: WalkIds): Set<string> {
	const ids = new Set<string>();
	for (const page of walk) {
		for (const id of page.ids) {
			ids.add(id);
		}
	}

	return ids;
}

export function compareWalks(a: WalkIds, b: WalkIds, labels: {a: string; b: string}): Comparison {
	const inA = idSet(a);
	const inB = idSet(b);
	const sameCursors = a.length === b.length && a.every((page, index) => page.cursor === b[index]!.cursor);
	const pages: PageDifference[] = [];
	const onlyA: string[] = [];
	const onlyB: string[] = [];
	const count = Math.max(a.length, b.length);
	for (let index = 0; index < count; index += 1) {
		const pageA = a[index];
		const pageB = b[index];
		const missingFromB = pageA ? pageA.ids.filter((id) => !inB.has(id)) : [];
		const missingFromA = pageB ? pageB.ids.filter((id) => !inA.has(id)) : [];
		onlyA.push(...missingFromB);
		onlyB.push(...missingFromA);
		if (missingFromB.length > 0 || missingFromA.length > 0) {
			pages.push({
				pageA: pageA ? index + 1 : null,
				pageB: pageB ? index + 1 : null,
				cursor: sameCursors ? pageA!.cursor : null,
				onlyA: missingFromB,
				onlyB: missingFromA,
				both: pageA ? pageA.ids.length - missingFromB.length : 0,
			});
		}
	}

	return {
		a: labels.a,
		b: labels.b,
		alignedBy: sameCursors ? 'cursor' : 'position',
		objectsA: inA.size,
		objectsB: inB.size,
		onlyA: dedupe(onlyA),
		onlyB: dedupe(onlyB),
		pages,
	};
}

function dedupe(ids: string[]): string[] {
	return [...new Set(ids)];
}

// The compare view of one page is shared with the browser, so it lives in contract/.
export {comparePageRows, compareSummary, type CompareRow} from '../contract/page-compare.js';
