/**
 * Deterministic randomness for the sandbox: every record, id, clump of hidden
 * objects and credential is a pure function of the seed, so a seed reproduces
 * the same demo data on every machine and in every test.
 */

/** Mixes any number of 32-bit integers into one well-spread 32-bit hash (murmur3 finaliser per step). */
export function hash32(...parts: number[]): number {
	let h = 0x9e3779b9;
	for (const part of parts) {
		h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
		h ^= h >>> 13;
		h = Math.imul(h, 0xc2b2ae35);
		h ^= h >>> 16;
	}

	return h >>> 0;
}

/** A stable 32-bit code for a short name, so namespaces can be hashed with numbers. */
export function nameCode(name: string): number {
	let h = 0x811c9dc5;
	for (let index = 0; index < name.length; index++) {
		h = Math.imul(h ^ name.charCodeAt(index), 0x01000193);
	}

	return h >>> 0;
}

/** Mulberry32: a small, fast generator; good enough for demo data, not for secrets. */
export function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** A float in [0, 1) from a hash of the parts. */
export function unit(...parts: number[]): number {
	return hash32(...parts) / 4_294_967_296;
}

/** Picks one element of a non-empty list by a hash of the parts. */
export function pick<T>(list: readonly T[], ...parts: number[]): T {
	return list[hash32(...parts) % list.length]!;
}

// Byte-to-hex table: ids are formatted on every rendered object, and
// Number#toString(16) with padding was most of a page's cost.
const byteHex = Array.from({length: 256}, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex8(value: number): string {
	return byteHex[value >>> 24]! + byteHex[(value >>> 16) & 0xff]! + byteHex[(value >>> 8) & 0xff]! + byteHex[value & 0xff]!;
}

/** The low `digits` hex digits of a 32-bit value. */
function hex(value: number, digits: number): string {
	return digits === 8 ? hex8(value >>> 0) : hex8(value >>> 0).slice(8 - digits);
}

// A 4-round Feistel network over 32 bits: a keyed bijection, so the serial
// number hidden in an id can be recovered without keeping a map of a million ids.
function feistel(value: number, key: number, inverse: boolean): number {
	let left = value >>> 16;
	let right = value & 0xffff;
	if (inverse) {
		for (let round = 3; round >= 0; round--) {
			const previousRight = left;
			left = right ^ (hash32(key, round, previousRight) & 0xffff);
			right = previousRight;
		}
	} else {
		for (let round = 0; round < 4; round++) {
			const nextRight = left ^ (hash32(key, round, right) & 0xffff);
			left = right;
			right = nextRight;
		}
	}

	return ((left << 16) | right) >>> 0;
}

/**
 * A UUID-v4-shaped id for serial number `serial` in the namespace `key`. The
 * first eight hex digits encode the serial (scrambled), the rest is a hash, so
 * ids look random, sort unrelated to age, and decode back with {@link serialOfId}.
 */
export function idFor(key: number, serial: number): string {
	const h1 = hash32(key, serial, 1);
	const h2 = hash32(key, serial, 2);
	const h3 = hash32(key, serial, 3);
	return `${hex(feistel(serial, key, false), 8)}-${hex(h1 >>> 16, 4)}-4${hex(h1, 3)}-${(8 | (h2 >>> 30)).toString(16)}${hex(h2, 3)}-${hex(h3, 8)}${hex(h2 >>> 12, 4)}`;
}

export const uuidShape = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/;

/** The serial an id encodes in namespace `key`, or undefined when it is not one of ours. */
export function serialOfId(key: number, id: string): number | undefined {
	if (!uuidShape.test(id)) {
		return undefined;
	}

	const serial = feistel(Number.parseInt(id.slice(0, 8), 16), key, true);
	return idFor(key, serial) === id ? serial : undefined;
}
