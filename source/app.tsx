import {Box, useApp, useInput} from 'ink';
import {useEffect, useReducer} from 'react';
import {rowsOf} from './browser/cells.js';
import {browserReducer, initialBrowserState, overlayLines, shownRows, wantedCompare} from './browser/browser-state.js';
import {fillLine, shortNote} from './browser/fill-line.js';
import {statusModel} from './browser/status-model.js';
import {pageLayout} from './browser/table-layout.js';
import type {Settings} from './browser/page-stack.js';
import {top} from './browser/page-stack.js';
import {inert} from './core/inert.js';
import {comparePageRows} from './core/page-compare.js';
import type {Api, Page} from './core/types.js';
import {StatusArea, statusHeight} from './components/status-area.js';
import {TableView} from './components/table-view.js';
import {TextPane} from './components/text-pane.js';
import {usePageRequests, type LoadPage} from './components/use-page-requests.js';
import {useSpinner, useTerminalSize, type Size} from './components/use-terminal.js';

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
};

/**
 * The browser. Holds the state, runs the requests it asks for, and maps keys
 * to actions; everything it draws is computed by the pure modules in browser/.
 */
export function App({loadPage, startUrl, api, endpoint, settings, size: fixedSize, maxCachedPages, firstPage, compare}: AppProps) {
	const {exit} = useApp();
	const size = useTerminalSize(fixedSize);
	const [state, dispatch] = useReducer(
		browserReducer,
		{startUrl, settings, maxCachedPages, firstPage, compareLabels: compare?.labels ?? null},
		initialBrowserState,
	);
	const {stack, screen} = state;

	usePageRequests(stack, action => {
		dispatch({type: 'stack', action});
	}, loadPage);
	const spinner = useSpinner(stack.pending !== null);

	// One line short of the terminal: a frame as tall as the screen makes Ink
	// clear the whole terminal on every redraw.
	const frameRows = Math.max(statusHeight + 2, size.rows - 1);
	const bodyHeight = frameRows - statusHeight;
	const bodyRows = bodyHeight - 1;

	useInput((input, key) => {
		dispatch({type: 'key', input, key, bodyRows});
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
					const rows = comparePageRows(shown.objects.map(object => object.id), other.objects.map(object => object.id));
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

	useEffect(() => {
		if (state.quit) {
			exit();
		}
	}, [state.quit, exit]);

	const page = top(stack)?.page ?? null;
	const rows = shownRows(stack);
	const allRows = page ? rowsOf(page.objects) : [];
	// Columns come from the whole page, so filtering does not reshuffle them.
	const layout = pageLayout(allRows, size.columns);
	const model = statusModel({
		state: stack,
		api,
		endpoint: inert(endpoint),
		spinner,
		filter: stack.filter,
		visible: rows.length,
		hiddenColumns: layout.hidden,
	});

	let prompt: string | undefined;
	if (screen.kind === 'filter') {
		prompt = `/ filter rows: ${inert(screen.draft)}`;
	} else if (screen.kind === 'limit') {
		prompt = `limit (0–100), Enter applies: ${screen.draft}`;
	}

	let body;
	if (screen.kind === 'help' || screen.kind === 'detail' || screen.kind === 'debug' || screen.kind === 'compare') {
		const titles = {
			help: 'keys',
			detail: `object ${(top(stack)?.selected ?? 0) + 1} of ${rows.length}`,
			debug: 'debug: request and response',
			compare: compare ? `compare: ${inert(compare.labels.a)} against ${inert(compare.labels.b)}` : 'compare',
		};
		body = <TextPane title={titles[screen.kind]} lines={overlayLines(state)} scroll={screen.scroll} height={bodyHeight} width={size.columns} />;
	} else {
		const empty = page === null ? (stack.pending ? 'loading the first page…' : 'no page') : stack.filter === '' ? 'this page is empty' : 'no rows match the filter';
		body = <TableView rows={rows} layout={layout} selected={top(stack)?.selected ?? 0} height={bodyHeight} empty={empty} />;
	}

	return (
		<Box flexDirection="column" width={size.columns} height={frameRows}>
			{body}
			<StatusArea model={model} prompt={prompt} fill={fillLine(stack, size.columns)} note={shortNote(stack)} />
		</Box>
	);
}
