import {paginationParameters} from '../contract/contract.js';
import {isScenario, scenarioNames, type ScenarioName} from '../sandbox/scenarios/scenario-names.js';
import {defaults} from './config-defaults.js';
import {parseKeyFile} from './cdp-key.js';
import {resolveCredential, tokenCredential, type Credential, type CredentialInput, type ReadKeyFile} from './credentials.js';
import {resolveEndpoint, type EachList} from './endpoint.js';
import {UsageError} from '../text/errors.js';
import {apiNames, apiVersion, baseUrl, cursor, demoAuths, demoCredentials, headers, integer, isOneOf, limit as limitValue, order, quote, seconds, text, valuesText} from './flag-values.js';
import {parseBase, type LinkBase} from '../contract/links.js';
import type {Api, Order} from '../contract/types.js';
import type {walkFlags} from './flags.js';
import {again, commandLine, commandTakes, credentialCommands, flag, walkCommands, walkFlag, type CommandName} from './hints.js';

export {credentialEnv, defaults} from './config-defaults.js';

const userAgent = 'pagewalk/0.1';

/**
 * Turns the walk flags (flags.ts) into a checked WalkConfig. Pure and
 * synchronous: everything is validated here, before any request or sandbox
 * start, so a wrong value costs one sentence and exit status 2, never a
 * request. Single values are checked in flag-values.ts, the endpoint in
 * endpoint.ts; starting the --demo sandbox is the commands' business
 * (commands/setup/demo.ts), which hands its URLs and credentials back in.
 */

export type WalkQuery = {
	limit?: number;
	order?: Order;
	startingAfter?: string;
	endingBefore?: string;
};

export type WalkConfig = {
	api: Api;
	/** The endpoint path under the API base, e.g. '/v2/accounts' or '/checkouts' (for display). */
	endpoint: string;
	/** `transactions` or `addresses`: that list of every account, the accounts list (`endpoint`) walked for their ids. */
	each?: EachList;
	/** The base of the API in use: its origin and path prefix. */
	base: LinkBase;
	/** The query the walk starts with (only what the user gave; the server fills defaults). */
	query: WalkQuery;
	/** Other query parameters taken from a full-URL endpoint, kept in order. */
	extraQuery: Array<[string, string]>;
	/** What the client authenticates with (config/credentials.ts); `from` names its source in messages. */
	credential: Credential;
	/** One-line warnings about the credential (a key file others can read), printed once before the walk. */
	credentialWarnings: string[];
	/** Non-credential request headers (version, user agent, --header). */
	headers: Record<string, string>;
	timeoutMs: number;
	retries: number;
	/** Longest Retry-After pagewalk waits for; a longer one ends the walk with advice. */
	maxWaitMs: number;
	/** First backoff step when the server gave no Retry-After. */
	retryBaseMs: number;
	maxPages: number | null;
	maxItems: number | null;
	/** Set when the walk runs against the --demo sandbox. */
	demo: boolean;
	/**
	 * With --demo, the names of the credential in use and of the sandbox's
	 * other one (full against restricted), which the browser compares with
	 * when no --compare-env is given.
	 */
	demoCredentials: {using: string; other: Credential} | null;
};

/** Flag values as meow gives them; numbers are accepted too, for other parsers. */
export type WalkFlagValues = Partial<Record<keyof typeof walkFlags, unknown>>;

/** The running --demo sandbox, as far as the config needs it. */
export type DemoSandbox = {
	accountUrl: string;
	commerceUrl: string;
	credentials: Record<Api, {full: string; restricted: string}>;
	/** The sandbox's CDP keys of the account API (its `keys`), as the key portal's files. */
	keys: ReadonlyArray<{viewer: 'full' | 'restricted'; algorithm: string; keyFile: Record<string, string>; path?: string | undefined}>;
};

/**
 * How --demo authenticates on the account API: with a CDP key (ES256, what
 * most users hold today, and what the account API's docs recommend) or with
 * an access token. The commerce API always takes its API key.
 */
export type DemoAuth = 'key' | 'token';

/** What --demo asks for: which preset to start, and which of its credentials to use. */
export type DemoPlan = {scenario: ScenarioName; credential: 'full' | 'restricted'; auth: DemoAuth; /** --latency as given; the sandbox reads it. */ latency?: string};

