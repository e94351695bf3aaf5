import {useStdout} from 'ink';
import {useEffect, useRef} from 'react';
import {copyOutcome, type BrowserAction} from '../browser/browser-state.js';
import type {Effect, SaveJob} from '../browser/effects.js';
import {describeError} from '../core/report-error.js';
import type {SaveResult} from '../core/save-path.js';
import type {Page} from '../core/types.js';
import type {LoadPage} from './use-page-requests.js';

/** Builds the curl command for a request URL (core/curl-command.ts): the command's, which knows the credential's source. */
export type CurlFor = (url: string) => string;

/** Writes pages as NDJSON to the file a typed name means (commands/copy-save.ts): the command owns the file system. */
export type SavePages = (name: string, pages: AsyncIterable<Page>, options: {overwrite: boolean}) => Promise<SaveResult>;

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

/**
 * Carries out the copies and writes the reducer queued (browser/effects.ts):
 * OSC 52 through Ink's stdout, which clears its frame, writes the sequence
 * and draws the frame again, so the frame is never corrupted; writes through
 * the command's callback, asynchronously, so keys keep working meanwhile.
 * Each outcome comes back as an action. Writes still running when the app
 * closes are abandoned (their page fetches aborted).
 */
export function useCopyAndSave(effects: readonly Effect[], dispatch: (action: BrowserAction) => void, options: {curlFor?: CurlFor | undefined; save?: SavePages | undefined; loadPage: LoadPage}): void {
	const {write} = useStdout();
	const taken = useRef(0);
	const running = useRef(new Set<AbortController>());
	const latest = useRef(options);
	latest.current = options;

	useEffect(() => {
		const controllers = running.current;
		return () => {
			for (const controller of controllers) {
				controller.abort();
			}
		};
	}, []);

	useEffect(() => {
		const fresh = effects.filter(effect => effect.id > taken.current);
		if (fresh.length === 0) {
			return;
		}

		taken.current = fresh.at(-1)!.id;
		dispatch({type: 'effects-taken', through: taken.current});
		const {curlFor, save, loadPage} = latest.current;
		for (const effect of fresh) {
			if (effect.kind === 'copy') {
				if (effect.what === 'curl' && !curlFor) {
					dispatch({type: 'note', note: {kind: 'cannot', what: 'curl'}});
					continue;
				}

				const outcome = copyOutcome(effect, effect.what === 'curl' ? curlFor!(effect.url) : effect.text);
				if (outcome.sequence !== null) {
					write(outcome.sequence);
				}

				dispatch({type: 'note', note: outcome.note});
				continue;
			}

			if (!save) {
				dispatch({type: 'note', note: {kind: 'cannot', what: 'write'}});
				continue;
			}

			const {job} = effect;
			const controller = new AbortController();
			running.current.add(controller);
			let refetched = 0;
			const pages = walkPages(job, loadPage, controller.signal, () => {
				refetched++;
			});
			void save(job.name, pages, {overwrite: job.overwrite})
				.then(result => {
					if (!controller.signal.aborted) {
						dispatch({type: 'saved', job, result, refetched});
					}
				})
				.finally(() => {
					running.current.delete(controller);
				});
		}
	}, [effects, dispatch, write]);
}
