import {cutWithWidth, cutToWidth} from './text-width.js';

/**
 * The one word-wrapper. Text panes (detail JSON, debug, help, compare) wrap
 * long lines, so nothing that matters is cut; with wrapping off, lines are
 * cut at the pane's width and scrolled sideways. Messages (the error banner,
 * a long message line) wrap by the same rule, their rows trimmed
 * ({@link wrapLines}). Width-aware (terminal cells, never a split
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
 * wraps between words; a word longer than the row is still broken where the
 * row ends. `trimmed`: the row is drawn without its trailing spaces (a
 * message), so a space just past the edge goes on it rather than moving the
 * word before it down; a pane draws every character, so there it cannot.
 */
function chunk(text: string, width: number, trimmed = false): string {
	const {text: head} = cutWithWidth(text, width, {ellipsis: ''});
	if (head === '' && text !== '') {
		// A cluster wider than the pane (a CJK letter in one cell): drawn alone.
		return String.fromCodePoint(text.codePointAt(0)!);
	}

	if (trimmed && text[head.length] === ' ') {
		return `${head} `;
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

/**
 * Lines whose rows after the first hang under a column (the help: under the
 * descriptions, not at column 0), known by their text: lines copied into
 * another array (help and its legend in one pane, a slice, a spread) hang
 * the same, so no caller can lose the indent by building its own array.
 * Only the program's own fixed lines are marked (made once), so this stays small.
 */
const hangs = new Map<string, number>();

/** Marks each of `lines` as wrapping with its continuation rows `indent` cells in. */
export function hanging<Lines extends readonly string[]>(lines: Lines, indent: number): Lines {
	for (const line of lines) {
		if (line !== '') {
			hangs.set(line, indent);
		}
	}

	return lines;
}

/** The indent of a line's continuation rows at `width`: none where it would leave a row too narrow to read. */
function hangOf(line: string, width: number): number {
	const indent = hangs.get(line) ?? 0;
	return width - indent >= 16 ? indent : 0;
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

/** Rows one line takes at `width` cells, continuation rows `hang` cells in; an empty line still takes one, as the pane draws it. */
export function lineRows(line: string, width: number, hang = 0): number {
	if (width <= 0 || line === '') {
		return 1;
	}

	// One cell per code unit only for printable ASCII: ten CJK letters take twenty cells.
	if (plainRun(line)) {
		return line.length <= width ? 1 : 1 + Math.ceil((line.length - width) / (width - hang));
	}

	let rows = 0;
	let rest = line;
	while (rest !== '') {
		rest = nextRow(rest, rows === 0 ? width : width - hang).rest;
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
		cache.rows.push(lineRows(lines[i]!, width, hangOf(lines[i]!, width)));
	}

	return cache.rows;
}

/** Rows the first `count` of `lines` (all by default) take wrapped at `width` cells. */
export function wrappedRows(lines: readonly string[], width: number, count = lines.length): number {
	return rowsUpTo(lines, width, count).slice(0, count).reduce((sum, rows) => sum + rows, 0);
}

/** One row of a line: its text as drawn, where it starts in the line, and the blank cells hung in front of it. */
type RowPiece = {text: string; start: number; indent: number};

/** The `skip`-th and following rows of one line, at most `take` of them; rows after the first `hang` cells in. */
function rowsOfLine(line: string, width: number, skip: number, take: number, hang: number): RowPiece[] {
	const result: RowPiece[] = [];
	if (width <= 0) {
		return [{text: line, start: 0, indent: 0}];
	}

	// Row i starts at offset(i) and holds size(i) cells: the first row the whole width, the others less the hang.
	const offset = (i: number) => (i === 0 ? 0 : width + ((i - 1) * (width - hang)));
	const size = (i: number) => (i === 0 ? width : width - hang);
	if (plainRun(line.length > offset(skip + take) ? line.slice(0, offset(skip + take)) : line)) {
		for (let i = skip; i < skip + take && offset(i) < line.length; i++) {
			result.push({text: line.slice(offset(i), offset(i) + size(i)), start: offset(i), indent: i === 0 ? 0 : hang});
		}

		return result.length === 0 ? [{text: '', start: 0, indent: 0}] : result;
	}

	let rest = line;
	let row = 0;
	for (; row < skip && rest !== ''; row++) {
		rest = nextRow(rest, size(row)).rest;
	}

	while (result.length < take && rest !== '') {
		const next = nextRow(rest, size(row));
		result.push({text: next.row, start: line.length - rest.length, indent: row === 0 ? 0 : hang});
		rest = next.rest;
		row++;
	}

	return result.length === 0 ? [{text: '', start: 0, indent: 0}] : result;
}

/**
 * What a pane shows: its rows (continuation rows hung in, as drawn), the
 * lines they come from (1-based, for the title), and for each row its line
 * (0-based), where in that line it starts and how far it is hung in.
 */
export type PaneWindow = {rows: string[]; firstLine: number; lastLine: number; pieces: Array<{line: number; start: number; indent: number}>};

/**
 * The rows on screen: `height` rows from row `scroll` of `lines` wrapped at
 * `width`. Only lines above the window are counted whole; the lines in it
 * are cut as far as the window reaches.
 */
export function wrappedWindow(lines: readonly string[], width: number, scroll: number, height: number): PaneWindow {
	const rows: string[] = [];
	const pieces: PaneWindow['pieces'] = [];
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
		for (const piece of rowsOfLine(lines[i]!, width, skip, height - rows.length, hangOf(lines[i]!, width))) {
			rows.push(' '.repeat(piece.indent) + piece.text);
			pieces.push({line: i, start: piece.start, indent: piece.indent});
		}
	}

	return {rows, firstLine, lastLine, pieces};
}

/**
 * A message word-wrapped to `width` cells, so it is read in full rather than
 * cut with … (the error banner: its advice is at the end): the panes' rows,
 * trimmed. At most `maxLines`; the last one is cut only when even that is not
 * enough.
 */
export function wrapLines(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
	if (width <= 0) {
		return [''];
	}

	const lines: string[] = [];
	let rest = text;
	do {
		const row = chunk(rest, width, true);
		lines.push(row.trimEnd());
		rest = rest.slice(row.length);
	} while (rest !== '');

	if (lines.length > maxLines) {
		const kept = lines.slice(0, maxLines);
		kept[maxLines - 1] = cutToWidth(`${kept[maxLines - 1]!} ${lines.slice(maxLines).join(' ')}`, width);
		return kept;
	}

	return lines;
}

/** Where in `line` a window `column` cells from its start begins (wrapping off). */
export function sidewaysStart(line: string, column: number): number {
	if (column <= 0) {
		return 0;
	}

	return printableAscii.test(line.length > column + 1 ? line.slice(0, column + 1) : line) ? Math.min(column, line.length) : cutWithWidth(line, column, {ellipsis: ''}).text.length;
}

/** One line seen through a window `width` cells wide, `column` cells from its start (wrapping off). */
export function sidewaysCut(line: string, column: number, width: number): string {
	return cutWithWidth(line.slice(sidewaysStart(line, column)), width).text;
}

/**
 * The parts of one row of a pane that hold `needle` (any case), as
 * [from, to) in the row's text: every match in the line the row comes from,
 * as much of it as the row holds (a match across two rows is marked on both).
 */
export function rowMatches(line: string, start: number, row: string, needle: string): Array<[number, number]> {
	if (needle === '') {
		return [];
	}

	// What of the row is the line's own text: not an ellipsis the cut added.
	const own = line.startsWith(row, start) ? row.length : Math.max(0, row.length - 1);
	const pattern = new RegExp(needle.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
	const result: Array<[number, number]> = [];
	for (const match of line.matchAll(pattern)) {
		const from = Math.max(match.index - start, 0);
		const to = Math.min(match.index + match[0].length - start, own);
		if (to > from) {
			result.push([from, to]);
		}

		if (match[0].length === 0 || match.index >= start + own) {
			break;
		}
	}

	return result;
}
