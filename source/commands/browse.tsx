import process from 'node:process';
import {parseFlags} from '../core/parse-flags.js';
import {defaults, type WalkFlagValues} from '../core/options.js';
import {openConfig} from './demo.js';
import {walkFlags, walkFlagsHelp} from '../core/flags.js';
import type {Page, RetryNotice} from '../core/types.js';

type FetchPage = (url: string, options: {signal?: AbortSignal; onRetry?: (notice: RetryNotice) => void}) => Promise<Page>;
type LoadPage = (url: string, options: {signal: AbortSignal; onRetry?: (notice: RetryNotice) => void}) => Promise<Page>;

/**
 * Starts fetching `firstUrl` now and returns a loader that hands that request
 * to the first caller asking for the same URL (its abort and retry notices
 * are forwarded); every other call fetches as usual. `arrived()` is the page
 * when it is already here.
 */
export function earlyFirstPage(firstUrl: string, fetchPage: FetchPage): {loadPage: LoadPage; arrived(): Page | undefined} {
	const controller = new AbortController();
	let onRetry: ((notice: RetryNotice) => void) | undefined;
	let pending: Promise<Page> | undefined = fetchPage(firstUrl, {
		signal: controller.signal,
		onRetry(notice) {
			onRetry?.(notice);
		},
	});
	let page: Page | undefined;
	pending.then(
		value => {
			page = value;
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
		arrived() {
			if (page) {
				pending = undefined;
			}

			return page;
		},
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
	Compare
	  --compare-env NAME       c shows which ids of the page on screen the credential in
	                           environment variable NAME sees, against yours (with --demo:
	                           the sandbox's other credential, without this flag)

	Examples
	  $ pagewalk --demo
	  $ pagewalk checkouts --limit 50 --order asc
`;

/** The walk flags, and the second credential of the compare view. */
const browseFlags = {...walkFlags, compareEnv: {type: 'string'}} as const;

export function parseWalkArgs(argv: string[]): {input: string[]; flags: WalkFlagValues & {compareEnv?: unknown}} {
	return parseFlags(argv, browseFlags, 'pagewalk');
}

/**
 * `pagewalk [endpoint]`: the interactive browser on a terminal. Not a
 * terminal: the bare dump, without ever loading React or Ink.
 */
export async function run(argv: string[]): Promise<number> {
	// Help comes first: `pagewalk --help | less` wants this help, not dump's.
	if (argv.some(argument => ['--help', '-h', '--version'].includes(argument))) {
		const {default: meow} = await import('meow');
		// Prints and exits.
		meow(help, {importMeta: import.meta, argv, flags: browseFlags});
	}

	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		return (await import('./dump.js')).run(argv, {bare: true});
	}

	const {input, flags} = parseWalkArgs(argv);
	const {compareCredential, createCompareClient} = await import('../audit/second-credential.js');
	// Checked before the demo sandbox starts: a wrong flag sends nothing.
	const given = compareCredential(typeof flags.compareEnv === 'string' ? flags.compareEnv : undefined, process.env);
	const config = await openConfig({input, flags});
	try {
		const {createClient} = await import('../core/http-client.js');
		const client = createClient(config);
		const second = given ?? config.demoCredentials?.other ?? null;
		const compareClient = second ? createCompareClient(config, second) : null;
		try {
			// The first page is asked for before Ink and React are loaded: the
			// request and the server's answer overlap the biggest chunk's load.
			const early = earlyFirstPage(client.firstUrl, client.fetchPage.bind(client));
			const {runBrowser} = await import('./run-browser.js');
			return await runBrowser({
				loadPage: early.loadPage,
				// Often here already (Ink takes longer to load than a page): then
				// the very first frame shows it, with no loading frame before.
				firstPage: early.arrived(),
				startUrl: client.firstUrl,
				api: config.api,
				endpoint: config.endpoint,
				// What the server does when the user gave neither (contract 4.2).
				settings: {order: config.query.order ?? defaults.order, limit: config.query.limit ?? defaults.limit},
				compare:
					compareClient && second
						? {
								loadPage: async (url, signal) => compareClient.fetchPage(url, {signal}),
								labels: {a: config.demoCredentials?.using ?? config.credential.envName, b: second.envName},
							}
						: undefined,
			});
		} finally {
			await Promise.all([client.close(), compareClient?.close()]);
		}
	} finally {
		await config.close();
	}
}
