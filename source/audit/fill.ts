/**
 * How full each page is, and why a page may be short, for the audit report.
 * The definitions (fill, short page, cursor evidence) live in the contract
 * module, so the report and the browser explain a short page the same way;
 * this module adds what only a report over a walk needs: the chart and the
 * summary.
 */
import {contractDefaults, type PageFill} from '../contract/contract.js';
import {fillCell} from '../contract/fill-strip.js';
import {cutToWidth, displayWidth} from '../text/text-width.js';

export {
	cursorEvidence, effectiveLimit, pageFill, queryParameter, type CursorEvidence, type FillKind, type PageFill,
} from '../contract/contract.js';
export {cursorEvidenceSentence, shortPageExplanation} from '../contract/contract-text.js';
export {elidedCell, emptyCell, fillCell, fillStrip} from '../contract/fill-strip.js';

/** The page size when none (or 0, which the sandbox serves as the default) is in effect. */
export const defaultLimit = contractDefaults.limit;

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
