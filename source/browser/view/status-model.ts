import {contractDefaults, queryParameter, shortPage, worstFirst} from '../../contract/contract.js';
import {cutToWidth, displayWidth} from '../../text/text-width.js';
import {findingMessage} from '../../contract/contract-text.js';
import {describeEnd} from '../../http/walk-rules.js';
import {inert} from '../../text/inert.js';
import {flag} from '../../config/hints.js';
import {redact} from '../../text/secret.js';
import type {Finding} from '../../contract/contract.js';
import type {Page, RetryNotice} from '../../contract/types.js';
import {formatMs} from './format.js';
import {maxJumpId} from '../stack/jump.js';
import {top} from '../stack/stack-steps.js';
import type {LoadError, Notice, PageStackState, SearchProgress, WalkBound} from '../stack/types.js';
import type {OffScreenMatches} from '../stack/cells.js';
import {firstKey as key, hintLine, paneHint, tableHintItems, typeAgain} from '../keys/keymap.js';
import {hanging} from '../../text/wrap.js';
import {copyNote} from '../actions/clipboard.js';
import {exportBusy, exportedNote, exportStoppedNote, exportWhere, noFileName, shownName, wroteNote} from '../actions/save-path.js';
import {listsFigures} from '../../text/lists-progress.js';
import type {RunningExport} from '../state/types.js';

/**
 * What the status area says, as plain data: segments per line, each with a
 * tone the view maps to a colour. Later features (the fill strip)
 * add lines here without touching how they are drawn.
 */

export type Tone = 'plain' | 'dim' | 'good' | 'warn' | 'bad' | 'accent';
/** `short`: the same said in fewer cells, taken on a line too narrow before the place's name is cut. */
export type Segment = {id: string; text: string; tone: Tone; short?: string};
export type StatusModel = {
	/** Where we are: API, endpoint, page, order, limit, objects seen, latency. */
	location: Segment[];
	/** What this page says about the list: fill, more pages or end, total/yielded. */
	page: Segment[];
	/** The error banner (kept until a request succeeds), else the last notice. */
	message: Segment | null;
	/** The message's level when it is the last key's (a notice): a success or a warning leaves why the page is short beside it. */
	level?: Level;
	/** The message in parts, fitted to the width by dropping the least needed (an export's progress): it is never wrapped. */
	messageParts?: Segment[];
};

export type StatusInput = {
	state: PageStackState;
	api: string;
	endpoint: string;
	/** Index into spinnerFrames while loading. */
	spinner: string;
	/** The time of this frame (ms since the epoch): a wait is counted down from it. */
	now?: number;
	filter: string;
	/** Rows the filter lets through on this page. */
	visible: number;
	/** Columns that did not fit the terminal's width. */
	hiddenColumns?: number;
	/** Which columns are shown, by position (the pinned id is 1), for `cols 4–9 of 22`. */
	columnSpan?: {offset?: number; first?: number; last?: number; total?: number};
	/** A search across pages (`n`, `N`) running: what it is looking at. */
	search?: SearchProgress | null;
	/** The walk is a related list opened from an object (a breadcrumb above it). */
	related?: boolean;
	/** Columns the choice names that no row of the page has, with the closest one it has. */
	missingColumns?: ReadonlyArray<{path: string; closest?: string}>;
	/** Rows the filter lets through only for columns not on screen, and those columns. */
	offScreenMatches?: OffScreenMatches;
	/** The export of every account's lists (E) running. */
	exporting?: RunningExport | null;
};

/**
 * An error's words, with advice that fits where it happened: a `:` jump's
 * refusal is about the id typed, and a related list's 404 about a list this
 * server does not serve, not about flags the user never gave.
 */
