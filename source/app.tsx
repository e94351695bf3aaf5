import {Box, useApp, useInput} from 'ink';
import {useEffect, useReducer} from 'react';
import {rowsOf} from './browser/cells.js';
import {browserReducer, initialBrowserState, overlayLines, selectedRow, shownRows} from './browser/browser-state.js';
import {statusModel} from './browser/status-model.js';
import {pageLayout} from './browser/table-layout.js';
import type {Settings} from './browser/page-stack.js';
import {top} from './browser/page-stack.js';
import {inert} from './core/inert.js';
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
};

/**
 * The browser. Holds the state, runs the requests it asks for, and maps keys
 * to actions; everything it draws is computed by the pure modules in browser/.
 */
export function App({loadPage, startUrl, api, endpoint, settings, size: fixedSize, maxCachedPages, firstPage}: AppProps) {
	const {exit} = useApp();
	const size = useTerminalSize(fixedSize);
	const [state, dispatch] = useReducer(browserReducer, {startUrl, settings, maxCachedPages, firstPage}, initialBrowserState);
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
	if (screen.kind === 'help' || screen.kind === 'detail' || screen.kind === 'debug') {
		const titles = {
			help: 'keys',
			detail: `object ${(top(stack)?.selected ?? 0) + 1} of ${rows.length}`,
			debug: 'debug: request and response',
		};
		body = <TextPane title={titles[screen.kind]} lines={overlayLines(state)} scroll={screen.scroll} height={bodyHeight} />;
	} else {
		const empty = page === null ? (stack.pending ? 'loading the first page…' : 'no page') : stack.filter === '' ? 'this page is empty' : 'no rows match the filter';
		body = <TableView rows={rows} layout={layout} selected={top(stack)?.selected ?? 0} height={bodyHeight} empty={empty} />;
	}

	return (
		<Box flexDirection="column" width={size.columns} height={frameRows}>
			{body}
			<StatusArea model={model} prompt={prompt} />
		</Box>
	);
}
