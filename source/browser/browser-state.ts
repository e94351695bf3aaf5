import {inert} from '../core/inert.js';
import {compareViewLines, type CompareRow} from '../core/page-compare.js';
import {describeError} from '../core/report-error.js';
import type {Page} from '../core/types.js';
import {visibleRows, type Row} from './cells.js';
import {debugLines} from './debug-lines.js';
import {jsonLines} from './format.js';
import {helpLines, keyName, type KeyFlags} from './keymap.js';
import {initialState, pageStackReducer, top, type Bounds, type PageStackState, type Settings, type StackAction} from './page-stack.js';
import {routeKey, type Screen} from './screen.js';
import {wrapLines} from './wrap-lines.js';

/**
 * The whole browser state: the page stack and what covers it. Key presses go
 * through this one reducer, so two keys arriving in the same tick each see the
 * state the previous one left (a component's closure would see a stale one).
 */

/**
 * The compare view's answer for one request URL: the ids each credential
 * sees, or what the second credential's request failed with (worded when
 * drawn). Null until `c` asks for a page.
 */
export type CompareResult = {url: string; rows: CompareRow[]} | {url: string; error: unknown};

export type BrowserState = {
	stack: PageStackState;
	screen: Screen;
	quit: boolean;
	/** Names of the two credentials compared (a: the walk's, b: the second), or null when no second was given. */
	compareLabels: {a: string; b: string} | null;
	compare: CompareResult | null;
};

export type BrowserAction =
	/** `bodyRows`: lines of rows (or overlay text) on screen, for PgUp/PgDn; `columns`: its width, where text wraps. */
	| {type: 'key'; input: string; key: KeyFlags; bodyRows: number; columns?: number}
	| {type: 'stack'; action: StackAction}
	| {type: 'compared'; result: CompareResult};

export function initialBrowserState(options: {
	startUrl: string;
	settings: Settings;
	maxCachedPages?: number;
	bounds?: Bounds;
	/** The first page when it is already here: the first frame shows it. */
	firstPage?: Page;
	compareLabels?: {a: string; b: string} | null;
}): BrowserState {
	let stack = initialState(options);
	if (options.firstPage) {
		stack = pageStackReducer(stack, {type: 'loaded', requestId: stack.pending!.requestId, page: options.firstPage});
	}

	return {stack, screen: {kind: 'table'}, quit: false, compareLabels: options.compareLabels ?? null, compare: null};
}

export function shownRows(stack: PageStackState): Row[] {
	const page = top(stack)?.page;
	return page ? visibleRows(page.objects, stack.filter) : [];
}

export function selectedRow(stack: PageStackState): Row | undefined {
	const entry = top(stack);
	return entry ? shownRows(stack)[entry.selected] : undefined;
}

/** The request URL the compare view wants answered, or null when it wants nothing. */
export function wantedCompare(state: BrowserState): string | null {
	const page = top(state.stack)?.page;
	if (state.screen.kind !== 'compare' || state.compareLabels === null || !page) {
		return null;
	}

	return state.compare?.url === page.requestUrl ? null : page.requestUrl;
}

function compareLines(state: BrowserState): string[] {
	const labels = state.compareLabels;
	if (labels === null) {
		return [
			'No second credential to compare with.',
			'Start pagewalk with --compare-env NAME, where the environment variable NAME',
			'holds another token or API key; c then shows which ids each one sees here.',
		];
	}

	const page = top(state.stack)?.page;
	if (!page) {
		return ['no page loaded yet'];
	}

	const result = state.compare;
	if (result?.url !== page.requestUrl) {
		return [`asking the same page with ${labels.b}…`];
	}

	if ('error' in result) {
		return [`The request with ${labels.b} failed: ${inert(describeError(result.error).message)}`];
	}

	const view = compareViewLines(result.rows, labels);
	return [view.summary, '', ...view.lines];
}

/**
 * The lines of the open overlay (empty for the table). With `columns`, the
 * debug view's lines wrap to it: a next_uri or the cursor evidence is read
 * whole, never cut.
 */
export function overlayLines(state: BrowserState, columns?: number): string[] {
	switch (state.screen.kind) {
		case 'detail': {
			const row = selectedRow(state.stack);
			return row ? jsonLines(row.object) : ['no object selected'];
		}

		case 'debug': {
			const lines = debugLines(state.stack);
			return columns === undefined ? lines : lines.flatMap(line => wrapLines(line, columns));
		}

		case 'help': {
			return helpLines();
		}

		case 'compare': {
			return compareLines(state);
		}

		default: {
			return [];
		}
	}
}

export function browserReducer(state: BrowserState, action: BrowserAction): BrowserState {
	if (action.type === 'compared') {
		// Only the answer for the page still on screen is kept.
		return action.result.url === top(state.stack)?.page?.requestUrl ? {...state, compare: action.result} : state;
	}

	if (action.type === 'stack') {
		const stack = pageStackReducer(state.stack, action.action);
		return stack === state.stack ? state : {...state, stack};
	}

	const name = keyName(action.input, action.key);
	const routed = routeKey(state.screen, name, action.input, {
		bodyRows: action.bodyRows,
		overlayLines: overlayLines(state, action.columns).length,
		filter: state.stack.filter,
		hasSelection: selectedRow(state.stack) !== undefined,
	});
	if (routed.quit) {
		return {...state, quit: true};
	}

	const stack = (routed.stack ?? []).reduce(pageStackReducer, state.stack);
	const screen = routed.screen ?? state.screen;
	return stack === state.stack && screen === state.screen ? state : {...state, stack, screen, quit: false};
}
