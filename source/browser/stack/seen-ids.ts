import type {ListObject} from '../../contract/types.js';

/**
 * The distinct ids a walk has seen (`seen N`, --max-items), as the states of
 * one walk share them: one set that only grows, and in each state a view of
 * the ids added up to it. Adding a page to the newest view adds its ids to
 * the set in place; adding to an older one (a state another went on from,
 * or a search that was let go) first copies the ids it counts. So each page
 * walked costs its own ids, not a copy of every id seen before it.
 */
class SeenIds implements ReadonlySet<string> {
	readonly #ids: Set<string>;

	constructor(ids: Set<string>, readonly size: number) {
		this.#ids = ids;
	}

	/** Whether no view counts fewer ids than the set holds: then ids can be added in place. */
	get newest(): boolean {
		return this.#ids.size === this.size;
	}

	has(id: string): boolean {
		if (this.newest) {
			return this.#ids.has(id);
		}

		// An older view: only the ids added before it count.
		for (const seen of this.values()) {
			if (seen === id) {
				return true;
			}
		}

		return false;
	}

	/** This view with `objects`' ids added: itself when it has them all. */
	with(objects: readonly ListObject[]): SeenIds {
		if (!this.newest) {
			return new SeenIds(new Set(this.values()), this.size).with(objects);
		}

		if (objects.every(object => this.#ids.has(object.id))) {
			return this;
		}

		for (const object of objects) {
			this.#ids.add(object.id);
		}

		return new SeenIds(this.#ids, this.#ids.size);
	}

	* values(): Generator<string, undefined, undefined> {
		let count = 0;
		for (const id of this.#ids) {
			if (count++ === this.size) {
				return;
			}

			yield id;
		}
	}

	keys(): Generator<string, undefined, undefined> {
		return this.values();
	}

	* entries(): Generator<[string, string], undefined, undefined> {
		for (const id of this.values()) {
			yield [id, id];
		}
	}

	[Symbol.iterator](): Generator<string, undefined, undefined> {
		return this.values();
	}

	forEach(call: (value: string, key: string, set: ReadonlySet<string>) => void, thisArgument?: unknown): void {
		for (const id of this.values()) {
			call.call(thisArgument, id, id, this);
		}
	}
}

/** `seen` with the ids of `objects` added: in place when `seen` is the newest view of its walk's ids. */
export function withIds(seen: ReadonlySet<string>, objects: readonly ListObject[]): ReadonlySet<string> {
	if (seen instanceof SeenIds) {
		return seen.with(objects);
	}

	return objects.every(object => seen.has(object.id)) ? seen : new SeenIds(new Set(seen), seen.size).with(objects);
}
