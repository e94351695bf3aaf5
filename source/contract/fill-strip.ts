/**
 * The fill strip: one character per page, its height by how full the page
 * was. Drawn by the browser's status area and, folded, by the audit's chart.
 */
import type {PageFill} from './contract.js';

const levels = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
/** An empty page: visibly different from the lowest bar, so a run of them stands out. */
export const emptyCell = '·';
/** Leads a strip that had to drop its oldest pages to fit. */
export const elidedCell = '…';

/** How full a page was: all the strip needs once the page itself is gone. */
export type FillMark = Pick<PageFill, 'kind' | 'ratio'>;

/** One character for one page: height by fill; only a full page reaches the top block. */
export function fillCell(fill: FillMark): string {
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
export function fillStrip(fills: readonly FillMark[], width = Number.POSITIVE_INFINITY): string {
	if (width <= 0) {
		return '';
	}

	if (fills.length <= width) {
		return fills.map(fill => fillCell(fill)).join('');
	}

	const kept = fills.slice(fills.length - (width - 1));
	return elidedCell + kept.map(fill => fillCell(fill)).join('');
}
