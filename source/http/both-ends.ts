import type {FetchOptions, PageClient} from './http-client.js';
import type {WalkQuery} from '../config/options.js';
import {PageSpool, type SpooledObjects} from './page-spool.js';
import type {ListObject, Order, Page, WalkEnd} from '../contract/types.js';
import {walk} from './walker.js';

/**
 * A whole list walked from both ends at once: the walker twice, one chain in
 * the order asked for (forward) from the first page, one in the other order
 * (back) from the other end, so a walk costs about half the round trips of
 * one chain. Forward pages are handed on as they come; back pages are
 * spooled to disk (page-spool.ts) and handed on, last first, once the
 * chains meet, so the objects come out in the order asked for, as one
 * chain would give them (docs/walker.md#both-ends says why this is exact).
 *
 * The meeting rule: pages are taken one at a time, in the order they
 * arrive, each object in page order. The chains meet where one reaches the
 * object the other took last: everything from one end to it is taken, and
 * everything beyond it from the other end, so the walk is whole and ends
 * there. Only that one id per chain is kept, not every id taken: a chain
 * walking towards the other reaches the other's last object before any
 * other it took, so it can meet no object the other took but that one.
 * Where that object is removed before it is reached, the chains pass each
 * other without meeting; then the forward chain walks on to the end of the
 * list, alone, and the back chain is let go unwritten: the one-chain walk,
 * at one chain's cost. A credential that sees only parts of the list
 * (empty and short pages) changes nothing: only objects seen are taken.
 *
 * Where the chains meet, what two ends can check is checked before the back
 * chain's objects are trusted: each chain reads on one page past the meeting
 * (the page it read ahead), and what it sees there must be the other chain's
 * last objects in the reverse order (the overlap); and on the commerce API a
 * `total` that every page reported alike must be the number of objects the
 * two chains took. A server whose orders disagree (`asc` is not `desc`
 * reversed, a cursor answered with another page) fails one of them where it
 * shows near the meeting or in the count; then the back chain is let go and
 * the forward chain walks on alone, so the walk gives what one chain gives,
 * and the disagreement is told (onDisagreement). A disagreement deep inside
 * the back chain's half of a list with no `total` shows in nothing both ends
 * read: only one chain reads every object in one order.
 *
 * The back chain is only ever a shortcut. Whatever makes it doubtful (its
 * pages do not report the order sent, its first page is the forward one
 * again, a page breaks a contract rule, it fails or stops advancing, the
 * ends disagree where they meet) lets it go, with nothing of it written, and
 * the forward chain walks on alone: the one-chain walk. So a failure or an
 * interruption leaves what one chain would have left, and the forward
 * chain's last object resumes it.
 */

export type EndsStep =
	/** A forward page; its first `take` objects are the walk's. */
	| {chain: 'forward'; page: Page; take: number}
	/** A back page, spooled; its first `take` objects come out in `replay` steps. */
	| {chain: 'back'; page: Page; take: number}
	/** After the meeting: the back chain's objects, in the order asked for. */
	| {chain: 'replay'} & SpooledObjects;

