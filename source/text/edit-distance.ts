/**
 * How far apart two words are, for "did you mean": used by the CLI for
 * commands and flags, by the configuration for endpoints and profiles, by the
 * browser and dump for column names. Depends on nothing.
 */

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
	const rows: number[][] = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, rows[i - 2]![j - 2]! + 1);
			}

			rows[i]![j] = best;
		}
	}

	return rows[a.length]![b.length]!;
}
