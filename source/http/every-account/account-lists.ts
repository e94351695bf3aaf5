import {firstPageUrl, type WalkConfig, type WalkQuery} from '../../config/options.js';
import type {EachList} from '../../config/endpoint.js';
import {PagewalkError} from '../../text/errors.js';
import {describeError} from '../../text/report-error.js';
import type {WalkEnd} from '../../contract/types.js';
import type {EndsStep} from '../both-ends.js';
import type {PageClient} from '../http-client.js';
import {PageSpool, type SpoolChunk} from '../page-spool.js';

/**
 * Every account's list (its transactions, or its addresses) in one walk:
 * the accounts list walked for its ids, and each account's list walked by
 * the caller's steps (the one walker, from both ends where its rules say
 * so), several at once, every request through the one client and so its
 * one rate budget. What comes out is in one order whatever the concurrency:
 * accounts in list order, each account's objects in its list's order.
 *
 * The list in front (the head) is handed on as it is read, with the
 * reader's backpressure; every other list running meanwhile goes to the
 * spool (page-spool.ts), on disk, page by page, and is read back from there
 * when the head reaches it. So memory holds a page or two of each list
 * running, whatever the number of accounts and objects; the lists started
 * ahead of the head are bounded too (aheadLimit), so what is kept of each
 * waiting list (where its pages lie) stays bounded.
 *
 * A list that fails with an answer (403, 404, a 5xx after the retries) is
 * one list lost: its objects read so far are handed on, then its failure,
 * and the walk goes on. A failure that every list would meet (the
 * credential rejected, the rate limit beyond --max-wait, the server gone)
 * ends the walk, as it ends a walk of one list. The accounts list failing
 * ends it once the lists of the accounts read are handed on.
 *
 * Resumable: the caller is told each account id as the accounts walk gives
 * it and each list that finished before the head reached it (where its
 * pages lie in the spool), and may start a walk from those (ListsResume)
 * with the spool in a file that outlives the process.
 */

/** One list of the walk: its place (0 for the first account's) and its account's id. */
export type ListRef = {index: number; account: string};

/** How a finished list ended: its walk's end, or the reason it failed (one sentence, inert and redacted). */
export type ListOutcome = {end: WalkEnd} | {failure: string};

/** A list finished before the head reached it: where its pages lie in the spool, in order, and how it ended. */
export type WaitingList = {account: string; chunks: SpoolChunk[]; objects: number; outcome: ListOutcome};

/** Objects to write, in the walk's order: a forward page's first `take`, or objects read back (both ends, or the spool). */
export type DataStep = Exclude<EndsStep, {chain: 'back'}>;

export type ListsItem =
	| {kind: 'data'; list: ListRef; step: DataStep}
	/** The list ended or failed; all of it was handed on before. */
	| {kind: 'done'; list: ListRef; outcome: ListOutcome; objects: number};

/**
 * A list's steps (dump: dumpSteps): through `client`, a view of the one
 * client whose first page is the list's (`query` applied), until `signal`.
 * `list` is undefined for the accounts list. `spare`: whether no list waits
 * to be started (the walk's tail), so a list may take a second connection
 * (its other end, BothEndsOptions.backWhen) without keeping one from a list
 * of its own.
 */
export type StepsOf = (client: PageClient, query: WalkQuery, signal: AbortSignal, list: ListRef | undefined, spare: () => boolean) => AsyncGenerator<EndsStep, WalkEnd>;

export type ListsResume = {
	/** The accounts read before, in order. */
	accounts: readonly string[];
	/** Whether the accounts walk had ended (else it goes on after the last of `accounts`). */
	accountsEnded: boolean;
	/** The first list not handed on whole. */
	next: number;
	/** Lists past `next` that finished: read back from the spool, not walked again. */
	waiting: ReadonlyMap<number, WaitingList>;
};

export type AccountListsOptions = {
	/** The one client (its lanes: laneCount(concurrency)), configured for the accounts list. */
	client: PageClient;
	config: WalkConfig;
	each: EachList;
	/** Lists walked at once. */
	concurrency: number;
	steps: StepsOf;
	signal?: AbortSignal;
	/** The spool's file, kept after the walk (dump -o); a temporary one under `spillFolder` otherwise. */
	spoolFile?: string;
	spillFolder?: string;
	resume?: ListsResume;
	/** Every step of every list as it arrives (progress, findings); before it is spooled or handed on. */
	onStep?: (list: ListRef, step: EndsStep) => void;
	/** Account ids as the accounts walk gives them, in order; `from` is the first one's place. */
	onAccounts?: (ids: readonly string[], from: number) => void;
	/** The accounts walk ended: `count` accounts in all. */
	onAccountsEnd?: (count: number, end: WalkEnd) => void;
	/** A list finished before the head reached it. */
	onWaiting?: (list: ListRef, waiting: WaitingList) => void;
	/** A list started: its requests go out. */
	onStart?: (list: ListRef) => void;
	/** Told each request a list or the accounts walk sends (progress). */
	onRequest?: () => void;
};