export type ResolveInput = {
	/** Positional arguments: at most one endpoint. */
	input: readonly string[];
	flags: WalkFlagValues;
	env?: Record<string, string | undefined>;
	/** With --demo: the sandbox already started for this plan (see demoPlan). */
	demo?: DemoSandbox;
	/** Reads --key-file and COINBASE_API_KEY_FILE; default node:fs (see config/credentials.ts). */
	readKeyFile?: ReadKeyFile;
	/** A profile's credential, asked after --key-file and before the environment (see config/credentials.ts). */
	profileCredential?: CredentialInput['profile'];
	/** The command the flags were given to, for the hints of its messages (the same line with --demo, another endpoint). */
	command?: CommandName;
	/** The command walks a list of every account (`transactions`, `addresses`): dump and audit do; the others refuse those names. */
	everyAccount?: boolean;
};

/** The --demo flags, each checked and each refused without --demo. */
type DemoFlags = {demo: boolean; credential?: string; auth?: string; scenario?: string; latency?: string; keyFile?: string};

function demoFlags(flags: ResolveInput['flags']): DemoFlags {
	const demo = flags.demo === true;
	const credential = text(flags.demoCredential);
	if (credential !== undefined && !isOneOf(demoCredentials, credential)) {
		throw new UsageError(`--demo-credential must be ${valuesText(demoCredentials)}, not ${quote(credential)}.`);
	}

	if (credential !== undefined && !demo) {
		throw new UsageError(`--demo-credential only applies with ${walkFlag('demo')}.`);
	}

	const auth = text(flags.demoAuth);
	if (auth !== undefined && !isOneOf(demoAuths, auth)) {
		throw new UsageError(`--demo-auth must be ${valuesText(demoAuths)}, not ${quote(auth)}.`);
	}

	if (auth !== undefined && !demo) {
		throw new UsageError(`--demo-auth only applies with ${walkFlag('demo')}.`);
	}

	const keyFile = text(flags.keyFile);
	if (keyFile !== undefined && demo) {
		throw new UsageError(`--demo signs with the sandbox's own keys, so it cannot be combined with ${walkFlag('keyFile')}.`);
	}

	const scenario = text(flags.scenario);
	if (scenario !== undefined && !isScenario(scenario)) {
		throw new UsageError(`--scenario must be one of ${scenarioNames.join(', ')}, not ${quote(scenario)}.`);
	}

	if (scenario !== undefined && !demo) {
		throw new UsageError(`--scenario only applies with ${walkFlag('demo')} (or to ${commandLine('scenario-serve', 'serve', {scenario})}).`);
	}

	const latency = text(flags.latency);
	if (latency !== undefined && !demo) {
		// The serve line without the value: serve checks it, which this does not.
		throw new UsageError(`${flag([...walkCommands, 'serve'], 'latency')} only applies with ${walkFlag('demo')} (or to ${commandLine('latency-serve', 'serve')}): it slows the sandbox, not a real server.`);
	}

	if (demo && (text(flags.baseUrl) !== undefined || text(flags.commerceUrl) !== undefined)) {
		throw new UsageError(`--demo runs its own sandbox, so it cannot be combined with ${walkFlag('baseUrl')} or ${walkFlag('commerceUrl')}.`);
	}

	return {demo, credential, auth, scenario, latency, keyFile};
}

/**
 * The walk's query: the flags, and the query parameters written into the
 * endpoint, which count as flags (flags win); parameters the contract does
 * not name are passed on as they are.
 */
function walkQuery(flags: ResolveInput['flags'], fromUrl: URLSearchParams): {query: WalkQuery; extraQuery: Array<[string, string]>} {
	const extraQuery: Array<[string, string]> = [];
	for (const [key, value] of fromUrl) {
		if (!(paginationParameters as readonly string[]).includes(key)) {
			if (key === 'access_token' || key === 'api_key') {
				throw new UsageError(`The endpoint must not carry ${key}; credentials come only from the environment or ${flag(credentialCommands, 'keyFile')}.`);
			}

			extraQuery.push([key, value]);
		}
	}

	const query: WalkQuery = {};
	const limit = limitValue(text(flags.limit) ?? fromUrl.get('limit') ?? undefined);
	if (limit !== undefined) {
		query.limit = limit;
	}

	const chosenOrder = order(text(flags.order) ?? fromUrl.get('order') ?? undefined);
	if (chosenOrder !== undefined) {
		query.order = chosenOrder;
	}

	const after = cursor('starting-after', text(flags.startingAfter) ?? fromUrl.get('starting_after') ?? undefined);
	const before = cursor('ending-before', text(flags.endingBefore) ?? fromUrl.get('ending_before') ?? undefined);
	if (after !== undefined && before !== undefined) {
		throw new UsageError(`Give ${walkFlag('startingAfter')} or ${walkFlag('endingBefore')}, not both: the contract does not say what the server does with both.`);
	}

	if (after !== undefined) {
		query.startingAfter = after;
	}

	if (before !== undefined) {
		query.endingBefore = before;
	}

	return {query, extraQuery};
}

