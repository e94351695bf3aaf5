import {Box, Text} from 'ink';
import {memo, useRef} from 'react';
import type {Row} from '../browser/cells.js';
import {formatHeader, formatRow, windowStart, type TableLayout} from '../browser/table-layout.js';

/**
 * The rows on screen as ONE text node: the lines above the selection, the
 * selected line (inverse), the lines below. Ink lays out and measures a node
 * per <Text>, so a page change with one node per row cost a Yoga measure
 * and a text squash per row; one node costs one (see `npm run bench:keys`).
 * Every line is already cut to the terminal's width (table-layout.ts), so
 * Ink's own wrapping never runs: `wrap` only tells Ink not to truncate the
 * block as if it were one line. Memoised on its text: a key that changes
 * nothing on screen (a status-line update) skips it.
 */
const RowBlock = memo(({above, selected, below}: {above: string; selected: string; below: string}) => (
	<Text wrap="wrap">
		{above}
		{selected === '' ? '' : <Text inverse>{selected}</Text>}
		{below}
	</Text>
));

type Props = {
	rows: readonly Row[];
	layout: TableLayout;
	selected: number;
	/** Lines available, header included. */
	height: number;
	/** Shown instead of rows when there are none. */
	empty: string;
};

/** The page as a table: a header and the window of rows that fits `height`. */
export function TableView({rows, layout, selected, height, empty}: Props) {
	// The window only moves as far as the selection needs: remembered per mount.
	const start = useRef(0);
	const bodyRows = Math.max(0, height - 1);
	start.current = windowStart(rows.length, bodyRows, selected, start.current);
	const shown = rows.slice(start.current, start.current + bodyRows);

	let above = '';
	let current = '';
	let below = '';
	for (const row of shown) {
		const isSelected = row === rows[selected];
		const line = formatRow(row.cells, layout.columns, isSelected);
		if (isSelected) {
			current = line;
		} else if (current === '') {
			above += `${line}\n`;
		} else {
			below += `\n${line}`;
		}
	}

	// Nothing selected on screen: the lines above end with a newline too many.
	if (current === '' && above.endsWith('\n')) {
		above = above.slice(0, -1);
	}

	return (
		<Box flexDirection="column" height={height}>
			<Text bold wrap="truncate-end">
				{formatHeader(layout.columns)}
			</Text>
			{shown.length === 0 ? (
				<Text dimColor wrap="truncate-end">
					{'  '}
					{empty}
				</Text>
			) : (
				<RowBlock above={above} selected={current} below={below} />
			)}
		</Box>
	);
}