/**
 * Lists walked at once by default: a request in flight each (two each for
 * the long lists left at the end, from both ends). Enough that a walk
 * is bound by the longest lists and the server rather than by round trips
 * one after another, few enough that it stays a small share of the
 * documented hourly budget and of what a server sees from one client; any
 * budget or Retry-After the server states paces every list. The same for
 * dump and audit (--concurrency); the figures are in docs/benchmarks.md,
 * the reasons in docs/dump.md.
 */
export const defaultConcurrency = 10;
export const maximumConcurrency = 64;

/** Lists started past the head at most: what is kept of the waiting ones stays bounded. */
export const aheadLimit = 1000;

/** Connections the one client needs for `concurrency` lists: two (a chain each end) for the accounts list and for each list. */
export function laneCount(concurrency: number): number {
	return 2 * (concurrency + 1);
}

/** The path of an account's list. */
export function accountListPath(account: string, each: EachList): string {
	return `/v2/accounts/${encodeURIComponent(account)}/${each}`;
}

/**
 * Whether `error` loses one list only: an answer about that list (403, 404,
 * 5xx after the retries), not one every list would get (401: the
 * credential; 429: the rate limit beyond --max-wait) nor a lost connection.
 */
export function failsOneList(error: unknown): boolean {
	const status = error instanceof PagewalkError ? error.exchange?.status : undefined;
	return status !== undefined && status !== 401 && status !== 429;
}

/**
 * A view of the one client for one list: its own first page and query, its
 * own connections (two from `lane`), every request counted (`onRequest`)
 * and sent by the one client, under its one budget.
 */
export function listClient(client: PageClient, config: WalkConfig, list: {endpoint: string; query: WalkQuery}, lane: number, onRequest?: () => void): PageClient {
	const {endpoint, query} = list;
	const listConfig = {...config, endpoint, extraQuery: endpoint === config.endpoint ? config.extraQuery : []};
	return {
		...client,
		firstUrl: firstPageUrl(listConfig, query),
		urlFor: query => firstPageUrl(listConfig, query),
		async fetchPage(url, options = {}) {
			onRequest?.();
			return client.fetchPage(url, {...options, lane: lane + (options.lane ?? 0)});
		},
		// The one client is closed by its owner, once.
		async close() {},
	};
}

/** The reason a list failed, as stderr says it: the problem without advice for one list, where the error has it. */
function failureOf(error: unknown): string {
	if (error instanceof PagewalkError && error.problem !== undefined) {
		return describeError(new PagewalkError(`${error.problem}.`)).message;
	}

	return describeError(error).message;
}

type Run = {
	ref: ListRef;
	slot: number;
	chunks: SpoolChunk[];
	objects: number;
	/** The head: steps are handed on, not spooled. */
	live: boolean;
	/** Steps handed over while live, each with the function that lets the list read on. */
	pending: Array<{step: DataStep; taken: () => void}>;
	outcome?: ListOutcome;
	settled?: Promise<void>;
};

/**
 * The accounts list's ids, in order, read as they are asked for: from the
 * resume's list first, then from the accounts walk (after the last of them,
 * when resuming).
 */
class Accounts {
	readonly #known: string[];
	#taken: number;
	#ended: boolean;
	#failure: unknown;
	#steps: AsyncGenerator<EndsStep, WalkEnd> | undefined;
	#reading: Promise<void> | undefined;
	readonly #cancel = new AbortController();

