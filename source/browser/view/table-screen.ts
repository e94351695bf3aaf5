import {matchesOffScreen, rowsOf} from '../stack/cells.js';
import type {Row} from '../stack/cells.js';
import type {BrowserState} from '../state/types.js';
import {fillLine, shortNote} from './fill-line.js';
import {breadcrumb} from '../related/related-walks.js';
import {promptLine} from './prompt-line.js';
import {errorText, fitSegments, hintSegments, joinSegments, statusModel} from './status-model.js';
import type {Segment, StatusModel, Tone} from './status-model.js';
import {missingColumns, pageLayout} from './table-layout.js';
import type {TableLayout} from './table-layout.js';
import {shownRows, top} from '../stack/stack-steps.js';
import type {LoadError} from '../stack/types.js';
import {wrapLines} from '../../text/wrap.js';
import {clampOffset} from '../../cells/table-layout.js';
import {inert} from '../../text/inert.js';
import {displayWidth} from '../../text/text-width.js';
import type {Page} from '../../contract/types.js';

/**
 * Everything the browser's main screen shows, computed once from the state
 * and the terminal's size: the frame's geometry, the table's rows and
 * layout, and the status area's lines. The app lays these out with Ink; the
 * first paint (components/first-paint.ts) writes the same screen before Ink
 * has loaded. Neither computes any of it.
 */

/** The smallest terminal the browser draws in: the status area, a header and a row, and room for an id. */
export const minimumSize = {columns: 32, rows: 8} as const;

/** Lines the status area always takes: location, page, fill strip, message. */
export const statusHeight = 4;

/** Lines the table keeps under an error banner, however long: its header and a row. */
const keptUnderBanner = 2;

/**
 * The error banner's lines at `columns` (a space each side): the error's
 * words, wrapped, read in full, taking what the table can give (all but its
 * header and a row); only a message longer than that is cut.
 */
function bannerLines(error: LoadError, related: boolean, columns: number, frameRows: number): string[] {
	return wrapLines(errorText(error, related), Math.max(1, columns - 2), messageRows(frameRows));
}

/**
 * The status area's last line, by what it says: a line being typed, the
 * error banner, a message (with why the page is short beside a copy's, a write's or a find's), why
 * the page is short, or the keys' hint.
 */
export type MessageLine =
	| {kind: 'prompt'; text: string}
	| {kind: 'banner'; lines: readonly string[]}
	| {kind: 'message'; text: string; tone: Tone; short: string | null}
	| {kind: 'short'; text: string}
	// A message or why the page is short, too long for one line: wrapped, in its tone, read to its end.
	| {kind: 'wrapped'; lines: readonly string[]; tone: Tone}
	| {kind: 'hint'; text: string};

/** Rows the message line may take: what the table can give, down to its header and a row. */
function messageRows(frameRows: number): number {
	return Math.max(1, frameRows - statusHeight + 1 - keptUnderBanner);
}

export function messageLine(model: StatusModel, prompt: string | undefined, note: string | null, banner: readonly string[] | null, columns = Number.POSITIVE_INFINITY, maxRows = 1): MessageLine {
	if (prompt !== undefined) {
		return {kind: 'prompt', text: prompt};
	}

	let line: MessageLine;
	if (model.message) {
		if (model.message.tone === 'bad') {
			return {kind: 'banner', lines: banner ?? [model.message.text]};
		}

		// An export's progress: fitted, never wrapped, redrawn as it goes.
		if (model.messageParts) {
			return {kind: 'message', text: joinSegments(fitSegments(model.messageParts, columns)), tone: model.message.tone, short: null};
		}

		// What a key did to the walk (info) takes the line; what a copy, a write or a find came to is not about the page, and leaves why it is short beside it.
		const beside = model.level !== undefined && model.level !== 'info';
		line = {kind: 'message', text: model.message.text, tone: model.message.tone, short: note && beside ? note : null};
	} else if (note) {
		line = {kind: 'short', text: note};
	} else {
		return {kind: 'hint', text: joinSegments(hintSegments(columns))};
	}

	// Too long for one line: wrapped rather than cut mid-text (why the page is short goes after the message beside it).
	const text = line.kind === 'message' && line.short ? `${line.text} · ${line.short}` : line.text;
	if (displayWidth(text) <= columns || maxRows <= 1) {
		return line;
	}

	return {kind: 'wrapped', lines: wrapLines(text, columns, maxRows), tone: line.kind === 'message' ? line.tone : 'warn'};
}

