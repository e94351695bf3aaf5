/**
 * Audits one walk as it streams: fill, checks and counts per page, and how
 * the walk ended. Takes the walker's async generator, so it does no I/O of
 * its own and tests can feed it hand-built pages.
 */
import type {EndsStep} from '../http/both-ends.js';
import {describeError} from '../text/report-error.js';
import type {Order, Page, WalkEnd} from '../contract/types.js';
import {type CheckResult, ContractChecks} from './checks.js';
import type {WalkIds} from './compare.js';
import {type PageFill, pageFill, queryParameter} from '../contract/contract.js';
import {flag} from '../config/hints.js';

export type EndKind = 'end' | 'max-pages' | 'max-items' | 'not-advancing' | 'error';

export type WalkEndInfo = {
	kind: EndKind;
	/** One sentence for the report. */
	detail: string;
	/** True when the list was read to its end (a null next_uri, or a next_uri that leads nowhere new). */
	complete: boolean;
	/** The last page was short (or empty) with no next_uri: the end of the list, not a violation. */
	lastPageShort: boolean;
};

export type WalkAudit = {
	label: string;
	order: Order;
	pages: number;
	objects: number;
	requests: number;
	retries: number;
	ms: number;
	fills: PageFill[];
	checks: CheckResult[];
	end: WalkEndInfo;
	/** Kept only when a comparison needs them. */
	ids: WalkIds | null;
};

export type AuditWalkOptions = {
	label: string;
	order: Order;
	keepIds?: boolean;
	/**
	 * From both ends: the disagreements of the two ends told so far
	 * (BothEndsOptions.onDisagreement), read as the walk goes; given, the
	 * ends-agree check is reported.
	 */
	disagreements?: readonly string[];
	/** Told after each page, for progress. */
	onPage?: (page: Page, audit: {pages: number; objects: number; short: number; chain: EndsStep['chain']; take: number}) => void;
	now?: () => number;
};

function describeEnd(end: WalkEnd, lastPageShort: boolean): WalkEndInfo {
	switch (end.kind) {
		case 'end': {
			return {
				kind: 'end',
				detail: lastPageShort
					? 'next_uri was null: the list ended (the last page was short, which marks the end, not a violation).'
					: 'next_uri was null: the list ended.',
				complete: true,
				lastPageShort,
			};
		}

		case 'max-pages': {
			return {kind: 'max-pages', detail: `stopped at ${flag(['audit'], 'maxPages', String(end.limit))} before the end of the list.`, complete: false, lastPageShort};
		}

		case 'max-items': {
			return {kind: 'max-items', detail: `stopped at ${flag(['audit'], 'maxItems', String(end.limit))} before the end of the list.`, complete: false, lastPageShort};
		}

		case 'not-advancing': {
			return {kind: 'not-advancing', detail: `next_uri did not advance, so the walk ended there: ${end.note}`, complete: true, lastPageShort};
		}
	}
}

/**
 * One walk's audit, told each step as it comes (push): what auditWalk
 * reads from a walk, and what a walk of every account's lists tells for
 * each list (commands/audit/audit-lists.ts), whose steps another reader
 * pulls. `step` for each page or step, then `end` (the walk's end) or
 * `fail` (the error it threw), then `result`.
 */
export class WalkAuditor {
	readonly #options: AuditWalkOptions;
	readonly #now: () => number;
	readonly #started: number;
	readonly #checks: ContractChecks;
	readonly #fills: PageFill[] = [];
	readonly #ids: WalkIds | null;
	#told = 0;
	#objects = 0;
	#retries = 0;
	#short = 0;
	#end: WalkEndInfo | undefined;
	/** When the walk ended: its time is the walk's, however late its result is asked for. */
	#endedAt: number | undefined;
	/** The walk ended on a request that failed (counted among its requests). */
	#failed = false;
	#endFill: PageFill | undefined;