export function errorText(error: LoadError, related: boolean): string {
	// Redacted whole, as every message before it is printed: server text reaches it by many paths.
	if (error.jump) {
		return `jump failed, the page stays (: tries another id): ${inert(redact(error.problem ?? error.message))}`;
	}

	if (related && error.problem !== undefined && error.kind === 'reset' && /\(404 /.test(error.problem)) {
		return `error: ${inert(redact(error.problem))}; this server does not serve that list for this object (${key('close')} goes back)`;
	}

	// `error (r: retry)`: the key and what it does, never `r retries`, which reads as a count of them.
	return `${error.retryable ? `error (${key('refresh')}: retry)` : 'error'}: ${inert(redact(error.message))}`;
}

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

/**
 * A wait, in its two halves: why (`request budget spent (0 of 10 left)`,
 * `429 rate_limit_exceeded`) and when (`next request in 54 s`, `retry 1 in
 * 38 s`), counted down from when it began when the frame's time is known.
 * Server text: made inert here.
 */
function waitParts(notice: RetryNotice, now?: number): {why: string; when: string} {
	const left = notice.since === undefined || now === undefined ? notice.waitMs : Math.max(0, notice.waitMs - (now - notice.since));
	const seconds = Math.ceil(left / 1000);
	return notice.pacing
		? {why: `request budget spent (${inert(notice.reason)})`, when: `next request in ${seconds} s`}
		: {why: inert(notice.reason), when: `retry ${notice.attempt} in ${seconds} s`};
}

/** The one wording of a wait: `request budget spent (0 of 10 left): next request in 54 s`, `429 rate_limit_exceeded: retry 1 in 38 s`. */
export function retryText(notice: RetryNotice, now?: number): string {
	const {why, when} = waitParts(notice, now);
	return `${why}: ${when}`;
}

/** {@link retryText}, with how to stop it where ← stops it: `… retry 1 in 38 s (← stops)`. */
export function waitingText(notice: RetryNotice, now?: number, stoppable = false): string {
	const what = retryText(notice, now);
	return stoppable ? `${what} (${key('previous')} stops)` : what;
}

/**
 * How much a message matters, as k9s's flash has it: `info` says what a key
 * did, `success` that a copy, a write or a find came off, `warn` that it did
 * not. (The error level is the error banner, kept until a request succeeds:
 * a load's failure, not a message.)
 */
export type Level = 'info' | 'success' | 'warn';

/** The colour of each level on the message line. */
export const levelTone: Record<Level, Tone> = {info: 'accent', success: 'good', warn: 'warn'};

/** The status line's message, worded, with its level: server text in it made inert by the caller that draws it. */
export function flash(notice: Notice): {text: string; level: Level} {
	return {text: noticeText(notice), level: noticeLevel(notice)};
}

/** A message's level: what a copy, a write or a find came to is a success or a warning; what a key did is information. */
export function noticeLevel(notice: Notice): Level {
	switch (notice.kind) {
		case 'copied': {
			return notice.write.ok ? 'success' : 'warn';
		}

		case 'wrote':
		case 'kept':
		case 'found': {
			return 'success';
		}

		case 'exported': {
			return notice.failedCount === 0 ? 'success' : 'warn';
		}

		case 'export-where':
		case 'export-busy':
		case 'export-stopped': {
			return 'warn';
		}

		case 'nothing-to-copy':
		case 'cannot':
		case 'no-file-name':
		case 'nothing-to-write':
		case 'exists':
		case 'write-failed':
		case 'not-found': {
			return 'warn';
		}

		// Listed, not a default: a new kind of message gets a level, or this does not compile.
		case 'end-of-list':
		case 'refreshed':
		case 'keys-dropped':
		case 'stopped-loading':
		case 'took-back':
		case 'already-first':
		case 'no-previous':
		case 'following-previous':
		case 'new-walk':
		case 'limit-stays':
		case 'retrying':
		case 'bound':
		case 'jump':
		case 'jump-empty':
		case 'jump-malformed':
		case 'jump-too-long':
		case 'search-no-filter':
		case 'search-busy':
		case 'search-found':
		case 'search-end':
		case 'search-bound':
		case 'search-stopped':
		case 'follow-stopped': {
			return 'info';
		}
	}
}

/** The words of the status line's message: one short line. */
export function noticeText(notice: Notice): string {
	switch (notice.kind) {
		case 'end-of-list': {
			// A loop in the words dump stops with (describeEnd).
			return notice.reason === 'no-next-uri' ? 'end of list: next_uri is empty' : describeEnd(notice.end);
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

		case 'took-back': {
			return `${key('previous')} took back a waiting ${key('next')}: stopping at page ${notice.stopsAt}, not ${notice.stopsAt + 1}`;
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
			if (notice.change === 'order') {
				return orderText(notice);
			}

			// + or - past a bound: the limit is the bound, and the line says which.
			return `limit ${notice.limit}${notice.clamped ? ` (the ${notice.limit === contractDefaults.maximumLimit ? 'most' : 'least'})` : ''}: new walk from the first page`;
		}

		case 'limit-stays': {
			return limitStaysText(notice);
		}

		case 'retrying': {
			return 'retrying';
		}

		case 'bound': {
			return `stopped at ${boundFlag(notice)}: ${key('next')} follows next_uri no further (the list goes on)`;
		}

		// Listed, not a default: a new kind of notice must be worded, or this does not compile.
		case 'jump':
		case 'jump-empty':
		case 'jump-malformed':
		case 'jump-too-long':
		case 'search-no-filter':
		case 'search-busy':
		case 'search-found':
		case 'search-end':
		case 'search-bound':
		case 'search-stopped': {
			return jumpSearchText(notice);
		}

		case 'follow-stopped': {
			const arrivals = `${notice.count} new object${notice.count === 1 ? '' : 's'} arrived`;
			return notice.loop ? `${describeEnd(notice.loop)}; stopped following (${arrivals})` : `stopped following: ${arrivals} (${key('follow')} follows again)`;
		}

		case 'copied':
		case 'nothing-to-copy':
		case 'cannot':
		case 'no-file-name':
		case 'nothing-to-write':
		case 'wrote':
		case 'kept':
		case 'exists':
		case 'write-failed':
		case 'found':
		case 'not-found': {
			return taskText(notice);
		}

		case 'export-where': {
			return exportWhere();
		}

		case 'export-busy': {
			return exportBusy();
		}

		case 'exported': {
			return exportedNote(notice);
		}

		case 'export-stopped': {
			return exportStoppedNote(notice);
		}
	}
}

/** What a copy or a write came to (effects.ts), and where a find in a pane landed. */
function taskText(notice: Extract<Notice, {kind: 'copied' | 'nothing-to-copy' | 'cannot' | 'no-file-name' | 'nothing-to-write' | 'wrote' | 'kept' | 'exists' | 'write-failed' | 'found' | 'not-found'}>): string {
	switch (notice.kind) {
		case 'copied': {
			return copyNote(notice.words, notice.label, notice.write, notice.caveat);
		}

		case 'nothing-to-copy': {
			return 'No page on screen yet, so there is no request to copy.';
		}

		case 'cannot': {
			return notice.what === 'curl' ? 'This browser was started without a way to build curl commands.' : 'This browser was started without a way to write files.';
		}

		case 'no-file-name': {
			return noFileName(notice.what);
		}

		case 'nothing-to-write': {
			return 'No page on screen yet, so nothing was written.';
		}

		case 'wrote': {
			return wroteNote(notice.name, notice.counts, notice.walk);
		}

		case 'kept': {
			return `kept ${shownName(notice.name)} as it was; nothing written`;
		}

		case 'exists': {
			return `${shownName(notice.name)} exists, so nothing was written.`;
		}

		case 'write-failed': {
			return notice.message;
		}

		case 'found': {
			return `"${foundText(notice.text)}" on line ${notice.line} of ${notice.lines} (${key('find')} ${key('prompt-apply')}: the next)`;
		}

		case 'not-found': {
			return `no line of this pane holds "${foundText(notice.text)}"`;
		}
	}
}

/** Text typed to find in a pane, as its message shows it: inert, at most 40 cells. */
function foundText(text: string): string {
	return inert(cutToWidth(text, 40));
}

/** Why the limit stays: `101 is over the most, 100: limit stays 25`; the bounds are the contract's. */
function limitStaysText(notice: Extract<Notice, {kind: 'limit-stays'}>): string {
	const {minimumLimit: least, maximumLimit: most} = contractDefaults;
	const stays = `limit stays ${notice.limit}`;
	// Typed text: a credential pasted by mistake shows as the redaction mark, never a prefix of itself.
	const typed = notice.refused ? inert(cutToWidth(redact(notice.refused.typed), 12)) : '';
	switch (notice.refused?.why) {
		case undefined: {
			return `${stays} (${least}–${most})`;
		}

		case 'empty': {
			return `no limit typed: ${stays} (${least}–${most})`;
		}

		case 'not-whole': {
			return `${typed} is not a whole number from ${least} to ${most}: ${stays}`;
		}

		case 'over': {
			return `${typed} is over the most, ${most}: ${stays}`;
		}
	}
}

/** `o`'s notice: where the new walk started, or, when the object it started at was gone, what was selected instead. */
function orderText(notice: Extract<Notice, {kind: 'new-walk'; change: 'order'}>): string {
	const first = `(${key('first')}: from the first page)`;
	if (notice.place) {
		const where = `${notice.place.cursor === 'starting_after' ? 'after' : 'before'} ${inert(cutToWidth(redact(notice.place.id), 24))}`;
		return `order ${notice.order}: no row on this page to keep, so the new walk starts where it was, ${where} ${first}`;
	}

	if (notice.at === undefined) {
		return notice.noRow ? `order ${notice.order}: no row on this page to keep; new walk from the first page` : `order ${notice.order}: new walk from the first page`;
	}

	const at = inert(cutToWidth(notice.at, 40));
	if (notice.gone) {
		const {neighbour} = notice.gone;
		return neighbour === undefined
			? `order ${notice.order}: ${at} is gone; new walk started where it was ${first}`
			: `order ${notice.order}: ${at} is gone; selected its neighbour ${inert(cutToWidth(neighbour, 40))} ${first}`;
	}

	return `order ${notice.order}: new walk started at ${at} ${first}`;
}

function searchEndText(notice: Extract<Notice, {kind: 'search-end'}>): string {
	const what = `no match for "${cutToWidth(notice.filter, 24)}"`;
	switch (notice.end) {
		case 'no-next-uri': {
			return notice.searched === 0
				? `${what}: this is the last page (next_uri is empty)`
				: `${what} in the ${pages(notice.searched)} after this one: the list ends there`;
		}

		case 'loops-back': {
			return `${what} in ${pages(notice.searched)}: the next link then leads back to a page of this walk`;
		}

		case 'start-of-list': {
			return `${what} in the ${pages(notice.searched)} before this one: the list starts there`;
		}

		case 'no-previous': {
			return `${what} in the ${pages(notice.searched)} before this one: previous_uri is empty there`;
		}
	}
}

function pages(count: number): string {
	return `${count} ${count === 1 ? 'page' : 'pages'}`;
}

/** The notices of jump (`:`) and search (`n`, `N`). The filter is user text: noticeText's callers make it inert. */
function jumpSearchText(notice: Extract<Notice, {kind: `jump${string}` | `search-${string}`}>): string {
	switch (notice.kind) {
		case 'jump': {
			return `jump: a new walk ${notice.cursor === 'starting_after' ? 'after' : 'before'} that id (0 returns to the start)`;
		}

		case 'jump-empty': {
			return `no id typed: ${typeAgain('jump', 'an id to start after it, or <id to start before it')}`;
		}

		case 'jump-malformed': {
			return `not an id: ${typeAgain('jump', 'one id, without spaces, to start after it, or <id to start before it')}`;
		}

		case 'jump-too-long': {
			return `not an id: ${notice.length} characters, over the most, ${maxJumpId}; ${typeAgain('jump', 'one id to start after it, or <id to start before it')}`;
		}

		case 'search-no-filter': {
			return `nothing to search for: ${typeAgain('filter', 'a filter first')}, then ${key('search-next')} and ${key('search-previous')} find the next and previous page with a match`;
		}

		case 'search-busy': {
			return `a page is loading: press ${key('search-next')} or ${key('search-previous')} again once it is shown`;
		}

		case 'search-found': {
			if (notice.before) {
				return `match ${pages(notice.searched)} back, before where this walk started (through previous_uri)`;
			}

			return `match on page ${notice.page} (${pages(notice.searched)} searched${notice.direction === 'forward' ? `; ${key('previous')} walks back` : ' back'})`;
		}

		case 'search-end': {
			return searchEndText(notice);
		}

		case 'search-bound': {
			const what = `no match for "${cutToWidth(notice.filter, 24)}" in ${pages(notice.searched)}`;
			const again = notice.direction === 'forward' ? 'n' : 'N';
			return notice.bound.flag === 'search'
				? `${what} (a search walks at most ${notice.bound.limit}): ${again} searches on from here`
				: `${what}: stopped at ${boundFlag(notice.bound)} (the list goes on)`;
		}

		case 'search-stopped': {
			const how = notice.by === 'escape' ? `search stopped (${key('close')})` : 'search stopped by the error above';
			const again = notice.direction === 'forward' ? 'n' : 'N';
			return notice.moved ? `${how} after ${pages(notice.searched)} with no match: ${again} goes on from here` : `${how}: nothing moved`;
		}
	}
}

/**
 * The request budget the server says is left, when it says it
 * (RateLimit-Remaining, or X-RateLimit-Remaining; see http/rate-budget.ts):
 * `budget 97/100`, in warning tone once a tenth or less is left.
 */
export function budgetSegment(page: Page): Segment | undefined {
	const headers = page.responseHeaders ?? {};
	const remaining = headers['ratelimit-remaining'] ?? headers['x-ratelimit-remaining'];
	if (remaining === undefined || !/^\d{1,12}$/.test(remaining)) {
		return undefined;
	}

	const limit = headers['ratelimit-limit'] ?? headers['x-ratelimit-limit'];
	const known = limit !== undefined && /^\d{1,12}$/.test(limit);
	const low = known ? Number(remaining) * 10 <= Number(limit) : Number(remaining) === 0;
	return {id: 'budget', text: `budget ${remaining}${known ? `/${limit}` : ''}`, tone: low ? 'warn' : 'dim'};
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
	const pageNumber = state.entries.length === 0 ? '–' : String(state.entries.length);
	const start = state.entries[0] ? walkStart(state.entries[0].url) : null;

	let location: Segment[] = [
		{id: 'api', text: `${input.api} ${input.endpoint}`, tone: 'accent'},
		// Page N of this walk, and where the walk began: a walk from a cursor
		// (--starting-after, or back through previous_uri) says which.
		{id: 'page', text: `page ${pageNumber}`, tone: 'plain'},
		...(start === null ? [] : [{id: 'start', text: start, tone: 'dim' as const}]),
		{id: 'order', text: page ? reportedOrder(page, order) : order, tone: 'plain'},
		{id: 'limit', text: page ? limitText(page, limit) : `limit ${limit}`, tone: 'plain'},
		{id: 'seen', text: `seen ${state.seen.size}`, tone: 'plain'},
	];
	let loading = '';
	if (state.pending) {
		const what = pendingText(state);
		loading = `${input.spinner} ${what}`;
		// The wait's when, counted down as on the message line (which says why, when nothing else is on it).
		const retry = state.pending.retrying ? ` (${waitParts(state.pending.retrying, input.now).when})` : '';
		location.push({id: 'loading', text: `${input.spinner} ${what}${retry}`, tone: 'warn', short: `${input.spinner} loading…${retry}`});
	} else if (page) {
		location.push({id: 'latency', text: formatMs(page.ms), tone: 'dim'});
	}

	if (state.sort) {
		// Said where the order is said: the page is sorted, the walk is not.
		const arrow = state.sort.direction === 'ascending' ? '▲' : '▼';
		location.splice(location.findIndex(segment => segment.id === 'order') + 1, 0, {id: 'sort', text: `rows sorted by ${inert(cutToWidth(state.sort.path, 24))} ${arrow} on screen`, tone: 'accent'});
	}

	if (state.follow) {
		// Early on the line: it says why the page changes by itself.
		location.splice(2, 0, {id: 'follow', text: `following · ${state.follow.count} new`, tone: 'accent'});
	}

	// The budget the server stated last, not the one it stated when the page on screen came (← back to it, a prefetch since).
	const answered = state.answered ?? page;
	const budget = answered ? budgetSegment(answered) : undefined;
	if (budget) {
		location.push(budget);
	}

	const pageSegments: Segment[] = page ? fillSegments(page, limit) : [{id: 'fill', text: 'no page yet', tone: 'dim'}];
	if (page && entry) {
		// Where the cursor is among the rows shown (the filter's, when one is typed).
		pageSegments.unshift({id: 'row', text: input.visible === 0 ? 'row –' : `row ${entry.selected + 1}/${input.visible}`, tone: 'plain'});
	}

	// Before the totals: the line is cut at the terminal's width, and what the
	// user just typed matters more than what the API does not report.
	if (input.filter !== '') {
		pageSegments.push({id: 'filter', text: `filter "${inert(input.filter)}": ${input.visible} shown${offScreenText(input.offScreenMatches)}`, tone: 'accent'});
	}

	// A column asked for (--columns) that this page does not have: said, not silently left out.
	const [missing] = input.missingColumns ?? [];
	if (missing) {
		const more = input.missingColumns!.length > 1 ? ` (+${input.missingColumns!.length - 1})` : '';
		pageSegments.push({id: 'missing-column', text: `no column '${inert(missing.path)}' here${missing.closest === undefined ? '' : `, did you mean '${inert(missing.closest)}'?`}${more}`, tone: 'warn'});
	}

	// The commerce API's total and yielded are data the status line promises:
	// they come before the columns. "Not provided" (the account API) comes last.
	const totalsFirst = page?.api === 'commerce';
	if (page && totalsFirst) {
		pageSegments.push(totalsSegment(page));
	}

	// Before the account API's "not provided": which columns are on screen is what the user can act on.
	const hidden = input.hiddenColumns ?? 0;
	const span = input.columnSpan;
	if (span?.total !== undefined && span.last !== undefined && (hidden > 0 || (span.offset ?? 0) > 0)) {
		// Scrolled: the id is still shown (pinned), then columns from `first` on.
		const first = (span.offset ?? 0) > 0 ? span.first ?? 1 : 1;
		pageSegments.push({id: 'hidden', text: `cols ${first}–${span.last} of ${span.total} (< >)`, tone: 'dim'});
	} else if (hidden > 0) {
		pageSegments.push({id: 'hidden', text: `${hidden} column${hidden === 1 ? '' : 's'} hidden`, tone: 'dim'});
	}

	if (page && !totalsFirst) {
		pageSegments.push(totalsSegment(page));
	}

	// One order, by the message's level: a success or a warning (what a copy, a write or a find came to) goes first
	// unless a load failed; then a search running, the error banner, a wait; then information (what a key did to
	// the walk: a wait or a search says more); then what the contract found.
	const said = state.notice ? flash(state.notice) : null;
	const notice = said ? {id: 'notice', text: inert(said.text), tone: levelTone[said.level]} : null;
	let message: Segment | null = null;
	if (said && said.level !== 'info' && !state.error) {
		message = notice;
	} else if (input.search) {
		message = {id: 'search', text: searchingText(input.search, input.now), tone: 'warn'};
	} else if (state.error) {
		// A jump's page did not come: the walk on screen is untouched. r is
		// offered only where asking again can help; otherwise the message's own fix stands alone.
		message = {id: 'error', text: errorText(state.error, input.related === true), tone: 'bad'};
	} else if (state.pending?.retrying) {
		// A wait (a 429's Retry-After, a backoff, a spent budget) is said where
		// it is read, counted down, not left to a spinner at the end of a cut line.
		// What the last key did is said before it, not hidden by it (← taking back a waiting →).
		const wait = waitingText(state.pending.retrying, input.now, state.pending.kind === 'push');
		message = {id: 'waiting', text: notice ? `${notice.text} · ${wait}` : wait, tone: 'warn'};
	} else if (notice) {
		message = notice;
	} else if (input.exporting) {
		// Work the user started, going on while they browse: before what the contract found on the page, after what the last key did.
		const parts = exportSegments(input.exporting, input.now);
		return {location, page: pageSegments, message: {id: 'export', text: joinSegments(parts), tone: 'accent'}, messageParts: parts};
	} else if (entry?.findings && entry.findings.length > 0) {
		message = {id: 'contract', text: contractText(entry.findings, state.entries.length), tone: 'warn'};
	}

	if (message?.id === 'waiting') {
		// Said in full on the message line: the location line does not say it again.
		location = location.map(segment => (segment.id === 'loading' ? {...segment, text: loading, short: `${input.spinner} loading…`} : segment));
	}

	return message === notice && said ? {location, page: pageSegments, message, level: said.level} : {location, page: pageSegments, message};
}

/**
 * ` (2 matched only in hidden column native_balance.currency)`: the filter
 * reads every column, on screen or not, and says so where a row shown has
 * the text nowhere in sight. Empty when every row shown matches on screen.
 */
export function offScreenText(matches: OffScreenMatches | undefined): string {
	if (!matches || matches.rows === 0) {
		return '';
	}

	const [first, second, ...rest] = matches.columns.map(path => inert(cutToWidth(path, 24)));
	const named = [first, second].filter(Boolean).join(', ') + (rest.length > 0 ? ` +${rest.length}` : '');
	return ` (${matches.rows} matched only in hidden ${matches.columns.length === 1 ? 'column' : 'columns'} ${named})`;
}

/** The status line's words, for the help pane: what each figure counts (docs/browser.md says the same). */
export function statusLegend(): string[] {
	const newWalk = (['toggle-order', 'limit-up', 'limit-down', 'limit-type', 'jump'] as const).map(command => key(command)).join(' ');
	// A long explanation goes on under the explanations, as the help's descriptions do.
	return hanging([
		'status line',
		`  page N         pages of this walk from its first page to the one on screen (${key('first')} goes to page 1)`,
		`  seen N         distinct objects this walk has shown, each id counted once however often it is shown; a new walk (${newWalk}) starts again from 0`,
		'  7/25 short     objects on this page of the limit in effect; short: fewer, and more pages follow',
		`  fill ▆▆▇·      one cell per page walked in this walk, from page 1: height by how full it was, · empty; ${key('previous')} keeps the pages it leaves`,
		'  filter "x": 5 shown (2 matched only in hidden column c)',
		'                 the filter reads every column; 2 of the rows match only in columns off screen or hidden',
		'  budget 97/100  requests left of the limit the server states, where it states one',
	], '  budget 97/100  '.length);
}

/**
 * An export's progress, in parts: `export transactions · to transactions.ndjson
 * · lists 12/300 · 3,456 objects · 812 requests · budget 80/100 · 40 s left ·
 * Ctrl-C stops`, the figures those of dump's progress line (text/lists-progress.ts),
 * the time left counted from the frame's time.
 */
export function exportSegments({job, progress, stopping}: RunningExport, now?: number): Segment[] {
	const parts: Segment[] = [
		{id: 'export', text: `export ${job.each}`, tone: 'accent'},
		{id: 'export:file', text: `to ${shownName(job.name)}`, tone: 'accent'},
	];
	if (progress) {
		const elapsed = Math.max(0, (now ?? progress.since) - progress.since);
		for (const figure of listsFigures(progress.figures, elapsed, progress.doneBefore)) {
			parts.push({id: figure.id === 'lists' ? 'export:lists' : `export:${figure.id}`, text: figure.text, tone: 'accent'});
		}

		if (progress.waiting) {
			parts.push({id: 'export:waiting', text: retryText(progress.waiting, now), tone: 'warn'});
		}
	} else {
		parts.push({id: 'export:lists', text: 'reading the accounts list…', tone: 'accent'});
	}

	parts.push(stopping ? {id: 'export:stop', text: 'stopping…', tone: 'warn'} : {id: 'export:stop', text: `${key('interrupt')} stops`, tone: 'dim'});
	return parts;
}

/** `searching page 37… (Esc cancels)`: the page a running search is looking at, and a wait it is in, with its time left. */
export function searchingText(progress: SearchProgress, now?: number): string {
	const where = progress.page === null ? `before the walk's first page (${progress.searched} searched)` : `page ${progress.page}`;
	return progress.waiting
		? `searching ${where}: ${retryText(progress.waiting, now)} (${key('close')} cancels)`
		: `searching ${where}… (${key('close')} cancels)`;
}

/** Where a walk began, from the URL of its first page: `from the start`, `started after <id>`, `started before <id>`. */
export function walkStart(url: string): string {
	// A cursor typed after `:` is the user's text: a credential pasted there
	// by mistake shows as the redaction mark, never a prefix of itself.
	const after = queryParameter(url, 'starting_after');
	if (after !== null) {
		return `started after ${inert(cutToWidth(redact(after), 24))}`;
	}

	const before = queryParameter(url, 'ending_before');
	return before === null ? 'from the start' : `started before ${inert(cutToWidth(redact(before), 24))}`;
}

/**
 * The limit in effect as the server reports it; when that is not what was
 * sent, why: `limit 25 (sent 0; server default)`, `limit 26 (sent 25)`.
 */
export function limitText(page: Page, limit: number): string {
	const sent = queryParameter(page.requestUrl, 'limit');
	// None sent: the default is what the user asked for, nothing to explain.
	if (sent === null || Number(sent) === limit) {
		return `limit ${limit}`;
	}

	return Number(sent) === 0 ? `limit ${limit} (sent 0; server default)` : `limit ${limit} (sent ${inert(cutToWidth(sent, 8))})`;
}

/**
 * The order in effect as the server reports it; when that is not what was
 * sent, what was: `asc (sent desc)`, as the limit says `(sent 10)`.
 */
export function reportedOrder(page: Page, reported: string): string {
	const sent = queryParameter(page.requestUrl, 'order');
	return sent === null || sent === reported ? inert(reported) : `${inert(reported)} (sent ${inert(cutToWidth(sent, 8))})`;
}

/** What is loading, in words: the next page, a new walk in its order, a refresh. */
/** `--max-pages 5`: the bound a walk or a search stopped at, named from the flag table. */
function boundFlag(bound: WalkBound): string {
	return flag(['browse'], bound.flag === 'max-pages' ? 'maxPages' : 'maxItems', String(bound.limit));
}

function pendingText(state: PageStackState): string {
	const pending = state.pending!;
	switch (pending.kind) {
		case 'refresh': {
			return state.follow ? 'following: loading what arrived…' : 'refreshing';
		}

		case 'probe': {
			return 'following: asking for new objects…';
		}

		case 'push': {
			return `loading page ${state.entries.length + 1}…`;
		}

		case 'pop': {
			return `loading page ${state.entries.length - 1}…`;
		}

		case 'reset': {
			if (pending.url === state.firstUrl) {
				// A new walk (o, +, -, L) or the first page: the order it will have.
				return `${key('next')} loading ${state.settings.order} from the start…`;
			}

			return `loading the page ${walkStart(pending.url).replace('started ', '')}…`;
		}
	}
}

/** The first contract finding of the page on screen, and how many more the debug view lists. */
export function contractText(findings: readonly Finding[], pageNumber: number): string {
	const debug = key('debug');
	const more = findings.length > 1 ? ` (+${findings.length - 1} more, ${debug} lists them)` : ` (${debug} for details)`;
	return `contract: ${inert(findingMessage(worstFirst(findings)[0]!, pageNumber))}${more}`;
}

export function joinSegments(segments: readonly Segment[]): string {
	return segments.map(segment => segment.text).join(' · ');
}

/**
 * Which segment a line too narrow for it gives up first (lower first);
 * undefined: kept. The one place that decides what a narrow terminal still
 * shows: where you are (API, page, order, limit), what is loading, what the
 * page says, the keys of a pane or of quitting; then the rest.
 */
function dropRank(segment: Segment): number | undefined {
	switch (segment.id) {
		// The location line: the last latency, where the walk began, the count seen, the budget, then the sort and following.
		case 'latency': {
			return 1;
		}

		case 'start': {
			return 2;
		}

		case 'seen': {
			return 3;
		}

		case 'budget': {
			return 4;
		}

		case 'sort': {
			return 6;
		}

		case 'follow': {
			return 7;
		}

		// The page line: what the API does not report, the row (the marker shows it), which columns are shown, the totals, a missing column.
		case 'totals': {
			return segment.tone === 'dim' ? 1 : 4;
		}

		case 'row': {
			return 2;
		}

		case 'hidden': {
			return 3;
		}

		case 'missing-column': {
			return 5;
		}

		// A pane's title: where in the pane goes; its name is cut before the wrap mode (why its text is cut) or its keys go.
		case 'position': {
			return 1;
		}

		// The keys' hint: each key but quitting may go, the least needed first.
		case 'key:debug': {
			return 1;
		}

		case 'key:detail': {
			return 2;
		}

		case 'key:previous': {
			return 3;
		}

		case 'key:close': {
			return 4;
		}

		case 'key:help': {
			return 5;
		}

		// An export's progress: its requests, the budget and the file go first; the lists done of all stay.
		case 'export:requests': {
			return 1;
		}

		case 'export:budget': {
			return 2;
		}

		case 'export:file': {
			return 3;
		}

		case 'export:objects': {
			return 4;
		}

		case 'export:left': {
			return 5;
		}

		case 'export:waiting': {
			return 6;
		}

		case 'export:stop': {
			return 7;
		}

		default: {
			return undefined;
		}
	}
}

/** Segments whose text is cut, as a last resort, so the segments after them (a pane's keys) stay whole. */
const cuttable = new Set(['api', 'title']);

/**
 * A line of segments that fits `width` cells (joined with ` · `): segments
 * are left out by {@link dropRank}, then those with a short form take it,
 * then the name of the place (`api`, `title`) is cut; what still does not
 * fit is cut at the end by the view.
 */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
	let kept = [...segments];
	const widthOf = (line: readonly Segment[]) => line.reduce((sum, segment) => sum + displayWidth(segment.text), 0) + (3 * Math.max(0, line.length - 1));
	while (widthOf(kept) > width) {
		let drop = -1;
		for (const [index, segment] of kept.entries()) {
			const rank = dropRank(segment);
			if (rank !== undefined && (drop === -1 || rank < dropRank(kept[drop]!)!)) {
				drop = index;
			}
		}

		if (drop === -1) {
			break;
		}

		kept = kept.filter((_, index) => index !== drop);
	}

	// Said shorter rather than the place's name cut to nothing (`… · page – · ⠧ → loading desc from the sta…`).
	for (const [index, segment] of kept.entries()) {
		if (widthOf(kept) > width && segment.short !== undefined) {
			kept[index] = {...segment, text: segment.short};
		}
	}

	const over = widthOf(kept) - width;
	const cut = kept.findIndex(segment => cuttable.has(segment.id));
	if (over > 0 && cut !== -1) {
		const segment = kept[cut]!;
		kept[cut] = {...segment, text: cutToWidth(segment.text, Math.max(1, displayWidth(segment.text) - over))};
	}

	return kept;
}

/** The keys' hint when nothing else is to say (`? help · ← → pages · … · Q quit`), fitted to `width`: `Q quit` stays. */
export function hintSegments(width = Number.POSITIVE_INFINITY): Segment[] {
	const items = tableHintItems.map(item => ({id: `key:${typeof item[0] === 'string' ? item[0] : item[0][0]!}`, text: hintLine([item]), tone: 'dim' as const}));
	return fitSegments(items, width);
}

/** A pane's title line: its name, where in it, the wrap mode, and how it closes, fitted to `width` (the keys kept). */
export function paneTitle({title, position, mode}: {title: string; position?: string; mode?: string}, width = Number.POSITIVE_INFINITY): string {
	const segments: Segment[] = [
		{id: 'title', text: title, tone: 'accent'},
		...(position ? [{id: 'position', text: position, tone: 'accent' as const}] : []),
		...(mode ? [{id: 'mode', text: mode, tone: 'accent' as const}] : []),
		{id: 'keys', text: paneHint(), tone: 'accent'},
	];
	return joinSegments(fitSegments(segments, width));
}
