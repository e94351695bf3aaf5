import {useStdout} from 'ink';
import {useEffect, useRef, type Dispatch} from 'react';
import {copyOutcome, type BrowserAction} from '../browser/state/browser-state.js';
import type {ExportJob, SaveJob} from '../browser/actions/effects.js';
import {loadFailure} from '../browser/stack/stack-steps.js';
import {searchPages, throttled, type LoadPage} from '../browser/search/search-pages.js';
import {taskKey, wantedTasks, type Task} from '../browser/state/tasks.js';
import {comparePageRows, namesById} from '../contract/page-compare.js';
import {describeError} from '../text/report-error.js';
import type {ExportResult, SaveResult} from '../browser/actions/save-path.js';
import type {ListsState} from '../text/lists-progress.js';
import type {Page, RetryNotice} from '../contract/types.js';
import type {SaveWhat, SearchProgress} from '../browser/stack/types.js';
import type {BrowserState, ExportProgress} from '../browser/state/types.js';

/** Builds the curl command for a request URL (commands/browse/curl-command.ts): the command's, which knows the credential's source. */
export type CurlFor = (url: string) => string;

/** Writes pages as NDJSON to the file a typed name means (commands/browse/copy-save.ts): the command owns the file system. */
export type SavePages = (name: string, pages: AsyncIterable<Page>, options: {overwrite: boolean; what: SaveWhat}) => Promise<SaveResult>;

/**
 * Writes every account's lists to the file a typed name means
 * (commands/browse/export-lists.ts): the command owns the walk, its one
 * client and the file system; the figures of its progress come as they change.
 */
export type ExportLists = (job: ExportJob, options: {signal: AbortSignal; onProgress: (figures: ListsState) => void; onRetry: (notice: RetryNotice) => void}) => Promise<ExportResult>;

/** How often an export's figures are drawn at most: the time left moves by the second, the lists faster than the eye. */
const exportProgressMs = 250;

/** The pause between polls while following (F), unless the app is given another. */
export const followEveryMs = 3000;

/** The longest pause between polls, however many failed in a row. */
const maxPauseMs = 60_000;

/** What tasks are carried out with: the command's callbacks (the app holds no credential and touches no file). */
export type TaskPorts = {
	loadPage: LoadPage;
	/** The compare view's second credential: fetches a request URL with it. */
	compare?: ((url: string, signal: AbortSignal) => Promise<Page>) | undefined;
	curlFor?: CurlFor | undefined;
	save?: SavePages | undefined;
	exportLists?: ExportLists | undefined;
	followEveryMs: number;
};

/** One task started: `live` until no longer wanted (its answers are dropped from then on), `stopped` once asked to stop. */
type Run = {controller: AbortController; live: boolean; stopped: boolean; drop: Array<() => void>};

/** Where a task answers: `answer` dispatches while the task is still wanted. */
type Context = {signal: AbortSignal; answer: (action: BrowserAction) => void; onDrop: (drop: () => void) => void; write: (text: string) => void};

/**
 * Runs the tasks the state wants (browser/state/tasks.ts): starts each wanted task
 * not yet started, aborts each running task no longer wanted (its answer,
 * should one race the abort, is dropped here and ignored by id in the
 * reducer), and asks a search marked to stop to stop on the page reached.
 * Everything still running when the app closes is aborted.
 */
export function useTasks(state: BrowserState, dispatch: Dispatch<BrowserAction>, ports: TaskPorts): void {
	const {write} = useStdout();
	const runs = useRef(new Map<number, Run>());
	const latest = useRef(ports);
	latest.current = ports;
	const wanted = wantedTasks(state);
	const key = wanted.map(task => taskKey(task)).join(',');

	useEffect(() => {
		const byId = new Map(wanted.map(task => [task.id, task]));
		for (const [id, run] of runs.current) {
			const task = byId.get(id);
			if (!task) {
				drop(run);
				runs.current.delete(id);
			} else if ((task.kind === 'search' || task.kind === 'export') && task.stop && !run.stopped) {
				// Esc: the search stops on the page reached, and still answers with where that is; Ctrl-C: the export stops, and answers with how to go on.
				run.stopped = true;
				run.controller.abort();
			}
		}

		for (const task of wanted) {
			if (!runs.current.has(task.id)) {
				const run: Run = {controller: new AbortController(), live: true, stopped: false, drop: []};
				runs.current.set(task.id, run);
				const context: Context = {
					signal: run.controller.signal,
					answer(action) {
						if (run.live) {
							dispatch(action);
						}
					},
					onDrop(call) {
						run.drop.push(call);
					},
					write,
				};
				startTask(task, latest.current, context);
			}
		}
		// eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the wanted tasks; `wanted` is recomputed from the same state
	}, [key]);

	useEffect(
		() => () => {
			for (const run of runs.current.values()) {
				drop(run);
			}

			runs.current.clear();
		},
		[],
	);
}

