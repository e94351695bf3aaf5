import type stringWidthType from 'string-width';
import {graphemeSegmenter} from './lone-clusters.js';

/**
 * The one way pagewalk measures and cuts text for a terminal: the table's
 * cells, the panes' lines, body excerpts in error messages, the progress line.
 *
 * - Width is terminal cells, not UTF-16 code units: CJK and emoji count 2,
 *   combining marks 0 (string-width decides, one grapheme at a time).
 * - A cut falls between grapheme clusters (Intl.Segmenter), so it never splits
 *   a surrogate pair, an emoji sequence or a letter from its accents.
 * - Bounded cost: only a prefix of the text, bounded by the column count, is
 *   ever read, so cutting a 1 MB cell costs what cutting a 100-character one
 *   does. Callers that need a whole-text measure of their own short strings
 *   (headers, our sentences) can still use {@link displayWidth} without a limit.
 *
 * cli-truncate is not used: it measures and slices the whole input (its cost
 * grows with the cell) and it keeps ANSI styles, which we never need, because
 * every server string is made inert before it is cut (there are no escape
 * sequences left to preserve) and our own styling is added after cutting.
 */

/**
 * The longest grapheme cluster drawn, in UTF-16 code units. Real clusters are
 * far shorter (the longest emoji ZWJ and tag sequences are under 30); a longer
 * one (a letter under hundreds of combining marks) would make the read
 * unbounded, so a cut ends before it, with the ellipsis.
 */
export const maxClusterLength = 64;

/**
 * At most this many clusters of zero width are read beyond the column count:
 * a run of invisible marks (each its own cluster) must not make the read
 * unbounded either. Inert text has none; a cut ends before the run.
 */
const zeroWidthAllowance = 64;

// Text of lone clusters is split without ICU, the rest by an Intl.Segmenter made on first need (lone-clusters.ts).
const segmenter = graphemeSegmenter();
function clustersOf(text: string): Iterable<{segment: string; index: number}> {
	return segmenter.segment(text);
}
const printableAscii = /^[\u0020-\u007E]*$/;

/**
 * string-width measures one cluster by segmenting it again, which costs tens
 * of microseconds; clusters repeat (a CJK or emoji text uses few distinct
 * ones), so their widths are remembered, in a map bounded so that hostile
 * text cannot grow it without end.
 */
const clusterWidths = new Map<string, number>();

/**
 * string-width, once loaded. It is loaded (loadTextWidth) by what draws for a
 * terminal: the browser, `--format table`, a progress line on a terminal,
 * the audit's view, an error to print. `dump` to a pipe writes objects as
 * the server sent them and never loads it. Until it is loaded, a character
 * other than printable ASCII counts as two cells: a cut may end a little
 * early, never past its columns.
 */
let stringWidth: typeof stringWidthType | undefined;

export async function loadTextWidth(): Promise<void> {
	if (!stringWidth) {
		const loaded = (await import('string-width')).default;
		stringWidth = loaded;
		clusterWidths.clear();
		defaultEllipsisWidth = undefined;
	}
}

/** The width of text in cells: string-width's, else two a character beyond printable ASCII. */
function measure(text: string): number {
	if (stringWidth) {
		return stringWidth(text);
	}

	let width = 0;
	for (const character of text) {
		const code = character.codePointAt(0)!;
		width += code >= 0x20 && code <= 0x7E ? 1 : 2;
	}

	return width;
}
const maxRemembered = 4096;

function clusterWidth(cluster: string): number {
	if (cluster.length === 1) {
		const code = cluster.charCodeAt(0);
		if (code >= 0x20 && code <= 0x7E) {
			return 1;
		}
	}

	let width = clusterWidths.get(cluster);
	if (width === undefined) {
		width = measure(cluster);
		if (clusterWidths.size >= maxRemembered) {
			clusterWidths.clear();
		}

		clusterWidths.set(cluster, width);
	}

	return width;
}

/**
 * How many code units of a text are read to fit it into `columns`: enough for
 * `columns + 1` clusters of the longest kind, so whether text overflows is
 * always decided inside the window unless it is padded with zero-width marks.
 */
export function windowLength(columns: number): number {
	return (Math.max(0, Math.floor(columns)) + 1) * maxClusterLength;
}

type Scan = {
	/** The whole text fits in `columns`; `width` is then its exact width. */
	fits: boolean;
	width: number;
	/** End (code units) of the longest cluster prefix at most `keep` cells wide. */
	keepEnd: number;
	keepWidth: number;
};

/**
 * Walks clusters of a bounded prefix of `text`: stops as soon as the width
 * passes `columns`, at a cluster longer than {@link maxClusterLength}, or at
 * the end of the window (then the text counts as overflowing, since what
 * follows was not read).
 */
