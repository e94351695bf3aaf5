import type {ListObject, Page} from '../../source/contract/types.js';

/** Builds Page values for reducer and layout tests (no server involved). */
export function makePage(options: {
	url: string;
	ids?: string[];
	objects?: ListObject[];
	next?: string | null;
	previous?: string | null;
	api?: 'account' | 'commerce';
	limit?: number;
	order?: 'asc' | 'desc';
}): Page {
	const objects = options.objects ?? (options.ids ?? []).map(id => ({id, name: `object ${id}`}));
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
	return {
		api: options.api ?? 'account',
		requestUrl: options.url,
		requestHeaders: {Authorization: '[redacted]'},
		status: 200,
		objects,
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
