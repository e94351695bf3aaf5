import {linkIdentity, type Cursor} from '../contract/links.js';
import type {Page, WalkEnd} from '../contract/types.js';
import {walkFlag} from '../config/hints.js';

/**
 * The rules a walk goes by, page after page, apart from how it fetches: where
 * a link leads (on, or to the end), when it would loop or not advance, when
 * a page repeats an earlier one, and the --max-pages and --max-items bounds.
 * The walker asks them about each link twice: from a page's first bytes (to
 * read ahead) and once the page is parsed (the last word).
 */

function describeCursor(cursor: Cursor): string | undefined {
	if (cursor.starting_after !== undefined) {
		return `starting_after=${cursor.starting_after}`;
	}

	if (cursor.ending_before !== undefined) {
		return `ending_before=${cursor.ending_before}`;
	}

	return undefined;
}

/** Where a walk goes when it goes to `url`: its canonical form and its cursor, as the rules compare them. */
function placeOf(url: string): {canonical: string; cursor: string | undefined} {
	const identity = linkIdentity(url);
	return {canonical: identity.canonical, cursor: describeCursor(identity.cursor)};
}

// The place of each page record WalkRules.after is given, kept while the
// record lives: the browser's stack asks about the same pages at every step,
// and reading a URL costs more than the rest of the rules.
const walkedPlaces = new WeakMap<object, {url: string; canonical: string; cursor: string | undefined}>();

function walkedPlace(walked: {url: string}): {canonical: string; cursor: string | undefined} {
	let place = walkedPlaces.get(walked);
	if (place?.url !== walked.url) {
		place = {url: walked.url, ...placeOf(walked.url)};
		walkedPlaces.set(walked, place);
	}

	return place;
}

function pageKey(page: Page): string {
	return `${page.objects.length}\u0000${page.objects[0]?.id ?? ''}\u0000${page.objects.at(-1)?.id ?? ''}`;
}

/** Why `page` repeats an earlier one, or undefined when it brings something new. */
function repeatedPage(page: Page, number: number, keys: Map<string, number>, previous: readonly string[]): string | undefined {
	if (page.objects.length === 0) {
		return undefined;
	}

	const earlier = keys.get(pageKey(page));
	if (earlier !== undefined) {
		return `page ${number} holds the same objects as ${earlier === 0 ? 'a page walked before' : `page ${earlier}`}`;
	}

	// Almost every page starts with an object the page before did not hold:
	// one pass of string compares says so, and the set of that page's ids
	// (a hundred inserts) is built only when it did.
	const firstId = page.objects[0]!.id;
	if (!previous.includes(firstId)) {
		return undefined;
	}

	const previousIds = new Set(previous);
	if (page.objects.every(object => previousIds.has(object.id))) {
		return `every object of page ${number} was already on ${number === 1 ? 'the page walked before it' : `page ${number - 1}`}`;
	}

	return undefined;
}

/** Where the walk goes after a page: on to `url`, or to its end. */
export type Step = {end: WalkEnd} | {url: string; canonical: string; cursor: string | undefined};

export type WalkLimits = {maxPages: number | null; maxItems: number | null};

/** What a walk remembers to tell a loop: bounded by pages, not objects. */
export class WalkRules {
	/** Pages taken, and their objects. */
	pages = 0;
	items = 0;
	// Page number (1-based) at which each canonical URL and cursor was
	// requested; 0 for the pages walked before this walk.
	private readonly visitedUrls = new Map<string, number>();
	private readonly visitedCursors = new Map<string, number>();
	// A link can lead back to an earlier page under a URL not seen before (a
	// fresh cursor that points backwards). Such a page is caught by its
	// contents before it is yielded, so its objects are not written twice:
	// each page's first id, last id and size (one short key per page, so memory
	// stays bounded by pages, not objects), and the ids of the previous page.
	private readonly pageKeys = new Map<string, number>();
	private previousIds: readonly string[];
	// The page being requested; each URL is read once: as the link, then as the request.
	private canonical: string;
	private cursor: string | undefined;

	constructor(start: string, private readonly limits: WalkLimits, private readonly linkName: string, walked?: {urls: readonly string[]; pages: readonly Page[]}) {
		for (const url of walked?.urls ?? []) {
			const identity = linkIdentity(url);
			this.visitedUrls.set(identity.canonical, 0);
			const cursor = describeCursor(identity.cursor);
			if (cursor !== undefined) {
				this.visitedCursors.set(cursor, 0);
			}
		}

		for (const page of walked?.pages ?? []) {
			if (page.objects.length > 0) {
				this.pageKeys.set(pageKey(page), 0);
			}
		}

		this.previousIds = walked?.pages.at(-1)?.objects.map(object => object.id) ?? [];
		({canonical: this.canonical, cursor: this.cursor} = placeOf(start));
	}

	/**
	 * The rules of a walk that has walked `walked` already, oldest first,
	 * numbered from 1: each page's URL, and the page while it is still in
	 * memory (the browser's page stack, whose deep pages keep only their URL).
	 * A link or a page is then judged as the walk that took those pages
	 * would judge it.
	 */
	static after(walked: ReadonlyArray<{url: string; page: Page | null}>, linkName: string): WalkRules {
		const rules = new WalkRules(walked[0]?.url ?? '', {maxPages: null, maxItems: null}, linkName);
		for (const [index, item] of walked.entries()) {
			const {page} = item;
			if (index > 0) {
				rules.moveTo(walkedPlace(item));
			}

			rules.requesting();
			rules.pages += 1;
			if (page && page.objects.length > 0) {
				rules.pageKeys.set(pageKey(page), rules.pages);
				rules.items += page.objects.length;
			}
		}

		// Only the last page's ids count (a page holding nothing new after it); a page forgotten holds none.
		rules.previousIds = walked.at(-1)?.page?.objects.map(object => object.id) ?? [];
		return rules;
	}

