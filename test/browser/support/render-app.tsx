import {render} from 'ink-testing-library';
import {App, type AppProps} from '../../../source/app.js';
import {colourLevel} from '../../../source/text/colour.js';
import {resolveConfig, type WalkConfig} from '../../../source/config/options.js';
import {createClient, type PageClient} from '../../../source/http/http-client.js';
import {defaultConcurrency, laneCount} from '../../../source/http/every-account/account-lists.js';
import {createCompareClient} from '../../../source/commands/setup/second-credential.js';
import {patience, pollUntil} from '../../support/patience.js';

/** Key sequences as a terminal sends them. */
export const keys = {
	up: '\u001B[A',
	shiftRight: '\u001B[1;2C',
	shiftLeft: '\u001B[1;2D',
	shiftUp: '\u001B[1;2A',
	down: '\u001B[B',
	right: '\u001B[C',
	left: '\u001B[D',
	enter: '\r',
	escape: '\u001B',
	backspace: '\u007F',
	pageDown: '\u001B[6~',
	ctrlC: '\u0003',
} as const;

// Ink colours and cursor moves are not what the user reads.
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ansi = /\u001B\[[0-9;?]*[A-Za-z]/g;

export function visible(frame: string | undefined): string {
	return (frame ?? '').replace(ansi, '');
}

/**
 * Renders <App> with a real client against `baseUrl`: the same loader the
 * CLI uses, so these tests cover the client and the sandbox too.
 */
export async function renderApp(options: {
	baseUrl: string;
	token: string;
	endpoint?: string;
	api?: 'account' | 'commerce';
	limit?: number;
	order?: 'asc' | 'desc';
	startingAfter?: string;
	size?: {columns: number; rows: number};
	/** The environment the colour decision reads (NO_COLOR, FORCE_COLOR, TERM); colour on when not given. */
	env?: Record<string, string>;
	/** A second credential for the compare view (`c`), named COMPARE_TOKEN. */
	compareToken?: string;
	/** The columns to start with and where the picker's choice goes (the browse command passes a state file's). */
	columns?: AppProps['columns'];
	/** More props for the app (copy and save callbacks, maxCachedPages, the export), given the walk's config and its one client. */
	appProps?: (config: WalkConfig, client: PageClient) => Partial<AppProps>;
	/** --max-pages and --max-items. */
	bounds?: AppProps['bounds'];
	/** --retries (none when not given, so an error shows at once). */
	retries?: number;
	/** Wraps the real loader, e.g. to hold a request until the test lets it go (the request itself is real). */
	wrapLoad?: (load: AppProps['loadPage']) => AppProps['loadPage'];
}) {
	const api = options.api ?? 'account';
	const config = await resolveConfig({
		input: [options.endpoint ?? 'accounts'],
		flags: {
			[api === 'account' ? 'baseUrl' : 'commerceUrl']: options.baseUrl,
			limit: options.limit === undefined ? undefined : String(options.limit),
			order: options.order,
			startingAfter: options.startingAfter,
			retries: String(options.retries ?? 0),
		},
		env: {[api === 'account' ? 'COINBASE_ACCESS_TOKEN' : 'COINBASE_COMMERCE_API_KEY']: options.token},
	});
	// As the browse command makes it: lanes beside its pool for E's export.
	const client = createClient(config, {lanes: laneCount(defaultConcurrency)});
	const realLoad = async (url: string, fetchOptions: {signal: AbortSignal}) => client.fetchPage(url, fetchOptions);
	const loadPage = options.wrapLoad ? options.wrapLoad(realLoad) : realLoad;
	const settings = {order: config.query.order ?? 'desc', limit: config.query.limit ?? 25};
	const compareClient = options.compareToken === undefined ? null : createCompareClient(config, {envName: 'COMPARE_TOKEN', value: options.compareToken});
	const compare = compareClient
		? {loadPage: async (url: string, signal: AbortSignal) => compareClient.fetchPage(url, {signal}), labels: {a: config.credential.from, b: 'COMPARE_TOKEN'}}
		: undefined;
	const more = options.appProps?.(config, client) ?? {};
	const app = (size: {columns: number; rows: number}) => (
		<App {...more} loadPage={loadPage} startUrl={client.firstUrl} api={config.api} endpoint={config.endpoint} settings={settings} size={size} compare={compare} columns={options.columns} bounds={options.bounds} colour={options.env ? colourLevel(options.env, true) : 1} />
	);
	const instance = render(app(options.size ?? {columns: 100, rows: 16}));

	/** As if the terminal were resized: same app, new size. */
	function resize(size: {columns: number; rows: number}) {
		instance.rerender(app(size));
	}

	/** Waits until the visible frame satisfies `predicate`; fails with the last frame seen. */
	async function waitFor(predicate: (frame: string) => boolean): Promise<string> {
		let frame = '';
		await pollUntil(() => predicate(frame = visible(instance.lastFrame())), () => `no matching frame within ${patience} ms; last frame:\n${frame}`, 5);
		return frame;
	}

	/**
	 * Resolves once Ink reads stdin: it attaches its 'readable' listener when
	 * useInput turns raw mode on, in an effect after the first frame, so a
	 * frame on screen does not yet mean a key would be heard.
	 */
	async function listening(): Promise<void> {
		const deadline = Date.now() + patience;
		while (instance.stdin.listenerCount('readable') === 0) {
			if (Date.now() > deadline) {
				throw new Error(`Ink did not start reading keys within ${patience} ms.`);
			}

			// eslint-disable-next-line no-await-in-loop -- polling until Ink listens, one tick at a time
			await new Promise(resolve => {
				setImmediate(resolve);
			});
		}
	}

	/** Presses keys one at a time, as a user would, once Ink listens. */
	async function press(...sequence: string[]) {
		await listening();
		for (const key of sequence) {
			instance.stdin.write(key);
			// eslint-disable-next-line no-await-in-loop -- every key is delivered before the next one
			await new Promise(resolve => {
				setImmediate(resolve);
			});
		}
	}

	async function close() {
		instance.unmount();
		await client.close();
		await compareClient?.close();
	}

	return {instance, waitFor, press, close, resize, frame: () => visible(instance.lastFrame()), config};
}
