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
			return {kind: 'max-pages', detail: `stopped at --max-pages ${end.limit} before the end of the list.`, complete: false, lastPageShort};
		}

		case 'max-items': {
			return {kind: 'max-items', detail: `stopped at --max-items ${end.limit} before the end of the list.`, complete: false, lastPageShort};
		}

		case 'not-advancing': {
			return {kind: 'not-advancing', detail: `next_uri did not advance, so the walk ended there: ${end.note}`, complete: true, lastPageShort};
		}
	}
}

/**
 * `walk` is the walker's pages, or the steps of a walk from both ends
 * (http/both-ends.ts): each chain's pages as they come, each counted for the
 * objects it took.
 */
export async function auditWalk(walk: AsyncGenerator<Page | EndsStep, WalkEnd>, options: AuditWalkOptions): Promise<WalkAudit> {
	const now = options.now ?? (() => performance.now());
	const started = now();
	const checks = new ContractChecks({bothEnds: options.disagreements !== undefined});
	let told = 0;
	// Each disagreement against the pages read when it was told (the page where the chains met).
	const disagreed = () => {
		for (const message of options.disagreements?.slice(told) ?? []) {
			checks.disagree(fills.length, message);
			told += 1;
		}
	};

	const fills: PageFill[] = [];
	const ids: WalkIds | null = options.keepIds ? [] : null;
	let objects = 0;
	let retries = 0;
	let short = 0;
	let end: WalkEndInfo;
	let endFill: PageFill | undefined;
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const step = await walk.next();
			disagreed();
			if (step.done) {
				const last = fills.at(-1);
				// From both ends, the page at the end of the list is the other chain's first.
				end = describeEnd(step.value, endFill === undefined ? last !== undefined && last.kind !== 'full' && !last.continues : endFill.kind !== 'full');
				break;
			}

			const item = step.value;
			if ('chain' in item && item.chain === 'replay') {
				continue;
			}

			const {page, take, chain} = 'chain' in item ? item : {page: item, take: item.objects.length, chain: 'forward' as const};
			const fill = pageFill(page, fills.length);
			fills.push(fill);
			if (chain === 'back') {
				endFill ??= fill;
			}

			checks.add(page, {chain, take});
			objects += take;
			retries += page.retries;
			if (fill.kind !== 'full') {
				short += 1;
			}

			if (ids) {
				const cursor = queryParameter(page.requestUrl, 'starting_after') ?? queryParameter(page.requestUrl, 'ending_before');
				ids.push({cursor, ids: page.objects.slice(0, take).map((object) => object.id)});
			}

			options.onPage?.(page, {pages: fills.length, objects, short, chain, take});
		}
	} catch (error: unknown) {
		const {message} = describeError(error);
		end = {kind: 'error', detail: `the walk could not finish: ${message}`, complete: false, lastPageShort: false};
		disagreed();
	}

	return {
		label: options.label,
		order: options.order,
		pages: fills.length,
		objects,
		requests: fills.length + retries + (end.kind === 'error' ? 1 : 0),
		retries,
		ms: Math.round(now() - started),
		fills,
		checks: checks.results(),
		end,
		ids,
	};
}
