import type {ColumnChoice} from '../../cells/column-order.js';
import type {LinkBase} from '../../contract/links.js';
import type {CompareRow} from '../../contract/page-compare.js';
import type {Api} from '../../contract/types.js';
import type {Effect, ExportJob} from '../actions/effects.js';
import type {ListsState} from '../../text/lists-progress.js';
import type {RetryNotice} from '../../contract/types.js';
import type {Pane, Screen} from '../keys/screen.js';
import type {Follow, PageStackState, SearchDirection, SearchProgress, SearchStart, Settings} from '../stack/types.js';

/**
 * The browser state's types, the related walks' and the tasks it holds: a
 * leaf, so what reads the state (related-walks.ts, tasks.ts, the view's
 * lines) does not import the reducer (browser-state.ts) that imports it.
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
	view: View;
	/** Related lists: the walk on screen, where it is, and the walks it was opened from (see related-walks.ts). */
	walks: Walks;
	/**
	 * Work in flight the state holds itself (tasks.ts): the compare request,
	 * the follow poll, a search across pages, copies and writes not yet done.
	 * The page requests are recorded by the stack alone (`pending`, `prefetch`).
	 */
	tasks: HeldTasks;
	/** Whether a copy was asked for already: the OSC 52 caveat goes with the first only. */
	copied: boolean;
	/** The last text found in a pane (`/` then Enter with nothing typed finds it again). */
	found?: string;
	/** Where that find landed (0-based line, the pane's scroll then): the next one goes on after it while the pane stays there; the pane marks the matches. */
	foundAt?: {pane: Pane['kind']; line: number; scroll: number};
	/** Ctrl-Z presses so far: the app gives the terminal back and stops at each, as it closes on quit. */
	suspends: number;
	/** What the last export (E) said as it went (each failed list and why, contract findings), for the debug view. */
	exportLog?: ExportLog;
};

/** The lines dump would have said on stderr during an export, and the file they are about. */
export type ExportLog = {name: string; lines: readonly string[]};

/**
 * The export of every account's lists while it runs (E): a task (tasks.ts)
 * the runner carries out through the command's port, answering with
 * `exported`. `progress`: its figures as they come (throttled by the
 * runner), with when it started by the runner's clock and the lists done
 * before it (a resumed export's), for the time left; `waiting`: a wait it is
 * in. `stopping`: Ctrl-C asked it to stop, which it does keeping the file
 * and the state to go on with.
 */
export type RunningExport = {
	id: number;
	job: ExportJob;
	progress: ExportProgress | null;
	stopping: boolean;
};

export type ExportProgress = {figures: ListsState; since: number; doneBefore: number; waiting?: RetryNotice | undefined};

/**
 * A search across pages while it runs: a task (tasks.ts) the runner carries
 * out with search-pages.ts, answering with `search-done`; `cancelling` asks
 * it to stop (Esc), which it does on the page reached. `stack` is the stack
 * it searches from, `from` where that stack was (checked when it lands).
 */
export type RunningSearch = {
	id: number;
	stack: PageStackState;
	direction: SearchDirection;
	filter: string;
	progress: SearchProgress;
	cancelling: boolean;
	from: SearchStart;
};

/**
 * How the user looks at pages: `choice` of columns (picker, --columns; none:
 * reading order), `offset` columns scrolled past after the pinned id, panes
 * wrapped or cut and scrolled `paneColumn` cells sideways. `chosen` counts
 * choices made in the picker, so the app knows when to remember one.
 */
export type View = {choice: ColumnChoice | undefined; offset: number; wrap: boolean; paneColumn: number; chosen: number};

/** Where a walk is: what the breadcrumb calls its list, the path the status line shows, where its columns are remembered. */
export type WalkPlace = {
	/** The list's name in the breadcrumb (`accounts`, `transactions`); inert. */
	name: string;
	/** The list's path under the API base, shown in the status line. */
	endpoint: string;
	/** Where the column picker's choice is remembered: the endpoint, or a related list's pattern (`/v2/accounts/:id/transactions`). */
	columnsKey: string;
};

/** A walk waiting under a related list, exactly as it was left. */
export type ParentWalk = {
	stack: PageStackState;
	view: View;
	place: WalkPlace;
	/** The object whose related list was opened, as the breadcrumb names it (inert, cut). */
	via: string;
};

export type Walks = {
	/** The walks left for a related list, the nearest last. */
	parents: ParentWalk[];
	place: WalkPlace;
	api: Api;
	/** Where related lists are (the origin and path prefix of the first walk): never another origin. */
	base: LinkBase;
	/** The order and limit every related list starts with: the browser's own, not the parent's current ones. */
	settings: Settings;
	/** Column choices per related list pattern, as remembered when the browser started and chosen since. */
	remembered: Readonly<Record<string, ColumnChoice>>;
};

/**
 * The work in flight the browser state records itself. The page requests
 * are not here: they are the page stack's model (`pending`, the page it
 * waits for, which queued keys wait behind; `prefetch`, the next page), so
 * the stack is their one record, and wantedTasks (tasks.ts) derives their
 * tasks from it (docs/architecture.md, "Starting work in the browser").
 */
export type HeldTasks = {
	/** The compare view's request while its answer is wanted. */
	compare: {id: number; url: string} | null;
	/** The armed poll while following and idle; `follow` is the answer it was armed after. */
	poll: {id: number; follow: Follow} | null;
	/** The search across pages (`n`, `N`) running, if any. */
	search: RunningSearch | null;
	/** Copies and writes asked for and not yet done (effects.ts), oldest first, until they answer. */
	effects: Effect[];
	/** The export of every account's lists (E) running, if any: one at a time. */
	export: RunningExport | null;
};
