/** Hand-built pages (source/contract/types.ts) for the pure audit tests. */
import type {Api, ListObject, Order, Page, WalkEnd} from '../../source/contract/types.js';

export const accountBase = 'http://127.0.0.1:9/v2/accounts';
export const commerceBase = 'http://127.0.0.1:9/checkouts';

export function object(n: number, order: Order = 'desc'): ListObject {
	// Newest first in desc: a higher n is older in desc, newer in asc.
	const time = order === 'desc' ? 1_800_000_000_000 - n * 1000 : 1_700_000_000_000 + n * 1000;
	return {id: `id-${String(n).padStart(4, '0')}`, created_at: new Date(time).toISOString()};
}

export function url(base: string, parameters: Record<string, string | number | undefined>): string {
	const target = new URL(base);
	for (const [name, value] of Object.entries(parameters)) {
		if (value !== undefined) {
			target.searchParams.set(name, String(value));
		}
	}

	return target.href;
}

export type PageInput = {
	api?: Api;
	objects: ListObject[];
	sent?: {limit?: number; order?: Order; starting_after?: string; ending_before?: string};
	/** `starting_after` of next_uri; null for the last page. */
	next?: string | null;
	/** Overrides of the pagination object. */
	pagination?: Record<string, unknown>;
	/** Parameters next_uri carries besides starting_after; defaults to limit and order as sent. */
	nextParameters?: Record<string, string | number | undefined>;
};

export function page(input: PageInput): Page {
	const api = input.api ?? 'account';
	const base = api === 'account' ? accountBase : commerceBase;
	const sent = input.sent ?? {};
	const limit = sent.limit === undefined || sent.limit === 0 ? 25 : sent.limit;
	const next = input.next === undefined ? null : input.next;
	const nextUrl = next === null ? null : url(base, {...(input.nextParameters ?? {limit: sent.limit, order: sent.order}), starting_after: next});
	const ids = input.objects.map((entry) => entry.id);
	const common = {
		limit,
		order: sent.order ?? 'desc',
		starting_after: sent.starting_after ?? null,
		ending_before: sent.ending_before ?? null,
		previous_uri: null,
		next_uri: nextUrl,
	};
	const pagination = api === 'account'
		? common
		: {...common, total: 1000, yielded: ids.length, cursor_range: ids.length === 0 ? [] : [ids[0], ids.at(-1)]};
	const merged = {...pagination, ...input.pagination};
	return {
		api,
		requestUrl: url(base, sent),
		requestHeaders: {},
		status: 200,
		objects: input.objects,
		pagination: merged as Page['pagination'],
		rawPagination: merged,
		nextUrl,
		previousUrl: null,
		warnings: [],
		startedAt: 0,
		ms: 1,
		retries: 0,
		bytes: 100,
	};
}

/** A clean walk of `count` objects in pages of `limit`. */
export function cleanWalk(count: number, limit: number, options: {api?: Api; order?: Order} = {}): Page[] {
	const order = options.order ?? 'desc';
	const pages: Page[] = [];
	for (let start = 0; start < count || pages.length === 0; start += limit) {
		const objects = [];
		for (let n = start; n < Math.min(count, start + limit); n += 1) {
			objects.push(object(n, order));
		}

		const last = start + limit >= count;
		pages.push(page({
			api: options.api,
			objects,
			sent: {limit, order, starting_after: start === 0 ? undefined : object(start - 1, order).id},
			next: last ? null : objects.at(-1)!.id,
		}));
	}

	return pages;
}

export async function* generate(pages: Page[], end: WalkEnd = {kind: 'end'}): AsyncGenerator<Page, WalkEnd> {
	for (const entry of pages) {
		yield entry;
	}

	return end;
}
