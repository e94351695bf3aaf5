import type {ColumnChoice} from '../../cells/column-order.js';
import {clampOffset} from '../../cells/table-layout.js';
import type {Api, Page} from '../../contract/types.js';
import {rowsOf} from '../stack/cells.js';
import {overlayLines} from '../view/pane-lines.js';
import {initialWalks, openRelated, relatedOf, returnToParent} from '../related/related-walks.js';
import {isPane, modeOf} from '../keys/screen.js';
import type {Pane, ViewChange, Ask} from '../keys/screen.js';
import type {Effect, ExportJob, SaveJob} from '../actions/effects.js';
import {osc52} from '../actions/clipboard.js';
import type {ExportResult, SaveResult} from '../actions/save-path.js';
import {commandFor, keyName} from '../keys/keymap.js';
import type {KeyFlags} from '../keys/keymap.js';
import {initialState, pageStackReducer} from '../stack/page-stack.js';
import {pageColumns, pickerItems} from '../view/table-layout.js';
import {noHeldTasks, settleTasks, takeTaskId} from './tasks.js';
import {wrappedRows, wrappedWindow} from '../../text/wrap.js';
import {searchStart} from '../stack/search-landing.js';
import {selectedRow, top} from '../stack/stack-steps.js';
import type {Bounds, Notice, SaveWhat, Settings, StackAction, SearchDirection, SearchOutcome, SearchProgress} from '../stack/types.js';
import type {BrowserState, CompareResult, ExportProgress, RunningSearch, View} from './types.js';
import {routeKey, routeWheel} from '../keys/router.js';

/**
 * The whole browser state: the page stack and what covers it. Key presses go
 * through this one reducer, so two keys arriving in the same tick each see the
 * state the previous one left (a component's closure would see a stale one).
 */

export type BrowserAction =
	/** `bodyRows`: lines of rows (or overlay text) on screen, for PgUp/PgDn; `columns`: its width, where text wraps. */
	| {type: 'key'; input: string; key: KeyFlags; bodyRows: number; columns?: number}
	/** Text pasted (bracketed paste), one line: typed into the line being typed, if one is open, and no key. */
	| {type: 'paste'; text: string}
	| {type: 'stack'; action: StackAction}
	// The answers of tasks (tasks.ts), each under the id of the task it answers.
	| {type: 'compared'; id: number; result: CompareResult}
	| {type: 'done'; id: number; notice: Notice}
	| {type: 'saved'; id: number; job: SaveJob; result: SaveResult; refetched: number}
	| {type: 'wheel'; rows: number; bodyRows: number; columns?: number}
	// Search across pages: progress (throttled by the app) and the one landing.
	| {type: 'search-progress'; id: number; progress: SearchProgress}
	| {type: 'search-done'; id: number; outcome: SearchOutcome}
	// The export of every account's lists (E): its figures as they come (throttled by the app), and how it ended.
	| {type: 'export-progress'; id: number; progress: ExportProgress}
	| {type: 'exported'; id: number; job: ExportJob; result: ExportResult};

/**
 * What the browser starts from, as the command gives it: the app's reducer
 * starts from it (components/use-browser.ts), and so does the first paint.
 */
export type BrowserOptions = {
	startUrl: string;
	settings: Settings;
	maxCachedPages?: number | undefined;
	/** The first page when it is already here: the first frame shows it. */
	firstPage?: Page | undefined;
	compareLabels: {a: string; b: string} | null;
	bounds?: Bounds | undefined;
	/** The endpoint's path under the API base (where related lists resolve), and its API. */
	endpoint: string;
	api: Api;
	/**
	 * The columns to start with (--columns, or remembered for the endpoint),
	 * where a choice made is remembered, and the choices remembered for
	 * related lists, by pattern (`/v2/accounts/:id/transactions`).
	 */
	columns?: {
		initial?: ColumnChoice | undefined;
		save?: (choice: ColumnChoice, endpoint?: string) => void;
		remembered?: Readonly<Record<string, ColumnChoice>>;
	} | undefined;
};

