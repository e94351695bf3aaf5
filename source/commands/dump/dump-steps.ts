import {walkBothEnds, canWalkBothEnds} from '../../http/both-ends.js';
import type {BothEndsOptions, EndsStep} from '../../http/both-ends.js';
import {UsageError} from '../../text/errors.js';
import type {PageClient} from '../../http/http-client.js';
import type {WalkConfig} from '../../config/options.js';
import type {Page, WalkEnd} from '../../contract/types.js';
import {walk} from '../../http/walker.js';
import {flag} from '../../config/hints.js';

export type DumpStepsOptions = BothEndsOptions & {
	/** --all: walk every page (else the first, or as many as --max-items needs). */
	all: boolean;
	/** Never from both ends: --one-chain, or a format whose text depends on how the pages fall (csv, table). */
	oneChain: boolean;
};

/** Whether a dump walks the list from both ends: every page (--all), not --one-chain, where any walk may (canWalkBothEnds). */
export function walksBothEnds(config: WalkConfig, options: Pick<DumpStepsOptions, 'all' | 'oneChain'>): boolean {
	return options.all && !options.oneChain && canWalkBothEnds(config);
}

/** --one-chain and --both-ends, of dump's and audit's flags: at most one of them. */
export function chainFlags(flags: object): {oneChain: boolean; bothEnds: boolean} {
	const oneChain = 'oneChain' in flags && flags.oneChain === true;
	const bothEnds = 'bothEnds' in flags && flags.bothEnds === true;
	if (oneChain && bothEnds) {
		throw new UsageError(`Give ${flag(['dump', 'audit'], 'oneChain')} or ${flag(['dump', 'audit'], 'bothEnds')}, not both: one walks the list from its first page only, the other from both ends.`);
	}

	return {oneChain, bothEnds};
}

/**
 * One chain's pages as the steps of a walk from both ends: every page
 * forward, whole. A plain iterator over the walker's rather than another
 * async generator: one resumption less for every page of a dump.
 */
function oneChain(pages: AsyncGenerator<Page, WalkEnd>): AsyncGenerator<EndsStep, WalkEnd> {
	const asStep = (step: IteratorResult<Page, WalkEnd>): IteratorResult<EndsStep, WalkEnd> => (step.done ? step : {done: false, value: {chain: 'forward', page: step.value, take: step.value.objects.length}});
	const steps: AsyncGenerator<EndsStep, WalkEnd> = {
		next: async () => asStep(await pages.next()),
		return: async value => asStep(await pages.return(value)),
		throw: async (error: unknown) => asStep(await pages.throw(error)),
		[Symbol.asyncIterator]: () => steps,
	};
	return steps;
}

/** The dump's walk: from both ends where it can be, else the one chain. */
export function dumpSteps(client: PageClient, config: WalkConfig, options: DumpStepsOptions): AsyncGenerator<EndsStep, WalkEnd> {
	if (walksBothEnds(config, options)) {
		return walkBothEnds(client, config.query, options);
	}

	return oneChain(walk(client, config, {
		signal: options.signal,
		readAhead: true,
		// Without --all, the first page; but a count asked for is a count delivered (as gh's --limit):
		// --max-items walks as many pages as it takes, short pages included.
		maxPages: options.all || config.maxItems !== null ? config.maxPages : 1,
		onRetry: options.onRetry,
	}));
}