	constructor(private readonly options: AccountListsOptions, signal: AbortSignal, from: number, private readonly onEnd: (count: number, end: WalkEnd) => void) {
		const {resume} = options;
		this.#known = [...resume?.accounts ?? []];
		this.#ended = resume?.accountsEnded === true;
		this.#taken = from;
		const last = this.#known.at(-1);
		if (!this.#ended) {
			const {limit, order} = options.config.query;
			const query = last === undefined ? options.config.query : {...(limit === undefined ? {} : {limit}), ...(order === undefined ? {} : {order}), startingAfter: last};
			const client = listClient(options.client, options.config, {endpoint: options.config.endpoint, query}, 0, options.onRequest);
			const joined = AbortSignal.any([signal, this.#cancel.signal]);
			this.#steps = options.steps(client, query, joined, undefined, () => true);
		}
	}

	/** How many accounts are known so far. */
	get known(): number {
		return this.#known.length;
	}

	get ended(): boolean {
		return this.#ended;
	}

	/** The place of the next account to be taken. */
	get nextIndex(): number {
		return this.#taken;
	}

	get failure(): unknown {
		return this.#failure;
	}

	/**
	 * The next account not yet taken, or undefined at the end of the
	 * accounts list (or its failure). The next page of accounts is read
	 * while fewer than `ahead` are left, so a list that ends starts the next
	 * at once rather than after a round trip.
	 */
	async next(ahead: number): Promise<{index: number; account: string} | undefined> {
		while (this.#taken >= this.#known.length && !this.#ended) {
			// eslint-disable-next-line no-await-in-loop -- the accounts list is read a page at a time, as its ids are needed
			await this.#readOn();
		}

		if (this.#taken >= this.#known.length) {
			return undefined;
		}

		const index = this.#taken++;
		const account = this.#known[index]!;
		// What is taken is not kept: the lists hold their own ids.
		this.#known[index] = '';
		if (this.#known.length - this.#taken < ahead && !this.#ended) {
			void this.#readOn();
		}

		return {index, account};
	}

	async #readOn(): Promise<void> {
		this.#reading ??= this.#read().finally(() => {
			this.#reading = undefined;
		});
		return this.#reading;
	}

	async #read(): Promise<void> {
		try {
			const step = await this.#steps!.next();
			if (step.done) {
				this.#ended = true;
				this.onEnd(this.#known.length, step.value);
				return;
			}

			const item = step.value;
			const objects = item.chain === 'forward' ? item.page.objects.slice(0, item.take) : item.chain === 'replay' ? item.objects : [];
			if (objects.length > 0) {
				const ids = objects.map(object => object.id);
				const from = this.#known.length;
				this.#known.push(...ids);
				this.options.onAccounts?.(ids, from);
			}
		} catch (error: unknown) {
			this.#ended = true;
			this.#failure = error;
		}
	}

	async close(): Promise<void> {
		this.#cancel.abort();
		await this.#reading?.catch(() => {});
		await this.#steps?.return({kind: 'end'}).catch(() => {});
	}
}

/**
 * The walk: items in the walk's order, every list's data then its end. The
 * return value is the accounts walk's end. Throws a failure that ends the
 * walk (see failsOneList; the accounts list's own, once the lists of the
 * accounts it read are handed on), or the signal's reason when aborted.
 */
