/**
 * Ready-to-draw text for the browser: the fill strip line of the status area,
 * the short-page note, the cursor evidence of the debug panel and the rows of
 * the compare view. Pure and React-free; every server string is made inert
 * here, so the view only lays the lines out.
 */
import type {Page} from '../contract/types.js';
import {pageFill} from '../contract/contract.js';
import {fillStrip} from '../contract/fill-strip.js';
import {comparePageRows, compareViewLines, type CompareRow} from '../contract/page-compare.js';

export {cursorEvidenceLines, shortPageNote} from '../contract/contract-text.js';

/**
 * `fill ▆█▃·█ · 2 short · 1 empty` for the pages walked so far (oldest first),
 * at most `width` characters: the strip gives up its oldest cells first.
 */
export function fillStripLine(pages: readonly Page[], width: number): string {
	const fills = pages.map((page, index) => pageFill(page, index));
	const short = fills.filter((fill) => fill.kind === 'short').length;
	const empty = fills.filter((fill) => fill.kind === 'empty').length;
	const counts = `${short} short · ${empty} empty`;
	const room = width - 'fill '.length - ` · ${counts}`.length;
	if (room < 1) {
		return fillStrip(fills, Math.max(0, width)).slice(0, Math.max(0, width));
	}

	return `fill ${fillStrip(fills, room)} · ${counts}`;
}

export type CompareView = {
	/** One sentence: how many ids both, only A, only B see. */
	summary: string;
	/** One line per id: `✓ ✓ id`, `✓ · id` (only A), `· ✓ id` (only B). */
	lines: string[];
	rows: CompareRow[];
};

/**
 * The compare view of one page: `a` and `b` are the same request made with
 * each credential; labels name the credentials (environment variable names,
 * never their values).
 */
export function compareView(a: Page, b: Page, labels: {a: string; b: string}): CompareView {
	const rows = comparePageRows(a.objects.map((object) => object.id), b.objects.map((object) => object.id));
	return {...compareViewLines(rows, labels), rows};
}