export type Size = {columns: number; rows: number};

export type TableScreen = {
	/** Too small for the status area and a row: the app says so instead. */
	tooSmall: boolean;
	/** One line short of the terminal: a frame as tall as the screen makes Ink clear the whole terminal on every redraw. */
	frameRows: number;
	/** The table's lines (header included), or an overlay's. */
	bodyHeight: number;
	page: Page | null;
	/** The rows the filter lets through, in the sort on screen. */
	rows: readonly Row[];
	selected: number;
	layout: TableLayout;
	/** Shown instead of rows when there are none. */
	empty: string;
	status: {location: readonly Segment[]; page: readonly Segment[]; fill: string; message: MessageLine};
};

/** Which columns are on screen, by position (the id is 1), for the status line's `cols 4–9 of 22`. */
function columnSpan(layout: TableLayout, offset: number) {
	const total = layout.columns.length + layout.hidden;
	const scrolled = layout.columns[0]?.path === 'id' ? clampOffset(offset, total - 1) : 0;
	return {offset: scrolled, first: scrolled + 2, last: scrolled + layout.columns.length, total};
}

export function tableScreen(state: BrowserState, {size, api, endpoint, spinner, now}: {size: Size; api: string; endpoint: string; spinner: string; now: number}): TableScreen {
	const {stack} = state;
	// In a related list, the status line shows the way back: `accounts › BTC Wallet › transactions`.
	const related = state.walks.parents.length > 0;
	const shownEndpoint = related ? breadcrumb(state.walks) : inert(endpoint);
	const frameRows = Math.max(statusHeight + 2, size.rows - 1);
	const banner = stack.error ? bannerLines(stack.error, related, size.columns, frameRows) : null;
	const page = top(stack)?.page ?? null;
	const rows = shownRows(stack);
	const allRows = page ? rowsOf(page.objects, page.objectTexts) : [];
	// Columns come from the whole page, so filtering does not reshuffle them.
	const layout = pageLayout(allRows, size.columns, {choice: state.view.choice, offset: state.view.offset});
	const model = statusModel({
		state: stack,
		api,
		endpoint: shownEndpoint,
		spinner,
		now,
		filter: stack.filter,
		visible: rows.length,
		hiddenColumns: layout.hidden,
		columnSpan: columnSpan(layout, state.view.offset),
		search: state.tasks.search?.progress ?? null,
		related,
		missingColumns: missingColumns(allRows, state.view.choice),
		offScreenMatches: matchesOffScreen(rows, stack.filter, new Set(layout.columns.map(column => column.path))),
		exporting: state.tasks.export,
	});
	const empty = page === null ? (stack.pending ? 'loading the first page…' : 'no page') : stack.filter === '' ? 'this page is empty' : 'no rows match the filter';
	const message = messageLine(model, promptLine(state), shortNote(stack), banner, size.columns, messageRows(frameRows));
	// The error banner and a long message wrap: the lines they take beyond one come from the body.
	const extra = message.kind === 'banner' || message.kind === 'wrapped' ? message.lines.length - 1 : 0;
	const bodyHeight = Math.max(2, frameRows - statusHeight - extra);
	return {
		tooSmall: size.columns < minimumSize.columns || size.rows < minimumSize.rows,
		frameRows,
		bodyHeight,
		page,
		rows,
		selected: top(stack)?.selected ?? 0,
		layout,
		empty,
		// Fitted here, for Ink and the first paint alike: a narrow terminal loses the least needed segments, not the end of the line.
		status: {
			location: fitSegments(model.location, size.columns),
			page: fitSegments(model.page, size.columns),
			fill: fillLine(stack, size.columns),
			message,
		},
	};
}
