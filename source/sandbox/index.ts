/**
 * `startSandbox()`: both list APIs on loopback, for tests, the browser's demo
 * and `pagewalk serve`.
 */
import {accountApi} from './account-api.js';
import {issueKeys, writeKeyFiles, type SandboxKey} from './cdp-keys.js';
import {startChurn} from './churn.js';
import {commerceApi} from './commerce-api.js';
import {credentialsFor, type Credentials} from './credentials.js';
import {json} from './http-types.js';
import {JwtVerifier} from './jwt-verify.js';
import {delayFor, type Latency} from './latency.js';
import {RateLimiter, type RateLimit} from './rate-limit.js';
import {churnPerSecond, faultFor, type ScenarioName} from './scenarios.js';
import {listen, type Listener} from './server.js';
import {Lists, type SandboxStore} from './store.js';

export type {CollectionName, InsertOptions, ListOptions, SandboxStore, Viewer} from './store.js';
export type {Credentials} from './credentials.js';
export type {IssuedKeyFile, KeyFile, KeyForm, SandboxKey} from './cdp-keys.js';
export {parseRateLimit, type RateLimit} from './rate-limit.js';
export {parseLatency, type Latency} from './latency.js';
export {scenarioNames, scenarioSummaries, isScenario, type ScenarioName} from './scenarios.js';

export type SandboxOptions = {
	/** Interface to bind; default 127.0.0.1. */
	host?: string;
	/** Account API port; 0 (the default) picks a free one. */
	port?: number;
	/** Commerce API port; default `port + 1`, or a free one when `port` is 0. */
	commercePort?: number;
	/** Objects per list (accounts, checkouts, charges); default 300. */
	records?: number;
	/** Transactions of every account, exactly (a sized load); default: drawn per account, none to a few pages. */
	transactionsPerAccount?: number;
	/** Seed of the generated data and credentials; default 1. */
	seed?: number;
	/** Removed objects each list keeps as valid cursors; older removals are forgotten. Default 10,000. */
	keepRemoved?: number;
	/** Changes per second made in the background; default 0. */
	churn?: number;
	/** Called with one line per request. */
	verbose?: (line: string) => void;
	/** A preset (default `restricted`, the clean sandbox); faulty ones break one contract rule on page 2. */
	scenario?: ScenarioName;
	/** Per-credential limit of the account API, answered with 429 and Retry-After; off by default. */
	rateLimit?: RateLimit;
	/** Write the CDP key files (0600, in a private temporary directory removed at close); default true. */
	keyFiles?: boolean;
	/** Write the key files into this directory instead, and keep them after close (serve's state directory). */
	keyDirectory?: string;
	/** Hold each answer as a real link would (serve --latency); off by default. */
	latency?: Latency;
	/** The clock of JWT checks and the rate limit, in milliseconds since the epoch; for tests. Default Date.now. */
	now?: () => number;
};

export type Sandbox = {
	/** Origin of the account API, no trailing slash; lists under /v2. */
	accountUrl: string;
	/** Origin of the commerce API, no trailing slash; lists at /checkouts and /charges. */
	commerceUrl: string;
	credentials: Credentials;
	/** CDP keys of the account API, accepted beside its tokens: ES256 and EdDSA for each of full and restricted. */
	keys: SandboxKey[];
	/** What it runs with, defaults filled in: what `serve` confirms at start. */
	settings: SandboxSettings;
	store: SandboxStore;
	close(): Promise<void>;
};

/** The sandbox's settings as it applies them (a scenario's own churn included); null where off. */
export type SandboxSettings = {scenario: ScenarioName; records: number; seed: number; churnPerSecond: number; latency: Latency | null; rateLimit: RateLimit | null};

export const defaultRecords = 300;
export const defaultSeed = 1;
/** Past this the index still works, but start-up and memory stop being modest. */
export const maximumRecords = 10_000_000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const port = options.port ?? 0;
	const seed = options.seed ?? defaultSeed;
	const records = options.records ?? defaultRecords;
	if (!Number.isInteger(records) || records < 0 || records > maximumRecords) {
		throw new RangeError(`records must be a whole number from 0 to ${maximumRecords}; got ${records}.`);
	}

	if (!Number.isInteger(seed) || seed < 0 || seed > 0xff_ff_ff_ff) {
		throw new RangeError(`seed must be a whole number from 0 to 4294967295; got ${seed}.`);
	}

	const scenario = options.scenario ?? 'restricted';
	const fault = faultFor(scenario);
	const {transactionsPerAccount} = options;
	if (transactionsPerAccount !== undefined && (!Number.isInteger(transactionsPerAccount) || transactionsPerAccount < 0 || transactionsPerAccount > maximumRecords)) {
		throw new RangeError(`transactionsPerAccount must be a whole number from 0 to ${maximumRecords}; got ${transactionsPerAccount}.`);
	}

	const lists = new Lists(seed, records, options.keepRemoved, transactionsPerAccount);
	const credentials = credentialsFor(seed);
	const now = options.now ?? Date.now;
	const {keys, verifiable} = issueKeys(seed);
	const auth = {keys: new JwtVerifier(verifiable, now), ...(options.rateLimit ? {rateLimiter: new RateLimiter(options.rateLimit, now)} : {})};
	const removeKeyFiles = options.keyFiles === false ? () => undefined : writeKeyFiles(keys, options.keyDirectory);
	let commerceUrl = '';
	const {latency} = options;
	const delayMs = latency === undefined ? undefined : (url: string) => delayFor(latency, url);

	let account: Listener;
	try {
		account = await listen({
			host,
			port,
			name: 'account',
			handler: accountApi(lists, credentials, fault, auth),
			failure: (status, code, message) => json(status, {errors: [{id: code, message}]}),
			verbose: options.verbose,
			delayMs,
		});
	} catch (error: unknown) {
		removeKeyFiles();
		throw error;
	}

	let commerce: Listener;
	try {
		commerce = await listen({
			host,
			port: options.commercePort ?? (port === 0 ? 0 : port + 1),
			name: 'commerce',
			handler: commerceApi(lists, credentials, () => commerceUrl, fault),
			failure: (status, code, message) => json(status, {error: {type: code, message}}),
			verbose: options.verbose,
			delayMs,
		});
	} catch (error: unknown) {
		await account.close();
		removeKeyFiles();
		throw error;
	}

	commerceUrl = commerce.url;
	const churn = options.churn ?? (scenario === 'churn' ? churnPerSecond : 0);
	const stopChurn = startChurn(lists, churn, seed);
	return {
		accountUrl: account.url,
		commerceUrl,
		credentials,
		keys,
		settings: {scenario, records, seed, churnPerSecond: churn, latency: latency ?? null, rateLimit: options.rateLimit ? {...options.rateLimit, headers: options.rateLimit.headers !== false} : null},
		store: lists,
		async close() {
			stopChurn();
			await Promise.all([account.close(), commerce.close()]);
			removeKeyFiles();
		},
	};
}
