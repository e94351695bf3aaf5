import process from 'node:process';
import {defaults} from '../../config/options.js';
import {flag} from '../../config/hints.js';
import {UsageError} from '../../text/errors.js';
import {parseColumnList, type ColumnChoice} from '../../cells/column-order.js';
import {loadColumnChoice, loadRelatedColumnChoices, readColumnState, saveColumnChoice} from './column-store.js';
import {openConfig} from '../setup/demo.js';
import {loadBrowser} from './load-browser.js';
import type {BrowseArgs} from './browse.js';
import {compareProfileCredential, demoCompareProfile} from '../setup/profile-config.js';
import type {LoadPage} from '../../browser/search/search-pages.js';
import type {Page, RetryNotice} from '../../contract/types.js';
import type {BrowserOptions} from '../../browser/state/browser-state.js';
import {firstFrameLines} from '../../components/first-paint.js';
import {colourLevel} from '../../text/colour.js';
import {TerminalScreen} from './terminal-screen.js';
import {compareCredential, createCompareClient, credentialLabel} from '../setup/second-credential.js';
import {createClient} from '../../http/http-client.js';
import {curlBuilder, savePages} from './copy-save.js';
import {exportPort} from './export-lists.js';
import {defaultConcurrency, laneCount} from '../../http/every-account/account-lists.js';

type FetchPage = (url: string, options: {signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void}) => Promise<Page>;

/**
 * Starts fetching `firstUrl` now and returns a loader that hands that request
 * to the first caller asking for the same URL (its abort and retry notices
 * are forwarded); every other call fetches as usual. `arrived()` is the page
 * when it is already here; `settled(ms)` resolves once that first request has
 * an answer (a page or a failure), or after `ms` at most; `arrival` resolves
 * with the page when it comes (undefined when the request failed).
 */
export function earlyFirstPage(firstUrl: string, fetchPage: FetchPage): {loadPage: LoadPage; arrived(): Page | undefined; settled(ms: number): Promise<void>; arrival: Promise<Page | undefined>} {
	const controller = new AbortController();
	let onRetry: ((notice: RetryNotice) => void) | undefined;
	// The wait the request is in, stamped when it began: a wait that began before the app took the
	// request (a spent budget, a 429, before Ink loads) is handed over with it, or the app shows a
	// bare spinner for the whole wait.
	let waiting: RetryNotice | undefined;
	const first = fetchPage(firstUrl, {
		signal: controller.signal,
		onRetry(notice) {
			waiting = {...notice, since: notice.since ?? Date.now()};
			onRetry?.(notice);
		},
	});
	let pending: Promise<Page> | undefined = first;
	let page: Page | undefined;
	const answered = first.then(
		value => {
			page = value;
			waiting = undefined;
			return value;
		},
		// Nobody may be listening yet; the app sees the failure when it asks.
		() => {
			waiting = undefined;
			return undefined;
		},
	);
	const loadPage: LoadPage = async (url, options) => {
		if (pending && url === firstUrl) {
			const request = pending;
			pending = undefined;
			onRetry = options.onRetry;
			options.signal.addEventListener('abort', () => {
				controller.abort(options.signal.reason);
			});
			if (waiting) {
				onRetry?.(waiting);
			}

			return request;
		}

		return fetchPage(url, options);
	};

	return {
		loadPage,
		arrival: answered,
		arrived() {
			if (page) {
				pending = undefined;
			}

			return page;
		},
		async settled(ms) {
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([answered, new Promise(resolve => {
				timer = setTimeout(resolve, ms);
			})]);
			clearTimeout(timer);
		},
	};
}

/**
 * Paints the first page the moment it is here, before Ink has loaded
 * (components/first-paint.ts), on the screen that holds the keys since the
 * first page was asked for: at most once, and never once the browser has
 * the terminal. `handOver()` ends that and gives the browser the screen;
 * `close()` gives the terminal back, so that a failure before the browser
 * is up is told on the user's own screen.
 */
function firstPainter(options: BrowserOptions, screen: TerminalScreen | undefined) {
	let open = screen !== undefined;
	return {
		paint(page: Page | undefined) {
			if (!page || !open) {
				return;
			}

			open = false;
			try {
				const size = {columns: process.stdout.columns || 80, rows: process.stdout.rows || 24};
				const lines = firstFrameLines({...options, firstPage: page}, {size, colour: colourLevel(process.env, true) > 0});
				if (lines) {
					screen!.paint(lines);
				}
			} catch {
				// A paint that fails is no paint: the browser draws the page as it would have.
			}
		},
		handOver() {
			open = false;
			return screen;
		},
		/** No paint from now on, and the terminal back as it was (a no-op once the browser has restored it). */
		close() {
			open = false;
			screen?.restore();
		},
	};
}

/**
 * How long the first page may take before Ink starts loading anyway. Ink's
 * load keeps the main thread busy: a page that comes sooner is painted
 * first, and a slower one is painted when it comes, between the modules.
 */
export const firstPaintWaitMs = 50;

/**
 * How long the browser waits for a first page already asked for before it
 * draws without it. A frame saying "loading" costs as much to draw as the
 * page's own (the first frame runs Ink's and our drawing code cold), and the
 * page, usually there a moment later, waits behind it. Short enough that a
 * slow server still gets its loading frame at once to the eye.
 */