/**
 * What {@link startState} needs: the command's options, where the endpoint, its
 * API and a second credential may be left out (a list with no related lists, no
 * compare view).
 */
export type StartOptions = Omit<BrowserOptions, 'compareLabels' | 'endpoint' | 'api'> & Partial<Pick<BrowserOptions, 'compareLabels' | 'endpoint' | 'api'>>;

/** The one state the browser starts in, from what the command gives it: the first page on screen when it is already here. */
export function startState(options: StartOptions): BrowserState {
	let stack = initialState(options);
	if (options.firstPage) {
		stack = pageStackReducer(stack, {type: 'loaded', requestId: stack.pending!.requestId, page: options.firstPage});
	}

	const view: View = {choice: options.columns?.initial, offset: 0, wrap: true, paneColumn: 0, chosen: 0};
	const walks = initialWalks({startUrl: options.startUrl, endpoint: options.endpoint, api: options.api, settings: options.settings, remembered: options.columns?.remembered});
	return {stack, screen: {kind: 'table'}, quit: false, compareLabels: options.compareLabels ?? null, compare: null, view, walks, tasks: noHeldTasks, copied: false, suspends: 0};
}

/** Rows the open overlay takes on screen: its lines, or their wrapped rows when panes wrap. */
function overlayRows(state: BrowserState, columns: number | undefined): number {
	const lines = overlayLines(state);
	return state.view.wrap && columns !== undefined ? wrappedRows(lines, columns) : lines.length;
}

function applyView(state: BrowserState, change: ViewChange): View {
	const {view} = state;
	switch (change.type) {
		case 'scroll-columns': {
			const page = top(state.stack)?.page;
			const scrollable = page ? pageColumns(rowsOf(page.objects, page.objectTexts), view.choice).length - 1 : 0;
			const offset = clampOffset(view.offset + change.delta, scrollable);
			return offset === view.offset ? view : {...view, offset};
		}

		case 'scroll-pane': {
			const paneColumn = view.wrap ? 0 : Math.max(0, view.paneColumn + change.delta);
			return paneColumn === view.paneColumn ? view : {...view, paneColumn};
		}

		case 'toggle-wrap': {
			return {...view, wrap: !view.wrap, paneColumn: 0};
		}

		case 'choose-columns': {
			return {...view, choice: change.choice, offset: 0, chosen: view.chosen + 1};
		}
	}
}

/** The state with `effect` queued for the app. */
function withEffect(state: BrowserState, effect: Effect extends infer E ? (E extends Effect ? Omit<E, 'id'> : never) : never): BrowserState {
	const first = effect.kind === 'copy' && !state.copied;
	const queued = first ? {...effect, caveat: true} : effect;
	const [id, numbered] = takeTaskId(state);
	return {...numbered, tasks: {...numbered.tasks, effects: [...numbered.tasks.effects, {...queued, id} as Effect]}, copied: state.copied || effect.kind === 'copy'};
}

/** A key's copy or write ask, with the data taken now: what is on screen when the key was pressed. */
function applyAsk(state: BrowserState, ask: Ask): BrowserState {
	const entry = top(state.stack);
	const page = entry?.page ?? null;
	switch (ask.kind) {
		case 'copy': {
			if (ask.what === 'curl') {
				return page
					? withEffect(state, {kind: 'copy', what: 'curl', text: '', url: page.requestUrl, words: `curl command of page ${state.stack.entries.length}`, label: ''})
					: withNotice(state, {kind: 'nothing-to-copy'});
			}

			const row = selectedRow(state.stack);
			if (!row || !page) {
				return state;
			}

			const id = String(row.object['id']);
			const text = ask.what === 'id' ? id : page.objectTexts?.[row.index] ?? JSON.stringify(row.object);
			return withEffect(state, {kind: 'copy', what: ask.what, text, url: page.requestUrl, words: ask.what === 'id' ? 'id' : 'JSON of', label: id});
		}

		case 'save': {
			if (ask.name.trim() === '') {
				return withNotice(state, {kind: 'no-file-name', what: ask.what});
			}

			const pages = ask.what === 'page' ? (entry?.page ? [{url: entry.url, page: entry.page}] : []) : state.stack.entries.map(walked => ({url: walked.url, page: walked.page}));
			if (pages.length === 0) {
				return withNotice(state, {kind: 'nothing-to-write'});
			}

			return withEffect(state, {kind: 'save', job: {what: ask.what, name: ask.name, pages, overwrite: false}});
		}

		case 'overwrite': {
			return withEffect(state, {kind: 'save', job: {...ask.job, overwrite: true}});
		}

		case 'kept': {
			return withNotice(state, {kind: 'kept', name: ask.name});
		}

		case 'export': {
			return startExport(state, {each: ask.each, name: ask.name, mode: 'new'});
		}

		case 'export-confirmed': {
			return startExport(state, ask.job);
		}
	}
}

