/**
 * How full each page is, and why a page may be short. Pure functions of the
 * pages the walker read: the audit report and the browser's status area both
 * draw from here, so a short page is explained the same way everywhere.
 */
import {defaults} from '../core/options.js';
import type {Page} from '../core/types.js';
import {cutToWidth, displayWidth} from '../core/text-width.js';

/** Rule 1: the page size when none (or 0, which the sandbox serves as the default) is in effect. */
export const defaultLimit = defaults.limit;

export type FillKind = 'full' | 'short' | 'empty';

/**
 * Where the next page starts against what this page showed. A cursor that is
 * not the last object shown means the server scanned past objects this
 * credential cannot see (rule 7).
 */
export type CursorEvidence = {
	/** `starting_after` carried by `next_uri`, or null when there is no next page or no such parameter. */
	nextCursor: string | null;
	/** Id of the last object on the page, or null for an empty page. */
	lastShownId: string | null;
	/** True when the list continues from an id that this page did not show. */
	scannedPast: boolean;
};

export type PageFill = {
	/** 1-based position in the walk. */
	page: number;
	/** Objects in `data`. */
	shown: number;
	/** Page size in effect (as reported, 0 read as the default). */
	limit: number;
	/** Commerce `yielded` as reported; null for the account API. */
	yielded: number | null;
	kind: FillKind;
	/** `shown / limit`, clamped to 0..1. */
	ratio: number;
	/** True when the page has a `next_uri`: a short page then is not the end (rule 7). */
	continues: boolean;
	evidence: CursorEvidence;
};

/** The `limit` a page was served with: the reported one, else the one asked for, else the default. */
export function effectiveLimit(page: Page): number {
	const reported = page.pagination.limit;
	if (Number.isInteger(reported) && reported > 0) {
		return reported;
	}

	const sent = queryParameter(page.requestUrl, 'limit');
	const asked = sent === null ? Number.NaN : Number(sent);
	return Number.isInteger(asked) && asked > 0 ? asked : defaultLimit;
}

/** Reads one query parameter of an absolute URL; null when absent or when the URL does not parse. */
export function queryParameter(url: string | null, name: string): string | null {
	if (!url) {
		return null;
	}

	try {
		return new URL(url).searchParams.get(name);
	} catch {
		return null;
	}
}

export function cursorEvidence(page: Page): CursorEvidence {
	const lastShownId = page.objects.at(-1)?.id ?? null;
	const nextCursor = page.nextUrl === null ? null : queryParameter(page.nextUrl, 'starting_after');
	return {
		nextCursor,
		lastShownId,
		scannedPast: nextCursor !== null && nextCursor !== lastShownId,
	};
}

/** The fill of one page; `index` is its 0-based position in the walk. */
export function pageFill(page: Page, index: number): PageFill {
	const limit = effectiveLimit(page);
	const shown = page.objects.length;
	const pagination = page.pagination;
	return {
		page: index + 1,
		shown,
		limit,
		yielded: 'yielded' in pagination ? pagination.yielded : null,
		kind: shown === 0 ? 'empty' : shown < limit ? 'short' : 'full',
		ratio: Math.min(1, shown / limit),
		continues: page.nextUrl !== null,
		evidence: cursorEvidence(page),
	};
}

const levels = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
/** An empty page: visibly different from the lowest bar, so a run of them stands out. */
export const emptyCell = '·';
/** Leads a strip that had to drop its oldest pages to fit. */
export const elidedCell = '…';

/** One character for one page: height by fill; only a full page reaches the top block. */
export function fillCell(fill: Pick<PageFill, 'kind' | 'ratio'>): string {
	if (fill.kind === 'empty') {
		return emptyCell;
	}

	if (fill.kind === 'full') {
		return levels[7];
	}

	// A short page never draws as full, however close it comes.
	const level = Math.min(7, Math.max(1, Math.ceil(fill.ratio * 8)));
	return levels[level - 1]!;
}

/**
 * One cell per page, oldest first. When there are more pages than `width`
 * cells, the newest pages are kept (that is where the reader is) behind `…`.
 */
