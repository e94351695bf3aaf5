import {inert} from '../core/inert.js';
import type {Page} from '../core/types.js';
import {formatMs} from './format.js';
import {top, type PageStackState} from './page-stack.js';

/**
 * What the status area says, as plain data: segments per line, each with a
 * tone the view maps to a colour. Later features (the fill strip of issue 5)
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
	const short = count < limit;
	const mark = count === 0 ? ' empty' : short ? ' short' : '';
	return [
		{id: 'fill', text: `${count}/${limit}${mark}`, tone: short && more ? 'warn' : 'plain'},
		more
			? {id: 'more', text: 'more pages follow', tone: 'good'}
			: {id: 'more', text: 'end of list', tone: 'accent'},
	];
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
		const retry = state.pending.retrying ? ` (${state.pending.retrying})` : '';
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
		message = {id: 'notice', text: inert(state.notice), tone: 'accent'};
	}

	return {location, page: pageSegments, message};
}

export function joinSegments(segments: readonly Segment[]): string {
	return segments.map(segment => segment.text).join(' · ');
}
