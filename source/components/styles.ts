import type {Tone} from '../browser/view/status-model.js';

/**
 * The one style table of the browser's screen, as the props of Ink's
 * `<Text>`: the Ink components draw with it, and the first paint
 * (first-paint.ts) applies the same entries as Ink's `<Text>` applies its
 * props, so no style is written twice. Styles go through `styled` (colour.ts)
 * first: none at all without colour.
 */
export type TextStyle = {color?: string; backgroundColor?: string; dimColor?: boolean; bold?: boolean; inverse?: boolean};

export const styles = {
	/** The table's header line. */
	header: {bold: true},
	/** `this page is empty` where rows would be. */
	empty: {dimColor: true},
	/** The selected row (without colour, its › marker shows it). */
	selected: {inverse: true},
	/** ` · ` between a status line's segments. */
	separator: {dimColor: true},
	/** The fill strip. */
	fill: {dimColor: true},
	/** Why the page is short, alone or beside a message. */
	short: {color: 'yellow'},
	/** The keys' hint when nothing else is to say. */
	hint: {dimColor: true},
	/** A line being typed, and its cursor. */
	prompt: {color: 'cyan'},
	cursor: {inverse: true},
	/** The error banner. */
	banner: {backgroundColor: 'red', color: 'white', bold: true},
	/** A pane's title line. */
	paneTitle: {bold: true, color: 'cyan'},
} as const satisfies Record<string, TextStyle>;

/** The colour of each tone of the status area (Ink's colour names; none for plain). */
export const toneColours: Record<Tone, string | undefined> = {
	plain: undefined,
	dim: 'gray',
	good: 'green',
	warn: 'yellow',
	bad: 'red',
	accent: 'cyan',
};

/** A segment or a message in its tone. */
export function toneStyle(tone: Tone): TextStyle {
	const color = toneColours[tone];
	return color === undefined ? {} : {color};
}