function scan(text: string, columns: number, keep: number): Scan {
	// Printable ASCII is one cell per code unit, and a boundary between two
	// such characters is always a cluster boundary: no segmenter needed.
	const head = text.length <= columns + 1 ? text : text.slice(0, columns + 1);
	if (printableAscii.test(head)) {
		if (text.length <= columns) {
			return {fits: true, width: text.length, keepEnd: Math.min(text.length, keep), keepWidth: Math.min(text.length, keep)};
		}

		return {fits: false, width: columns + 1, keepEnd: keep, keepWidth: keep};
	}

	const limit = windowLength(columns);
	const sliced = text.length > limit;
	const window = sliced ? text.slice(0, limit) : text;
	const maxClusters = columns + 1 + zeroWidthAllowance;
	let width = 0;
	let keepEnd = 0;
	let keepWidth = 0;
	let clusters = 0;
	for (const {segment, index} of clustersOf(window)) {
		const end = index + segment.length;
		// The last cluster of a cut window may be incomplete (a surrogate pair
		// or a sequence cut in two): it is never measured nor kept.
		if (segment.length > maxClusterLength || (sliced && end === window.length) || ++clusters > maxClusters) {
			return {fits: false, width: columns + 1, keepEnd, keepWidth};
		}

		width += clusterWidth(segment);
		if (width > columns) {
			return {fits: false, width, keepEnd, keepWidth};
		}

		if (width <= keep) {
			keepEnd = end;
			keepWidth = width;
		}
	}

	return sliced ? {fits: false, width: columns + 1, keepEnd, keepWidth} : {fits: true, width, keepEnd, keepWidth};
}

/**
 * The width of `text` in terminal cells. With a `limit`, reads only a bounded
 * prefix and returns at most `limit`: `limit` means "at least that wide" (or
 * too odd to draw whole), which is all a layout needs to know.
 */
export function displayWidth(text: string, limit = Number.POSITIVE_INFINITY): number {
	if (limit === Number.POSITIVE_INFINITY) {
		return measure(text);
	}

	const {fits, width} = scan(text, limit, 0);
	return fits ? width : limit;
}

export type CutOptions = {
	/** Where the text is cut out: its end (default) or its middle (head and tail kept). */
	position?: 'end' | 'middle';
	/** Marks the cut; counted in the width. Default `…`. */
	ellipsis?: string;
	/**
	 * `text` is only the head of a longer text the caller did not pass (it read
	 * a bounded prefix itself): end with the ellipsis even when `text` fits.
	 */
	continues?: boolean;
};

/** The longest cluster suffix of a bounded tail of `text` at most `keep` cells wide. */
function tailOf(text: string, keep: number): {text: string; width: number} {
	if (keep <= 0) {
		return {text: '', width: 0};
	}

	// Printable ASCII: one cell per code unit, every boundary a cluster boundary.
	if (text.length > keep && printableAscii.test(text.slice(-(keep + 1)))) {
		return {text: text.slice(-keep), width: keep};
	}

	// Clusters can only be found from the front, so a short tail is segmented
	// (eight code units a cell): a tail of unusually long clusters comes out
	// shorter than it could be, never wider.
	const limit = (keep + 1) * 8;
	const sliced = text.length > limit;
	const window = sliced ? text.slice(-limit) : text;
	const clusters = [...clustersOf(window)];
	let width = 0;
	let start = window.length;
	// From the end: the first cluster of a cut window may be incomplete.
	for (let i = clusters.length - 1; i >= (sliced ? 1 : 0); i--) {
		const {segment, index} = clusters[i]!;
		const cells = segment.length > maxClusterLength ? keep + 1 : clusterWidth(segment);
		if (width + cells > keep) {
			break;
		}

		width += cells;
		start = index;
	}

	return {text: window.slice(start), width};
}

// On first use, not at load: string-width's first call compiles its emoji
// pattern (docs/benchmarks.md), which a dump to a pipe never needs.
let defaultEllipsisWidth: number | undefined;

/** A cut text and its width in cells. */
export type Cut = {text: string; width: number};

/**
 * {@link cutToWidth}, also giving the width of the result (so padding it
 * needs no second measure).
 */
export function cutWithWidth(text: string, columns: number, options: CutOptions = {}): Cut {
	const {position = 'end', continues = false} = options;
	if (columns <= 0) {
		return {text: '', width: 0};
	}

	let ellipsis = options.ellipsis ?? '…';
	// Measured once for the default: string-width costs microseconds a call,
	// which a table of 300,000 rows pays per cell.
	let ellipsisWidth = ellipsis === '…' ? (defaultEllipsisWidth ??= measure('…')) : ellipsis === '' ? 0 : measure(ellipsis);
	if (ellipsisWidth > columns) {
		ellipsis = '';
		ellipsisWidth = 0;
	}

	const keep = columns - ellipsisWidth;
	const middle = position === 'middle' && !continues;
	const found = scan(text, columns, middle ? Math.ceil(keep / 2) : keep);
	if (found.fits && !continues) {
		return {text, width: found.width};
	}

	if (found.fits && found.width <= keep) {
		return {text: text + ellipsis, width: found.width + ellipsisWidth};
	}

	const head = text.slice(0, found.keepEnd);
	if (middle) {
		const tail = tailOf(text, keep - found.keepWidth);
		return {text: head + ellipsis + tail.text, width: found.keepWidth + ellipsisWidth + tail.width};
	}

	return {text: head + ellipsis, width: found.keepWidth + ellipsisWidth};
}

/**
 * Cuts `text` to at most `columns` terminal cells, marking the cut with an
 * ellipsis; text that fits is returned unchanged. Never splits a cluster,
 * and reads only a prefix bounded by `columns` (and a suffix, for `middle`).
 */
export function cutToWidth(text: string, columns: number, options: CutOptions = {}): string {
	return cutWithWidth(text, columns, options).text;
}

/** {@link cutToWidth}, then padded with spaces to exactly `columns` cells. */
export function padToWidth(text: string, columns: number, options: CutOptions = {}): string {
	const cut = cutWithWidth(text, columns, options);
	return cut.text + ' '.repeat(Math.max(0, columns - cut.width));
}
