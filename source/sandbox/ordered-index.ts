/**
 * The ordered index of one list: compact keys only (created_at in ms, a serial
 * number from which the id is derived, and flag bits), sorted ascending by
 * (created_at, id). Finding a cursor is a binary search and a page reads
 * `limit` neighbours, so a page costs O(log n + limit) at any size. Removed
 * objects stay in place as tombstones: they remain valid cursors (rule 8).
 */
import {idFor, serialOfId} from './random.js';

const exists = 1;
const removed = 2;
const hidden = 4;

export type Viewer = 'full' | 'restricted';

export class OrderedIndex {
	/** Entries in `sorted`, tombstones included. */
	length = 0;
	/** Live objects. */
	live = 0;
	/** Live objects a restricted credential can see. */
	liveVisible = 0;
	/** Serial numbers issued so far. */
	serials = 0;
	private created: Float64Array;
	private flags: Uint8Array;
	private sorted: Uint32Array;

	/**
	 * @param key id namespace.
	 * @param createdAscending created_at (ms) of the initial objects, by serial, never decreasing.
	 * @param hiddenByRank hidden flag of each initial object by newest-first rank.
	 */
	constructor(readonly key: number, createdAscending: Float64Array, hiddenByRank: Uint8Array) {
		const count = createdAscending.length;
		const capacity = count + 64;
		this.created = new Float64Array(capacity);
		this.created.set(createdAscending);
		this.flags = new Uint8Array(capacity);
		this.sorted = new Uint32Array(capacity);
		for (let serial = 0; serial < count; serial++) {
			this.sorted[serial] = serial;
		}

		// Serials are already in created_at order; only groups of equal
		// created_at need sorting, by id.
		let start = 0;
		while (start < count) {
			let end = start + 1;
			while (end < count && createdAscending[end] === createdAscending[start]) {
				end++;
			}

			if (end - start > 1) {
				const group = Array.from(this.sorted.subarray(start, end)).sort((a, b) => compareText(this.idOf(a), this.idOf(b)));
				this.sorted.set(group, start);
			}

			start = end;
		}

		for (let position = 0; position < count; position++) {
			const isHidden = hiddenByRank[count - 1 - position] === 1;
			this.flags[this.sorted[position]!] = exists | (isHidden ? hidden : 0);
			if (!isHidden) {
				this.liveVisible++;
			}
		}

		this.length = count;
		this.live = count;
		this.serials = count;
	}

	idOf(serial: number): string {
		return idFor(this.key, serial);
	}

	createdOf(serial: number): number {
		return this.created[serial]!;
	}

	serialAt(position: number): number {
		return this.sorted[position]!;
	}

	isLiveAt(position: number): boolean {
		return (this.flags[this.sorted[position]!]! & removed) === 0;
	}

	isHiddenSerial(serial: number): boolean {
		return (this.flags[serial]! & hidden) !== 0;
	}

	isLiveSerial(serial: number): boolean {
		return (this.flags[serial]! & (exists | removed)) === exists;
	}

	/** The serial an id names in this list (live or removed), or undefined. */
	serialOf(id: string): number | undefined {
		const serial = serialOfId(this.key, id);
		return serial !== undefined && serial < this.serials && (this.flags[serial]! & exists) !== 0 ? serial : undefined;
	}

	/** Position of a serial known to be in the index. */
	positionOf(serial: number): number {
		const position = this.lowerBound(this.created[serial]!, this.idOf(serial));
		if (this.sorted[position] !== serial) {
			throw new Error(`The ordered index lost serial ${serial}.`);
		}

		return position;
	}

	/** Adds an object; returns its serial. Splicing costs a memmove, fine for churn rates. */
	insert(createdMs: number, isHidden: boolean): number {
		if (this.serials >= this.created.length || this.length >= this.sorted.length) {
			this.grow();
		}

		const serial = this.serials++;
		this.created[serial] = createdMs;
		this.flags[serial] = exists | (isHidden ? hidden : 0);
		const position = this.lowerBound(createdMs, this.idOf(serial));
		this.sorted.copyWithin(position + 1, position, this.length);
		this.sorted[position] = serial;
		this.length++;
		this.live++;
		if (!isHidden) {
			this.liveVisible++;
		}

		return serial;
	}

	/** Marks an object removed; it keeps its place as a cursor. False when it was not live. */
	remove(serial: number): boolean {
		if (!this.isLiveSerial(serial)) {
			return false;
		}

		this.flags[serial]! |= removed;
		this.live--;
		if (!this.isHiddenSerial(serial)) {
			this.liveVisible--;
		}

		return true;
	}

	/** The newest created_at in the index, or undefined when empty. */
	newest(): number | undefined {
		return this.length === 0 ? undefined : this.created[this.sorted[this.length - 1]!];
	}

	/** First position whose key is not below (createdMs, id). */
	private lowerBound(createdMs: number, id: string): number {
		let low = 0;
		let high = this.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const serial = this.sorted[middle]!;
			const created = this.created[serial]!;
			const below = created < createdMs || (created === createdMs && compareText(this.idOf(serial), id) < 0);
			if (below) {
				low = middle + 1;
			} else {
				high = middle;
			}
		}

		return low;
	}

	private grow(): void {
		const capacity = Math.max(64, Math.ceil(this.created.length * 1.5));
		const created = new Float64Array(capacity);
		created.set(this.created);
		const flags = new Uint8Array(capacity);
		flags.set(this.flags);
		const sorted = new Uint32Array(capacity);
		sorted.set(this.sorted);
		this.created = created;
		this.flags = flags;
		this.sorted = sorted;
	}
}

/** Plain code-unit order, the same in every locale: ids are lowercase hex. */
export function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
