import {useEffect, useRef, type Dispatch} from 'react';
import type {StackAction, PageStackState} from '../browser/page-stack.js';
import {loadFailure, wantedRequests} from '../browser/page-stack.js';
import type {LoadPage} from '../browser/search-pages.js';
import type {RetryNotice} from '../core/types.js';

export type {LoadPage} from '../browser/search-pages.js';

/**
 * Runs the requests the page stack wants and aborts every one it no longer
 * wants. The reducer ignores answers by id, so even an answer that races the
 * abort cannot land; aborting is about not wasting the server's time.
 */
export function usePageRequests(state: PageStackState, dispatch: Dispatch<StackAction>, loadPage: LoadPage): void {
	const running = useRef(new Map<number, AbortController>());
	const wanted = wantedRequests(state);
	const key = wanted.map(request => request.requestId).join(',');

	useEffect(() => {
		const ids = new Set(wanted.map(request => request.requestId));
		for (const [id, controller] of running.current) {
			if (!ids.has(id)) {
				controller.abort();
				running.current.delete(id);
			}
		}

		for (const {requestId, url} of wanted) {
			if (running.current.has(requestId)) {
				continue;
			}

			const controller = new AbortController();
			running.current.set(requestId, controller);
			const onRetry = (notice: RetryNotice) => {
				// Stamped here, as it arrives: the status line counts the wait down.
				dispatch({type: 'retrying', requestId, retry: {...notice, since: Date.now()}});
			};

			loadPage(url, {signal: controller.signal, onRetry}).then(
				page => {
					running.current.delete(requestId);
					if (!controller.signal.aborted) {
						dispatch({type: 'loaded', requestId, page});
					}
				},
				(error: unknown) => {
					running.current.delete(requestId);
					if (!controller.signal.aborted) {
						dispatch({type: 'failed', requestId, ...loadFailure(error)});
					}
				},
			);
		}
		// eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the wanted requests; `wanted` is recomputed from the same state
	}, [key]);

	useEffect(
		() => () => {
			for (const controller of running.current.values()) {
				controller.abort();
			}

			running.current.clear();
		},
		[],
	);
}
