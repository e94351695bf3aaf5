import {Box, Text} from 'ink';
import {cutToWidth} from '../text/text-width.js';
import {sidewaysCut, wrappedWindow} from '../browser/wrap.js';
import {jsonTokens, type JsonTone} from '../browser/json-tokens.js';
import {paneTitle} from '../browser/status-model.js';
import {styled, useColour} from './colour.js';

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

/** A titled, scrollable block of text: detail JSON, the debug panel, help, compare. */
export function TextPane({title, lines, scroll, height, width, wrap = true, column = 0, syntax}: Props) {
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	let rows: string[];
	let position: string;
	if (wrap && width !== undefined) {
		const window = wrappedWindow(lines, width, scroll, bodyRows);
		rows = window.rows;
		const whole = window.firstLine <= 1 && window.lastLine >= lines.length && scroll === 0;
		position = whole ? '' : `lines ${window.firstLine}–${window.lastLine} of ${lines.length}`;
	} else {
		rows = lines.slice(scroll, scroll + bodyRows).map(line => (width === undefined ? line : column > 0 ? sidewaysCut(line, column, width) : cutToWidth(line, width)));
		position = lines.length > bodyRows ? `lines ${scroll + 1}–${scroll + rows.length} of ${lines.length}` : '';
	}

	const mode = wrap ? '' : `wrap off${column > 0 ? `, from cell ${column + 1}` : ''}`;
	return (
		<Box flexDirection="column" height={height}>
			<Text {...styled(colour, {bold: true, color: 'cyan'})} wrap="truncate-end">
				{paneTitle({title, position, mode}, width)}
			</Text>
			{rows.map((line, index) => (
				// eslint-disable-next-line react/no-array-index-key -- rows have no identity beyond their position in the pane
				<Text key={index} wrap="truncate-end">
					{line === '' ? ' ' : syntax === 'json' && colour ? <JsonLine text={line} /> : line}
				</Text>
			))}
		</Box>
	);
}