export type BothEndsOptions = {
	/** The order asked for (the forward chain's); the server's default, desc, when absent. */
	order?: Order;
	signal?: AbortSignal;
	onRetry?: FetchOptions['onRetry'];
	/** Why a back page cannot be trusted (a contract finding on it), or undefined. */
	doubt?: (page: Page) => string | undefined;
	/** Told when the back chain is let go, and why: the walk goes on as one chain. */
	onOneChain?: (reason: string) => void;
	/**
	 * Told, before onOneChain, when the two ends disagree where they meet
	 * (one sentence naming what disagreed, not yet inert): the server broke
	 * "asc reverses desc", and the walk goes on as one chain.
	 */
	onDisagreement?: (reason: string) => void;
	/** Folder for the temporary files; the system's when absent. */
	spillFolder?: string;
	/**
	 * How the back chain's pages are handed on. `spool` (the default): each
	 * `back` step as it comes, and its objects, from disk, in `replay` steps
	 * after the meeting. `hold` (the audit, which writes no objects but checks
	 * every page): the `back` steps themselves only after the meeting, in the
	 * order they came, held in memory meanwhile, so a back chain let go leaves
	 * nothing behind.
	 */
	back?: 'spool' | 'hold';
	/** Stop once the two chains together took this many pages without meeting (the audit's bound). */
	maxPages?: number;
	/**
	 * When one of the first forward pages came back (its request's round
	 * trip, Page.roundTripMs) in less than this many milliseconds, the walk
	 * goes on as one chain (the other end's pages so far dropped, its request
	 * cancelled): at that pace a
	 * round trip costs less than spooling and writing back the other end's
	 * pages, so a second chain would make the walk slower, not faster.
	 * 0 (--both-ends): both ends whatever the pace. Default quickServerMs.
	 */
	quickMs?: number;
	/**
	 * Whether to ask for the other end now, asked at each page of the first
	 * end that has a next link, until it says yes (absent: at once, with
	 * the first page). A walk of many lists at once (every account's) says
	 * yes only when a connection would otherwise stand idle: while lists
	 * wait to start, each walks from its first page alone, at the cost of
	 * its pages and nothing more (no other end's pages, nothing read on past
	 * a meeting); the long lists left at the end are walked from both ends.
	 */
	backWhen?: () => boolean;
};

/**
 * Whether a walk may go from both ends at all, for dump and audit alike: only
 * a whole list from its first page, where the two chains meet. A bound
 * (--max-pages, --max-items) or a cursor to start from asks for one end of
 * the list and its order.
 */
export function canWalkBothEnds(config: {maxPages: number | null; maxItems: number | null; query: Pick<WalkQuery, 'startingAfter' | 'endingBefore'>}): boolean {
	return config.maxPages === null && config.maxItems === null && config.query.startingAfter === undefined && config.query.endingBefore === undefined;
}

/** See BothEndsOptions.quickMs: a loopback server answers well under it, a real link's round trip well over it. */
export const quickServerMs = 15;

/** How many forward pages the pace is judged on: one answered within quickMs is enough. */
const judgedPages = 8;

/**
 * Objects of held back pages (BothEndsOptions.back 'hold') past which the
 * back chain is let go: what the audit keeps in memory stays bounded, and a
 * longer list is walked as one chain from there.
 */
export const holdLimit = 100_000;

/**
 * Ids each chain keeps of the objects it took last, for the overlap check
 * where the chains meet: two pages of the largest limit (100) and more, so
 * what the other chain reads on past the meeting is compared whole.
 */
const overlapIds = 1000;

type Settled = {chain: Chain; step?: IteratorResult<Page, WalkEnd>; error?: unknown};

type Chain = {
	readonly order: Order;
	readonly pages: AsyncGenerator<Page, WalkEnd>;
	readonly cancel: AbortController;
	/** The id of the object this chain took last: where the other chain meets it. */
	last: string | undefined;
	/** The ids of the objects it took last (at most overlapIds), oldest first. */
	tail: string[];
	/** Objects taken. */
	taken: number;
	/** The last page taken has a next link: the walker has asked for the next page already (it reads ahead). */
	more: boolean;
	pending: Promise<Settled> | undefined;
	/** Pages taken. */
	count: number;
	/** Reached its end of the list: asked for nothing more, its ids still count. */
	ended: boolean;
	stopped: boolean;
};

/**
 * A chain's walker. The back chain reads nothing ahead past a page in another
 * order than it asked (WalkOptions.order): such a page lets it go.
 */
function startChain(client: PageClient, url: string, lane: number, order: Order, options: BothEndsOptions): Chain {
	const cancel = new AbortController();
	const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
	const pages = walk(client, {maxPages: null, maxItems: null}, {startUrl: url, readAhead: true, lane, signal, onRetry: options.onRetry, ...(lane === 0 ? {} : {order})});
	return {order, pages, cancel, last: undefined, tail: [], taken: 0, more: true, pending: undefined, count: 0, ended: false, stopped: false};
}

async function pull(chain: Chain): Promise<Settled> {
	chain.pending ??= chain.pages.next().then(step => ({chain, step}), (error: unknown) => ({chain, error}));
	return chain.pending;
}

