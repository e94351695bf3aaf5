import type {BrowserState, HeldTasks} from './types.js';
import type {Page} from '../../contract/types.js';
import type {Effect, ExportJob} from '../actions/effects.js';
import {wantedRequests} from '../stack/page-stack.js';
import {top} from '../stack/stack-steps.js';
import type {PageStackState, SearchDirection} from '../stack/types.js';

/**
 * The one way the browser starts work outside the reducer, in the shape of
 * bubbletea's `Update → (Model, Cmd)`: the state declares the tasks it wants
 * now, each under an id taken from one counter; one hook
 * (components/use-tasks.ts) starts every wanted task it is not yet running,
 * aborts every running task no longer wanted, and dispatches each task's
 * answer back as an action carrying its id. The reducer takes an answer only
 * while the id is still the one it wants, so an answer that races an abort
 * can never land. Pure: which tasks a state wants is tested without React.
 *
 * The counter is the page stack's `nextRequestId`: the stack numbers its own
 * page requests from it, the rest (copy, save, search, compare, the follow
 * poll) take theirs here, and a walk opened or taken up again goes on from
 * the walk it leaves (related-walks.ts), so ids never repeat in a browser.
 */

export type Task =
	/** The page the stack waits for (pending), or the next page fetched ahead (prefetch): made from the stack's record, its id the record's requestId. */
	| {id: number; kind: 'load' | 'prefetch'; url: string}
	/** A search across pages (`n`, `N`) from `stack`; `stop`: Esc asked it to stop on the page reached (it still answers). */
	| {id: number; kind: 'search'; direction: SearchDirection; filter: string; stack: PageStackState; stop: boolean}
	/** The compare view's request: the page on screen (`page`, asked at `url`) asked with the second credential. */
	| {id: number; kind: 'compare'; url: string; page: Page}
	/** Following (F): the pause before the next poll, longer after failures in a row. */
	| {id: number; kind: 'follow-poll'; failures: number}
	/** A copy or a write a key asked for (effects.ts), with the data taken when it was pressed. */
	| (Effect & {kind: 'copy' | 'save'})
	/** Every account's lists to a file (E); `stop`: Ctrl-C asked it to stop, keeping what it wrote to go on with (it still answers). */
	| {id: number; kind: 'export'; job: ExportJob; stop: boolean};

export const noHeldTasks: HeldTasks = {compare: null, poll: null, search: null, effects: [], export: null};

/** Every task the state wants running now, page requests first: made from the records, never stored. */
export function wantedTasks(state: BrowserState): Task[] {
	const tasks: Task[] = [];
	const {stack} = state;
	// The stack's one record of each page request: a load while it waits for a page, else the page fetched ahead.
	for (const {requestId, url} of wantedRequests(stack)) {
		tasks.push({id: requestId, kind: stack.pending ? 'load' : 'prefetch', url});
	}

	const searching = state.tasks.search;
	if (searching) {
		tasks.push({id: searching.id, kind: 'search', direction: searching.direction, filter: searching.filter, stack: searching.stack, stop: searching.cancelling});
	}

	const shown = top(stack)?.page;
	if (state.tasks.compare && shown) {
		tasks.push({id: state.tasks.compare.id, kind: 'compare', url: state.tasks.compare.url, page: shown});
	}

	if (state.tasks.poll) {
		tasks.push({id: state.tasks.poll.id, kind: 'follow-poll', failures: state.tasks.poll.follow.failures});
	}

	tasks.push(...state.tasks.effects);
	const running = state.tasks.export;
	if (running) {
		tasks.push({id: running.id, kind: 'export', job: running.job, stop: running.stopping});
	}

	return tasks;
}

/** The next id of the one counter, and the state that has used it. */
export function takeTaskId(state: BrowserState): [number, BrowserState] {
	const id = state.stack.nextRequestId;
	return [id, {...state, stack: {...state.stack, nextRequestId: id + 1}}];
}

/** The request URL the compare view wants answered, or null when it wants nothing. */
export function wantedCompare(state: BrowserState): string | null {
	const page = top(state.stack)?.page;
	if (state.screen.kind !== 'compare' || state.compareLabels === null || !page) {
		return null;
	}

	return state.compare?.url === page.requestUrl ? null : page.requestUrl;
}

/**
 * The state with its held tasks matching what it now wants: a compare
 * request for the page on screen while the compare view waits for it, a
 * poll armed while following with no request on its way (armed anew after
 * each answer). A task no longer wanted is dropped, which aborts it. The same
 * state when nothing changes.
 */
export function settleTasks(state: BrowserState): BrowserState {
	let next = state;
	const compareUrl = wantedCompare(next);
	if (compareUrl === null) {
		next = next.tasks.compare ? {...next, tasks: {...next.tasks, compare: null}} : next;
	} else if (next.tasks.compare?.url !== compareUrl) {
		const [id, numbered] = takeTaskId(next);
		next = {...numbered, tasks: {...numbered.tasks, compare: {id, url: compareUrl}}};
	}

	const {follow, pending} = next.stack;
	if (!follow || pending) {
		next = next.tasks.poll ? {...next, tasks: {...next.tasks, poll: null}} : next;
	} else if (next.tasks.poll?.follow !== follow) {
		const [id, numbered] = takeTaskId(next);
		next = {...numbered, tasks: {...numbered.tasks, poll: {id, follow}}};
	}

	return next;
}

/** A task's identity for the runner: a task asked to stop is a new wish about the same run. */
export function taskKey(task: Task): string {
	return (task.kind === 'search' || task.kind === 'export') && task.stop ? `${task.id}!` : String(task.id);
}
