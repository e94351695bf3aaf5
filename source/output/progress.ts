import {formatCount} from '../text/format-count.js';
import {inert} from '../text/inert.js';
import {redact} from '../text/secret.js';
import {cutToWidth, displayWidth} from '../text/text-width.js';
import type {Page, RetryNotice} from '../contract/types.js';
import {listsFigures, type ListsState} from '../text/lists-progress.js';

export type {ListsState} from '../text/lists-progress.js';

type Stream = {write(text: string): unknown; columns?: number};

/** A wait at least this long is said on a stderr that is not a terminal, which has no progress line to show it. */
export const longWaitMs = 5000;

/**
 * The progress of a walk on `stderr`: the redrawn line on a terminal; else
 * (a pipe, a file, a CI log) one plain line for each long wait, so a walk
 * held minutes by a rate limit is never silent there.
 */
export function progressOn(stderr: Stream & {isTTY?: boolean}, env: Record<string, string | undefined> = {}): Progress {
	return stderr.isTTY === true ? new Progress(stderr, undefined, {dumb: env['TERM'] === 'dumb'}) : new Progress(undefined, stderr);
}

/**
 * The one-line progress display of the dump on stderr, drawn only when stderr
 * is a terminal: pages, objects, short pages, rate, and any retry wait.
 * Redrawn at most ten times a second so a fast walk does not spend its time
 * painting. Off a terminal (`plain`), only a wait of {@link longWaitMs} or
 * more is written, as one line with no carriage return.
 */
export class Progress {
	pages = 0;
	objects = 0;
	short = 0;
	/** Pages of the chain in the other order, in a walk from both ends (http/both-ends.ts). */
	backPages = 0;
	readonly #stream: Stream | undefined;
	readonly #plain: Stream | undefined;
	readonly #started = Date.now();
	#drawnAt = 0;
	#visible = false;
	#waiting: string | undefined;
	/** The forward chain's arrow, once a back page came: ↓ walks newest first (desc), ↑ oldest first. */
	#forward: '↓' | '↑' | undefined;
	#backObjects = 0;
	#lists: ListsState | undefined;
	/** Lists done when the walk started (a resumed walk's): the pace counts this walk's own. */
	#listsBefore: number | undefined;

	/** TERM=dumb: no escape sequences; a line is cleared by writing spaces over it (`#drawnWidth` of them). */
	readonly #dumb: boolean;
	#drawnWidth = 0;
	/** Off a terminal: when the last long wait said ends; a wait within it (another list's, held by the same budget) is not said again. */
	#plainUntil = 0;

	constructor(stream: Stream | undefined, plain?: Stream, {dumb = false}: {dumb?: boolean} = {}) {
		this.#stream = stream;
		this.#plain = plain;
		this.#dumb = dumb;
	}

	page(page: Page, written: number): void {
		this.pages += 1;
		this.objects += written;
		if (page.nextUrl !== null && page.objects.length < page.pagination.limit) {
			this.short += 1;
		}

		this.#waiting = undefined;
		this.#draw(false);
	}

	/** A page of the chain in the other order, its first `taken` objects kept to be written at the end. */
	backPage(page: Page, taken: number): void {
		this.backPages += 1;
		this.objects += taken;
		this.#backObjects += taken;
		this.#forward ??= page.pagination.order === 'asc' ? '↓' : '↑';
		if (page.nextUrl !== null && page.objects.length < page.pagination.limit) {
			this.short += 1;
		}

		this.#draw(false);
	}

	/** Objects of the other order's chain written after the meeting (counted already by backPage). */
	replayed(_written: number): void {
		this.#draw(false);
	}

	/** The chain in the other order was let go: the line shows one chain again. */
	oneChain(): void {
		this.objects -= this.#backObjects;
		this.#backObjects = 0;
		this.backPages = 0;
		this.#forward = undefined;
	}

	retry(notice: RetryNotice): void {
		const asked = notice.retryAfter ? ' as the server\'s Retry-After asks' : '';
		this.#waiting = notice.pacing && notice.retryAfter
			? `waiting ${(notice.waitMs / 1000).toFixed(1)} s as the server's Retry-After asks (${inert(redact(notice.reason))})`
			: notice.pacing
				? `waiting ${(notice.waitMs / 1000).toFixed(1)} s for the server's request budget (${inert(redact(notice.reason))})`
				: `waiting ${(notice.waitMs / 1000).toFixed(1)} s before retry ${notice.attempt} (${inert(redact(notice.reason))})${asked}`;
		const now = Date.now();
		// Every list held by one budget or Retry-After is told of the wait: a log gets one line for it, not one a list.
		if (this.#plain && notice.waitMs >= longWaitMs && now + notice.waitMs > this.#plainUntil + 1000) {
			this.#plainUntil = now + notice.waitMs;
			this.#plain.write(`pagewalk: ${this.#waiting}…\n`);
		}

		this.#draw(true);
	}

