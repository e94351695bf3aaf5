import {Box, Text, Transform} from 'ink';
import {memo, useRef} from 'react';
import type {Row} from '../browser/cells.js';
import {formatHeader, rowLine, windowStart, type TableLayout} from '../browser/table-layout.js';
import {styled, useColour} from './colour.js';

// Blank lines by width, shared by every row of that width.
const blanks = new Map<number, string>();
function blank(width: number): string {
	let line = blanks.get(width);
	if (line === undefined) {
		line = ' '.repeat(width);
		blanks.set(width, line);
	}

	return line;
}

/**
 * A row redraws only when its text or selection changes. One text node per
 * row, not one for the whole table: measured with bench:keys, a single text
 * block cost 30% more CPU per row move, since Ink measures every text node's
 * whole string on every frame while a memoised row is measured only when it
 * changes.
 *
 * Ink hands every text node's string to string-width on every frame (the
 * output pass checks whether it must wrap), and string-width is fast only for
 * printable ASCII: one ellipsis or one accented name sends the whole line
 * through grapheme segmentation, a quarter of a frame when most rows end in
 * a cut cell. So Ink gets a blank line of the row's width, which it measures
 * on its fast path, and <Transform> puts the row's text in its place when the
 * line is written out. The width comes from the layout (rowLine), so the
 * text keeps the blank's dimensions, as Transform requires, and the blank
 * never makes Ink wrap. Screen readers get the text itself (accessibilityLabel).
 */
const RowLine = memo(({text, width, selected}: {text: string; width: number; selected: boolean}) => {
	// Without colour the selected row still shows, by its › marker.
	const colour = useColour();
	const standIn = blank(width);
	const draw = (line: string) => line.replace(standIn, () => text);
	return (
		<Transform transform={draw} accessibilityLabel={text}>
			{selected && colour ? <Text inverse>{standIn}</Text> : standIn}
		</Transform>
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
	/** Under an overlay: kept, but neither laid out nor drawn. */
	hidden?: boolean;
};

/**
 * The page as a table: a header and the window of rows that fits `height`.
 * Memoised: while an overlay is open, its keys do not redraw the hidden table.
 */
export const TableView = memo(({rows, layout, selected, height, empty, hidden = false}: Props) => {
	// The window only moves as far as the selection needs: remembered while mounted.
	const start = useRef(0);
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	start.current = windowStart(rows.length, bodyRows, selected, start.current);
	const shown = rows.slice(start.current, start.current + bodyRows);

	return (
		<Box flexDirection="column" height={height} display={hidden ? 'none' : 'flex'}>
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
					const line = rowLine(row.cells, layout.columns, isSelected);
					return <RowLine key={row.index} text={line.text} width={line.width} selected={isSelected} />;
				})
			)}
		</Box>
	);
});
