/**
 * Which objects a restricted credential cannot see (docs/contract.md#short-pages).
 * Hidden objects come in uneven clumps, some longer than a page, so a restricted
 * walk meets short pages and whole empty pages while `next_uri` still leads on.
 */
import {generator} from './random.js';

/**
 * Run lengths, newest first, alternating visible and hidden, that make the demo
 * show short and empty pages that continue on the very first screens in the default `desc` order at limit 25:
 * page 1 holds 17 objects, page 2 18, page 3 20, page 4 none, page 5 21.
 */
const demoRuns = [4, 5, 11, 3, 17, 7, 23, 34] as const;

/**
 * Hidden flags for `count` objects by newest-first rank (1 = hidden). With
 * `demo` the list opens with {@link demoRuns}; the rest is random from `seed`.
 */
export function hiddenClumps(count: number, seed: number, demo: boolean): Uint8Array {
	const hidden = new Uint8Array(count);
	const random = generator(seed);
	let rank = 0;
	let hide = false;
	const runs: number[] = demo ? [...demoRuns] : [];
	while (rank < count) {
		const length = runs.shift() ?? (hide ? hiddenRun(random) : visibleRun(random));
		if (hide) {
			hidden.fill(1, rank, Math.min(count, rank + length));
		}

		rank += length;
		hide = !hide;
	}

	return hidden;
}

function visibleRun(random: () => number): number {
	// Mostly short to medium runs, with a long tail.
	return 1 + Math.floor(random() ** 2 * 45);
}

function hiddenRun(random: () => number): number {
	// About one hidden clump in six is longer than a default page of 25.
	return random() < 0.17 ? 26 + Math.floor(random() * 50) : 1 + Math.floor(random() * 12);
}