	/** A walk of every account's lists moved on: its line shows lists done of all, objects, requests, budget left and time left. */
	lists(state: ListsState): void {
		this.#listsBefore ??= state.done;
		this.#lists = state;
		this.objects = state.objects;
		this.#draw(false);
	}

	/** The summary line, or nothing off a terminal. */
	summary(): string {
		if (this.#lists) {
			const {done, objects, requests} = this.#lists;
			return `${formatCount(objects)} objects in ${formatCount(done)} ${done === 1 ? 'list' : 'lists'} (${formatCount(requests)} ${requests === 1 ? 'request' : 'requests'}) in ${((Date.now() - this.#started) / 1000).toFixed(1)} s`;
		}

		const seconds = (Date.now() - this.#started) / 1000;
		const pages = this.#chains() ?? `${formatCount(this.pages)} ${this.pages === 1 ? 'page' : 'pages'}`;
		return `${formatCount(this.objects)} objects in ${pages}${this.short > 0 ? ` (${formatCount(this.short)} short)` : ''} in ${seconds.toFixed(1)} s`;
	}

	/** Both chains' pages, `↓ 412 pages · ↑ 398 pages`, or undefined for one chain. */
	#chains(): string | undefined {
		if (this.#forward === undefined) {
			return undefined;
		}

		const other = this.#forward === '↓' ? '↑' : '↓';
		return `${this.#forward} ${formatCount(this.pages)} pages · ${other} ${formatCount(this.backPages)} pages`;
	}

	/**
	 * `lists 12/300 · 3,456 objects · 812 requests · budget 80/100 · 40 s
	 * left`: time left at this walk's pace of lists so far. Where that is
	 * wider than `width`, the requests go first, then the objects, so a
	 * narrow terminal still shows the budget and the time left.
	 */
	#listsLine(state: ListsState, elapsedMs: number, width: number): string {
		let figures = listsFigures(state, elapsedMs, this.#listsBefore);
		const line = () => figures.map(figure => figure.text).join(' · ');
		for (const id of ['requests', 'objects'] as const) {
			if (displayWidth(line()) <= width) {
				break;
			}

			figures = figures.filter(figure => figure.id !== id);
		}

		return line();
	}

	clear(): void {
		if (this.#stream && this.#visible) {
			this.#stream.write(this.#dumb ? `\r${' '.repeat(this.#drawnWidth)}\r` : '\r\u001B[2K');
			this.#drawnWidth = 0;
			this.#visible = false;
		}
	}

	#draw(force: boolean): void {
		if (!this.#stream) {
			return;
		}

		const now = Date.now();
		if (!force && now - this.#drawnAt < 100) {
			return;
		}

		this.#drawnAt = now;
		const seconds = Math.max(0.001, (now - this.#started) / 1000);
		const rate = Math.round(this.objects / seconds);
		// A pty with no size set reports 0 columns: that means unknown, not none.
		const width = this.#stream.columns || 80;
		const walked = this.#lists ? this.#listsLine(this.#lists, now - this.#started, width - 1) : `${this.#chains() ?? `page ${formatCount(this.pages)}`} · ${formatCount(this.objects)} objects · ${formatCount(this.short)} short · ${formatCount(rate)}/s`;
		const line = `${walked}${this.#waiting ? ` · ${this.#waiting}` : ''}`;
		// A line wider than the terminal would wrap, and \r would then redraw
		// only its last row; cut it to the width instead (short of the last
		// column, where some terminals wrap already).
		const cut = cutToWidth(line, width - 1);
		if (this.#dumb) {
			// No erase sequence on a dumb terminal: the new line, then spaces over what is left of the old one.
			const drawn = displayWidth(cut);
			this.#stream.write(`\r${cut}${' '.repeat(Math.max(0, this.#drawnWidth - drawn))}`);
			this.#drawnWidth = drawn;
		} else {
			this.#stream.write(`\r\u001B[2K${cut}`);
		}

		this.#visible = true;
	}
}
