import {Box, Text} from 'ink';
import {cutToWidth} from '../text/text-width.js';
import {rowMatches, sidewaysCut, sidewaysStart, wrappedWindow} from '../text/wrap.js';
import {jsonTokens, type JsonTone} from '../browser/view/json-tokens.js';
import {paneTitle} from '../browser/view/status-model.js';
import {styled, useColour} from './colour.js';
import {styles} from './styles.js';

type Props = {
	title: string;
	/** Already inert: every caller builds these through inert(). */
	lines: readonly string[];
	/** First row shown: a line when wrapping is off, a wrapped row when on. */
	scroll: number;
	/** Lines available, title included. */
	height: number;
	/**
	 * Cells available: each line is cut (or wrapped) to it here, by the one
	 * cut that reads a bounded prefix, so a megabyte line costs Ink no more
	 * than a short one.
	 */
	width?: number;
	/** Long lines wrap (default), so nothing is cut; off: cut, and seen `column` cells from their start. */
	wrap?: boolean;
	column?: number;
	/** `json`: the lines are pretty JSON, drawn in syntax colour (none when colour is off). */
	syntax?: 'json';
	/** Text found in the pane (`/`): every match on screen is drawn inverse. */
	find?: string | undefined;
	/**
	 * Without colour (no inverse either): rows sit behind a two-cell gutter,
	 * and a row holding a match is marked `›` in it, as the table marks its
	 * selected row. The text is laid out in the width left (the app gives the
	 * reducer the same width, so scrolling and finding count the same rows).
	 */
	gutter?: boolean;
};

const jsonColours: Record<JsonTone, string | undefined> = {key: 'cyan', string: 'green', number: 'yellow', literal: 'magenta', plain: undefined};

/** One line of JSON in syntax colour. */
function JsonLine({text}: {text: string}) {
	return (
		<>
			{jsonTokens(text).map((token, index) => (
				// Tokens of one line: their place is their identity.
				// eslint-disable-next-line react/no-array-index-key -- lines have no identity beyond their position
				<Text key={index} color={jsonColours[token.tone]}>
					{token.text}
				</Text>
			))}
		</>
	);
}

/** A row with its matches drawn inverse (when styling is allowed). */
function MarkedRow({text, matches, colour}: {text: string; matches: ReadonlyArray<readonly [number, number]>; colour: boolean}) {
	const parts: Array<{text: string; marked: boolean}> = [];
	let at = 0;
	for (const [from, to] of matches) {
		parts.push({text: text.slice(at, from), marked: false}, {text: text.slice(from, to), marked: true});
		at = to;
	}

	parts.push({text: text.slice(at), marked: false});
	return (
		<>
			{parts.filter(part => part.text !== '').map((part, index) => (
				// Parts of one row: their place is their identity.
				// eslint-disable-next-line react/no-array-index-key -- parts have no identity beyond their position
				<Text key={index} inverse={part.marked && colour}>
					{part.text}
				</Text>
			))}
		</>
	);
}

/** A titled, scrollable block of text: detail JSON, the debug panel, help, compare. */
export function TextPane({title, lines, scroll, height, width: paneWidth, wrap = true, column = 0, syntax, find, gutter = false}: Props) {
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	const width = paneWidth === undefined || !gutter ? paneWidth : Math.max(1, paneWidth - 2);
	let rows: string[];
	// For each row: its line, where in the line its text starts, and the blanks hung in front of it.
	let pieces: Array<{line: number; start: number; indent: number}>;
	let position: string;
	if (wrap && width !== undefined) {
		const window = wrappedWindow(lines, width, scroll, bodyRows);
		rows = window.rows;
		pieces = window.pieces;
		const whole = window.firstLine <= 1 && window.lastLine >= lines.length && scroll === 0;
		position = whole ? '' : `lines ${window.firstLine}–${window.lastLine} of ${lines.length}`;
	} else {
		const shown = lines.slice(scroll, scroll + bodyRows);
		rows = shown.map(line => (width === undefined ? line : column > 0 ? sidewaysCut(line, column, width) : cutToWidth(line, width)));
		pieces = shown.map((line, index) => ({line: scroll + index, start: column > 0 && width !== undefined ? sidewaysStart(line, column) : 0, indent: 0}));
		position = lines.length > bodyRows ? `lines ${scroll + 1}–${scroll + rows.length} of ${lines.length}` : '';
	}

	const mode = wrap ? '' : `wrap off${column > 0 ? `, from cell ${column + 1}` : ''}`;
	return (
		<Box flexDirection="column" height={height}>
			<Text {...styled(colour, styles.paneTitle)} wrap="truncate-end">
				{paneTitle({title, position, mode}, paneWidth)}
			</Text>
			{rows.map((line, index) => {
				const piece = pieces[index]!;
				const text = line.slice(piece.indent);
				const matches = find ? rowMatches(lines[piece.line] ?? '', piece.start, text, find) : [];
				const mark = gutter ? (matches.length > 0 ? '› ' : '  ') : '';
				const indent = ' '.repeat(piece.indent);
				return (
					// eslint-disable-next-line react/no-array-index-key -- rows have no identity beyond their position in the pane
					<Text key={index} wrap="truncate-end">
						{line === '' && mark === '' ? ' ' : mark + indent}
						{matches.length > 0 ? <MarkedRow text={text} matches={matches} colour={colour} /> : syntax === 'json' && colour ? <JsonLine text={text} /> : text}
					</Text>
				);
			})}
		</Box>
	);
}
