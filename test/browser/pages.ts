import {expect} from 'vitest';
import {pageStackReducer, wantedRequests} from '../../source/browser/stack/page-stack.js';
import type {PageStackState, StackAction} from '../../source/browser/stack/types.js';
import {noticeText} from '../../source/browser/view/status-model.js';
import type {ListObject, Page} from '../../source/contract/types.js';
import {pageSpans} from '../../source/json/json-spans.js';

/**
 * Builds Page values for reducer and layout tests (no server involved). As
 * a page read from a response does, it carries its objects' exact texts
 * (`objectTexts`, cut from a body by the client's own scanner), so the
 * reducers draw, filter and compare the cells production's pages give them,
 * not the fallback made from parsed values.
 */
export function makePage(options: {
	url: string;
	ids?: string[];
	objects?: ListObject[];
	/** The objects' texts as a server wrote them (`1.0`, key order, escapes); `objects` are parsed from them when not given. */
	texts?: string[];
	next?: string | null;
	previous?: string | null;
	api?: 'account' | 'commerce';
	limit?: number;
	order?: 'asc' | 'desc';
}): Page {
	const objects = options.objects ?? options.texts?.map(text => JSON.parse(text) as ListObject) ?? (options.ids ?? []).map(id => ({id, name: `object ${id}`}));
	const limit = options.limit ?? 25;
	const order = options.order ?? 'desc';
	const next = options.next ?? null;
	const previous = options.previous ?? null;
	const pagination =
		options.api === 'commerce'
			? {
					order,
					starting_after: null,
					ending_before: null,
					total: 100,
					yielded: objects.length,
					limit,
					previous_uri: previous,
					next_uri: next,
					cursor_range: objects.length > 0 ? ([objects[0]!.id, objects.at(-1)!.id] as [string, string]) : ([] as []),
				}
			: {ending_before: null, starting_after: null, limit, order, previous_uri: previous, next_uri: next};
	const body = `{"data":[${(options.texts ?? objects.map(object => JSON.stringify(object))).join(',')}],"pagination":${JSON.stringify(pagination)}}`;
	const {texts} = pageSpans(body, objects.length);
	if (texts === undefined) {
		throw new Error(`makePage: ${objects.length} objects but texts for another number`);
	}

	return {
		api: options.api ?? 'account',
		requestUrl: options.url,
		requestHeaders: {Authorization: '[redacted]'},
		status: 200,
		objects,
		objectTexts: texts,
		pagination,
		rawPagination: {...pagination},
		nextUrl: next,
		previousUrl: previous,
		warnings: [],
		startedAt: 0,
		ms: 12,
		retries: 0,
		bytes: 1234,
	};
}

export const base = 'http://x.test/v2/accounts';
export const url = (cursor?: string, extra = '') => (cursor ? `${base}?starting_after=${cursor}${extra}` : `${base}${extra}`);

/** The notice as the status line words it (the reducer records it as data). */
export function notice(state: PageStackState): string | null {
	return state.notice === null ? null : noticeText(state.notice);
}

export function apply(state: PageStackState, ...actions: StackAction[]): PageStackState {
	return actions.reduce(pageStackReducer, state);
}

/** Answers the request the state wants right now (the page or the prefetch) with the page `page` builds. */
export function answer(state: PageStackState, page: Parameters<typeof makePage>[0]): PageStackState {
	const [wanted] = wantedRequests(state);
	expect(wanted?.url).toBe(page.url);
	return pageStackReducer(state, {type: 'loaded', requestId: wanted!.requestId, page: makePage(page)});
}
