/**
 * The ordered index of one list: compact keys only (created_at in ms, a serial
 * number from which the id is derived, and flag bits), sorted ascending by
 * (created_at, id). Finding a cursor is a binary search and a page reads
 * `limit` neighbours, so a page costs O(log n + limit) at any size. Removed
 * objects stay in place as tombstones: they remain valid cursors, so walks in
 * progress neither repeat nor skip (see docs/contract.md).
 *
 * Memory stays bounded under endless churn: only the most recently removed
 * `keepRemoved` objects stay tombstones. Older ones are forgotten in batches
 * (one linear pass per `keepRemoved` removals, so O(1) amortized), and a
 * cursor naming one is told apart from an unknown id (see {@link isForgotten})
 * so the API can say why it no longer works. Objects inserted after start-up
 * live in maps rather than the dense arrays, so forgetting them frees them.
 */
import {idFor, serialOfId} from './random.js';

const exists = 1;
const removed = 2;
const hidden = 4;

export type Viewer = 'full' | 'restricted';

/** Removed objects kept as cursors per list, by default. */
export const defaultKeepRemoved = 10_000;

export class OrderedIndex {
	/** Entries in `sorted`, tombstones included. */
	length = 0;
	/** Live objects. */
	live = 0;
	/** Live objects a restricted credential can see. */
	liveVisible = 0;
	/** Serial numbers issued so far. */
	serials = 0;
	/** Objects removed and forgotten so far (no longer cursors). */
	forgotten = 0;
	// The initial objects (serials below `base`) in dense arrays; inserted
	// ones in maps, dropped when forgotten.
	private readonly base: number;
	private readonly created: Float64Array;
	private readonly flags: Uint8Array;
	private readonly insertedCreated = new Map<number, number>();
	private readonly insertedFlags = new Map<number, number>();
	private sorted: Uint32Array;
	// Removed serials, oldest removal first, from `removedHead` on.
	private removedOrder: number[] = [];
	private removedHead = 0;

	/**
	 * @param key id namespace.
	 * @param createdAscending created_at (ms) of the initial objects, by serial, never decreasing.
	 * @param hiddenByRank hidden flag of each initial object by newest-first rank.
	 */
	constructor(readonly key: number, createdAscending: Float64Array, hiddenByRank: Uint8Array, readonly keepRemoved = defaultKeepRemoved) {
		const count = createdAscending.length;
		this.base = count;
		this.created = createdAscending.slice();
		this.flags = new Uint8Array(count);
		this.sorted = new Uint32Array(count + 64);
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
		return serial < this.base ? this.created[serial]! : this.insertedCreated.get(serial)!;
	}

	serialAt(position: number): number {
		return this.sorted[position]!;
	}

	isLiveAt(position: number): boolean {
		return (this.flagsOf(this.sorted[position]!) & removed) === 0;
	}

	isHiddenSerial(serial: number): boolean {
		return (this.flagsOf(serial) & hidden) !== 0;
	}

	isLiveSerial(serial: number): boolean {
		return (this.flagsOf(serial) & (exists | removed)) === exists;
	}

	/** The serial an id names in this list (live or a kept removed one), or undefined. */
	serialOf(id: string): number | undefined {
		const serial = serialOfId(this.key, id);
		return serial !== undefined && serial < this.serials && (this.flagsOf(serial) & exists) !== 0 ? serial : undefined;
	}

	/**
	 * Whether `id` named an object of this list that was removed so long ago
	 * it was forgotten: ids encode their serial, and every serial issued is
	 * live, a kept tombstone or forgotten.
	 */
	isForgotten(id: string): boolean {
		const serial = serialOfId(this.key, id);
		return serial !== undefined && serial < this.serials && (this.flagsOf(serial) & exists) === 0;
	}

	/** Position of a serial known to be in the index. */
	positionOf(serial: number): number {
		const position = this.lowerBound(this.createdOf(serial), this.idOf(serial));
		if (this.sorted[position] !== serial) {
			throw new Error(`The ordered index lost serial ${serial}.`);
		}

		return position;
	}

	/** Adds an object; returns its serial. Splicing costs a memmove, fine for churn rates. */
	insert(createdMs: number, isHidden: boolean): number {
		if (this.length >= this.sorted.length) {
			this.grow();
		}

		const serial = this.serials++;
		this.insertedCreated.set(serial, createdMs);
		this.insertedFlags.set(serial, exists | (isHidden ? hidden : 0));
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

		this.setFlags(serial, this.flagsOf(serial) | removed);
		this.live--;
		if (!this.isHiddenSerial(serial)) {
			this.liveVisible--;
		}

		this.removedOrder.push(serial);
		// Forget in batches: past twice the kept number (at least 64 more), down to it.
		if (this.length - this.live >= this.keepRemoved + Math.max(64, this.keepRemoved)) {
			this.forgetOldest(this.length - this.live - this.keepRemoved);
		}

		return true;
	}

	/** Tombstones: removed objects still kept as cursors. */
	get tombstones(): number {
		return this.length - this.live;
	}

	/** The newest created_at in the index, or undefined when empty. */
	newest(): number | undefined {
		return this.length === 0 ? undefined : this.createdOf(this.sorted[this.length - 1]!);
	}

	private flagsOf(serial: number): number {
		return serial < this.base ? this.flags[serial]! : this.insertedFlags.get(serial) ?? 0;
	}

	private setFlags(serial: number, value: number): void {
		if (serial < this.base) {
			this.flags[serial] = value;
		} else {
			this.insertedFlags.set(serial, value);
		}
	}

	/** Drops the `count` oldest removals from the order and from memory. */
	private forgetOldest(count: number): void {
		const end = this.removedHead + count;
		for (let at = this.removedHead; at < end; at++) {
			const serial = this.removedOrder[at]!;
			// Marked first (exists cleared), so the pass below knows whom to drop.
			this.setFlags(serial, removed);
		}

		let kept = 0;
		for (let position = 0; position < this.length; position++) {
			const serial = this.sorted[position]!;
			if ((this.flagsOf(serial) & exists) !== 0) {
				this.sorted[kept++] = serial;
			}
		}

		for (let at = this.removedHead; at < end; at++) {
			const serial = this.removedOrder[at]!;
			if (serial < this.base) {
				this.flags[serial] = 0;
			} else {
				this.insertedFlags.delete(serial);
				this.insertedCreated.delete(serial);
			}
		}

		this.forgotten += count;
		this.length = kept;
		this.removedOrder = this.removedOrder.slice(end);
		this.removedHead = 0;
	}

	/** First position whose key is not below (createdMs, id). */
	private lowerBound(createdMs: number, id: string): number {
		let low = 0;
		let high = this.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const serial = this.sorted[middle]!;
			const created = this.createdOf(serial);
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
		const sorted = new Uint32Array(Math.max(64, Math.ceil(this.sorted.length * 1.5)));
		sorted.set(this.sorted);
		this.sorted = sorted;
	}
}

/** Plain code-unit order, the same in every locale: ids are lowercase hex. */
export function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
