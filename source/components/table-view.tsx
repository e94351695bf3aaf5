import {Box, Text, Transform} from 'ink';
import {memo, useRef} from 'react';
import type {Row, RowSort} from '../browser/stack/cells.js';
import {formatHeader, rowLine, windowStart, type TableLayout} from '../browser/view/table-layout.js';
import {styled, useColour} from './colour.js';
import {styles} from './styles.js';

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
 * The window of rows as one Ink text node, not one per row: a key that moves
 * the selection or changes every row (a sideways scroll, a column toggle)
 * reconciles one element instead of one per row (bench:keys).
 *
 * Ink hands every text node's string to string-width on every frame (the
 * output pass checks whether it must wrap), and string-width is fast only for
 * printable ASCII: one ellipsis or one accented name sends the whole text
 * through grapheme segmentation. So Ink gets blank lines of the widest row's
 * width, which it measures on its fast path, and <Transform> puts each row's
 * text in its line's place when the lines are written out (Ink's output pass,
 * patched to keep its line cache between frames, tokenizes only the lines
 * that changed). The widths come from the layout (rowLine), so no row is wider
 * than its blank, as Transform requires, and the blanks never make Ink wrap.
 * The selected line's blank is inverse (Ink's own styling, so NO_COLOR and
 * colour depth are honoured); without colour it shows by its › marker.
 * Screen readers get the rows themselves (accessibilityLabel).
 */
function RowLines({shown, selectedRow, layout, fresh}: {shown: readonly Row[]; selectedRow: Row | undefined; layout: TableLayout; fresh: ReadonlySet<string> | undefined}) {
	const colour = useColour();
	// The rows' lines and the widest one's width, from the layout (nothing measured).
	let width = 0;
	let selected = -1;
	const lines = shown.map((row, index) => {
		const isSelected = row === selectedRow;
		if (isSelected) {
			selected = index;
		}

		const line = rowLine(row.cells, layout.columns, isSelected, fresh?.has(String(row.object['id'])) === true);
		width = Math.max(width, line.width);
		return line.text;
	});
	const standIn = blank(width);
	const draw = (line: string, index: number) => line.replace(standIn, () => lines[index] ?? '');
	return (
		<Transform transform={draw} accessibilityLabel={lines.join('\n')}>
			{selected === -1 ? (
				`${standIn}\n`.repeat(lines.length - 1) + standIn
			) : (
				<>
					{`${standIn}\n`.repeat(selected)}
					{colour ? <Text {...styles.selected}>{standIn}</Text> : standIn}
					{`\n${standIn}`.repeat(lines.length - selected - 1)}
				</>
			)}
		</Transform>
	);
}

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
	/** Ids of objects that just arrived while following (F): marked new. */
	fresh?: ReadonlySet<string>;
	/** The sort of the rows on screen, marked in the header. */
	sort?: RowSort | null;
};

/**
 * The page as a table: a header and the window of rows that fits `height`.
 * Memoised: while an overlay is open, its keys do not redraw the hidden table.
 */
export const TableView = memo(({rows, layout, selected, height, empty, hidden = false, fresh, sort}: Props) => {
	// The window only moves as far as the selection needs: remembered while mounted.
	const start = useRef(0);
	const colour = useColour();
	const bodyRows = Math.max(0, height - 1);
	start.current = windowStart(rows.length, bodyRows, selected, start.current);
	const shown = rows.slice(start.current, start.current + bodyRows);

	return (
		<Box flexDirection="column" height={height} display={hidden ? 'none' : 'flex'}>
			<Text {...styled(colour, styles.header)} wrap="truncate-end">
				{formatHeader(layout.columns, sort)}
			</Text>
			{shown.length === 0 ? (
				<Text {...styled(colour, styles.empty)} wrap="truncate-end">
					{'  '}
					{empty}
				</Text>
			) : (
				<RowLines shown={shown} selectedRow={rows[selected]} layout={layout} fresh={fresh} />
			)}
		</Box>
	);
});