/** The headers every request carries: JSON, our user agent, the API's version header, then --header. */
function requestHeadersFor(api: Api, version: string, extraHeaders: Iterable<[string, string]>): Record<string, string> {
	const requestHeaders: Record<string, string> = {accept: 'application/json', 'user-agent': userAgent};
	requestHeaders[api === 'account' ? 'CB-VERSION' : 'X-CC-Version'] = version;
	for (const [name, value] of extraHeaders) {
		requestHeaders[name] = value;
	}

	return requestHeaders;
}

/**
 * Validates everything in the order a user meets it, then returns the --demo
 * plan and a builder that only fills in what a started sandbox knows.
 */
function assemble({input, flags, env = process.env, readKeyFile, profileCredential, command, everyAccount}: ResolveInput): {plan: DemoPlan | null; build(sandbox: DemoSandbox | undefined): WalkConfig} {
	if (input.length > 1) {
		throw new UsageError(`Give at most one endpoint, not ${input.length} (${input.map(item => quote(item)).join(', ')}).`);
	}

	const apiRaw = text(flags.api);
	if (apiRaw !== undefined && !isOneOf(apiNames, apiRaw)) {
		throw new UsageError(`--api must be ${valuesText(apiNames)}, not ${quote(apiRaw)}.`);
	}

	const apiFlag = apiRaw as Api | undefined;
	const demoFlagged = demoFlags(flags);
	const {demo, keyFile} = demoFlagged;
	// With --demo the real bases are placeholders until the sandbox has ports.
	const accountBase = demo ? 'http://127.0.0.1:1/' : baseUrl('base-url', 'PAGEWALK_BASE_URL', flags.baseUrl, env, defaults.baseUrl);
	const commerceBase = demo ? 'http://127.0.0.2:1/' : baseUrl('commerce-url', 'PAGEWALK_COMMERCE_URL', flags.commerceUrl, env, defaults.commerceUrl);
	const bases: Record<Api, LinkBase> = {account: parseBase(accountBase), commerce: parseBase(commerceBase)};

	if (demo && /^[a-z][a-z\d+.-]*:/i.test(input[0] ?? '')) {
		throw new UsageError(`With ${walkFlag('demo')} give the endpoint as a name or path, not a full URL.`);
	}

	const line = command === undefined ? undefined : {command, input, flags};
	const target = resolveEndpoint(text(input[0]) ?? 'accounts', apiFlag, bases, line);
	if (target.each !== undefined && everyAccount !== true) {
		// The commands that take the name, each with the user's line as it would run.
		const dump = line === undefined ? '' : ` (${again('every-account-dump', line, {command: 'dump'}).phrase})`;
		const audit = line === undefined ? '' : ` (${again('every-account-audit', line, {command: 'audit'}).phrase})`;
		throw new UsageError(`${target.each} walks that list of every account, which dump writes${dump} and audit checks${audit}; for one account's list give /v2/accounts/ID/${target.each}.`);
	}

	const {query, extraQuery} = walkQuery(flags, target.query);
	const version = apiVersion(flags.apiVersion);
	const extraHeaders = headers(flags.header);
	const timeoutMs = seconds('timeout', flags.timeout, defaults.timeoutSeconds, 600);
	const retries = integer('retries', flags.retries, 0, 10) ?? defaults.retries;
	const maxWaitMs = seconds('max-wait', flags.maxWait, defaults.maxWaitSeconds, 3600);
	const maxPages = integer('max-pages', flags.maxPages, 1, 10_000_000) ?? null;
	const maxItems = integer('max-items', flags.maxItems, 1, 1_000_000_000) ?? null;

	if (demo && demoFlagged.auth === 'key' && target.api !== 'account') {
		throw new UsageError('--demo-auth key is for the account API; the commerce API takes an API key.');
	}

	const requestHeaders = requestHeadersFor(target.api, version, extraHeaders);
	const plan: DemoPlan | null = demo
		? {
				scenario: (demoFlagged.scenario ?? 'restricted') as ScenarioName,
				credential: (demoFlagged.credential ?? 'restricted') as 'full' | 'restricted',
				auth: (demoFlagged.auth ?? (target.api === 'account' ? 'key' : 'token')) as DemoAuth,
				...(demoFlagged.latency === undefined ? {} : {latency: demoFlagged.latency}),
			}
		: null;
	return {
		plan,
		build(sandbox) {
			let demoCredentials: WalkConfig['demoCredentials'] = null;
			// Read here, once, after every flag was checked and before any request: a
			// bad key file is one sentence and exit 2. Not in demoPlan(), so a key
			// file (or a profile's credential command) is read once per run.
			const resolved = plan ? undefined : resolveCredential({api: target.api, keyFile, env, profile: profileCredential, readKeyFile, tryDemo: line && commandTakes(line.command, 'demo') ? () => tryDemo(line, target) : undefined});
			let credential = resolved?.credential;
			const configBases = {...bases};
			if (plan) {
				if (!sandbox) {
					throw new Error('--demo needs its sandbox started first (see commands/setup/demo.ts).');
				}

				configBases.account = parseBase(sandbox.accountUrl);
				configBases.commerce = parseBase(sandbox.commerceUrl);
				const which = plan.credential;
				const other = which === 'full' ? 'restricted' : 'full';
				credential = demoCredential(sandbox, target.api, plan.auth, which);
				demoCredentials = {using: credential.from, other: demoCredential(sandbox, target.api, plan.auth, other)};
			}

			return {
				api: target.api,
				endpoint: target.path,
				...(target.each === undefined ? {} : {each: target.each}),
				base: configBases[target.api],
				query,
				extraQuery,
				credential: credential!,
				credentialWarnings: resolved?.warnings ?? [],
				headers: requestHeaders,
				timeoutMs,
				retries,
				maxWaitMs,
				retryBaseMs: defaults.retryBaseMs,
				maxPages,
				maxItems,
				demo,
				demoCredentials,
			};
		},
	};
}

