import {Box, Text, useApp, useInput} from 'ink';
import {useEffect, useReducer, useRef, useState} from 'react';
import {rowsOf} from './browser/cells.js';
import {browserReducer, initialBrowserState, overlayLines, wantedCompare} from './browser/browser-state.js';
import {fillLine, shortNote} from './browser/fill-line.js';
import {pickerHint, shownKeys} from './browser/keymap.js';
import {breadcrumb} from './browser/related-walks.js';
import {splitKeys} from './browser/key-chunks.js';
import {searchPages, throttled, type SearchProgress} from './browser/search-pages.js';
import {statusModel} from './browser/status-model.js';
import {missingColumns, pageLayout, type TableLayout} from './browser/table-layout.js';
import type {ColumnChoice} from './core/column-order.js';
import {clampOffset} from './core/table-layout.js';
import type {Bounds, PageStackState, Settings} from './browser/page-stack.js';
import {shownRows, top} from './browser/page-stack.js';
import {isPane} from './browser/screen.js';
import {inert} from './core/inert.js';
import {cutToWidth} from './core/text-width.js';
import {comparePageRows, namesById, shortLabel} from './core/page-compare.js';
import type {Api, Page} from './core/types.js';
import type {ColourLevel} from './core/colour.js';
import {ColourContext} from './components/colour.js';
import {bannerLines, StatusArea, statusHeight} from './components/status-area.js';
import {TableView} from './components/table-view.js';
import {TextPane} from './components/text-pane.js';
import {usePageRequests, type LoadPage} from './components/use-page-requests.js';
import {useSpinner, useTerminalSize, type Size} from './components/use-terminal.js';
import {followEveryMs, useFollowPolls} from './components/use-follow.js';
import {useCopyAndSave, type CurlFor, type SavePages} from './components/use-copy-save.js';
import {createMouseFilter} from './browser/mouse.js';
import {overwriteQuestion} from './core/save-path.js';

/** The smallest terminal the browser draws in: the status area, a header and a row, and room for an id. */
export const minimumSize = {columns: 32, rows: 8} as const;

export type AppProps = {
	/** Fetches one page; the app aborts it through the signal when no longer wanted. */
	loadPage: LoadPage;
	/** The URL the walk starts at (with --starting-after, a cursor URL). */
	startUrl: string;
	api: Api;
	/** Shown in the status line, e.g. /v2/accounts. */
	endpoint: string;
	/** Order and limit the walk starts with (the server defaults when not given). */
	settings: Settings;
	/** A fixed size instead of the terminal's (tests, benchmarks). */
	size?: Size;
	maxCachedPages?: number;
	/** The page at `startUrl` when it was fetched before the app started. */
	firstPage?: Page;
	/**
	 * The compare view (`c`): fetches a page's request URL with the second
	 * credential; `labels` name both credentials (never their values).
	 */
	compare?: {loadPage: (url: string, signal: AbortSignal) => Promise<Page>; labels: {a: string; b: string}};
	/**
	 * The columns to start with (--columns, or the endpoint's remembered
	 * choice), and where a choice made in the picker is remembered: the
	 * command owns the state file, the app never touches the file system.
	 */
	columns?: {
		initial?: ColumnChoice | undefined;
		/** `endpoint`: a related list's pattern (`/v2/accounts/:id/transactions`) when the choice was made there; the walk's own endpoint when not given. */
		save?: (choice: ColumnChoice, endpoint?: string) => void;
		/** Choices remembered for related lists, by pattern. */
		remembered?: Readonly<Record<string, ColumnChoice>>;
	};
	/** --max-pages and --max-items: → stops following next_uri at the bound, with a notice. */
	bounds?: Bounds;
	/** Colour depth (core/colour.ts: run-browser reads the environment); 0 draws no styling at all. */
	colour?: ColourLevel;
	/** A terminal that cannot redraw in place (TERM=dumb): every frame is printed anew, so nothing animates. */
	still?: boolean;
	/** The pause between polls while following (F). */
	followEveryMs?: number;
	/**
	 * `u`: the request of a page as a curl command (core/curl-command.ts),
	 * built by the command: the app never holds a credential, only this.
	 */
	curlFor?: CurlFor;
	/** `w` and `W`: writes pages to a file as NDJSON (commands/copy-save.ts); the app never touches files. */
	save?: SavePages;
};

