import {Box, Text} from 'ink';
import {memo, useRef} from 'react';
import type {Row} from '../browser/cells.js';
import {formatHeader, formatRow, windowStart, type TableLayout} from '../browser/table-layout.js';
import {styled, useColour} from './colour.js';

/**
 * A row redraws only when its text or selection changes. One <Text> per row,
 * not one for the whole table: measured with bench:keys, a single text block
 * cost 30% more CPU per row move, since Ink measures every text node's whole
 * string on every frame (string-width over the block) while a memoised row
 * is measured only when it changes. Most of a frame is Ink's output pass,
 * which costs per character on screen whatever the node count.
 */
const RowLine = memo(({text, selected}: {text: string; selected: boolean}) => {
	// Without colour the selected row still shows, by its › marker.
	const colour = useColour();
	return (
		<Text inverse={selected && colour} wrap="truncate-end">
			{text}
		</Text>
	);
});

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
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	start.current = windowStart(rows.length, bodyRows, selected, start.current);
	const shown = rows.slice(start.current, start.current + bodyRows);

	return (
		<Box flexDirection="column" height={height}>
			<Text {...styled(colour, {bold: true})} wrap="truncate-end">
				{formatHeader(layout.columns)}
			</Text>
			{shown.length === 0 ? (
				<Text {...styled(colour, {dimColor: true})} wrap="truncate-end">
					{'  '}
					{empty}
				</Text>
			) : (
				shown.map(row => {
					const isSelected = row === rows[selected];
					// Without the last column's padding: Ink's output pass costs per character drawn.
					return <RowLine key={row.index} text={formatRow(row.cells, layout.columns, isSelected).trimEnd()} selected={isSelected} />;
				})
			)}
		</Box>
	);
}