/** Cancels a chain's request in flight and ends its walker; again, does nothing. */
async function stop(chain: Chain): Promise<void> {
	if (chain.stopped) {
		return;
	}

	chain.stopped = true;
	chain.cancel.abort();
	await chain.pending;
	chain.pending = undefined;
	await chain.pages.return({kind: 'end'}).catch(() => {});
}

/** Takes a page's objects up to the one `other` took last; whether the chains met there. */
function take(page: Page, mine: Chain, other: Chain | undefined): {take: number; met: boolean} {
	const meeting = other?.last;
	const at = meeting === undefined ? -1 : page.objects.findIndex(object => object.id === meeting);
	const count = at === -1 ? page.objects.length : at;
	mine.taken += count;
	mine.tail.push(...page.objects.slice(Math.max(0, count - overlapIds), count).map(object => object.id));
	if (mine.tail.length > overlapIds) {
		mine.tail.splice(0, mine.tail.length - overlapIds);
	}

	mine.more = page.nextUrl !== null;
	if (at !== -1) {
		return {take: count, met: true};
	}

	mine.count += 1;
	mine.last = page.objects.at(-1)?.id ?? mine.last;
	return {take: count, met: false};
}

/** The commerce `total` every page read reported, or undefined: none (the account API) or not alike (the list changed). */
class Totals {
	#total: number | undefined;
	#moved = false;

	see(page: Page): void {
		const {pagination} = page;
		if (!('total' in pagination)) {
			return;
		}

		this.#moved ||= this.#total !== undefined && this.#total !== pagination.total;
		this.#total = pagination.total;
	}

	get value(): number | undefined {
		return this.#moved ? undefined : this.#total;
	}
}

function sameIds(a: readonly string[], b: readonly ListObject[]): boolean {
	return a.length === b.length && a.every((id, index) => b[index]!.id === id);
}

/**
 * Why the back chain's page cannot be taken as the other end of the list
 * the forward chain walks, or undefined. `first` is the forward chain's
 * first page, which is always taken before any back page.
 */
function doubtOf(page: Page, backOrder: Order, first: Page, backPages: number): string | undefined {
	if (page.pagination.order !== backOrder) {
		return `the server answered order=${backOrder} with a page in order ${String(page.pagination.order)}`;
	}

	if (backPages > 0 || page.objects.length === 0 || first.nextUrl === null) {
		return undefined;
	}

	const firstIds = first.objects.map(object => object.id);
	if (sameIds(firstIds, page.objects) || (firstIds.length > 1 && page.objects[0]!.id === firstIds[0])) {
		return `the server's first page in order ${backOrder} starts as the first page in the other order does`;
	}

	return undefined;
}

/**
 * A back chain's page to take; undefined when the chain reached its end of
 * the list (its last object still counts); or why it is let go. `backPages`:
 * how many pages of it came before this one.
 */
function judgeBack(settled: Settled, backOrder: Order, first: Page, options: BothEndsOptions, backPages = settled.chain.count): Page | string | undefined {
	if (settled.error !== undefined) {
		return 'the walk in the other order failed';
	}

	const step = settled.step!;
	if (step.done) {
		return step.value.kind === 'end' ? undefined : 'the walk in the other order stopped advancing';
	}

	return doubtOf(step.value, backOrder, first, backPages) ?? options.doubt?.(step.value) ?? step.value;
}

/** What a chain read on past the meeting point: ids in its order, and whether its list ends there. */
type Reading = {ids: string[]; end: boolean};

/** How the meeting went: the ends agree; they disagree (the sentence); or what would check it could not be read (why). */
type Meeting = {agree: true} | {agree: false; disagreement?: string; reason: string};

/**
 * Where what a chain read on past the meeting (`seen`) departs from the
 * other chain's objects last first (`expected`; `whole` when they are every
 * object that chain took): one sentence, or undefined where they agree.
 */