/** The walk on screen is the account API's accounts list, the one E exports every account's lists from (not a related list, not commerce). */
function exportable(state: BrowserState): boolean {
	return state.walks.api === 'account' && state.walks.parents.length === 0 && state.walks.place.endpoint === '/v2/accounts';
}

/** The export asked for, as a task (one at a time: a second is told to wait). */
function startExport(state: BrowserState, job: ExportJob): BrowserState {
	if (state.tasks.export) {
		return withNotice(state, {kind: 'export-busy'});
	}

	const [id, numbered] = takeTaskId(state);
	return {...numbered, tasks: {...numbered.tasks, export: {id, job, progress: null, stopping: false}}};
}

/** Lines of an export's log the debug view keeps: the first ones, the rest counted. */
const exportLogLines = 200;

/** What an export came to: a message (and what it said as it went, for the debug view), or the question when its file exists (unless the user is typing). */
function exportedState(previous: BrowserState, {job, result}: Extract<BrowserAction, {type: 'exported'}>): BrowserState {
	const state = {...previous, tasks: {...previous.tasks, export: null}};
	const logged = (said: readonly string[]) => ({name: job.name, lines: said.length > exportLogLines ? [...said.slice(0, exportLogLines), `… and ${said.length - exportLogLines} more`] : said});
	switch (result.kind) {
		case 'written': {
			const notice = {kind: 'exported' as const, name: job.name, objects: result.objects, lists: result.lists, failed: result.failed.slice(0, 3).map(list => list.account), failedCount: result.failed.length};
			return withNotice({...state, exportLog: logged(result.said)}, notice);
		}

		case 'exists': {
			const free = state.screen.kind === 'table' || 'scroll' in state.screen;
			return free ? {...state, screen: {kind: 'export-exists', job, resumable: result.resumable}} : withNotice(state, {kind: 'exists', name: job.name});
		}

		case 'stopped': {
			const {why, objects, lists, total, known, resume} = result;
			return withNotice({...state, exportLog: logged(result.said)}, {kind: 'export-stopped', name: job.name, why, objects, lists, total, known, resume});
		}

		case 'failed': {
			return withNotice(state, {kind: 'write-failed', message: result.message});
		}
	}
}

/** The message after a copy: what `text` came to on the clipboard, or why it did not fit. The app writes `sequence`. */
export function copyOutcome(effect: Extract<Effect, {kind: 'copy'}>, text: string): {sequence: string | null; notice: Notice} {
	const write = osc52(text);
	return {sequence: write.ok ? write.sequence : null, notice: {kind: 'copied', words: effect.words, label: effect.label, write: write.ok ? {ok: true, sequence: '', bytes: write.bytes} : write, caveat: effect.caveat === true}};
}

/** What a write came to: a message, or the overwrite question when the file exists (unless the user is typing). */
function savedState(state: BrowserState, action: Extract<BrowserAction, {type: 'saved'}>): BrowserState {
	const {job, result} = action;
	switch (result.kind) {
		case 'written': {
			return withNotice(state, {kind: 'wrote', name: job.name, counts: {objects: result.objects, pages: result.pages, refetched: action.refetched}, walk: job.what === 'walk'});
		}

		case 'exists': {
			const free = state.screen.kind === 'table' || 'scroll' in state.screen;
			return free ? {...state, screen: {kind: 'overwrite', job}} : withNotice(state, {kind: 'exists', name: job.name});
		}

		case 'failed': {
			return withNotice(state, {kind: 'write-failed', message: result.message});
		}
	}
}

