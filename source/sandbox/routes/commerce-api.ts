/**
 * The commerce API ({commerceUrl}): `GET /checkouts` and `GET /charges`,
 * `X-CC-Api-Key` auth, the `X-CC-Version` header, absolute
 * `next_uri`/`previous_uri` on the commerce origin, `total`/`yielded`/
 * `cursor_range`, and `{"error": {...}}` on failure.
 */
import type {CommercePagination} from '../../contract/types.js';
import {viewerOf, type Credentials} from '../auth/credentials.js';
import {header, json, splitTarget, type SandboxRequest, type SandboxResponse} from './http-types.js';
import {checkVersion, pageQuery, parseQueryString, linkQuery, type ApiProblem} from './query.js';
import type {CollectionName, Lists} from '../data/store.js';
import type {Envelope, Fault} from '../scenarios/scenarios.js';
import {selectWindow, type Link, type Window} from '../data/window.js';

export const commerceVersionWarning = 'Missing X-CC-Version header; serving latest API version (2018-03-22)';

/** An absolute URL on the commerce origin carrying every pagination parameter in effect. */
export function commerceUri(origin: string, path: string, link: Link | null, window: Window): string | null {
	if (link === null) {
		return null;
	}

	return `${origin}${path}?${linkQuery(link, window.query)}`;
}

/** The commerce envelope: pagination field for field as in docs/contract.md#the-envelope, in the documented order. */
export function renderCommerceEnvelope(window: Window, origin: string, path: string, missingVersion: boolean): Record<string, unknown> {
	const {objects, query} = window;
	const pagination: CommercePagination = {
		order: query.order,
		starting_after: query.startingAfter,
		ending_before: query.endingBefore,
		total: window.total,
		yielded: objects.length,
		limit: query.limit,
		previous_uri: commerceUri(origin, path, window.previous, window),
		next_uri: commerceUri(origin, path, window.next, window),
		cursor_range: objects.length === 0 ? [] : [objects[0]!.id, objects.at(-1)!.id],
	};
	return {pagination, data: objects, ...(missingVersion ? {warnings: [commerceVersionWarning]} : {})};
}

function failure(problem: ApiProblem): SandboxResponse {
	return json(problem.status, {error: {type: problem.code, message: problem.message}}, problem.headers);
}

const routes: Record<string, CollectionName> = {'/checkouts': 'checkouts', '/charges': 'charges'};

/** Answers one commerce API request. `origin` is read per request: the port is known only after listening. */
export function commerceApi(lists: Lists, credentials: Credentials, origin: () => string, fault?: Fault): (request: SandboxRequest) => SandboxResponse {
	return (request) => {
		const {path, query} = splitTarget(request.url);
		const name = Object.hasOwn(routes, path) ? routes[path] : undefined;
		if (name === undefined) {
			return failure({status: 404, code: 'not_found', message: `There is no ${path.slice(0, 200)} in the commerce API; lists are at /checkouts and /charges.`});
		}

		if (request.method !== 'GET') {
			return failure({status: 405, code: 'invalid_request', message: `${request.method} is not allowed on ${path}; use GET or HEAD.`, headers: {allow: 'GET, HEAD'}});
		}

		const key = header(request, 'x-cc-api-key');
		const viewer = key === undefined ? undefined : viewerOf(credentials.commerce, key.trim());
		if (viewer === undefined) {
			return failure({status: 401, code: 'authentication_error', message: 'No such API Key.'});
		}

		const version = checkVersion('X-CC-Version', request.headers['x-cc-version']);
		if (!version.ok) {
			return failure(version.problem);
		}

		const parameters = parseQueryString(query);
		if (!parameters.ok) {
			return failure(parameters.problem);
		}

		const page = pageQuery(parameters.value);
		if (!page.ok) {
			return failure(page.problem);
		}

		const collection = lists.collections[name];
		const result = selectWindow(collection, page.value, viewer);
		if (!result.ok) {
			return failure({status: 400, code: 'validation_error', message: result.message});
		}

		const envelope = renderCommerceEnvelope(result.window, origin(), path, version.value === 'missing');
		return json(200, fault ? fault(envelope as Envelope, {window: result.window, collection, viewer}) : envelope);
	};
}
