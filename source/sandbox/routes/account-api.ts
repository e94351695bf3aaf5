/**
 * The account API ({accountUrl}/v2): `GET /v2/accounts`,
 * `GET /v2/accounts/:id/transactions` and `GET /v2/accounts/:id/addresses`, bearer-token auth (or the
 * `access_token` query parameter older SDKs send) with an OAuth-style token
 * or a CDP key's JWT made for this very request, an optional per-credential
 * rate limit, the `CB-VERSION` header,
 * relative `next_uri`/`previous_uri`, and `{"errors": [...]}` on failure.
 */
import type {AccountPagination} from '../../contract/types.js';
import {viewerOf, type Credentials} from '../auth/credentials.js';
import {header, json, splitTarget, type SandboxRequest, type SandboxResponse} from './http-types.js';
import type {IssuedKey} from '../auth/cdp-keys.js';
import {looksLikeJwt, type JwtVerifier} from '../auth/jwt-verify.js';
import type {Viewer} from '../data/ordered-index.js';
import {checkVersion, pageQuery, parseQueryString, linkQuery, type ApiProblem} from './query.js';
import {budgetHeaders, type RateLimiter} from './rate-limit.js';
import type {AccountListName, Collection, Lists} from '../data/store.js';
import type {Envelope, Fault} from '../scenarios/scenarios.js';
import {selectWindow, type Link, type Window} from '../data/window.js';

export const accountVersionWarning = {
	id: 'missing_version',
	message: 'Please supply API version (YYYY-MM-DD) as CB-VERSION header',
	url: 'https://developers.coinbase.com/api#versioning',
};

/** A relative URI (path and query) carrying every pagination parameter in effect. */
export function accountUri(path: string, link: Link | null, window: Window): string | null {
	if (link === null) {
		return null;
	}

	return `${path}?${linkQuery(link, window.query)}`;
}

/** The account envelope for a page: pagination field for field as in docs/contract.md#the-envelope, plus the two cursor fields real servers add. */
export function renderAccountEnvelope(window: Window, path: string, missingVersion: boolean): Record<string, unknown> {
	const {next, previous, query} = window;
	const pagination: AccountPagination = {
		ending_before: query.endingBefore,
		starting_after: query.startingAfter,
		previous_ending_before: previous && 'endingBefore' in previous ? previous.endingBefore : null,
		next_starting_after: next && 'startingAfter' in next ? next.startingAfter : null,
		limit: query.limit,
		order: query.order,
		previous_uri: accountUri(path, previous, window),
		next_uri: accountUri(path, next, window),
	};
	return {pagination, data: window.objects, ...(missingVersion ? {warnings: [accountVersionWarning]} : {})};
}

function failure(problem: ApiProblem): SandboxResponse {
	return json(problem.status, {errors: [{id: problem.code, message: problem.message}]}, problem.headers);
}

const listPath = '/v2/accounts';
/** The lists of one account: the same contract as the accounts list, under that account's path. */
const accountListPath = /^\/v2\/accounts\/([^/]+)\/(transactions|addresses)$/;
/** Named in the 404 for any other path, so a wrong path says where the lists are. */
const listPaths = '/v2/accounts, /v2/accounts/:id/transactions and /v2/accounts/:id/addresses';

/** How the account API checks callers beyond its static tokens. */
export type AccountAuth = {
	/** Accepts the JWTs of the sandbox's CDP keys. */
	keys?: JwtVerifier<IssuedKey>;
	/** Limits each credential (key name or token) once it is authenticated. */
	rateLimiter?: RateLimiter;
};

export const rateLimitError = {id: 'rate_limit_exceeded', message: 'Too many requests'};