function drop(run: Run): void {
	run.live = false;
	run.controller.abort();
	for (const call of run.drop) {
		call();
	}
}

function startTask(task: Task, ports: TaskPorts, context: Context): void {
	switch (task.kind) {
		case 'load':
		case 'prefetch': {
			startLoad(task.id, task.url, ports.loadPage, context);
			return;
		}

		case 'search': {
			startSearch(task, ports.loadPage, context);
			return;
		}

		case 'compare': {
			startCompare(task, ports, context);
			return;
		}

		case 'follow-poll': {
			// Twice as long after each failure in a row; the poll is a page request the stack then wants.
			const timer = setTimeout(() => {
				context.answer({type: 'stack', action: {type: 'follow-poll'}});
			}, Math.min(ports.followEveryMs * 2 ** task.failures, maxPauseMs));
			context.onDrop(() => {
				clearTimeout(timer);
			});
			return;
		}

		case 'copy': {
			if (task.what === 'curl' && !ports.curlFor) {
				context.answer({type: 'done', id: task.id, notice: {kind: 'cannot', what: 'curl'}});
				return;
			}

			// OSC 52 through Ink's stdout, which clears its frame, writes the sequence and draws the frame again.
			const outcome = copyOutcome(task, task.what === 'curl' ? ports.curlFor!(task.url) : task.text);
			if (outcome.sequence !== null) {
				context.write(outcome.sequence);
			}

			context.answer({type: 'done', id: task.id, notice: outcome.notice});
			return;
		}

		case 'save': {
			startSave(task.id, task.job, ports, context);
			return;
		}

		case 'export': {
			startExport(task, ports, context);
		}
	}
}

/**
 * The export of every account's lists, through the command's port: its
 * figures drawn at most every exportProgressMs, a wait it is in said with
 * its time left until that time has passed, and its end in one action.
 */
function startExport({id, job}: Extract<Task, {kind: 'export'}>, ports: TaskPorts, {signal, answer, onDrop}: Context): void {
	if (!ports.exportLists) {
		answer({type: 'exported', id, job, result: {kind: 'failed', message: 'This browser was started without a way to write files.'}});
		return;
	}

	const since = Date.now();
	let figures: ListsState | undefined;
	let doneBefore: number | undefined;
	let waiting: RetryNotice | undefined;
	const report = throttled((progress: ExportProgress) => {
		answer({type: 'export-progress', id, progress});
	}, exportProgressMs);
	onDrop(() => {
		report.cancel();
	});
	const progressed = () => {
		if (figures) {
			const stillWaiting = waiting !== undefined && Date.now() < waiting.since! + waiting.waitMs;
			report({figures, since, doneBefore: doneBefore ?? 0, waiting: stillWaiting ? waiting : undefined});
		}
	};

	void ports.exportLists(job, {
		signal,
		onProgress(next) {
			// The lists a resumed export found done: the time left counts this export's own pace.
			doneBefore ??= next.done;
			figures = next;
			progressed();
		},
		onRetry(notice) {
			waiting = {...notice, since: Date.now()};
			progressed();
		},
	}).then(result => {
		report.cancel();
		answer({type: 'exported', id, job, result});
	});
}