function departure(seen: Reading, seenOrder: Order, expected: readonly string[], whole: boolean, after: string): string | undefined {
	const otherOrder = seenOrder === 'asc' ? 'desc' : 'asc';
	const lists = `the list in order ${seenOrder} is not the list in order ${otherOrder} reversed where the two ends met`;
	const count = Math.min(seen.ids.length, expected.length);
	for (let index = 0; index < count; index++) {
		if (seen.ids[index] !== expected[index]) {
			const before = index === 0 ? after : seen.ids[index - 1]!;
			return `${lists}: after ${before}, order ${seenOrder} has ${seen.ids[index]!} where order ${otherOrder} had ${expected[index]!}`;
		}
	}

	if (seen.end && expected.length > count) {
		return `${lists}: in order ${seenOrder} the list ends after ${seen.ids.at(-1) ?? after}, where order ${otherOrder} had ${expected[count]!} there`;
	}

	if (whole && seen.ids.length > count) {
		return `${lists}: order ${seenOrder} has ${seen.ids[count]!} past ${expected.at(-1) ?? after}, the object the walk in order ${otherOrder} started with`;
	}

	return undefined;
}

/** What the meeting check reads with: the back chain's judge (its pages are checked as every back page is) and the totals seen. */
type MeetingContext = {back: Chain; backOrder: Order; first: Page; options: BothEndsOptions; totals: Totals};

/**
 * The page a chain asked for after its last (in flight: it reads ahead),
 * without taking it: the walk takes it later if it goes on as one chain.
 * Its ids, or why it cannot be read (a failure, a doubtful back page).
 */
async function readOn(chain: Chain, context: MeetingContext): Promise<Reading | string> {
	if (!chain.more) {
		return {ids: [], end: true};
	}

	const settled = await pull(chain);
	let page: Page | undefined;
	if (chain === context.back) {
		const judged = judgeBack(settled, context.backOrder, context.first, context.options, chain.count + 1);
		if (typeof judged === 'string') {
			return judged;
		}

		page = judged;
	} else if (settled.error !== undefined) {
		return 'the walk in the order asked for failed past the meeting point';
	} else if (settled.step!.done) {
		return settled.step!.value.kind === 'end' ? {ids: [], end: true} : 'the walk in the order asked for stopped advancing past the meeting point';
	} else {
		page = settled.step!.value;
	}

	if (page === undefined) {
		return {ids: [], end: true};
	}

	context.totals.see(page);
	return {ids: page.objects.map(object => object.id), end: page.nextUrl === null};
}

/**
 * Whether the two ends agree where `mine` met `other`: on its `page`, whose
 * first `count` objects it took, at `other`'s last object. Each chain reads
 * on (the page after the meeting page for `mine`, when the rest of that page
 * is not enough; the page after its last for `other`): what it sees must be
 * the other chain's last objects in the reverse order. Then a commerce
 * `total` that every page reported alike must be the objects both took.
 */
async function meet(mine: Chain, other: Chain, page: Page, count: number, context: MeetingContext): Promise<Meeting> {
	const meeting = other.last!;
	const rest = page.objects.slice(count + 1).map(object => object.id);
	// The other chain's objects last first, past the meeting object; and this chain's, last first.
	const theirs = other.tail.slice(0, -1).reverse();
	const ours = [...mine.tail].reverse();
	const readingOn = rest.length < theirs.length && page.nextUrl !== null;
	const [further, beyond] = await Promise.all([
		readingOn ? readOn(mine, context) : {ids: [], end: page.nextUrl === null},
		readOn(other, context),
	]);
	if (typeof further === 'string' || typeof beyond === 'string') {
		return {agree: false, reason: typeof further === 'string' ? further : beyond as string};
	}

	const seen = {ids: [...rest, ...further.ids], end: further.end};
	const disagreement = departure(seen, mine.order, theirs, other.taken <= overlapIds, meeting)
		?? departure(beyond, other.order, ours, mine.taken <= overlapIds, meeting);
	if (disagreement !== undefined) {
		return {agree: false, disagreement, reason: disagreement};
	}

	const total = context.totals.value;
	const taken = mine.taken + other.taken;
	if (total !== undefined && total !== taken) {
		const sentence = `the two ends took ${taken} ${taken === 1 ? 'object' : 'objects'}, where every page reports a total of ${total}`;
		return {agree: false, disagreement: sentence, reason: sentence};
	}

	return {agree: true};
}

