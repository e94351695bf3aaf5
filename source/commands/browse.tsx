import process from 'node:process';
import meow from 'meow';
import {resolveConfig, walkFlags, walkFlagsHelp} from '../core/options.js';
import type {Page, RetryNotice} from '../core/types.js';

type FetchPage = (url: string, options: {signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void}) => Promise<Page>;
type LoadPage = (url: string, options: {signal: AbortSignal; onRetry?: (notice: RetryNotice) => void}) => Promise<Page>;

/**
 * Starts fetching `firstUrl` now and returns a loader that hands that request
 * to the first caller asking for the same URL (its abort and retry notices
 * are forwarded); every other call fetches as usual.
 */
function earlyFirstPage(firstUrl: string, fetchPage: FetchPage): LoadPage {
	const controller = new AbortController();
	let onRetry: ((notice: RetryNotice) => void) | undefined;
	let pending: Promise<Page> | undefined = fetchPage(firstUrl, {
		signal: controller.signal,
		onRetry(notice) {
			onRetry?.(notice);
		},
	});
	// Nobody may be listening yet; the app sees the failure when it asks.
	pending.catch(() => undefined);
	return async (url, options) => {
		if (pending && url === firstUrl) {
			const page = pending;
			pending = undefined;
			onRetry = options.onRetry;
			options.signal.addEventListener('abort', () => {
				controller.abort(options.signal.reason);
			});
			return page;
		}

		return fetchPage(url, options);
	};
}

const help = `
	Usage
	  $ pagewalk [endpoint] [options]   browse a list endpoint page by page
	  $ pagewalk dump [endpoint]        write pages as JSON or NDJSON
	  $ pagewalk audit [endpoint]       walk a list and check the contract
	  $ pagewalk serve                  run the local sandbox of both APIs

	In a terminal, opens the browser (press ? inside for the keys). When stdout
	is not a terminal, writes the first page as JSON instead, like 'dump'.
${walkFlagsHelp}
	Examples
	  $ pagewalk --demo
	  $ pagewalk checkouts --limit 50 --order asc
`;

/**
 * `pagewalk [endpoint]`: the interactive browser on a terminal. Not a
 * terminal: the bare dump, without ever loading React or Ink.
 */
export async function run(argv: string[]): Promise<number> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		return (await import('./dump.js')).run(argv, {bare: true});
	}

	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		flags: walkFlags,
		allowUnknownFlags: false,
	});
	const config = await resolveConfig({input: cli.input, flags: cli.flags});
	try {
		const {createClient} = await import('../core/http-client.js');
		const client = createClient(config);
		try {
			// The first page is asked for before Ink and React are loaded: the
			// request and the server's answer overlap the biggest chunk's load.
			const early = earlyFirstPage(client.firstUrl, client.fetchPage.bind(client));
			const {runBrowser} = await import('../components/run-browser.js');
			await runBrowser({
				loadPage: early,
				startUrl: client.firstUrl,
				api: config.api,
				endpoint: config.endpoint,
				// What the server does when the user gave neither (contract 4.2).
				settings: {order: config.query.order ?? 'desc', limit: config.query.limit ?? 25},
			});
		} finally {
			await client.close();
		}
	} finally {
		await config.close();
	}

	return 0;
}
