import {UsageError} from './errors.js';
import {inert} from './inert.js';
import {cutToWidth} from './text-width.js';
import {parseBase, type LinkBase} from './links.js';
import {Secret, unfitForHeader} from './secret.js';
import type {Api, Order} from './types.js';
import type {walkFlags} from './flags.js';
import {isScenario, scenarioNames, type ScenarioName} from '../sandbox/scenarios.js';

/**
 * Turns the walk flags (flags.ts) into a checked WalkConfig. Everything is
 * validated here, before any request or sandbox start, so a wrong value costs
 * one sentence and exit status 2, never a request.
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
	/** The base of the API in use: its origin and path prefix. */
	base: LinkBase;
	/** The query the walk starts with (only what the user gave; the server fills defaults). */
	query: WalkQuery;
	/** Other query parameters taken from a full-URL endpoint, kept in order. */
	extraQuery: Array<[string, string]>;
	credential: {header: string; value: Secret; envName: string};
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
	/** Set when --demo started a sandbox that close() stops. */
	demo: boolean;
	/**
	 * With --demo, the names of the credential in use and of the sandbox's
	 * other one (full against restricted), which the browser compares with
	 * when no --compare-env is given.
	 */
	demoCredentials: {using: string; other: {envName: string; value: string}} | null;
	/** Releases what the config owns (the --demo sandbox). Safe to call twice. */
	close(): Promise<void>;
};

/** Flag values as meow gives them; numbers are accepted too, for other parsers. */
export type WalkFlagValues = Partial<Record<keyof typeof walkFlags, unknown>>;

export const defaults = {
	baseUrl: 'https://api.coinbase.com',
	commerceUrl: 'https://api.commerce.coinbase.com',
	apiVersion: '2018-03-22',
	timeoutSeconds: 30,
	retries: 3,
	maxWaitSeconds: 60,
	retryBaseMs: 500,
	/** What the server uses when the request leaves them out (contract rules 1 and 3). */
	limit: 25,
	order: 'desc',
} as const;

export const credentialEnv = {
	account: 'COINBASE_ACCESS_TOKEN',
	commerce: 'COINBASE_COMMERCE_API_KEY',
} as const;

const userAgent = 'pagewalk/0.1';

function text(value: unknown): string | undefined {
	if (value === undefined || value === null || value === false) {
		return undefined;
	}

	if (value === true) {
		return '';
	}

	return String(value);
}

function quote(value: string): string {
	return `'${inert(cutToWidth(value, 61))}'`;
}

function integer(name: string, value: unknown, min: number, max: number): number | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
		throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${quote(raw)}.`);
	}

	return Number(raw);
}

function seconds(name: string, value: unknown, fallback: number, max: number): number {
	const raw = text(value);
	if (raw === undefined) {
		return fallback * 1000;
	}

	const number = Number(raw);
	if (raw.trim() === '' || !Number.isFinite(number) || number <= 0 || number > max) {
		throw new UsageError(`--${name} must be a number of seconds above 0 and at most ${max}, not ${quote(raw)}.`);
	}

	return Math.round(number * 1000);
}

function cursor(name: string, value: unknown): string | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	// Any id a server can produce is accepted (a leading '-', spaces, quotes,
	// long ids), so the resume hint always works; only control characters,
	// which no id holds and a terminal would act on, and absurd lengths are refused.
	// eslint-disable-next-line no-control-regex
	if (raw === '' || raw.length > 4096 || /[\u0000-\u001F\u007F-\u009F]/.test(raw)) {
		throw new UsageError(`--${name} must be an object id (up to 4096 characters, no control characters), not ${quote(raw.slice(0, 200))}.`);
	}

	return raw;
}

function order(value: unknown, source = '--order'): Order | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	if (raw !== 'asc' && raw !== 'desc') {
		throw new UsageError(`${source} must be asc or desc, not ${quote(raw)}.`);
	}

	return raw;
}

function baseUrl(name: string, envName: string, flag: unknown, env: Record<string, string | undefined>, fallback: string): string {
	const fromFlag = text(flag);
	const raw = fromFlag ?? (env[envName] || undefined) ?? fallback;
	const source = fromFlag === undefined && env[envName] ? envName : `--${name}`;
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new UsageError(`${source} must be an http or https URL such as ${fallback}, not ${quote(raw)}.`);
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new UsageError(`${source} must be an http or https URL such as ${fallback}, not ${quote(raw)}.`);
	}

	if (url.username !== '' || url.password !== '') {
		throw new UsageError(`${source} must not carry a user name or password; credentials come only from the environment.`);
	}

	if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
		throw new UsageError(`${source} must be a base URL without a query or fragment, not ${quote(raw)}.`);
	}

	return url.href;
}

const forbiddenHeaders = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'keep-alive', 'expect']);
const credentialHeaders = new Set(['authorization', 'x-cc-api-key', 'cookie', 'proxy-authorization']);

function headers(value: unknown): Array<[string, string]> {
	const list = Array.isArray(value) ? value : (value === undefined ? [] : [value]);
	return list.map(item => {
		const raw = String(item);
		const match = /^([!#$%&'*+.^_`|~\dA-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(raw);
		// Header values must not smuggle a second header or line.
		// eslint-disable-next-line no-control-regex
		if (!match || /[\u0000-\u0008\u000A-\u001F\u007F]/.test(match[2]!)) {
			throw new UsageError(`--header must look like 'Name: value' on one line, not ${quote(raw)}.`);
		}

		const name = match[1]!;
		if (forbiddenHeaders.has(name.toLowerCase())) {
			throw new UsageError(`--header cannot set ${name}; pagewalk manages that header itself.`);
		}

		if (credentialHeaders.has(name.toLowerCase())) {
			throw new UsageError(`--header cannot set ${name}: credentials come only from the environment (${credentialEnv.account} or ${credentialEnv.commerce}).`);
		}

		return [name, match[2]!];
	});
}

