import {shortPageOf} from '../../contract/contract.js';
import {shortPageSentence} from '../../contract/contract-text.js';
import {fillStrip, type FillMark} from '../../contract/fill-strip.js';
import type {PageStackState} from '../stack/types.js';

/**
 * The status area's fill strip: one cell per page walked in this walk, from
 * its first page, height by fill, `·` for an empty page. Pages ← went back
 * from stay (the page stack's `walked`), and so do pages evicted from memory,
 * through the mark they left, so a run of short pages stays visible however
 * deep the walk goes and wherever the reader is in it.
 */
export function fillLine(state: PageStackState, width: number): string {
	const fills: readonly FillMark[] = state.walked;
	if (fills.length === 0) {
		return '';
	}

	const short = fills.filter(fill => fill.kind === 'short').length;
	const empty = fills.filter(fill => fill.kind === 'empty').length;
	const counts = ` · ${short} short · ${empty} empty`;
	const room = Math.max(1, width - 'fill '.length - counts.length);
	return `fill ${fillStrip(fills, room)}${counts}`;
}

/**
 * Why the page on screen may be short, or null for a full page or the end of
 * the list. Only a page that keeps the contract gets the permissions
 * explanation: a page that breaks it is short (or long) for that reason,
 * which the status area names instead.
 */
export function shortNote(state: PageStackState): string | null {
	const entry = state.entries.at(-1);
	const page = entry?.page;
	if ((entry?.findings?.length ?? 0) > 0) {
		return null;
	}

	const short = page && page.nextUrl !== null ? shortPageOf(page) : null;
	return short ? shortPageSentence(short) : null;
}
