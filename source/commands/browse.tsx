import process from 'node:process';
import {parseCommandLine, parseFlags, type ParsedArgs} from '../config/parse-flags.js';
import {defaults} from '../config/options.js';
import {commands, walkFlagsHelp} from '../config/flags.js';
import {UsageError} from '../text/errors.js';
import {parseColumnList} from '../cells/column-order.js';
import {loadColumnChoice, loadRelatedColumnChoices, readColumnState, saveColumnChoice} from './column-store.js';
import {openConfig} from './demo.js';
import {loadBrowser} from './load-browser.js';
import {compareProfileCredential, demoCompareProfile} from './profile-config.js';
import type {LoadPage} from '../browser/search-pages.js';
import type {Page, RetryNotice} from '../contract/types.js';
import type {BrowserOptions} from '../browser/browser-state.js';
import type * as FirstPaintModule from '../components/first-paint.js';
import type {ColumnChoice} from '../cells/column-order.js';
import {colourLevel} from '../text/colour.js';
import {TerminalScreen} from './terminal-screen.js';
import {compareCredential, createCompareClient, credentialLabel} from '../audit/second-credential.js';
import {createClient} from '../http/http-client.js';

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
	const first = fetchPage(firstUrl, {
		signal: controller.signal,
		onRetry(notice) {
			onRetry?.(notice);
		},
	});
	let pending: Promise<Page> | undefined = first;
	let page: Page | undefined;
	const answered = first.then(
		value => {
			page = value;
			return value;
		},
		// Nobody may be listening yet; the app sees the failure when it asks.
		() => undefined,
	);
	const loadPage: LoadPage = async (url, options) => {
		if (pending && url === firstUrl) {
			const request = pending;
			pending = undefined;
			onRetry = options.onRetry;
			options.signal.addEventListener('abort', () => {
				controller.abort(options.signal.reason);
			});
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

type FirstPaint = typeof FirstPaintModule;

/**
 * Paints the first page the moment it is here, before Ink has loaded
 * (components/first-paint.ts): at most once, and never once the browser has
 * the terminal. `handOver()` ends that and gives the browser the screen the
 * paint opened, if it did.
 */
function firstPainter(options: BrowserOptions, mouse: boolean, module: Promise<FirstPaint | undefined>) {
	let open = process.env['TERM'] !== 'dumb';
	let screen: TerminalScreen | undefined;
	return {
		async paint(page: Page | undefined) {
			const paint = page && open ? await module : undefined;
			if (!paint || !open) {
				return;
			}

			open = false;
			const size = {columns: process.stdout.columns || 80, rows: process.stdout.rows || 24};
			const lines = paint.firstFrameLines({...options, firstPage: page}, {size, colour: colourLevel(process.env, true) > 0});
			if (lines) {
				screen = new TerminalScreen({mouse});
				screen.paint(lines);
			}
		},
		handOver() {
			open = false;
			return screen;
		},
	};
}

/**
 * How long the first page may take before Ink starts loading anyway. Ink's
 * load keeps the main thread busy: a page that comes sooner is painted
 * first, and a slower one is painted when it comes, between the modules.
 */
const firstPaintWaitMs = 50;

/**
 * How long the browser waits for a first page already asked for before it
 * draws without it. A frame saying "loading" costs as much to draw as the
 * page's own (the first frame runs Ink's and our drawing code cold), and the
 * page, usually there a moment later, waits behind it. Short enough that a
 * slow server still gets its loading frame at once to the eye.
 */
const firstPageWaitMs = 150;

const help = `
	Usage
	  $ pagewalk [endpoint] [options]   browse a list endpoint page by page
	  $ pagewalk dump [endpoint]        write the objects as NDJSON, JSON, CSV or a table
	  $ pagewalk audit [endpoint]       walk a list and check the contract
	  $ pagewalk serve                  run the local sandbox of both APIs
	  $ pagewalk profiles               list the config file's profiles (secrets left out)
	  $ pagewalk token [endpoint]       print a JWT (or the token) for one request, for curl
	  $ pagewalk completion bash|zsh|fish
	                                    print a shell completion script (docs/completion.md)

	In a terminal, opens the browser (press ? inside for the keys). When stdout
	is not a terminal, writes the first page as NDJSON instead (one object a
	line; --format picks json, csv or table), like 'dump'.
${walkFlagsHelp}
	Compare
	  --compare-env NAME       c shows which ids of the page on screen the credential in
	                           environment variable NAME sees, against yours (with --demo:
	                           the sandbox's other credential, without this flag)
	  --compare-profile NAME   the same with the credential of profile NAME (for the API in
	                           use; its base URL must be the one in use)

	Mouse
	  --no-mouse               leave the mouse to the terminal: no wheel scrolling, and a
	                           plain drag selects text (the wheel scrolls 3 rows otherwise;
	                           Shift-drag selects then in most terminals)

	Columns
	  --columns a,b,c          start with these columns, in this order (id stays first); C in
	                           the browser picks, hides and reorders them, remembered per endpoint
	                           in $XDG_STATE_HOME/pagewalk/columns.json. On a pipe with --format
	                           csv or table: exactly these columns

	On a pipe
	  --format ndjson|json|csv|table
	                           how the first page is written (default ndjson, as in dump)

	Examples
	  $ pagewalk --demo
	  $ pagewalk checkouts --limit 50 --order asc
`;

type BrowseArgs = ParsedArgs<typeof commands.browse.flags>;

/** The browser's flags, as the one parser reads them; 'help' and 'version' when asked for. */
export function parseWalkArgs(argv: string[]): BrowseArgs | 'help' | 'version' {
	return parseFlags(argv, commands.browse);
}

/**
 * `pagewalk [endpoint]`: the interactive browser on a terminal. Not a
 * terminal: the bare dump, without ever loading React or Ink.
 */
export async function run(argv: string[]): Promise<number> {
	// One parse for both modes: on a pipe the same flags, the same errors,
	// and `pagewalk --help | less` gets this help, not dump's.
	const parsed = await parseCommandLine(argv, commands.browse, help);
	if (parsed === undefined) {
		return 0;
	}

	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		return (await import('./dump.js')).runBare(parsed);
	}

	// Loaded while the configuration is read: the first paint needs it the moment the page is here.
	const paintModule = import('../components/first-paint.js').catch(() => undefined);
	const {input, flags} = parsed;
	// Checked before the demo sandbox starts: a wrong flag sends nothing.
	if (flags.compareEnv !== undefined && flags.compareProfile !== undefined) {
		throw new UsageError('Give --compare-env or --compare-profile, not both: the compare view shows two credentials.');
	}

	if (flags.demo === true && flags.compareProfile !== undefined) {
		// Checked here too, so the sandbox is not started for nothing.
		throw new UsageError(demoCompareProfile);
	}

	const given = compareCredential(flags.compareEnv, process.env);
	const columnList = parseColumnList(flags.columns);
	const config = await openConfig({input, flags});
	try {
		const fromProfile = flags.compareProfile === undefined ? null : await compareProfileCredential(flags.compareProfile, config, process.env);
		const client = createClient(config);
		const second = given ?? fromProfile ?? config.demoCredentials?.other ?? null;
		const compareClient = second ? createCompareClient(config, second) : null;
		try {
			// The first page is asked for before Ink and React load, and drawn
			// as soon as it is here (first-paint.ts): their load, most of the
			// start-up, comes after it. A server slower than firstPaintWaitMs
			// waits for them instead, and the page is painted when it comes if
			// Ink has not drawn by then.
			const early = earlyFirstPage(client.firstUrl, client.fetchPage.bind(client));
			const columnsKey = `${config.api} ${config.endpoint}`;
			const columnState = readColumnState(process.env);
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
					initial: columnList ? {order: columnList} : loadColumnChoice(columnsKey, process.env, columnState),
					// A related list's choice is remembered under its pattern (`/v2/accounts/:id/transactions`), one for every account.
					save(choice: ColumnChoice, related?: string) {
						saveColumnChoice(related === undefined ? columnsKey : `${config.api} ${related}`, choice, process.env);
					},
					remembered: loadRelatedColumnChoices(config.api, process.env, columnState),
				},
			};
			const painter = firstPainter(options, flags.noMouse !== true, paintModule);
			void early.arrival.then(async page => painter.paint(page));
			await early.settled(firstPaintWaitMs);
			const {runBrowser} = await loadBrowser();
			const {curlBuilder, savePages} = await import('./copy-save.js');
			await early.settled(firstPageWaitMs);
			const screen = painter.handOver();
			return await runBrowser({
				...options,
				loadPage: early.loadPage,
				// Often here already (Ink takes longer to load than a page): then
				// the very first frame shows it, with no loading frame before.
				firstPage: early.arrived(),
				compare: compareClient && options.compareLabels ? {loadPage: async (url, signal) => compareClient.fetchPage(url, {signal}), labels: options.compareLabels} : undefined,
				// Copy and save: the app gets functions, never the credential nor the file system.
				curlFor: curlBuilder(config, process.env),
				save: savePages,
				mouse: flags.noMouse !== true,
				screen,
			});
		} finally {
			await Promise.all([client.close(), compareClient?.close()]);
		}
	} finally {
		await config.close();
	}
}