function apiVersion(value: unknown): string {
	const raw = text(value) ?? defaults.apiVersion;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
	const date = match ? new Date(`${raw}T00:00:00Z`) : undefined;
	if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
		throw new UsageError(`--api-version must be a date in the form YYYY-MM-DD, such as ${defaults.apiVersion}, not ${quote(raw)}.`);
	}

	return raw;
}

type Endpoint = {api: Api; path: string; query: URLSearchParams};

const knownNames: Record<string, Api> = {accounts: 'account', checkouts: 'commerce', charges: 'commerce'};

function under(pathname: string, base: LinkBase): string | undefined {
	if (base.prefix === '') {
		return pathname;
	}

	if (pathname === base.prefix) {
		return '/';
	}

	return pathname.startsWith(`${base.prefix}/`) ? pathname.slice(base.prefix.length) : undefined;
}

function splitPath(raw: string): {path: string; query: URLSearchParams} {
	const url = new URL(raw, 'http://x');
	return {path: url.pathname, query: url.searchParams};
}

/** Applies the endpoint rules of issue 2/4 to the positional argument. */
function endpoint(raw: string, apiFlag: Api | undefined, bases: Record<Api, LinkBase>): Endpoint {
	if (/^[a-z][a-z\d+.-]*:/i.test(raw) && !raw.startsWith('/')) {
		let url: URL;
		try {
			url = new URL(raw);
		} catch {
			throw new UsageError(`The endpoint ${quote(raw)} is not a valid URL.`);
		}

		if (url.username !== '' || url.password !== '') {
			throw new UsageError('The endpoint URL must not carry a user name or password; credentials come only from the environment.');
		}

		const candidates = (['account', 'commerce'] as const)
			.filter(api => apiFlag === undefined || api === apiFlag)
			.map(api => ({api, path: url.origin === bases[api].origin ? under(url.pathname, bases[api]) : undefined}))
			.filter((candidate): candidate is {api: Api; path: string} => candidate.path !== undefined);
		const chosen = candidates.length > 1
			? candidates.find(candidate => (candidate.api === 'account') === candidate.path.startsWith('/v2/')) ?? candidates[0]
			: candidates[0];
		if (!chosen) {
			throw new UsageError(`The endpoint URL is on ${inert(url.origin)}, which is neither --base-url ${bases.account.origin}${bases.account.prefix} nor --commerce-url ${bases.commerce.origin}${bases.commerce.prefix}; set the matching base.`);
		}

		return {api: chosen.api, path: chosen.path, query: url.searchParams};
	}

	if (raw.startsWith('/')) {
		if (/^\/[/\\]/.test(raw) || raw.includes('#')) {
			throw new UsageError(`The endpoint ${quote(raw)} must be a path such as /v2/accounts.`);
		}

		const {path, query} = splitPath(raw);
		return {api: apiFlag ?? (path.startsWith('/v2/') ? 'account' : 'commerce'), path, query};
	}

	if (!/^[a-z\d_-]+(?:\/[A-Za-z\d_.-]+)*$/i.test(raw)) {
		throw new UsageError(`The endpoint ${quote(raw)} must be a name such as accounts or checkouts, a path such as /v2/accounts, or a full URL.`);
	}

	const api = apiFlag ?? knownNames[raw];
	if (api === undefined) {
		throw new UsageError(`Unknown endpoint ${quote(raw)}: use accounts, checkouts or charges, a path such as /v2/${raw}, or --api account|commerce.`);
	}

	return {api, path: api === 'account' ? `/v2/${raw}` : `/${raw}`, query: new URLSearchParams()};
}