	constructor(options: AuditWalkOptions) {
		this.#options = options;
		this.#now = options.now ?? (() => performance.now());
		this.#started = this.#now();
		this.#checks = new ContractChecks({bothEnds: options.disagreements !== undefined});
		this.#ids = options.keepIds ? [] : null;
	}

	/** Each disagreement against the pages read when it was told (the page where the chains met). */
	#disagreed(): void {
		for (const message of this.#options.disagreements?.slice(this.#told) ?? []) {
			this.#checks.disagree(this.#fills.length, message);
			this.#told += 1;
		}
	}

	/** A page of the walker, or a step of a walk from both ends (its objects read back from a spool are not pages: skipped). */
	step(item: Page | EndsStep): void {
		this.#disagreed();
		if ('chain' in item && item.chain === 'replay') {
			return;
		}

		const {page, take, chain} = 'chain' in item ? item : {page: item, take: item.objects.length, chain: 'forward' as const};
		const fill = pageFill(page, this.#fills.length);
		this.#fills.push(fill);
		if (chain === 'back') {
			this.#endFill ??= fill;
		}

		this.#checks.add(page, {chain, take});
		this.#objects += take;
		this.#retries += page.retries;
		if (fill.kind !== 'full') {
			this.#short += 1;
		}

		if (this.#ids) {
			const cursor = queryParameter(page.requestUrl, 'starting_after') ?? queryParameter(page.requestUrl, 'ending_before');
			this.#ids.push({cursor, ids: page.objects.slice(0, take).map((object) => object.id)});
		}

		this.#options.onPage?.(page, {pages: this.#fills.length, objects: this.#objects, short: this.#short, chain, take});
	}

	/** The walk ended as the walker says. */
	end(end: WalkEnd): void {
		this.#disagreed();
		const last = this.#fills.at(-1);
		// From both ends, the page at the end of the list is the other chain's first.
		this.#end = describeEnd(end, this.#endFill === undefined ? last !== undefined && last.kind !== 'full' && !last.continues : this.#endFill.kind !== 'full');
		this.#endedAt = this.#now();
	}

	/** The walk threw `error`: it could not finish. */
	fail(error: unknown): void {
		const {message} = describeError(error);
		this.#end = {kind: 'error', detail: `the walk could not finish: ${message}`, complete: false, lastPageShort: false};
		this.#endedAt = this.#now();
		this.#failed = true;
		this.#disagreed();
	}

	/** The walk was let go before its end was read (the walk around it stopped): `detail` says why, in one sentence. */
	stop(detail: string): void {
		if (this.#end === undefined) {
			this.#end = {kind: 'error', detail, complete: false, lastPageShort: false};
			this.#endedAt = this.#now();
		}
	}

	result(): WalkAudit {
		const end = this.#end ?? {kind: 'error', detail: 'the walk was let go before its end was read.', complete: false, lastPageShort: false};
		return {
			label: this.#options.label,
			order: this.#options.order,
			pages: this.#fills.length,
			objects: this.#objects,
			requests: this.#fills.length + this.#retries + (this.#failed ? 1 : 0),
			retries: this.#retries,
			ms: Math.round((this.#endedAt ?? this.#now()) - this.#started),
			fills: this.#fills,
			checks: this.#checks.results(),
			end,
			ids: this.#ids,
		};
	}
}

/**
 * `walk` is the walker's pages, or the steps of a walk from both ends
 * (http/both-ends.ts): each chain's pages as they come, each counted for the
 * objects it took.
 */
export async function auditWalk(walk: AsyncGenerator<Page | EndsStep, WalkEnd>, options: AuditWalkOptions): Promise<WalkAudit> {
	const auditor = new WalkAuditor(options);
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const step = await walk.next();
			if (step.done) {
				auditor.end(step.value);
				break;
			}

			auditor.step(step.value);
		}
	} catch (error: unknown) {
		auditor.fail(error);
	}

	return auditor.result();
}