/** Answers one account API request. Never throws for anything a client can send. */
export function accountApi(lists: Lists, credentials: Credentials, fault?: Fault, auth: AccountAuth = {}): (request: SandboxRequest) => SandboxResponse {
	return (request) => {
		const {path, query} = splitTarget(request.url);
		const accountListMatch = accountListPath.exec(path);
		if (path !== listPath && !accountListMatch) {
			return failure({status: 404, code: 'not_found', message: `There is no ${path.slice(0, 200)} in the account API; lists are at ${listPaths}.`});
		}

		if (request.method !== 'GET') {
			return failure({status: 405, code: 'invalid_request', message: `${request.method} is not allowed on ${path}; use GET or HEAD.`, headers: {allow: 'GET, HEAD'}});
		}

		const parameters = parseQueryString(query);
		if (!parameters.ok) {
			return failure(parameters.problem);
		}

		const caller = authenticate(request, path, parameters.value.get('access_token'), credentials, auth.keys);
		if (!('viewer' in caller)) {
			return failure(caller);
		}

		const allowed = auth.rateLimiter?.take(caller.credential);
		if (!allowed) {
			return listAnswer(request, path, parameters.value, caller.viewer);
		}

		const budget = auth.rateLimiter!.statesBudget ? budgetHeaders(allowed.budget) : {};
		if (!allowed.ok) {
			return json(429, {errors: [rateLimitError]}, {'retry-after': String(allowed.retryAfterSeconds), ...budget});
		}

		const answer = listAnswer(request, path, parameters.value, caller.viewer);
		return {...answer, headers: {...answer.headers, ...budget}};
	};

	/** The page (or the refusal) for an authenticated caller. */
	function listAnswer(request: SandboxRequest, path: string, parameters: Map<string, string>, viewer: Viewer): SandboxResponse {
		const accountListMatch = accountListPath.exec(path);
		const version = checkVersion('CB-VERSION', request.headers['cb-version']);
		if (!version.ok) {
			return failure(version.problem);
		}

		const page = pageQuery(parameters);
		if (!page.ok) {
			return failure(page.problem);
		}

		let collection: Collection | undefined = lists.collections.accounts;
		if (accountListMatch) {
			const accountId = decodeSegment(accountListMatch[1]!);
			// A restricted caller cannot see a hidden account's transactions or addresses either.
			collection = accountId === undefined ? undefined : lists.accountList(accountListMatch[2] as AccountListName, accountId, viewer);
			if (!collection) {
				return failure({status: 404, code: 'not_found', message: `There is no account ${accountListMatch[1]!.slice(0, 80)}.`});
			}
		}

		const result = selectWindow(collection, page.value, viewer);
		if (!result.ok) {
			return failure({status: 400, code: 'validation_error', message: result.message});
		}

		const envelope = renderAccountEnvelope(result.window, path, version.value === 'missing');
		return json(200, fault ? fault(envelope as Envelope, {window: result.window, collection, viewer}) : envelope);
	}
}

function decodeSegment(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

/** The caller's viewer and the credential it is counted under (a key's name, or the token itself). */
type Caller = {viewer: Viewer; credential: string};

function authenticate(request: SandboxRequest, path: string, accessToken: string | undefined, credentials: Credentials, keys: JwtVerifier<IssuedKey> | undefined): Caller | ApiProblem {
	const authorization = header(request, 'authorization');
	let token = accessToken;
	if (authorization !== undefined) {
		const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
		if (!match) {
			return {status: 401, code: 'authentication_error', message: 'The Authorization header must be "Bearer <access token>".'};
		}

		token = match[1];
	}

	if (token === undefined || token === '') {
		return {status: 401, code: 'authentication_error', message: 'No access token was sent; send "Authorization: Bearer <access token>".'};
	}

	const viewer = viewerOf(credentials.account, token);
	if (viewer !== undefined) {
		return {viewer, credential: `token:${viewer}`};
	}

	// A JWT is only ever taken from the Authorization header: one in a URL would be logged everywhere.
	if (keys && authorization !== undefined && looksLikeJwt(token)) {
		const verified = keys.verify(token, {method: request.method, host: header(request, 'host'), path});
		return verified.ok ? {viewer: verified.key.viewer, credential: `key:${verified.key.name}`} : verified.problem;
	}

	return {status: 401, code: 'invalid_token', message: 'The access token is invalid'};
}
