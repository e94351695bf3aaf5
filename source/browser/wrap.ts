import {cutWithWidth} from '../text/text-width.js';

/**
 * Text panes (detail JSON, debug, help, compare) wrap long lines, so nothing
 * that matters is cut; with wrapping off, lines are cut at the pane's width
 * and scrolled sideways. Width-aware (terminal cells, never a split
 * cluster: text/text-width.ts does every cut) and bounded: a pane draws only
 * the rows on screen, so a megabyte line costs its first screen of rows,
 * not a megabyte of cutting. Counting a pane's rows (for the scroll limit and
 * the "lines x–y of z" title) reads each line once per width, remembered.
 */

const printableAscii = /^[\u0020-\u007E]*$/;

/**
 * The head of `text` that fits in `width` cells (at least one character, so
 * wrapping always moves on). A cut inside a word moves back to the start of
 * that word when the row holds an earlier space, so prose (help, messages)
 * wraps between words; a word longer than the row is still broken.
 */
function chunk(text: string, width: number): string {
	const {text: head} = cutWithWidth(text, width, {ellipsis: ''});
	if (head === '' && text !== '') {
		// A cluster wider than the pane (a CJK letter in one cell): drawn alone.
		return String.fromCodePoint(text.codePointAt(0)!);
	}

	if (head.length < text.length && !head.endsWith(' ')) {
		const space = head.lastIndexOf(' ');
		// Only a word that fits on a row of its own moves down: a longer one (a URL, a regex) is broken anyway, so it starts here.
		const wordEnd = text.indexOf(' ', space + 1);
		const wordLength = (wordEnd === -1 ? text.length : wordEnd) - (space + 1);
		if (space > 0 && wordLength <= width) {
			return head.slice(0, space + 1);
		}
	}

	return head;
}

/** One wrapped row off the front of `text`, and what is left: every character is on some row, none twice. */
function nextRow(text: string, width: number): {row: string; rest: string} {
	const row = chunk(text, width);
	return {row, rest: text.slice(row.length)};
}

/** A line the fixed-width fast path can cut: printable ASCII (a cell a character) with no space to wrap at. */
function plainRun(text: string): boolean {
	return printableAscii.test(text) && !text.includes(' ');
}

/** Rows one line takes at `width` cells; an empty line still takes one, as the pane draws it. */
export function lineRows(line: string, width: number): number {
	if (width <= 0 || line === '') {
		return 1;
	}

	// One cell per code unit only for printable ASCII: ten CJK letters take twenty cells.
	if (plainRun(line)) {
		return Math.ceil(line.length / width);
	}

	let rows = 0;
	let rest = line;
	while (rest !== '') {
		rest = nextRow(rest, width).rest;
		rows++;
	}

	return rows;
}

/** Per lines array and width: the rows of each line counted so far. */
const counted = new WeakMap<readonly string[], {width: number; rows: number[]}>();

function rowsUpTo(lines: readonly string[], width: number, count: number): number[] {
	let cache = counted.get(lines);
	if (cache?.width !== width) {
		cache = {width, rows: []};
		counted.set(lines, cache);
	}

	for (let i = cache.rows.length; i < Math.min(count, lines.length); i++) {
		cache.rows.push(lineRows(lines[i]!, width));
	}

	return cache.rows;
}

/** Rows all of `lines` take wrapped at `width` cells. */
export function wrappedRows(lines: readonly string[], width: number): number {
	return rowsUpTo(lines, width, lines.length).reduce((sum, rows) => sum + rows, 0);
}

/** The `skip`-th and following rows of one line, at most `take` of them. */
function rowsOfLine(line: string, width: number, skip: number, take: number): string[] {
	const result: string[] = [];
	let rest = line;
	if (width <= 0) {
		return [line];
	}

	if (plainRun(line.length > (skip + take) * width ? line.slice(0, (skip + take) * width) : line)) {
		for (let i = skip; i < skip + take && i * width < line.length; i++) {
			result.push(line.slice(i * width, (i + 1) * width));
		}

		return result.length === 0 ? [''] : result;
	}

	for (let i = 0; i < skip && rest !== ''; i++) {
		rest = nextRow(rest, width).rest;
	}

	while (result.length < take && rest !== '') {
		const next = nextRow(rest, width);
		result.push(next.row);
		rest = next.rest;
	}

	return result.length === 0 ? [''] : result;
}

/** What a pane shows: its rows, and the lines they come from (1-based, for the title). */
export type PaneWindow = {rows: string[]; firstLine: number; lastLine: number};

/**
 * The rows on screen: `height` rows from row `scroll` of `lines` wrapped at
 * `width`. Only lines above the window are counted whole; the lines in it
 * are cut as far as the window reaches.
 */
export function wrappedWindow(lines: readonly string[], width: number, scroll: number, height: number): PaneWindow {
	const rows: string[] = [];
	let row = 0;
	let firstLine = 0;
	let lastLine = 0;
	for (let i = 0; i < lines.length && rows.length < height; i++) {
		let skip = 0;
		if (row < scroll) {
			const count = rowsUpTo(lines, width, i + 1)[i]!;
			if (row + count <= scroll) {
				row += count;
				continue;
			}

			skip = scroll - row;
			row = scroll;
		}

		firstLine ||= i + 1;
		lastLine = i + 1;
		rows.push(...rowsOfLine(lines[i]!, width, skip, height - rows.length));
	}

	return {rows, firstLine, lastLine};
}

/** One line seen through a window `width` cells wide, `column` cells from its start (wrapping off). */
export function sidewaysCut(line: string, column: number, width: number): string {
	let rest = line;
	if (column > 0) {
		if (printableAscii.test(line.length > column + width ? line.slice(0, column + width) : line)) {
			rest = line.slice(column);
		} else {
			rest = line.slice(cutWithWidth(line, column, {ellipsis: ''}).text.length);
		}
	}

	return cutWithWidth(rest, width).text;
}
