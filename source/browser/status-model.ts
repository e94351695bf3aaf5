import {shortPage} from '../core/contract.js';
import {inert} from '../core/inert.js';
import type {Page, RetryNotice} from '../core/types.js';
import {formatMs} from './format.js';
import {top, type Notice, type PageStackState} from './page-stack.js';

/**
 * What the status area says, as plain data: segments per line, each with a
 * tone the view maps to a colour. Later features (the fill strip)
 * add lines here without touching how they are drawn.
 */

export type Tone = 'plain' | 'dim' | 'good' | 'warn' | 'bad' | 'accent';
export type Segment = {id: string; text: string; tone: Tone};
export type StatusModel = {
	/** Where we are: API, endpoint, page, order, limit, objects seen, latency. */
	location: Segment[];
	/** What this page says about the list: fill, more pages or end, total/yielded. */
	page: Segment[];
	/** The error banner (kept until a request succeeds), else the last notice. */
	message: Segment | null;
};

export type StatusInput = {
	state: PageStackState;
	api: string;
	endpoint: string;
	/** Index into spinnerFrames while loading. */
	spinner: string;
	filter: string;
	/** Rows the filter lets through on this page. */
	visible: number;
	/** Columns that did not fit the terminal's width. */
	hiddenColumns?: number;
};

/** `7/25 short · more pages follow`, `25/25 · end of list`, `0/25 empty · more pages follow`. */
export function fillSegments(page: Page, limit: number): Segment[] {
	const count = page.objects.length;
	const more = page.nextUrl !== null;
	// The contract's one definition of a short page (fewer shown than the limit in effect).
	const short = shortPage(count, limit, more);
	const mark = short === null ? '' : ` ${short.kind}`;
	return [
		{id: 'fill', text: `${count}/${limit}${mark}`, tone: short?.more ? 'warn' : 'plain'},
		more
			? {id: 'more', text: 'more pages follow', tone: 'good'}
			: {id: 'more', text: 'end of list', tone: 'accent'},
	];
}

/** A retry the client is waiting on: `429 rate_limit_exceeded, retry 1 in 2 s`. Server text: callers make it inert. */
export function retryText(notice: RetryNotice): string {
	return `${notice.reason}, retry ${notice.attempt} in ${Math.ceil(notice.waitMs / 1000)} s`;
}

/** The words of a notice the page stack recorded: one short line. */
export function noticeText(notice: Notice): string {
	switch (notice.kind) {
		case 'end-of-list': {
			return notice.reason === 'no-next-uri' ? 'end of list: next_uri is empty' : 'end of list: next_uri leads back to this page';
		}

		case 'refreshed': {
			if (!notice.changed) {
				return 'refreshed: page unchanged';
			}

			const parts = [notice.added > 0 ? `${notice.added} new` : '', notice.removed > 0 ? `${notice.removed} gone` : ''].filter(Boolean);
			return `refreshed: page changed${parts.length > 0 ? ` (${parts.join(', ')})` : ' (same ids, new content)'}`;
		}

		case 'keys-dropped': {
			return `${notice.count} key${notice.count === 1 ? '' : 's'} pressed while loading dropped`;
		}

		case 'stopped-loading': {
			return 'stopped loading the next page';
		}

		case 'already-first': {
			return 'already on the first page';
		}

		case 'no-previous': {
			return 'no page below: previous_uri is empty';
		}

		case 'following-previous': {
			return 'following previous_uri';
		}

		case 'new-walk': {
			return notice.change === 'order' ? `order ${notice.order}: new walk from the first page` : `limit ${notice.limit}: new walk from the first page`;
		}

		case 'limit-stays': {
			return `limit stays ${notice.limit} (0–${notice.maximum})`;
		}

		case 'retrying': {
			return 'retrying';
		}
	}
}

/** Commerce reports total and yielded; the account API does not, and that is not zero. */
export function totalsSegment(page: Page): Segment {
	const pagination = page.pagination;
	if ('total' in pagination && typeof pagination.total === 'number') {
		return {id: 'totals', text: `total ${pagination.total} · yielded ${pagination.yielded}`, tone: 'plain'};
	}

	return {id: 'totals', text: 'total/yielded not provided', tone: 'dim'};
}

export function statusModel(input: StatusInput): StatusModel {
	const {state} = input;
	const entry = top(state);
	const page = entry?.page ?? null;
	// The limit in effect is what the server echoed, else what we asked for.
	const limit = page?.pagination.limit ?? state.settings.limit;
	const order = page?.pagination.order ?? state.settings.order;
	const fromCursor = state.entries[0] !== undefined && state.entries[0].url !== state.firstUrl;
	const pageNumber = state.entries.length === 0 ? '–' : `${fromCursor ? '+' : ''}${state.entries.length}`;

	const location: Segment[] = [
		{id: 'api', text: `${input.api} ${input.endpoint}`, tone: 'accent'},
		{id: 'page', text: `page ${pageNumber}`, tone: 'plain'},
		{id: 'order', text: order, tone: 'plain'},
		{id: 'limit', text: `limit ${limit}`, tone: 'plain'},
		{id: 'seen', text: `seen ${state.seen.size}`, tone: 'plain'},
	];
	if (state.pending) {
		const what = state.pending.kind === 'refresh' ? 'refreshing' : 'loading';
		const retry = state.pending.retrying ? ` (${inert(retryText(state.pending.retrying))})` : '';
		location.push({id: 'latency', text: `${input.spinner} ${what}${retry}`, tone: 'warn'});
	} else if (page) {
		location.push({id: 'latency', text: formatMs(page.ms), tone: 'dim'});
	}

	const pageSegments: Segment[] = page ? fillSegments(page, limit) : [{id: 'fill', text: 'no page yet', tone: 'dim'}];
	// Before the totals: the line is cut at the terminal's width, and what the
	// user just typed matters more than what the API does not report.
	if (input.filter !== '') {
		pageSegments.push({id: 'filter', text: `filter "${inert(input.filter)}": ${input.visible} shown`, tone: 'accent'});
	}

	if (page) {
		pageSegments.push(totalsSegment(page));
	}

	const hidden = input.hiddenColumns ?? 0;
	if (hidden > 0) {
		pageSegments.push({id: 'hidden', text: `${hidden} column${hidden === 1 ? '' : 's'} hidden`, tone: 'dim'});
	}

	let message: Segment | null = null;
	if (state.error) {
		message = {id: 'error', text: `error, r retries: ${inert(state.error.message)}`, tone: 'bad'};
	} else if (state.notice) {
		message = {id: 'notice', text: inert(noticeText(state.notice)), tone: 'accent'};
	}

	return {location, page: pageSegments, message};
}

export function joinSegments(segments: readonly Segment[]): string {
	return segments.map(segment => segment.text).join(' · ');
}