/** The state after `action`, with the tasks it wants settled (tasks.ts). */
export function browserReducer(previous: BrowserState, action: BrowserAction): BrowserState {
	const state = reduceBrowser(previous, action);
	return state === previous ? state : settleTasks(state);
}

/** The state without a task's effect (copy, save): it answered. */
function withoutEffect(state: BrowserState, id: number): BrowserState {
	return {...state, tasks: {...state.tasks, effects: state.tasks.effects.filter(effect => effect.id !== id)}};
}

function reduceBrowser(state: BrowserState, action: BrowserAction): BrowserState {
	switch (action.type) {
		case 'done': {
			return state.tasks.effects.some(effect => effect.id === action.id) ? withNotice(withoutEffect(state, action.id), action.notice) : state;
		}

		case 'saved': {
			return state.tasks.effects.some(effect => effect.id === action.id) ? savedState(withoutEffect(state, action.id), action) : state;
		}

		case 'wheel': {
			const routed = routeWheel(state.screen, action.rows, {
				bodyRows: action.bodyRows,
				overlayLines: overlayRows(state, action.columns),
				filter: state.stack.filter,
				hasSelection: selectedRow(state.stack) !== undefined,
			});
			const stack = (routed.stack ?? []).reduce(pageStackReducer, state.stack);
			const screen = routed.screen ?? state.screen;
			return stack === state.stack && screen === state.screen ? state : {...state, stack, screen};
		}

		case 'compared': {
			// Only the answer of the request still wanted, for the page still on screen, is kept.
			return state.tasks.compare?.id === action.id && action.result.url === top(state.stack)?.page?.requestUrl ? {...state, compare: action.result} : state;
		}

		case 'stack': {
			const stack = pageStackReducer(state.stack, action.action);
			return stack === state.stack ? state : {...state, stack};
		}

		case 'search-progress':
		case 'search-done': {
			return searchReducer(state, action);
		}

		case 'export-progress': {
			const running = state.tasks.export;
			return running?.id === action.id ? {...state, tasks: {...state.tasks, export: {...running, progress: action.progress}}} : state;
		}

		case 'exported': {
			return state.tasks.export?.id === action.id ? exportedState(state, action) : state;
		}

		case 'key': {
			return reduceKey(state, action);
		}

		case 'paste': {
			// The table and the panes take nothing from a paste: its letters are no keys.
			const typing = 'draft' in state.screen && state.tasks.search === null;
			return typing ? reduceKey(state, {type: 'key', input: action.text, key: {}, bodyRows: 0}, '') : state;
		}
	}
}

