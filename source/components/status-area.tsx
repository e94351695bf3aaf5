import {Box, Text} from 'ink';
import {Fragment, memo} from 'react';
import type {ReactNode} from 'react';
import type {Segment} from '../browser/view/status-model.js';
import type {TableScreen} from '../browser/view/table-screen.js';
import {styled, useColour} from './colour.js';
import {styles, toneStyle} from './styles.js';

const sameSegments = (a: readonly Segment[], b: readonly Segment[]) =>
	a.length === b.length && a.every((segment, index) => segment.id === b[index]!.id && segment.text === b[index]!.text && segment.tone === b[index]!.tone);

/**
 * One status line: redrawn only when a segment's text or tone changes (the
 * model is built anew on every key; most keys leave the location line as it was).
 */
const Line = memo(({segments}: {segments: readonly Segment[]}) => {
	const colour = useColour();
	return (
		<Text wrap="truncate-end">
			{segments.map((segment, index) => (
				<Fragment key={segment.id}>
					{index > 0 ? <Text {...styled(colour, styles.separator)}> · </Text> : null}
					<Text {...styled(colour, toneStyle(segment.tone))}>{segment.text}</Text>
				</Fragment>
			))}
		</Text>
	);
}, (before, after) => sameSegments(before.segments, after.segments));

type Props = TableScreen['status'];

/** Always visible under the table; one line per part of the model. */
export function StatusArea({location, page, fill, message: line}: Props) {
	const colour = useColour();
	let message: ReactNode;
	switch (line.kind) {
		case 'prompt': {
			message = (
				<Text {...styled(colour, styles.prompt)} wrap="truncate-end">
					{line.text}
					{/* The cursor: a block when styling is allowed, an underscore when not. */}
					{colour ? <Text {...styles.cursor}> </Text> : '_'}
				</Text>
			);
			break;
		}

		case 'banner': {
			message = (
				<Box flexDirection="column">
					{line.lines.map((text, index) => (
						// Lines of one message: their place is their identity.
						// eslint-disable-next-line react/no-array-index-key -- lines have no identity beyond their position
						<Text key={index} {...styled(colour, styles.banner)} wrap="truncate-end">
							{` ${text} `}
						</Text>
					))}
				</Box>
			);
			break;
		}

		case 'message': {
			// The last key's message (a copy's, a write's, a move's) goes first; why the page is short stays beside it.
			message = (
				<Text {...styled(colour, toneStyle(line.tone))} wrap="truncate-end">
					{line.text}
					{line.short ? <Text {...styled(colour, styles.short)}>{` · ${line.short}`}</Text> : null}
				</Text>
			);
			break;
		}

		case 'wrapped': {
			message = (
				<Box flexDirection="column">
					{line.lines.map((text, index) => (
						// Lines of one message: their place is their identity.
						// eslint-disable-next-line react/no-array-index-key -- lines have no identity beyond their position
						<Text key={index} {...styled(colour, toneStyle(line.tone))} wrap="truncate-end">
							{text}
						</Text>
					))}
				</Box>
			);
			break;
		}

		case 'short': {
			message = (
				<Text {...styled(colour, styles.short)} wrap="truncate-end">
					{line.text}
				</Text>
			);
			break;
		}

		case 'hint': {
			message = (
				<Text {...styled(colour, styles.hint)} wrap="truncate-end">
					{line.text}
				</Text>
			);
			break;
		}
	}

	return (
		<Box flexDirection="column">
			<Line segments={location} />
			<Line segments={page} />
			<Text {...styled(colour, styles.fill)} wrap="truncate-end">
				{fill === '' ? ' ' : fill}
			</Text>
			{message}
		</Box>
	);
}