const firstPageWaitMs = 150;

/**
 * The browser on a terminal (the browse command's interactive half): the
 * configuration, the first page asked for and painted, then Ink.
 */
export async function runTerminal({input, flags}: BrowseArgs): Promise<number> {
	// Checked before the demo sandbox starts: a wrong flag sends nothing.
	if (flags.compareEnv !== undefined && flags.compareProfile !== undefined) {
		throw new UsageError(`Give ${flag(['browse'], 'compareEnv')} or ${flag(['browse'], 'compareProfile')}, not both: the compare view shows two credentials.`);
	}

	if (flags.demo === true && flags.compareProfile !== undefined) {
		// Checked here too, so the sandbox is not started for nothing.
		throw new UsageError(demoCompareProfile);
	}

	const given = compareCredential(flags.compareEnv, process.env);
	const columnList = parseColumnList(flags.columns);
	const config = await openConfig({input, flags, command: 'browse'});
	try {
		const fromProfile = flags.compareProfile === undefined ? null : await compareProfileCredential(flags.compareProfile, config, process.env);
		// Lanes beside its pool for E's export of every account's lists: its lists never hold up the pages asked for meanwhile, and share their budget.
		const client = createClient(config, {lanes: laneCount(defaultConcurrency)});
		const line = {command: 'browse' as const, input, flags};
		const exporter = exportPort({config, client, line, env: process.env});
		const second = given ?? fromProfile ?? config.demoCredentials?.other ?? null;
		const compareClient = second ? createCompareClient(config, second) : null;
		// From here on keys wait, unechoed, for the browser: on the user's own
		// screen an echo would stay after quitting (TERM=dumb: no screen to hold them).
		const screen = process.env['TERM'] === 'dumb' ? undefined : new TerminalScreen({mouse: flags.noMouse !== true});
		screen?.holdKeys();
		try {
			// The first page is asked for before Ink and React load, and drawn
			// as soon as it is here (first-paint.ts): their load, most of the
			// start-up, comes after it. A server slower than firstPaintWaitMs
			// waits for them instead, and the page is painted when it comes if
			// Ink has not drawn by then.
			const early = earlyFirstPage(client.firstUrl, client.fetchPage.bind(client));
			const columnsKey = `${config.api} ${config.endpoint}`;
			const columnState = readColumnState(process.env);
			if (columnState.problem !== undefined) {
				// Before the screen opens, so it is read on the terminal once the browser closes; the walk goes on.
				process.stderr.write(`pagewalk: ${columnState.problem}\n`);
			}

			const options = {
				startUrl: client.firstUrl,
				api: config.api,
				endpoint: config.endpoint,
				// What the server does when the user gave neither (docs/contract.md#default-limit, #default-order).
				settings: {order: config.query.order ?? defaults.order, limit: config.query.limit ?? defaults.limit},
				bounds: {maxPages: config.maxPages, maxItems: config.maxItems},
				compareLabels: compareClient && second ? {a: config.demoCredentials?.using ?? (config.profile === undefined ? config.credential.from : `profile ${config.profile}`), b: credentialLabel(second)} : null,
				// --columns wins over the remembered choice; a choice made in the picker is remembered.
				columns: {
					initial: columnList ? {order: columnList, typed: true as const} : loadColumnChoice(columnsKey, process.env, columnState),
					// A related list's choice is remembered under its pattern (`/v2/accounts/:id/transactions`), one for every account.
					save(choice: ColumnChoice, related?: string) {
						saveColumnChoice(related === undefined ? columnsKey : `${config.api} ${related}`, choice, process.env);
					},
					remembered: loadRelatedColumnChoices(config.api, process.env, columnState),
				},
			};
			const painter = firstPainter(options, screen);
			try {
				void early.arrival.then(page => {
					painter.paint(page);
				});
				await early.settled(firstPaintWaitMs);
				const {runBrowser} = await loadBrowser();
				await early.settled(firstPageWaitMs);
				return await runBrowser({
					...options,
					loadPage: early.loadPage,
					// Often here already (Ink takes longer to load than a page): then
					// the very first frame shows it, with no loading frame before.
					firstPage: early.arrived(),
					compare: compareClient && options.compareLabels ? {loadPage: async (url, signal) => compareClient.fetchPage(url, {signal}), labels: options.compareLabels} : undefined,
					// Copy and save: the app gets functions, never the credential nor the file system.
					curlFor: curlBuilder(config, process.env, {command: 'browse', input, flags}),
					save: savePages,
					exportLists: exporter.exportLists,
					mouse: flags.noMouse !== true,
					screen: painter.handOver(),
					// A page the browser cannot draw: its banner names the dump of the same list.
					line,
				});
			} finally {
				painter.close();
			}
		} finally {
			screen?.restore();
			// An export the browser closed on stops (its task aborted) and keeps its file and state: said on the user's own screen, with how to go on.
			await exporter.settled();
			for (const words of exporter.lastWords()) {
				process.stderr.write(`pagewalk: ${words}\n`);
			}

			await Promise.all([client.close(), compareClient?.close()]);
		}
	} finally {
		await config.close();
	}
}