/** A key: what its screen's router makes of it, applied to the state. `name` '': text that names no key (a paste). */
function reduceKey(previous: BrowserState, action: Extract<BrowserAction, {type: 'key'}>, name = keyName(action.input, action.key)): BrowserState {
	let state = previous;
	// Ctrl-Z everywhere, a running search and following included, and nothing
	// else: a prompt types nothing, the message stays, following goes on after `fg`.
	if (commandFor(modeOf(state.screen), name) === 'suspend') {
		return {...state, suspends: state.suspends + 1};
	}

	if (state.tasks.search) {
		return searchingKey(state, state.tasks.search, name);
	}

	// Ctrl-C stops an export that runs (as it stops a search), from anywhere, and nothing else: the browser stays.
	const running = state.tasks.export;
	if (running && commandFor(modeOf(state.screen), name) === 'interrupt') {
		return running.stopping ? state : {...state, tasks: {...state.tasks, export: {...running, stopping: true}}};
	}

	// Following (F): any key stops it, as in less, and does nothing else; Q still quits.
	if (state.stack.follow && commandFor('table', name) !== 'quit') {
		return {...state, stack: pageStackReducer(state.stack, {type: 'unfollow'})};
	}

	const routed = routeKey(state.screen, name, action.input, {
		bodyRows: action.bodyRows,
		overlayLines: overlayRows(state, action.columns),
		filter: state.stack.filter,
		hasSelection: selectedRow(state.stack) !== undefined,
		related: state.screen.kind === 'detail' ? relatedOf(state.walks, selectedRow(state.stack)?.object).length : 0,
		nested: state.walks.parents.length > 0,
		sort: state.stack.sort,
		sortColumn() {
			const page = top(state.stack)?.page;
			return page ? pageColumns(rowsOf(page.objects, page.objectTexts), state.view.choice)[1 + state.view.offset] : undefined;
		},
		limit: state.stack.settings.limit,
		saveName: what => suggestedName(state, what),
		exportable: exportable(state),
		exporting: state.tasks.export !== null,
		columnItems() {
			const page = top(state.stack)?.page;
			return page ? pickerItems(rowsOf(page.objects, page.objectTexts), state.view.choice) : [];
		},
	});
	if (routed.quit) {
		return {...state, quit: true};
	}

	// A key clears the message (what the last key did, what a copy or a write
	// came to, how a search ended): what it does may say something new.
	if (state.stack.notice !== null) {
		state = {...state, stack: {...state.stack, notice: null}};
	}

	if (routed.walk) {
		return routed.walk.type === 'open' ? openRelated(state, selectedRow(state.stack)?.object, routed.walk.index) : returnToParent(state);
	}

	if (routed.search) {
		return startSearch(state, routed.search);
	}

	if (routed.find !== undefined && routed.screen && isPane(routed.screen)) {
		return findInPane(state, routed.screen, routed.find, action.bodyRows, action.columns);
	}

	if (routed.ask) {
		state = applyAsk(state, routed.ask);
	}

	const stack = (routed.stack ?? []).reduce(pageStackReducer, state.stack);
	let screen = routed.screen ?? state.screen;
	let view = routed.view ? applyView(state, routed.view) : state.view;
	// Wrapping on or off keeps the same line at the top of the pane.
	if (routed.view?.type === 'toggle-wrap' && 'scroll' in screen && action.columns !== undefined) {
		const lines = overlayLines(state);
		const scroll = state.view.wrap
			? Math.max(0, wrappedWindow(lines, action.columns, screen.scroll, 1).firstLine - 1)
			: wrappedRows(lines, action.columns, screen.scroll);
		screen = {...screen, scroll};
	}

	// A pane opens at its left edge.
	if (screen.kind !== state.screen.kind && view.paneColumn !== 0) {
		view = {...view, paneColumn: 0};
	}

	return stack === state.stack && screen === state.screen && view === state.view ? state : {...state, stack, screen, view, quit: false};
}

/**
 * The file name `w` and `W` offer: the list's name and the page (or the
 * walk's pages), in the folder pagewalk runs in: `accounts-page-3.ndjson`,
 * `transactions-pages-1-4.ndjson`. Only letters, digits, `-` and `_` of the
 * name are kept, so a server's text never makes a path.
 */
function suggestedName(state: BrowserState, what: SaveWhat): string {
	const list = state.walks.place.name.replaceAll(/[^\w-]+/g, '-').replaceAll(/^-+|-+$/g, '') || 'list';
	const pages = state.stack.entries.length;
	return what === 'page' || pages === 1 ? `${list}-page-${pages}.ndjson` : `${list}-pages-1-${pages}.ndjson`;
}

/**
 * `/` in a pane, as in less: scrolls to the next line holding the text
 * (case-insensitive), from the line after the top one, wrapping around to
 * the start; with nothing typed, the last text again. Again, it goes on
 * after the line it found last while the pane is where that find left it:
 * a pane scrolled to its end cannot bring a line near its end to the top,
 * and starting from the top line would find the same line for ever. The
 * message says which line, or that none holds it.
 */