function startLoad(id: number, url: string, loadPage: LoadPage, {signal, answer}: Context): void {
	const onRetry = (notice: RetryNotice) => {
		// Stamped as it arrives (unless stamped when it began, before the app took the request): the status line counts the wait down.
		answer({type: 'stack', action: {type: 'retrying', requestId: id, retry: {...notice, since: notice.since ?? Date.now()}}});
	};

	loadPage(url, {signal, onRetry}).then(
		page => {
			answer({type: 'stack', action: {type: 'loaded', requestId: id, page}});
		},
		(error: unknown) => {
			answer({type: 'stack', action: {type: 'failed', requestId: id, ...loadFailure(error)}});
		},
	);
}

/**
 * A search across pages runs outside the reducer: the pages it passes cost no
 * frame. The status line says where it starts at once, then the page it is
 * on twice a second, and the outcome lands with one action.
 */
function startSearch(task: Extract<Task, {kind: 'search'}>, loadPage: LoadPage, {signal, answer, onDrop}: Context): void {
	const {id} = task;
	// The search says where it is before it asks for a page: this is only until then.
	let last: SearchProgress = {direction: task.direction, page: null, searched: 0};
	const onProgress = throttled((progress: SearchProgress) => {
		answer({type: 'search-progress', id, progress});
	}, 500, undefined, {leading: false});
	onDrop(() => {
		onProgress.cancel();
	});
	// A wait (stamped here, as it starts) is said where the search is, with its time, until that time has passed:
	// the page read ahead may start waiting before the search says it has moved on to it.
	let waiting: RetryNotice | undefined;
	const progressed = (progress: SearchProgress) => {
		last = progress;
		const stillWaiting = waiting !== undefined && Date.now() < waiting.since! + waiting.waitMs;
		onProgress(stillWaiting ? {...progress, waiting} : progress);
	};

	const onRetry = (notice: RetryNotice) => {
		waiting = {...notice, since: Date.now()};
		progressed(last);
	};

	void searchPages(task.stack, task.direction, task.filter, {loadPage, signal, onProgress: progressed, onRetry}).then(outcome => {
		onProgress.cancel();
		answer({type: 'search-done', id, outcome});
	});
}

/** The compare view's request: the page on screen asked with the second credential, and whose ids each one sees. */
function startCompare(task: Extract<Task, {kind: 'compare'}>, ports: TaskPorts, {signal, answer}: Context): void {
	if (!ports.compare) {
		return;
	}

	const {id, url} = task;
	ports.compare(url, signal).then(
		other => {
			const {page} = task;
			const rows = comparePageRows(page.objects.map(object => object.id), other.objects.map(object => object.id), namesById(page.objects, other.objects));
			answer({type: 'compared', id, result: {url, rows}});
		},
		(error: unknown) => {
			answer({type: 'compared', id, result: {url, error}});
		},
	);
}

/**
 * The pages of a write, in order: those in memory as they are, an evicted one
 * fetched again when the writer reaches it, so at most one such page is held
 * at a time. `counted` hears each page fetched again.
 */
async function * walkPages(job: SaveJob, loadPage: LoadPage, signal: AbortSignal, counted: () => void): AsyncGenerator<Page> {
	for (const [index, walked] of job.pages.entries()) {
		if (walked.page) {
			yield walked.page;
			continue;
		}

		counted();
		let page: Page;
		try {
			// eslint-disable-next-line no-await-in-loop -- one evicted page at a time, in the walk's order
			page = await loadPage(walked.url, {signal});
		} catch (error: unknown) {
			throw new Error(`page ${index + 1} could not be fetched again: ${describeError(error).message}`, {cause: error});
		}

		yield page;
	}
}

/** A write through the command's callback, asynchronously, so keys keep working meanwhile. */
function startSave(id: number, job: SaveJob, ports: TaskPorts, {signal, answer}: Context): void {
	if (!ports.save) {
		answer({type: 'done', id, notice: {kind: 'cannot', what: 'write'}});
		return;
	}

	let refetched = 0;
	const pages = walkPages(job, ports.loadPage, signal, () => {
		refetched++;
	});
	void ports.save(job.name, pages, {overwrite: job.overwrite, what: job.what}).then(result => {
		answer({type: 'saved', id, job, result, refetched});
	});
}