/** Which columns are on screen, by position (the id is 1), for the status line's `cols 4–9 of 22`. */
function columnSpan(layout: TableLayout, offset: number) {
	const total = layout.columns.length + layout.hidden;
	const scrolled = layout.columns[0]?.path === 'id' ? clampOffset(offset, total - 1) : 0;
	return {offset: scrolled, first: scrolled + 2, last: scrolled + layout.columns.length, total};
}

/**
 * The browser. Holds the state, runs the requests it asks for, and maps keys
 * to actions; everything it draws is computed by the pure modules in browser/.
 */
export function App({loadPage, startUrl, api, endpoint, settings, size: fixedSize, maxCachedPages, firstPage, compare, columns, colour, still, followEveryMs: everyMs = followEveryMs, bounds, curlFor, save: savePages}: AppProps) {
	const {exit} = useApp();
	const size = useTerminalSize(fixedSize);
	const [state, dispatch] = useReducer(
		browserReducer,
		{startUrl, settings, maxCachedPages, firstPage, compareLabels: compare?.labels ?? null, columnChoice: columns?.initial, bounds, endpoint, api, rememberedColumns: columns?.remembered},
		initialBrowserState,
	);
	const {stack, screen} = state;

	usePageRequests(stack, action => {
		dispatch({type: 'stack', action});
	}, loadPage);
	const spinner = useSpinner(stack.pending !== null && still !== true);
	useFollowPolls(stack.follow, stack.pending !== null, everyMs, () => {
		dispatch({type: 'stack', action: {type: 'follow-poll'}});
	});
	// In a related list, the status line shows the way back: `accounts › BTC Wallet › transactions`.
	const shownEndpoint = state.walks.parents.length > 0 ? breadcrumb(state.walks) : inert(endpoint);

	// One line short of the terminal: a frame as tall as the screen makes Ink
	// clear the whole terminal on every redraw.
	const frameRows = Math.max(statusHeight + 2, size.rows - 1);
	// The error banner wraps: the lines it takes beyond one come from the body.
	const related = state.walks.parents.length > 0;
	const banner = state.stack.error ? bannerLines(statusModel({state: stack, api, endpoint: shownEndpoint, spinner: '', filter: stack.filter, visible: 0, related}), size.columns) : null;
	const bodyHeight = Math.max(2, frameRows - statusHeight - Math.max(0, (banner?.length ?? 1) - 1));
	const bodyRows = bodyHeight - 1;

	// Mouse reports are taken out before the keys (browser/mouse.ts): a wheel notch scrolls, and never types.
	const mouse = useRef<ReturnType<typeof createMouseFilter>>(null);
	mouse.current ??= createMouseFilter();
	useInput((raw, rawKey) => {
		const taken = mouse.current!(raw);
		if (taken.rows !== 0) {
			dispatch({type: 'wheel', rows: taken.rows, bodyRows, columns: size.columns});
		}

		if (taken.keys === '' && raw !== '') {
			return;
		}

		const [input, key] = taken.keys === raw ? [raw, rawKey] : [taken.keys, {}];
		// One read may hold many keys (key repeat, a paste): each one counts, in order.
		for (const press of splitKeys(input, key)) {
			dispatch({type: 'key', input: press.input, key: press.key, bodyRows, columns: size.columns});
		}
	});

	// The compare view asks for the page on screen with the second credential;
	// leaving the view or the page aborts that request.
	const compareUrl = wantedCompare(state);
	useEffect(() => {
		if (compareUrl === null || !compare) {
			return;
		}

		const shown = top(state.stack)?.page;
		const controller = new AbortController();
		compare.loadPage(compareUrl, controller.signal).then(
			other => {
				if (shown) {
					const rows = comparePageRows(shown.objects.map(object => object.id), other.objects.map(object => object.id), namesById(shown.objects, other.objects));
					dispatch({type: 'compared', result: {url: compareUrl, rows}});
				}
			},
			(error: unknown) => {
				if (!controller.signal.aborted) {
					dispatch({type: 'compared', result: {url: compareUrl, error}});
				}
			},
		);
		return () => {
			controller.abort();
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- the URL names the request; the page object behind it is read once
	}, [compareUrl, compare]);

	useCopyAndSave(state.effects, dispatch, {curlFor, save: savePages, loadPage});

	// A search across pages (n, N) runs here, outside the reducer: the pages it
	// passes cost no frame. The status line says where it starts at once, then
	// the page it is on twice a second (a frame of a 100-row page costs tens of
	// ms of CPU under load: bench:search), and the outcome lands with one
	// action. Esc aborts it through the signal.
	const searching = state.search.running;
	const searchController = useRef<AbortController | null>(null);
	useEffect(() => {
		if (!searching) {
			return;
		}

		const {id} = searching;
		const controller = new AbortController();
		searchController.current = controller;
		let disposed = false;
		const onProgress = throttled((progress: SearchProgress) => {
			if (!disposed) {
				dispatch({type: 'search-progress', id, progress});
			}
		}, 500, undefined, {leading: false});
		void searchPages(state.stack, searching.direction, searching.filter, {loadPage, signal: controller.signal, onProgress}).then(outcome => {
			onProgress.cancel();
			if (!disposed) {
				dispatch({type: 'search-done', id, outcome});
			}
		});
		return () => {
			disposed = true;
			onProgress.cancel();
			controller.abort();
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- one run per search id; it starts from the stack of the render that began it
	}, [searching?.id]);
	useEffect(() => {
		if (searching?.cancelling) {
			searchController.current?.abort();
		}
	}, [searching?.cancelling]);

	// A choice made in the picker is remembered for the endpoint (a related
	// list's under its pattern); once per choice, not again when a walk is left
	// and its parent's view, choice included, comes back: every choice saved
	// (or given at start) is kept, not only the last, since the parent's and
	// the child's may both have been made.
	const save = columns?.save;
	const [saved] = useState(() => new WeakSet<ColumnChoice>(state.view.choice ? [state.view.choice] : []));
	useEffect(() => {
		if (state.view.chosen > 0 && state.view.choice && !saved.has(state.view.choice)) {
			saved.add(state.view.choice);
			if (state.walks.parents.length > 0) {
				save?.(state.view.choice, state.walks.place.columnsKey);
			} else {
				save?.(state.view.choice);
			}
		}
		// eslint-disable-next-line react-hooks/exhaustive-deps -- saved once per choice made, not when the callback's identity changes
	}, [state.view.chosen, state.view.choice]);

	useEffect(() => {
		if (state.quit) {
			exit();
		}
	}, [state.quit, exit]);

	const page = top(stack)?.page ?? null;
	const rows = shownRows(stack);
	const allRows = page ? rowsOf(page.objects, page.objectTexts) : [];
	// Columns come from the whole page, so filtering does not reshuffle them.
	const layout = pageLayout(allRows, size.columns, {choice: state.view.choice, offset: state.view.offset});
	const model = statusModel({
		state: stack,
		api,
		endpoint: shownEndpoint,
		spinner,
		now: Date.now(),
		filter: stack.filter,
		visible: rows.length,
		hiddenColumns: layout.hidden,
		columnSpan: columnSpan(layout, state.view.offset),
		search: searching?.progress ?? null,
		note: state.note,
		related,
		missingColumns: missingColumns(allRows, state.view.choice),
	});

	let prompt: string | undefined;
	if (screen.kind === 'save') {
		const offered = screen.draft === '' && screen.suggested !== undefined ? `(Enter: ${screen.suggested}) ` : '';
		prompt = `write ${screen.what === 'page' ? 'the page' : `the walk (${stack.entries.length} page${stack.entries.length === 1 ? '' : 's'})`} as NDJSON to file: ${offered}${inert(screen.draft)}`;
	} else if (screen.kind === 'overwrite') {
		prompt = `${overwriteQuestion(screen.job.name, shownKeys('confirm-yes')[0])} `;
	} else if (screen.kind === 'filter') {
		prompt = `/ filter rows: ${inert(screen.draft)}`;
	} else if (screen.kind === 'limit') {
		prompt = `limit (0–100), Enter applies: ${screen.draft}${screen.fresh ? ' (type to replace)' : ''}`;
	} else if (screen.kind === 'jump') {
		prompt = `: jump (id: after it, <id: before it): ${inert(screen.draft)}`;
	} else if (screen.kind === 'find') {
		prompt = `/ find in this pane${state.found === undefined ? '' : ` (Enter alone: "${inert(cutToWidth(state.found, 20))}")`}: ${inert(screen.draft)}`;
	}

	// While `/` finds text in a pane, the pane stays drawn under the prompt.
	const pane = screen.kind === 'find' ? screen.pane : screen;

	let body;
	if (screen.kind === 'columns') {
		const lines = screen.items.map((item, index) => `${index === screen.cursor ? '›' : ' '} [${item.shown ? 'x' : ' '}] ${inert(item.path)}${item.path === 'id' && index === 0 ? '  (pinned)' : ''}`);
		const scroll = Math.max(0, screen.cursor - (bodyHeight - 2));
		body = <TextPane title={`columns: ${pickerHint()}`} lines={lines} scroll={scroll} height={bodyHeight} width={size.columns} />;
	} else if (isPane(pane)) {
		const titles = {
			help: 'keys',
			detail: `object ${(top(stack)?.selected ?? 0) + 1} of ${rows.length}`,
			debug: 'debug: request and response',
			compare: compare ? `compare: ${inert(shortLabel(compare.labels.a))} against ${inert(shortLabel(compare.labels.b))}` : 'compare',
		};
		body = (
			<TextPane
				title={titles[pane.kind]}
				lines={overlayLines(pane === screen ? state : {...state, screen: pane})}
				scroll={pane.scroll}
				height={bodyHeight}
				width={size.columns}
				wrap={state.view.wrap}
				column={state.view.paneColumn}
				syntax={pane.kind === 'detail' ? 'json' : undefined}
			/>
		);
	}

	// The table stays mounted, hidden, under an overlay: closing the overlay
	// (or applying the column picker) updates its rows instead of building
	// every row's Ink nodes again.
	const empty = page === null ? (stack.pending ? 'loading the first page…' : 'no page') : stack.filter === '' ? 'this page is empty' : 'no rows match the filter';
	const table = <TableView rows={rows} layout={layout} selected={top(stack)?.selected ?? 0} height={bodyHeight} empty={empty} hidden={body !== undefined} fresh={freshIds(stack)} sort={stack.sort} />;

	if (size.columns < minimumSize.columns || size.rows < minimumSize.rows) {
		// Too small for the status area and one row: say so (wrapped to fit)
		// instead of drawing a frame taller than the screen. Keys still work.
		return (
			<Box width={size.columns} height={Math.max(1, size.rows - 1)} overflow="hidden">
				<Text wrap="wrap">{`terminal ${size.columns}x${size.rows} is too small: pagewalk needs ${minimumSize.columns}x${minimumSize.rows}; ${shownKeys('quit')[0]!} quits`}</Text>
			</Box>
		);
	}

	return (
		<ColourContext.Provider value={(colour ?? 1) > 0}>
			<Box flexDirection="column" width={size.columns} height={frameRows}>
				{body}
				{table}
				<StatusArea model={model} prompt={prompt} fill={fillLine(stack, size.columns)} note={shortNote(stack)} banner={banner ?? undefined} />
			</Box>
		</ColourContext.Provider>
	);
}

// One set per arrival, so the memoised table redraws only when it changes.
const freshSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The ids marked new while following, or none. */
function freshIds(stack: PageStackState): ReadonlySet<string> | undefined {
	const fresh = stack.follow?.fresh;
	if (!fresh || fresh.length === 0) {
		return undefined;
	}

	let set = freshSets.get(fresh);
	if (!set) {
		set = new Set(fresh);
		freshSets.set(fresh, set);
	}

	return set;
}
