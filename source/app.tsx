import {Box, Text} from 'ink';
import type {BrowserState} from './browser/state/types.js';
import {overlayLines} from './browser/view/pane-lines.js';
import {firstKey, pickerHint} from './browser/keys/keymap.js';
import type {ColumnChoice} from './cells/column-order.js';
import type {Bounds, PageStackState, Settings} from './browser/stack/types.js';
import {top} from './browser/stack/stack-steps.js';
import {isPane} from './browser/keys/screen.js';
import {minimumSize, tableScreen, type Size} from './browser/view/table-screen.js';
import {inert} from './text/inert.js';
import {shortLabel} from './contract/page-compare.js';
import type {Api, Page} from './contract/types.js';
import type {ColourLevel} from './text/colour.js';
import {ColourContext} from './components/colour.js';
import {StatusArea} from './components/status-area.js';
import {TableView} from './components/table-view.js';
import {TextPane} from './components/text-pane.js';
import {followEveryMs, type CurlFor, type ExportLists, type SavePages} from './components/use-tasks.js';
import type {LoadPage} from './browser/search/search-pages.js';
import {useSpinner, useTerminalSize} from './components/use-terminal.js';
import {useBrowser, useBrowserInput} from './components/use-browser.js';

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
	/** Colour depth (text/colour.ts: run-browser reads the environment); 0 draws no styling at all. */
	colour?: ColourLevel;
	/** A terminal that cannot redraw in place (TERM=dumb): every frame is printed anew, so nothing animates. */
	still?: boolean;
	/** The pause between polls while following (F). */
	followEveryMs?: number;
	/**
	 * `u`: the request of a page as a curl command (commands/browse/curl-command.ts),
	 * built by the command: the app never holds a credential, only this.
	 */
	curlFor?: CurlFor;
	/** `w` and `W`: writes pages to a file as NDJSON (commands/browse/copy-save.ts); the app never touches files. */
	save?: SavePages;
	/** `E` on the accounts list: every account's lists to a file, as dump writes them (commands/browse/export-lists.ts), through the command's one client. */
	exportLists?: ExportLists;
	/** Ctrl-Z: gives the terminal back and stops until the shell continues the job (commands/browse/terminal-screen.ts). */
	suspend?: (() => void) | undefined;
};

/**
 * The browser's layout. The state, its tasks and its keys live in hooks
 * (components/use-browser.ts, use-tasks.ts); everything drawn is computed by
 * the pure modules in browser/.
 */
export function App({loadPage, startUrl, api, endpoint, settings, size: fixedSize, maxCachedPages, firstPage, compare, columns, colour, still, followEveryMs: everyMs = followEveryMs, bounds, curlFor, save, exportLists, suspend}: AppProps) {
	const size = useTerminalSize(fixedSize);
	const [state, dispatch] = useBrowser(
		{startUrl, settings, maxCachedPages, firstPage, compareLabels: compare?.labels ?? null, columns, bounds, endpoint, api},
		{loadPage, compare: compare?.loadPage, curlFor, save, exportLists, followEveryMs: everyMs},
		suspend,
	);
	const {stack} = state;
	// Ticking while a page loads or a search waits: the wait on the message line is counted down.
	const spinner = useSpinner((stack.pending !== null || state.tasks.search?.progress.waiting !== undefined) && still !== true);
	const screen = tableScreen(state, {size, api, endpoint, spinner, now: Date.now()});
	const styling = (colour ?? 1) > 0;
	// Without styling, a pane's text sits behind a gutter that marks the rows a find matched (TextPane): the keys count its rows at that width.
	useBrowserInput(dispatch, screen.bodyHeight - 1, styling ? size.columns : size.columns - 2);
	const body = overlayBody(state, {height: screen.bodyHeight, width: size.columns, shown: screen.rows.length, compareLabels: compare?.labels, gutter: !styling});
	// The table stays mounted, hidden, under an overlay: closing the overlay
	// (or applying the column picker) updates its rows instead of building
	// every row's Ink nodes again.
	const table = <TableView rows={screen.rows} layout={screen.layout} selected={screen.selected} height={screen.bodyHeight} empty={screen.empty} hidden={body !== undefined} fresh={freshIds(stack)} sort={stack.sort} />;

	if (screen.tooSmall) {
		// Too small for the status area and one row: say so (wrapped to fit)
		// instead of drawing a frame taller than the screen. Keys still work.
		return (
			<Box width={size.columns} height={Math.max(1, size.rows - 1)} overflow="hidden">
				<Text wrap="wrap">{`terminal ${size.columns}x${size.rows} is too small: pagewalk needs ${minimumSize.columns}x${minimumSize.rows}; ${firstKey('quit')} quits`}</Text>
			</Box>
		);
	}

	return (
		<ColourContext.Provider value={styling}>
			<Box flexDirection="column" width={size.columns} height={screen.frameRows}>
				{body}
				{table}
				<StatusArea {...screen.status} />
			</Box>
		</ColourContext.Provider>
	);
}

/** What covers the table: the column picker or a pane (while `/` finds text in a pane, the pane stays drawn under the prompt), or nothing. */
function overlayBody(state: BrowserState, {height, width, shown, compareLabels, gutter}: {height: number; width: number; shown: number; compareLabels: {a: string; b: string} | undefined; gutter: boolean}) {
	const {screen} = state;
	if (screen.kind === 'columns') {
		const lines = screen.items.map((item, index) => `${index === screen.cursor ? '›' : ' '} [${item.shown ? 'x' : ' '}] ${inert(item.path)}${item.path === 'id' && index === 0 ? '  (pinned)' : ''}`);
		const scroll = Math.max(0, screen.cursor - (height - 2));
		return <TextPane title={`columns: ${pickerHint()}`} lines={lines} scroll={scroll} height={height} width={width} />;
	}

	const pane = screen.kind === 'find' ? screen.pane : screen;
	if (!isPane(pane)) {
		return undefined;
	}

	const titles = {
		help: 'keys',
		detail: `object ${(top(state.stack)?.selected ?? 0) + 1} of ${shown}`,
		debug: 'debug: request and response',
		compare: compareLabels ? `compare: ${inert(shortLabel(compareLabels.a))} against ${inert(shortLabel(compareLabels.b))}` : 'compare',
	};
	return (
		<TextPane
			title={titles[pane.kind]}
			lines={overlayLines(pane === screen ? state : {...state, screen: pane}, Date.now())}
			scroll={pane.scroll}
			height={height}
			width={width}
			wrap={state.view.wrap}
			column={state.view.paneColumn}
			syntax={pane.kind === 'detail' ? 'json' : undefined}
			find={state.foundAt?.pane === pane.kind ? state.found : undefined}
			gutter={gutter}
		/>
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
