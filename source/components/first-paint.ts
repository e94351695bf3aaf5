import chalk from 'chalk';
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import {startState} from '../browser/state/browser-state.js';
import type {BrowserOptions} from '../browser/state/browser-state.js';
import {formatHeader, rowLine} from '../browser/view/table-layout.js';
import {tableScreen} from '../browser/view/table-screen.js';
import type {Size, TableScreen} from '../browser/view/table-screen.js';
import type {Segment} from '../browser/view/status-model.js';
import {styles, toneStyle} from './styles.js';
import type {TextStyle} from './styles.js';

/**
 * The browser's first frame, written before Ink and React have loaded.
 *
 * Loading them is most of the browser's start-up (their code is compiled
 * and run, and their first render runs cold), while the first page is
 * usually here long before. So the command writes the screen the app's
 * first frame will show, from the same state (browser/state/browser-state.ts's
 * startState) and the same screen model (browser/view/table-screen.ts), and Ink's
 * first frame then draws the same lines over it. Keys typed meanwhile wait
 * in the terminal (the command has put it in raw mode) and reach the app
 * once it reads them.
 *
 * Only the plain main screen is painted: a page, no error and no prompt (the
 * state a first page starts in); anything else waits for Ink. Styled from
 * the components' own style table (styles.ts), applied as Ink's `<Text>`
 * applies it (the same chalk, the same order, the same truncation): a test
 * draws both and compares them cell by cell (test/browser/first-paint.test.tsx).
 */

/** Ink's `<Text wrap="truncate-end">` at `width`. */
function fit(line: string, plainWidth: number, width: number): string {
	return plainWidth > width ? cliTruncate(line, width, {position: 'end'}) : line;
}

const chalkBy = chalk as unknown as Record<string, (text: string) => string>;

/** Ink's colorize for the colour names the table uses: `red`, and `bgRed` behind. */
function colourise(text: string, name: string, place: 'foreground' | 'background'): string {
	return chalkBy[place === 'foreground' ? name : `bg${name[0]!.toUpperCase()}${name.slice(1)}`]!(text);
}

/** `text` in a style of the table, applied as Ink's `<Text>` applies its props (in its order), or as it is without colour. */
function styled(text: string, style: TextStyle, colour: boolean): string {
	if (!colour) {
		return text;
	}

	let out = text;
	if (style.dimColor) {
		out = chalk.dim(out);
	}

	if (style.color) {
		out = colourise(out, style.color, 'foreground');
	}

	if (style.backgroundColor) {
		out = colourise(out, style.backgroundColor, 'background');
	}

	if (style.bold) {
		out = chalk.bold(out);
	}

	if (style.inverse) {
		out = chalk.inverse(out);
	}

	return out;
}

/** One line of one style, as Ink draws `<Text wrap="truncate-end">` at `width`. */
function styledLine(text: string, style: TextStyle, width: number, colour: boolean): string {
	return styled(fit(text, stringWidth(text), width), style, colour);
}

/** A status line as StatusArea's Line draws it: segments by tone, separators between them. */
function segmentLine(segments: readonly Segment[], width: number, colour: boolean): string {
	const line = segments.map(segment => styled(segment.text, toneStyle(segment.tone), colour)).join(styled(' · ', styles.separator, colour));
	return fit(line, stringWidth(segments.map(segment => segment.text).join(' · ')), width);
}

function messageText(message: TableScreen['status']['message'], width: number, colour: boolean): string | string[] | undefined {
	switch (message.kind) {
		case 'wrapped': {
			return message.lines.map(line => styledLine(line, toneStyle(message.tone), width, colour));
		}

		case 'message': {
			const short = message.short ? ` · ${message.short}` : '';
			return fit(styled(message.text, toneStyle(message.tone), colour) + styled(short, styles.short, colour), stringWidth(message.text + short), width);
		}

		case 'short': {
			return styledLine(message.text, styles.short, width, colour);
		}

		case 'hint': {
			return styledLine(message.text, styles.hint, width, colour);
		}

		default: {
			// A prompt or an error banner: never the state a first page starts in.
			return undefined;
		}
	}
}

/**
 * The frame's lines, as Ink would write them, or undefined when this start
 * is not the plain main screen with its first page.
 */
export function firstFrameLines(options: BrowserOptions, {size, colour}: {size: Size; colour: boolean}): string[] | undefined {
	if (!options.firstPage) {
		return undefined;
	}

	const state = startState(options);
	const screen = tableScreen(state, {size, api: options.api, endpoint: options.endpoint, spinner: '', now: Date.now()});
	const message = messageText(screen.status.message, size.columns, colour);
	// No message line to paint (see messageText), or no page: Ink draws this start.
	if (screen.tooSmall || screen.page === null || message === undefined) {
		return undefined;
	}

	const header = formatHeader(screen.layout.columns, state.stack.sort);
	const lines = [styledLine(header, styles.header, size.columns, colour)];
	const shown = screen.rows.slice(0, Math.max(0, screen.bodyHeight - 1));
	if (shown.length === 0) {
		lines.push(styledLine(`  ${screen.empty}`, styles.empty, size.columns, colour));
	}

	for (const row of shown) {
		const selected = row === screen.rows[screen.selected];
		const {text} = rowLine(row.cells, screen.layout.columns, selected);
		lines.push(selected ? styled(text, styles.selected, colour) : text);
	}

	while (lines.length < screen.bodyHeight) {
		lines.push('');
	}

	const fill = screen.status.fill === '' ? ' ' : screen.status.fill;
	lines.push(
		segmentLine(screen.status.location, size.columns, colour),
		segmentLine(screen.status.page, size.columns, colour),
		styledLine(fill, styles.fill, size.columns, colour),
		...(typeof message === 'string' ? [message] : message),
	);
	return lines;
}
