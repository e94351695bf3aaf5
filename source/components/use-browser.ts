import {useApp, useInput} from 'ink';
import {useEffect, useReducer, useRef, useState, type Dispatch} from 'react';
import {browserReducer, startState, type BrowserAction, type BrowserOptions} from '../browser/state/browser-state.js';
import {pastedText, splitKeys} from '../browser/keys/key-chunks.js';
import {createMouseFilter} from '../browser/keys/mouse.js';
import type {ColumnChoice} from '../cells/column-order.js';
import {useTasks, type TaskPorts} from './use-tasks.js';
import type {BrowserState} from '../browser/state/types.js';

/**
 * The browser's state, and all it asks of the world: its tasks run
 * (use-tasks.ts), a column choice remembered, the app closed on quit, and
 * suspended (`suspend`, the command's) on each Ctrl-Z.
 */
export function useBrowser(options: BrowserOptions, ports: TaskPorts, suspend?: () => void): [BrowserState, Dispatch<BrowserAction>] {
	const {exit} = useApp();
	const [state, dispatch] = useReducer(browserReducer, options, startState);
	const suspended = useRef(0);
	useTasks(state, dispatch, ports);
	useRememberedColumns(state, options.columns?.save);
	useEffect(() => {
		if (state.quit) {
			exit();
		}
	}, [state.quit, exit]);
	useEffect(() => {
		if (state.suspends > suspended.current) {
			suspended.current = state.suspends;
			suspend?.();
		}
	}, [state.suspends, suspend]);
	return [state, dispatch];
}

/**
 * A choice made in the picker is remembered for the endpoint (a related
 * list's under its pattern); once per choice, not again when a walk is left
 * and its parent's view, choice included, comes back: every choice saved
 * (or given at start) is kept, not only the last, since the parent's and
 * the child's may both have been made.
 */
function useRememberedColumns(state: BrowserState, save: ((choice: ColumnChoice, endpoint?: string) => void) | undefined): void {
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
}

/**
 * Keys, the wheel and pastes to actions. What Ink's input parser cut out as
 * one event (`token`: the patch gives it to useInput's handler) is read
 * first: a bracketed paste is text for a prompt (browser/keys/key-chunks.ts), a
 * mouse report a scroll that never types (browser/keys/mouse.ts). One read may
 * hold many keys (key repeat, a paste): each one counts, in order; a
 * sequence that names no key is none.
 */
export function useBrowserInput(dispatch: Dispatch<BrowserAction>, bodyRows: number, columns: number): void {
	const mouse = useRef<ReturnType<typeof createMouseFilter>>(null);
	mouse.current ??= createMouseFilter();
	useInput((raw, rawKey, token: string = raw) => {
		const pasted = pastedText(token);
		if (pasted !== undefined) {
			if (pasted !== '') {
				dispatch({type: 'paste', text: pasted});
			}

			return;
		}

		const taken = mouse.current!(token);
		if (taken.rows !== 0) {
			dispatch({type: 'wheel', rows: taken.rows, bodyRows, columns});
		}

		if (taken.keys === '' && token !== '') {
			return;
		}

		const presses = taken.keys === token ? splitKeys(raw, rawKey, token) : splitKeys(taken.keys, {});
		for (const press of presses) {
			dispatch({type: 'key', input: press.input, key: press.key, bodyRows, columns});
		}
	});
}
