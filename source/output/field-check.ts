import {inertLine} from '../text/inert.js';
import {editDistance} from '../text/edit-distance.js';

/**
 * `--columns` names checked against the objects the dump wrote: a name no
 * object had is almost always a typo (`nme`), and its column stays empty, so
 * the dump says so at the end, with the closest name it did see. Only at the
 * end: a field may first appear on a later page.
 */
export class FieldCheck {
	readonly #unseen: Set<string>;
	/** Paths seen, for suggestions; bounded, as a server may send any number of keys. */
	readonly #seen = new Set<string>();

	constructor(fields: readonly string[] | undefined) {
		this.#unseen = new Set(fields ?? []);
	}

	/** Notes which asked-for fields each row has. */
	observe(rows: Iterable<ReadonlyMap<string, string>>): void {
		if (this.#unseen.size === 0) {
			return;
		}

		for (const row of rows) {
			for (const path of row.keys()) {
				this.#unseen.delete(path);
				if (this.#seen.size < 1000) {
					this.#seen.add(path);
				}
			}
		}
	}

	/** One line per field no object had, with the closest field seen when one is close. */
	notes(): string[] {
		return [...this.#unseen].map(field => {
			const closest = this.#closest(field);
			const hint = closest === undefined ? '' : ` (did you mean '${inertLine(closest, 40)}'?)`;
			return `--columns names '${inertLine(field, 40)}', which no object had, so its column is empty${hint}.`;
		});
	}

	#closest(field: string): string | undefined {
		let best: string | undefined;
		let distance = Math.max(2, Math.floor(field.length / 3)) + 1;
		for (const path of this.#seen) {
			const next = editDistance(field, path);
			if (next < distance) {
				best = path;
				distance = next;
			}
		}

		return best;
	}
}