/**
 * Whether the walk goes on as one chain after forward page `count`
 * (0-based), and why: undefined for a list of one page (nothing to say),
 * a reason for a quick server (BothEndsOptions.quickMs: judged on the first
 * pages, which also pay for connections and cold code on both sides, by each
 * request's round trip rather than how long its page waited to be read);
 * null while both chains go on.
 */
function oneChainAfter(page: Page, count: number, options: BothEndsOptions): string | undefined | null {
	if (count === 0 && page.nextUrl === null) {
		return undefined;
	}

	const quick = count < judgedPages && (page.roundTripMs ?? page.ms) < (options.quickMs ?? quickServerMs);
	return quick ? 'the server answers faster than a second chain can help' : null;
}

/**
 * The back chain's spool, made with its first page: a walk that ends up one
 * chain never touches the disk. A page it cannot keep (a temporary folder
 * missing, a disk full) is the reason to let that chain go.
 */
class BackSpool {
	#spool: PageSpool | undefined;

	constructor(private readonly folder: string | undefined) {}

	/** Keeps a page's first `count` objects; the reason to let the back chain go when it cannot. */
	keep(page: Page, count: number): string | undefined {
		try {
			this.#spool ??= new PageSpool(this.folder);
			this.#spool.append(page.objects, page.objectTexts, count, page.objectBytes);
			return undefined;
		} catch (error: unknown) {
			this.close();
			const code = (error as NodeJS.ErrnoException).code;
			return `the other end's pages could not be kept on disk${typeof code === 'string' ? ` (${code})` : ''}`;
		}
	}

	* reversed(): Generator<SpooledObjects> {
		yield * (this.#spool?.reversed() ?? []);
	}

	close(): void {
		this.#spool?.close();
		this.#spool = undefined;
	}
}

/** Back pages held for the audit's checks (BothEndsOptions.back 'hold'), without their texts and bytes, no longer needed. */
class HeldPages {
	steps: EndsStep[] = [];
	#objects = 0;

	/** Holds a page's step; false once more than holdLimit objects are held. */
	hold(page: Page, take: number): boolean {
		this.steps.push({chain: 'back', page: {...page, objectTexts: undefined, objectBytes: undefined}, take});
		this.#objects += take;
		return this.#objects <= holdLimit;
	}