export async function * walkAccountLists(options: AccountListsOptions): AsyncGenerator<ListsItem, WalkEnd> {
	const {concurrency, resume} = options;
	const stop = new AbortController();
	const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
	const spool = PageSpool.forChunks({file: options.spoolFile, parent: options.spillFolder});
	let head = resume?.next ?? 0;
	let accountsEnd: WalkEnd = {kind: 'end'};
	const accounts = new Accounts(options, signal, head, (count, end) => {
		accountsEnd = end;
		options.onAccountsEnd?.(count, end);
	});
	const runs = new Map<number, Run>();
	const freeSlots = Array.from({length: concurrency}, (_, slot) => concurrency - 1 - slot);
	let fatal: {error: unknown} | undefined;
	let wake: (() => void) | undefined;
	const changed = () => {
		const waiting = wake;
		wake = undefined;
		waiting?.();
	};

	const until = async () => new Promise<void>(resolve => {
		wake = resolve;
	});

	function spoolStep(run: Run, step: DataStep): void {
		let chunk: SpoolChunk | undefined;
		try {
			chunk = step.chain === 'forward'
				? spool.append(step.page.objects, step.page.objectTexts, step.take, step.page.objectBytes)
				: spool.append(step.objects, step.texts, step.objects.length, step.bytes);
		} catch (error: unknown) {
			const code = (error as NodeJS.ErrnoException).code;
			// Every list after the head would meet it: the walk ends, as on any failure all lists share.
			throw new PagewalkError(`The lists read ahead of the one being written could not be kept on disk${typeof code === 'string' ? ` (${code})` : ''}; free some space (in the temporary folder, or beside the output file) and run the command again.`, {cause: error});
		}

		if (chunk) {
			run.chunks.push(chunk);
		}
	}

	async function pump(run: Run): Promise<void> {
		const {limit, order} = options.config.query;
		const query: WalkQuery = {...(limit === undefined ? {} : {limit}), ...(order === undefined ? {} : {order})};
		const view = listClient(options.client, options.config, {endpoint: accountListPath(run.ref.account, options.each), query}, 2 + (2 * run.slot), options.onRequest);
		const steps = options.steps(view, query, signal, run.ref, spare);
		try {
			for (;;) {
				// eslint-disable-next-line no-await-in-loop -- a list's pages come one after the other
				const next = await steps.next();
				if (next.done) {
					run.outcome = {end: next.value};
					break;
				}

				const step = next.value;
				options.onStep?.(run.ref, step);
				if (step.chain === 'back') {
					continue;
				}

				run.objects += step.chain === 'forward' ? step.take : step.objects.length;
				if (signal.aborted) {
					// The walk is closing: nobody takes a step any more (it would wait for ever).
					break;
				}

				if (run.live) {
					// eslint-disable-next-line no-await-in-loop -- the head's pages are read as the reader takes them
					await new Promise<void>(taken => {
						run.pending.push({step, taken});
						changed();
					});
				} else {
					spoolStep(run, step);
				}
			}
		} catch (error: unknown) {
			if (signal.aborted) {
				return;
			}

			if (failsOneList(error)) {
				run.outcome = {failure: failureOf(error)};
			} else {
				fatal ??= {error};
				stop.abort();
			}
		} finally {
			await steps.return({kind: 'end'}).catch(() => {});
			freeSlots.push(run.slot);
			if (run.outcome && !run.live) {
				options.onWaiting?.(run.ref, {account: run.ref.account, chunks: run.chunks, objects: run.objects, outcome: run.outcome});
			}

			changed();
			void fill();
		}
	}

	/** No list waits to be started: the accounts are all taken, or the next is too far ahead of the head. */
	const spare = () => (accounts.ended && accounts.nextIndex >= accounts.known) || accounts.nextIndex - head >= aheadLimit;

	let filling = false;
	/** Starts lists while a slot is free and the head is near. */
	async function fill(): Promise<void> {
		if (filling) {
			return;
		}

		filling = true;
		try {
			while (!signal.aborted && freeSlots.length > 0 && accounts.nextIndex - head < aheadLimit) {
				// eslint-disable-next-line no-await-in-loop -- the accounts come one after the other
				const next = await accounts.next(concurrency);
				if (next === undefined) {
					break;
				}

				const waiting = resume?.waiting.get(next.index);
				if (waiting !== undefined) {
					continue;
				}

				const run: Run = {ref: next, slot: freeSlots.pop()!, chunks: [], objects: 0, live: false, pending: []};
				runs.set(next.index, run);
				options.onStart?.(run.ref);
				run.settled = pump(run);
				// The head may be waiting for this very list.
				changed();
			}
		} finally {
			filling = false;
			changed();
		}
	}

	/** The head's items: its spooled pages, then its pages as they come, then its end. */
	async function * handOn(run: Run): AsyncGenerator<ListsItem> {
		run.live = true;
		const {chunks} = run;
		run.chunks = [];
		for (const chunk of chunks) {
			signal.throwIfAborted();
			yield {kind: 'data', list: run.ref, step: {chain: 'replay', ...spool.read(chunk)}};
		}

		for (;;) {
			const next = run.pending.shift();
			if (next) {
				try {
					yield {kind: 'data', list: run.ref, step: next.step};
				} finally {
					// Taken, or the reader closed the walk here (--max-items, a closed pipe): either way the list reads on, or sees the stop.
					next.taken();
				}

				continue;
			}

			if (fatal) {
				throw fatal.error;
			}

			signal.throwIfAborted();
			if (run.outcome) {
				yield {kind: 'done', list: run.ref, outcome: run.outcome, objects: run.objects};
				return;
			}

			// eslint-disable-next-line no-await-in-loop -- the head's next page, or its end
			await until();
		}
	}

	/** A list that finished in an earlier walk, read back from the spool. */
	function * fromSpool(index: number, waiting: WaitingList): Generator<ListsItem> {
		const ref = {index, account: waiting.account};
		for (const chunk of waiting.chunks) {
			signal.throwIfAborted();
			yield {kind: 'data', list: ref, step: {chain: 'replay', ...spool.read(chunk)}};
		}

		yield {kind: 'done', list: ref, outcome: waiting.outcome, objects: waiting.objects};
	}

	try {
		void fill();
		for (;;) {
			if (fatal) {
				throw fatal.error;
			}

			signal.throwIfAborted();
			const waiting = resume?.waiting.get(head);
			const run = runs.get(head);
			if (waiting !== undefined) {
				yield * fromSpool(head, waiting);
			} else if (run) {
				yield * handOn(run);
				runs.delete(head);
			} else if (accounts.ended && head >= accounts.known && !filling) {
				break;
			} else {
				void fill();
				// eslint-disable-next-line no-await-in-loop -- the head's list is not started yet: the accounts list is being read
				await until();
				continue;
			}

			head += 1;
			void fill();
		}

		if (accounts.failure !== undefined) {
			throw accounts.failure;
		}

		return accountsEnd;
	} finally {
		stop.abort();
		for (const run of runs.values()) {
			// A list handed over waits for its step to be taken: let it see the stop.
			for (const {taken} of run.pending.splice(0)) {
				taken();
			}
		}

		await Promise.all([...runs.values()].map(async run => run.settled));
		await accounts.close();
		spool.close();
	}
}