function findInPane(state: BrowserState, pane: Pane, typed: string, bodyRows: number, columns: number | undefined): BrowserState {
	const text = typed === '' ? state.found ?? '' : typed;
	if (text === '') {
		return {...state, screen: pane};
	}

	const lines = overlayLines({...state, screen: pane});
	const wrapping = state.view.wrap && columns !== undefined;
	const topLine = wrapping ? wrappedWindow(lines, columns, pane.scroll, 1).firstLine - 1 : pane.scroll;
	const last = state.foundAt;
	const from = last?.pane === pane.kind && last.scroll === pane.scroll && text.toLowerCase() === state.found?.toLowerCase() ? last.line : topLine;
	const needle = text.toLowerCase();
	let found = -1;
	for (let step = 1; step <= lines.length && found === -1; step++) {
		const index = (from + step) % lines.length;
		if (lines[index]!.toLowerCase().includes(needle)) {
			found = index;
		}
	}

	if (found === -1) {
		return withNotice({...state, screen: pane, found: text, foundAt: undefined}, {kind: 'not-found', text});
	}

	const total = wrapping ? wrappedRows(lines, columns) : lines.length;
	const row = wrapping ? wrappedRows(lines, columns, found) : found;
	const scroll = Math.min(row, Math.max(0, total - Math.max(1, bodyRows - 1)));
	return withNotice({...state, screen: {...pane, scroll}, found: text, foundAt: {pane: pane.kind, line: found, scroll}}, {kind: 'found', text, line: found + 1, lines: lines.length});
}

/** The state with `notice` the status line's message (the page stack holds it: one message, one clear rule). */
function withNotice(state: BrowserState, notice: Notice): BrowserState {
	return {...state, stack: pageStackReducer(state.stack, {type: 'notice', notice})};
}

/**
 * `n` or `N`: starts a search for the filter's text, when there is one and
 * no page is loading (the search starts from the page on screen). A
 * prefetch still on its way is dropped: the search fetches that page itself.
 */
function startSearch(state: BrowserState, direction: SearchDirection): BrowserState {
	const {stack} = state;
	if (stack.filter.trim() === '') {
		return withNotice(state, {kind: 'search-no-filter'});
	}

	if (stack.pending || !top(stack)?.page) {
		return withNotice(state, {kind: 'search-busy'});
	}

	const page = direction === 'forward' ? stack.entries.length + 1 : stack.entries.length - 1;
	const prefetch = stack.prefetch && !stack.prefetch.page ? null : stack.prefetch;
	const [id, numbered] = takeTaskId({...state, stack: {...stack, prefetch, notice: null}});
	const running: RunningSearch = {
		id,
		stack: numbered.stack,
		direction,
		filter: stack.filter,
		progress: {direction, page: page >= 1 ? page : null, searched: 0},
		cancelling: false,
		from: searchStart(stack),
	};
	return {...numbered, tasks: {...numbered.tasks, search: running}};
}

/**
 * Keys while a search runs: Esc, q and Ctrl-C stop it on the page reached
 * (Ctrl-C as in less), Q quits; any other key is dropped (the search is
 * about to move the page under it).
 */
function searchingKey(state: BrowserState, running: RunningSearch, name: string): BrowserState {
	const command = commandFor('table', name);
	const stops = command === 'close' || command === 'back' || command === 'interrupt';
	if (command === 'quit') {
		return {...state, quit: true};
	}

	if (stops && !running.cancelling) {
		return {...state, tasks: {...state.tasks, search: {...running, cancelling: true}}};
	}

	return state;
}

function searchReducer(state: BrowserState, action: Extract<BrowserAction, {type: 'search-progress' | 'search-done'}>): BrowserState {
	const running = state.tasks.search;
	if (running?.id !== action.id) {
		return state; // A search that is over (or another one).
	}

	if (action.type === 'search-progress') {
		const {page, searched, waiting} = running.progress;
		if (page === action.progress.page && searched === action.progress.searched && waiting === action.progress.waiting) {
			return state;
		}

		return {...state, tasks: {...state.tasks, search: {...running, progress: action.progress}}};
	}

	const stack = pageStackReducer(state.stack, {type: 'searched', outcome: action.outcome, from: running.from});
	return {...state, stack, tasks: {...state.tasks, search: null}};
}
