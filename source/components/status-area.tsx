import {Box, Text} from 'ink';
import {Fragment, memo, type ReactNode} from 'react';
import type {Segment, StatusModel, Tone} from '../browser/status-model.js';
import {tableHint} from '../browser/keymap.js';
import {wrapLines} from '../browser/wrap-lines.js';
import {styled, useColour} from './colour.js';

const colors: Record<Tone, string | undefined> = {
	plain: undefined,
	dim: 'gray',
	good: 'green',
	warn: 'yellow',
	bad: 'red',
	accent: 'cyan',
};

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
					{index > 0 ? <Text {...styled(colour, {dimColor: true})}> · </Text> : null}
					<Text {...styled(colour, {color: colors[segment.tone]})}>{segment.text}</Text>
				</Fragment>
			))}
		</Text>
	);
}, (before, after) => sameSegments(before.segments, after.segments));

/** Lines the status area always takes: location, page, fill strip, message. */
export const statusHeight = 4;

/** Most lines the error banner may take: the table keeps the rest. */
export const maxBannerLines = 4;

/** The error banner's lines at `columns` (a space each side), or null when the message is no error. */
export function bannerLines(model: StatusModel, columns: number): string[] | null {
	return model.message?.tone === 'bad' ? wrapLines(model.message.text, Math.max(1, columns - 2), maxBannerLines) : null;
}

type Props = {
	model: StatusModel;
	/** Replaces the message line while the user types a filter or a limit. */
	prompt?: string | undefined;
	/** The fill strip of the pages walked (one line, may be empty). */
	fill: string;
	/** Why the page may be short: shown on the message line when nothing else is. */
	note?: string | null;
	/** The error banner, wrapped to the width (see bannerLines): its advice is read in full, never cut. */
	banner?: readonly string[];
};

/** Always visible under the table; one line per part of the model. */
export function StatusArea({model, prompt, fill, note, banner}: Props) {
	const colour = useColour();
	let message: ReactNode;
	if (prompt !== undefined) {
		message = (
			<Text {...styled(colour, {color: 'cyan'})} wrap="truncate-end">
				{prompt}
				{/* The cursor: a block when styling is allowed, an underscore when not. */}
				{colour ? <Text inverse> </Text> : '_'}
			</Text>
		);
	} else if (model.message) {
		message = model.message.tone === 'bad' ? (
			<Box flexDirection="column">
				{(banner ?? [model.message.text]).map((line, index) => (
					// Lines of one message: their place is their identity.
					// eslint-disable-next-line react/no-array-index-key -- lines have no identity beyond their position
					<Text key={index} {...styled(colour, {backgroundColor: 'red', color: 'white', bold: true})} wrap="truncate-end">
						{` ${line} `}
					</Text>
				))}
			</Box>
		) : (
			// A copy's or a write's note goes first; why the page is short stays beside it.
			<Text {...styled(colour, {color: colors[model.message.tone]})} wrap="truncate-end">
				{model.message.text}
				{note && model.message.id === 'note' ? <Text {...styled(colour, {color: 'yellow'})}>{` · ${note}`}</Text> : null}
			</Text>
		);
	} else if (note) {
		message = (
			<Text {...styled(colour, {color: 'yellow'})} wrap="truncate-end">
				{note}
			</Text>
		);
	} else {
		message = (
			<Text {...styled(colour, {dimColor: true})} wrap="truncate-end">
				{tableHint()}
			</Text>
		);
	}

	return (
		<Box flexDirection="column">
			<Line segments={model.location} />
			<Line segments={model.page} />
			<Text {...styled(colour, {dimColor: true})} wrap="truncate-end">
				{fill === '' ? ' ' : fill}
			</Text>
			{message}
		</Box>
	);
}
