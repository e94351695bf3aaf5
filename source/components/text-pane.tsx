import {Box, Text} from 'ink';
import {cutToWidth} from '../core/text-width.js';
import {jsonTokens, type JsonTone} from '../browser/json-tokens.js';
import {styled, useColour} from './colour.js';

type Props = {
	title: string;
	/** Already inert: every caller builds these through inert(). */
	lines: readonly string[];
	scroll: number;
	/** Lines available, title included. */
	height: number;
	/**
	 * Cells available: each line is cut to it here, by the one cut that reads a
	 * bounded prefix, so a megabyte line costs Ink no more than a short one.
	 */
	width?: number;
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
				// eslint-disable-next-line react/no-array-index-key
				<Text key={index} color={jsonColours[token.tone]}>
					{token.text}
				</Text>
			))}
		</>
	);
}

/** A titled, scrollable block of text: detail JSON, the debug panel, help. */
export function TextPane({title, lines, scroll, height, width, syntax}: Props) {
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	const shown = lines.slice(scroll, scroll + bodyRows);
	const position = lines.length > bodyRows ? ` · lines ${scroll + 1}–${scroll + shown.length} of ${lines.length}` : '';

	return (
		<Box flexDirection="column" height={height}>
			<Text {...styled(colour, {bold: true, color: 'cyan'})} wrap="truncate-end">
				{title}
				{position}
				{' · Esc closes'}
			</Text>
			{shown.map((line, index) => {
				const text = line === '' ? ' ' : width === undefined ? line : cutToWidth(line, width);
				return (
					// Lines have no identity beyond their position in the pane.
					// eslint-disable-next-line react/no-array-index-key
					<Text key={scroll + index} wrap="truncate-end">
						{syntax === 'json' && colour ? <JsonLine text={text} /> : text}
					</Text>
				);
			})}
		</Box>
	);
}