export function fillStrip(fills: ReadonlyArray<Pick<PageFill, 'kind' | 'ratio'>>, width = Number.POSITIVE_INFINITY): string {
	if (width <= 0) {
		return '';
	}

	if (fills.length <= width) {
		return fills.map((fill) => fillCell(fill)).join('');
	}

	const kept = fills.slice(fills.length - (width - 1));
	return elidedCell + kept.map((fill) => fillCell(fill)).join('');
}

/**
 * The fill chart for a report: rows of `perRow` cells, each labelled with its
 * first page. Long walks are folded so the chart stays small: each cell then
 * stands for several pages and draws the lowest fill among them, so a short
 * page is never averaged away.
 */
export function fillChart(fills: readonly PageFill[], options: {perRow?: number; maxCells?: number} = {}): {lines: string[]; pagesPerCell: number} {
	const perRow = options.perRow ?? 50;
	const maxCells = options.maxCells ?? 200;
	const pagesPerCell = Math.max(1, Math.ceil(fills.length / maxCells));
	const cells: Array<{first: number; cell: string}> = [];
	for (let start = 0; start < fills.length; start += pagesPerCell) {
		const group = fills.slice(start, start + pagesPerCell);
		let lowest = group[0]!;
		for (const fill of group) {
			if (fill.ratio < lowest.ratio || (fill.kind === 'empty' && lowest.kind !== 'empty')) {
				lowest = fill;
			}
		}

		cells.push({first: group[0]!.page, cell: fillCell(lowest)});
	}

	const lastPage = fills.at(-1)?.page ?? 0;
	const labelWidth = String(lastPage).length + 1;
	const lines: string[] = [];
	for (let start = 0; start < cells.length; start += perRow) {
		const row = cells.slice(start, start + perRow);
		lines.push(`p${String(row[0]!.first).padEnd(labelWidth)} ${row.map((entry) => entry.cell).join('')}`);
	}

	return {lines, pagesPerCell};
}

/** A shortened id for sentences: enough to tell ids apart by eye. */
export function shortId(id: string): string {
	return displayWidth(id, 14) > 13 ? cutToWidth(id, 9) : id;
}

/**
 * Why this page holds fewer objects than `limit`, in one sentence; null for
 * a full page. The words follow rule 7: only a null `next_uri` ends the list.
 */
export function shortPageExplanation(fill: PageFill): string | null {
	if (fill.kind === 'full') {
		return null;
	}

	const count = fill.kind === 'empty' ? 'No objects' : `${fill.shown} of ${fill.limit}`;
	if (fill.continues) {
		return `${count}: fewer than limit: permissions or access level; the list continues.`;
	}

	return `${count} and no next_uri: this is the end of the list.`;
}

/**
 * The cursor evidence in one sentence for the debug panel, or null when
 * there is no next page to compare with. Ids are server text: callers pass
 * the result through inert() before drawing it.
 */
export function cursorEvidenceSentence(evidence: CursorEvidence): string | null {
	if (evidence.nextCursor === null) {
		return null;
	}

	if (!evidence.scannedPast) {
		return `next_uri starts after ${evidence.nextCursor}, the last object shown.`;
	}

	const shown = evidence.lastShownId === null ? 'this page shows no object' : `the last object shown is ${evidence.lastShownId}`;
	return `next_uri starts after ${evidence.nextCursor} but ${shown}: the server scanned past objects this credential cannot see.`;
}

/** Median of the values (mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
	if (values.length === 0) {
		return 0;
	}

	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export type FillSummary = {
	pages: number;
	short: number;
	empty: number;
	/** Lowest and median ratio over the pages the list continued after (the last page may be short by nature). */
	min: number;
	median: number;
};

export function summarizeFill(fills: readonly PageFill[]): FillSummary {
	const continuing = fills.filter((fill) => fill.continues);
	const measured = (continuing.length > 0 ? continuing : fills).map((fill) => fill.ratio);
	return {
		pages: fills.length,
		short: fills.filter((fill) => fill.kind === 'short').length,
		empty: fills.filter((fill) => fill.kind === 'empty').length,
		min: measured.length === 0 ? 0 : Math.min(...measured),
		median: median(measured),
	};
}