type DemoSandbox = {
	accountUrl: string;
	commerceUrl: string;
	credentials: Record<Api, {full: string; restricted: string}>;
	close(): Promise<void> | void;
};

export type ResolveInput = {
	/** Positional arguments: at most one endpoint. */
	input: readonly string[];
	flags: WalkFlagValues;
	env?: Record<string, string | undefined>;
	/** Starts the --demo sandbox; tests may pass their own. */
	startDemo?: (options: {scenario: ScenarioName}) => Promise<DemoSandbox>;
};

async function startDemoSandbox(options: {scenario: ScenarioName}): Promise<DemoSandbox> {
	const {startSandbox} = await import('../sandbox/index.js');
	return startSandbox({port: 0, scenario: options.scenario}) as Promise<DemoSandbox>;
}

/**
 * Checks every flag, the endpoint and the credential, and returns the walk
 * configuration. Throws a UsageError (exit 2) with one sentence on the first
 * problem; nothing is sent before it returns. With --demo it starts the
 * sandbox, and the returned close() stops it.
 */
export async function resolveConfig({input, flags, env = process.env, startDemo = startDemoSandbox}: ResolveInput): Promise<WalkConfig> {
	if (input.length > 1) {
		throw new UsageError(`Give at most one endpoint, not ${input.length} (${input.map(item => quote(item)).join(', ')}).`);
	}

	const apiRaw = text(flags.api);
	if (apiRaw !== undefined && apiRaw !== 'account' && apiRaw !== 'commerce') {
		throw new UsageError(`--api must be account or commerce, not ${quote(apiRaw)}.`);
	}

	const apiFlag = apiRaw as Api | undefined;
	const demo = flags.demo === true;
	const demoCredentialRaw = text(flags.demoCredential);
	if (demoCredentialRaw !== undefined && demoCredentialRaw !== 'full' && demoCredentialRaw !== 'restricted') {
		throw new UsageError(`--demo-credential must be full or restricted, not ${quote(demoCredentialRaw)}.`);
	}

	if (demoCredentialRaw !== undefined && !demo) {
		throw new UsageError('--demo-credential only applies with --demo.');
	}

	const scenarioRaw = text(flags.scenario);
	if (scenarioRaw !== undefined && !isScenario(scenarioRaw)) {
		throw new UsageError(`--scenario must be one of ${scenarioNames.join(', ')}, not ${quote(scenarioRaw)}.`);
	}

	if (scenarioRaw !== undefined && !demo) {
		throw new UsageError('--scenario only applies with --demo (or to pagewalk serve).');
	}

	if (demo && (text(flags.baseUrl) !== undefined || text(flags.commerceUrl) !== undefined)) {
		throw new UsageError('--demo runs its own sandbox, so it cannot be combined with --base-url or --commerce-url.');
	}

	// With --demo the real bases are placeholders until the sandbox has ports.
	const accountBase = demo ? 'http://127.0.0.1:1/' : baseUrl('base-url', 'PAGEWALK_BASE_URL', flags.baseUrl, env, defaults.baseUrl);
	const commerceBase = demo ? 'http://127.0.0.2:1/' : baseUrl('commerce-url', 'PAGEWALK_COMMERCE_URL', flags.commerceUrl, env, defaults.commerceUrl);
	const bases: Record<Api, LinkBase> = {account: parseBase(accountBase), commerce: parseBase(commerceBase)};

	if (demo && /^[a-z][a-z\d+.-]*:/i.test(input[0] ?? '')) {
		throw new UsageError('With --demo give the endpoint as a name or path, not a full URL.');
	}

	const target = endpoint(text(input[0]) ?? 'accounts', apiFlag, bases);

	// Query parameters written into the endpoint count as flags; flags win.
	const fromUrl = target.query;
	const extraQuery: Array<[string, string]> = [];
	for (const [key, value] of fromUrl) {
		if (!['limit', 'order', 'starting_after', 'ending_before'].includes(key)) {
			if (key === 'access_token' || key === 'api_key') {
				throw new UsageError(`The endpoint must not carry ${key}; credentials come only from the environment.`);
			}

			extraQuery.push([key, value]);
		}
	}

	const query: WalkQuery = {};
	const limit = integer('limit', text(flags.limit) ?? fromUrl.get('limit') ?? undefined, 0, 100);
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
		throw new UsageError('Give --starting-after or --ending-before, not both: the contract does not say what the server does with both.');
	}

	if (after !== undefined) {
		query.startingAfter = after;
	}

	if (before !== undefined) {
		query.endingBefore = before;
	}

	const version = apiVersion(flags.apiVersion);
	const extraHeaders = headers(flags.header);
	const timeoutMs = seconds('timeout', flags.timeout, defaults.timeoutSeconds, 600);
	const retries = integer('retries', flags.retries, 0, 10) ?? defaults.retries;
	const maxWaitMs = seconds('max-wait', flags.maxWait, defaults.maxWaitSeconds, 3600);
	const maxPages = integer('max-pages', flags.maxPages, 1, 10_000_000) ?? null;
	const maxItems = integer('max-items', flags.maxItems, 1, 1_000_000_000) ?? null;

	const envName = credentialEnv[target.api];
	let secret: string | undefined;
	if (!demo) {
		secret = env[envName];
		if (secret === undefined || secret.trim() === '') {
			throw new UsageError(target.api === 'account'
				? `Set ${envName} to an access token for the account API (or try --demo); credentials are read only from the environment.`
				: `Set ${envName} to an API key for the commerce API (or try --demo); credentials are read only from the environment.`);
		}

		secret = secret.trim();
		// eslint-disable-next-line no-control-regex
		if (/[\u0000-\u001F\u007F]/.test(secret)) {
			throw new UsageError(`${envName} contains a line break or control character; set it to the bare credential.`);
		}

		const unfit = unfitForHeader(secret);
		if (unfit > 0) {
			throw new UsageError(`${envName} holds a character an HTTP header cannot carry (at position ${unfit}; only ASCII and Latin-1 fit); set it to the bare credential as the API issued it.`);
		}
	}

	const requestHeaders: Record<string, string> = {accept: 'application/json', 'user-agent': userAgent};
	if (target.api === 'account') {
		requestHeaders['CB-VERSION'] = version;
	} else {
		requestHeaders['X-CC-Version'] = version;
	}

	for (const [name, value] of extraHeaders) {
		requestHeaders[name] = value;
	}

	let close = async () => {};
	let demoCredentials: WalkConfig['demoCredentials'] = null;
	if (demo) {
		const sandbox = await startDemo({scenario: (scenarioRaw ?? 'restricted') as ScenarioName});
		const which = (demoCredentialRaw ?? 'restricted') as 'full' | 'restricted';
		bases.account = parseBase(sandbox.accountUrl);
		bases.commerce = parseBase(sandbox.commerceUrl);
		secret = sandbox.credentials[target.api][which];
		const other = which === 'full' ? 'restricted' : 'full';
		demoCredentials = {using: `demo ${which}`, other: {envName: `demo ${other}`, value: sandbox.credentials[target.api][other]}};
		let closed = false;
		close = async () => {
			if (!closed) {
				closed = true;
				await sandbox.close();
			}
		};
	}

	const credentialValue = target.api === 'account' && !/^bearer /i.test(secret!) ? `Bearer ${secret!}` : secret!;
	return {
		api: target.api,
		endpoint: target.path,
		base: bases[target.api],
		query,
		extraQuery,
		credential: {
			header: target.api === 'account' ? 'Authorization' : 'X-CC-Api-Key',
			value: new Secret(credentialValue),
			envName,
		},
		headers: requestHeaders,
		timeoutMs,
		retries,
		maxWaitMs,
		retryBaseMs: defaults.retryBaseMs,
		maxPages,
		maxItems,
		demo,
		demoCredentials,
		close,
	};
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