	clear(): void {
		this.steps = [];
		this.#objects = 0;
	}
}

/** After the meeting, the back chain's objects in the order asked for: the held pages' steps, then the spooled objects, last page first. */
function * backInOrder(held: EndsStep[], spool: BackSpool | undefined, signal: AbortSignal | undefined): Generator<EndsStep> {
	yield * held;
	for (const objects of spool?.reversed() ?? []) {
		// Read from disk, not the network: an interruption is seen here, between pages.
		signal?.throwIfAborted();
		yield {chain: 'replay', ...objects};
	}
}

export async function * walkBothEnds(client: PageClient, query: WalkQuery, options: BothEndsOptions = {}): AsyncGenerator<EndsStep, WalkEnd> {
	const order = options.order ?? query.order ?? 'desc';
	const backOrder: Order = order === 'asc' ? 'desc' : 'asc';
	const forward = startChain(client, client.firstUrl, 0, order, options);
	const startBack = () => startChain(client, client.urlFor({...query, order: backOrder}), 1, backOrder, options);
	let back: Chain | undefined = options.backWhen === undefined ? startBack() : undefined;
	// Whether the other end may still be started (backWhen): not once the server was judged too quick for it.
	let mayStartBack = options.backWhen !== undefined;
	const totals = new Totals();
	const spool = options.back === 'hold' ? undefined : new BackSpool(options.spillFolder);
	const held = new HeldPages();
	const bounded = () => options.maxPages !== undefined && forward.count + (back?.count ?? 0) >= options.maxPages;
	let first: Page | undefined;
	const letGo = async (reason: string | undefined) => {
		if (back === undefined) {
			return;
		}

		const gone = back;
		back = undefined;
		held.clear();
		await stop(gone);
		if (reason !== undefined && options.signal?.aborted !== true) {
			options.onOneChain?.(reason);
		}
	};

	/** The meeting check (meet); where it fails, the back chain is let go, the disagreement told first. */
	const agreed = async (mine: Chain, other: Chain, page: Page, count: number): Promise<boolean> => {
		const meeting = await meet(mine, other, page, count, {back: back!, backOrder, first: first!, options, totals});
		if (meeting.agree) {
			return true;
		}

		if (meeting.disagreement !== undefined && options.signal?.aborted !== true) {
			options.onDisagreement?.(meeting.disagreement);
		}

		await letGo(meeting.reason);
		return false;
	};

	try {
		// Both first requests leave at once (unless the other end waits for the first page); the forward page is taken first.
		void pull(forward);
		if (back !== undefined) {
			void pull(back);
		}

		for (;;) {
			const racing = [pull(forward)];
			if (back !== undefined && !back.ended && first !== undefined) {
				racing.push(pull(back));
			}

			// eslint-disable-next-line no-await-in-loop -- the chains' pages are taken one at a time, as they come
			const settled = await Promise.race(racing);
			settled.chain.pending = undefined;
			if (settled.chain === forward) {
				if (settled.error !== undefined) {
					throw settled.error;
				}

				if (settled.step!.done) {
					// The forward chain walked the list alone: the one-chain walk, whole. What the back
					// chain took (the chains passed each other) is dropped, and the caller told so.
					// eslint-disable-next-line no-await-in-loop -- once
					await letGo(back !== undefined && back.count > 0 ? 'the chains passed each other without meeting' : undefined);
					return settled.step!.value;
				}

				const page = settled.step!.value;
				const verdict = oneChainAfter(page, forward.count, options);
				mayStartBack &&= verdict === null;
				if (mayStartBack && page.nextUrl !== null && options.backWhen!()) {
					mayStartBack = false;
					back = startBack();
					void pull(back);
				}

				first ??= page;
				if (back !== undefined && verdict !== null) {
					// eslint-disable-next-line no-await-in-loop -- once
					await letGo(verdict);
				}

				totals.see(page);
				const taken = take(page, forward, back);
				// eslint-disable-next-line no-await-in-loop -- once, where the chains meet
				if (taken.met && !await agreed(forward, back!, page, taken.take)) {
					// One chain from here: the whole page is the walk's.
					yield {chain: 'forward', page, take: page.objects.length};
					forward.count += 1;
					if (bounded() && page.nextUrl !== null) {
						return {kind: 'max-pages', limit: options.maxPages!};
					}

					continue;
				}

				yield {chain: 'forward', page, take: taken.take};
				if (taken.met) {
					break;
				}

				if (bounded() && page.nextUrl !== null) {
					return {kind: 'max-pages', limit: options.maxPages!};
				}

				continue;
			}

			const chain = settled.chain;
			const judged = judgeBack(settled, backOrder, first!, options);
			if (typeof judged === 'string') {
				// eslint-disable-next-line no-await-in-loop -- once
				await letGo(judged);
				continue;
			}

			if (judged === undefined) {
				chain.ended = true;
				continue;
			}

			const page = judged;
			totals.see(page);
			const taken = take(page, chain, forward);
			// eslint-disable-next-line no-await-in-loop -- once, where the chains meet
			if (taken.met && !await agreed(chain, forward, page, taken.take)) {
				continue;
			}

			if (spool) {
				const failed = spool.keep(page, taken.take);
				if (failed !== undefined) {
					// Nothing of the other end is written before the chains meet: the forward chain walks on alone.
					// eslint-disable-next-line no-await-in-loop -- once
					await letGo(failed);
					continue;
				}

				yield {chain: 'back', page, take: taken.take};
			} else if (!held.hold(page, taken.take)) {
				// eslint-disable-next-line no-await-in-loop -- once
				await letGo(`the other end held more than ${holdLimit} objects before the chains met`);
				continue;
			}

			if (taken.met) {
				break;
			}

			if (bounded() && page.nextUrl !== null) {
				return {kind: 'max-pages', limit: options.maxPages!};
			}
		}

		// The chains met: the list is whole. The back chain's objects follow, in the order asked for.
		const backSteps = held.steps;
		await stop(forward);
		await letGo(undefined);
		yield * backInOrder(backSteps, spool, options.signal);
		return {kind: 'end'};
	} finally {
		await stop(forward);
		await letGo(undefined);
		spool?.close();
	}
}
