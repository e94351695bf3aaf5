import {Box, Text} from 'ink';
import {cutToWidth} from '../core/text-width.js';

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
};

/** A titled, scrollable block of text: detail JSON, the debug panel, help. */
export function TextPane({title, lines, scroll, height, width}: Props) {
	const bodyRows = Math.max(0, height - 1);
	const shown = lines.slice(scroll, scroll + bodyRows);
	const position = lines.length > bodyRows ? ` · lines ${scroll + 1}–${scroll + shown.length} of ${lines.length}` : '';

	return (
		<Box flexDirection="column" height={height}>
			<Text bold color="cyan" wrap="truncate-end">
				{title}
				{position}
				{' · Esc closes'}
			</Text>
			{shown.map((line, index) => (
				// eslint-disable-next-line react/no-array-index-key -- lines have no identity beyond their position in the pane
				<Text key={scroll + index} wrap="truncate-end">
					{line === '' ? ' ' : width === undefined ? line : cutToWidth(line, width)}
				</Text>
			))}
		</Box>
	);
}