	/** The next page is being requested. */
	requesting(): void {
		this.visitedUrls.set(this.canonical, this.pages + 1);
		if (this.cursor !== undefined) {
			this.visitedCursors.set(this.cursor, this.pages + 1);
		}
	}

	/** Takes the page requested, or ends the walk when it repeats an earlier one. */
	take(page: Page): WalkEnd | undefined {
		this.pages += 1;
		const {pages} = this;
		const repeated = repeatedPage(page, pages, this.pageKeys, this.previousIds);
		if (repeated !== undefined) {
			return {kind: 'not-advancing', note: pages === 1 ? repeated : `the ${this.linkName} of page ${pages - 1} leads back: ${repeated}, so following it would loop`};
		}

		this.pageKeys.set(pageKey(page), pages);
		this.previousIds = page.objects.map(object => object.id);
		this.items += page.objects.length;
		return undefined;
	}

	/** The walk goes on to `step`: the page it requests next. */
	moveTo(step: {canonical: string; cursor: string | undefined}): void {
		this.canonical = step.canonical;
		this.cursor = step.cursor;
	}

	/**
	 * Whether the walk goes on from page `number`, whose link is `next`,
	 * and where to. `objects` is the page's count, counted into `items`
	 * already; undefined when the page is not parsed yet (its link read from
	 * its first bytes), and then undefined is returned where the answer
	 * needs the objects (a --max-items bound).
	 */
	stepAfter(number: number, next: string | null, objects?: number): Step | undefined {
		if (next === null) {
			return {end: {kind: 'end'}};
		}

		const {linkName} = this;
		const pageName = (seen: number) => (seen === 0 ? 'a page walked before' : `page ${seen}`);
		const identity = linkIdentity(next);
		const nextCursor = describeCursor(identity.cursor);
		if (identity.canonical === this.canonical && objects === 0) {
			return {end: {kind: 'not-advancing', note: `page ${number} was empty and its ${linkName} repeats its own request, so the list cannot advance`}};
		}

		const seenUrl = this.visitedUrls.get(identity.canonical);
		if (seenUrl !== undefined) {
			return {end: {kind: 'not-advancing', note: `the ${linkName} of page ${number} leads back to ${pageName(seenUrl)}, so following it would loop`}};
		}

		const seenCursor = nextCursor === undefined ? undefined : this.visitedCursors.get(nextCursor);
		if (seenCursor !== undefined) {
			return {end: {kind: 'not-advancing', note: `the ${linkName} of page ${number} repeats the cursor ${nextCursor!} of ${pageName(seenCursor)}, so following it would not advance`}};
		}

		const {maxItems, maxPages} = this.limits;
		if (maxItems !== null) {
			if (objects === undefined) {
				return undefined;
			}

			if (this.items >= maxItems) {
				return {end: {kind: 'max-items', limit: maxItems}};
			}
		}

		if (maxPages !== null && number >= maxPages) {
			return {end: {kind: 'max-pages', limit: maxPages}};
		}

		return {url: next, canonical: identity.canonical, cursor: nextCursor};
	}
}

/** One sentence for a WalkEnd, for stderr and the status line (not yet inert). */
export function describeEnd(end: WalkEnd): string {
	switch (end.kind) {
		case 'end': {
			return 'reached the end of the list (next_uri was empty)';
		}

		case 'max-pages': {
			return `stopped after ${end.limit} ${end.limit === 1 ? 'page' : 'pages'} (${walkFlag('maxPages')}); more pages follow`;
		}

		case 'max-items': {
			return `stopped after ${end.limit} ${end.limit === 1 ? 'object' : 'objects'} (${walkFlag('maxItems')}); more pages follow`;
		}

		case 'not-advancing': {
			return `stopped: ${end.note}`;
		}
	}
}

/** A walk's end at a loop: a link or a page that leads back into the walk. */
export type LoopEnd = Extract<WalkEnd, {kind: 'not-advancing'}>;

/**
 * Whether following `link`, the link of the last of the pages `walked`
 * (oldest first; see WalkRules.after), would loop, by the rules of every
 * walk: the link leads back to a page walked (its URL or its cursor), or,
 * given `landed`, the page it led to, that page repeats one walked. The end
 * the walk would stop at, with its note, or undefined when it goes on.
 */
export function loopAt(walked: ReadonlyArray<{url: string; page: Page | null}>, link: string, linkName: string, landed?: Page): LoopEnd | undefined {
	if (walked.length === 0) {
		return undefined;
	}

	const rules = WalkRules.after(walked, linkName);
	const step = rules.stepAfter(walked.length, link, walked.at(-1)!.page?.objects.length)!;
	if ('end' in step) {
		return step.end.kind === 'not-advancing' ? step.end : undefined;
	}

	if (landed === undefined) {
		return undefined;
	}

	rules.moveTo(step);
	rules.requesting();
	const end = rules.take(landed);
	return end?.kind === 'not-advancing' ? end : undefined;
}

/**
 * Whether `link`, the link of the last of the pages `walked` (oldest first),
 * leads back into them: by its URL or by its cursor, as a walk judges every
 * link it follows. For a walk that starts where others left off (the
 * browser's search from the page stack), before anything is requested.
 */
export function leadsBack(link: string, walked: readonly string[], linkName: string): boolean {
	return loopAt(walked.map(url => ({url, page: null})), link, linkName) !== undefined;
}