/**
 * The user's line with --demo, for a walk that has no credential: without
 * what --demo cannot be combined with (the bases, a profile, a key file), and
 * with the endpoint as a path when it was a full URL.
 */
function tryDemo(line: {command: CommandName; input: readonly string[]; flags: WalkFlagValues}, target: {path: string; query: URLSearchParams}): string {
	const fullUrl = /^[a-z][a-z\d+.-]*:/i.test(line.input[0] ?? '');
	const query = target.query.toString();
	return again('credential-try-demo', line, {
		set: {demo: true},
		drop: ['baseUrl', 'commerceUrl', 'profile', 'keyFile', 'compareProfile'],
		...(fullUrl ? {endpoint: query === '' ? target.path : `${target.path}?${query}`} : {}),
	}).phrase;
}

/**
 * One of the demo sandbox's credentials: with a key, its ES256 key (the type
 * the account API's docs recommend), parsed from the key file's content as
 * a user's file would be; otherwise its token or API key.
 */
function demoCredential(sandbox: DemoSandbox, api: Api, auth: DemoAuth, viewer: 'full' | 'restricted'): Credential {
	if (api === 'account' && auth === 'key') {
		const issued = sandbox.keys.find(key => key.viewer === viewer && key.algorithm === 'ES256');
		if (issued) {
			return {kind: 'cdp-key', key: parseKeyFile(JSON.stringify(issued.keyFile), issued.path ?? `demo ${viewer} key`), from: `demo ${viewer} key`};
		}
	}

	return tokenCredential(api, sandbox.credentials[api][viewer], `demo ${viewer} ${api === 'account' ? 'token' : 'API key'}`);
}

/**
 * Checks every flag, the endpoint and the credential, and returns the walk
 * configuration. Throws a UsageError (exit 2) with one sentence on the first
 * problem; nothing is sent and nothing is started. With --demo, `demo` is the
 * sandbox started for demoPlan()'s answer.
 */
export function resolveConfig(input: ResolveInput): WalkConfig {
	return assemble(input).build(input.demo);
}

/**
 * Checks every flag as resolveConfig does, and says whether --demo asks for a
 * sandbox (and which), or null without --demo. Call it before starting one,
 * so a wrong flag starts nothing.
 */
export function demoPlan(input: Omit<ResolveInput, 'demo'>): DemoPlan | null {
	return assemble(input).plan;
}

/** The URL of the first page for `query` (the config's own query by default). */
export function firstPageUrl(config: WalkConfig, query: WalkQuery = config.query): string {
	const url = new URL(`${config.base.origin}${config.base.prefix}${config.endpoint}`);
	const parameters = new URLSearchParams(config.extraQuery);
	if (query.limit !== undefined) {
		parameters.set('limit', String(query.limit));
	}

	if (query.order !== undefined) {
		parameters.set('order', query.order);
	}

	if (query.startingAfter !== undefined) {
		parameters.set('starting_after', query.startingAfter);
	}

	if (query.endingBefore !== undefined) {
		parameters.set('ending_before', query.endingBefore);
	}

	url.search = parameters.toString();
	return url.href;
}
