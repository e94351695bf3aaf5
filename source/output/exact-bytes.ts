import type {ObjectBytes} from '../contract/types.js';

/** What goes around the objects' texts: ASCII only. */
export type Joints = {before: string; between: string; after: string};

/**
 * The exact texts of the first `count` objects of a page as UTF-8, after
 * `before`, joined by `between` and followed by `after`: copied from the
 * body's bytes (Page.objectBytes) where the text is the bytes as sent,
 * encoded from `texts` only where it had to change. Encoding every written
 * character to UTF-8 again was the largest single cost of the dump's own
 * work (a profile of bench:walk); the bytes are the ones the
 * texts were decoded from, so the output is the same byte for byte.
 */
export function joinedBytes(count: number, texts: readonly string[], {body, offsets}: ObjectBytes, {before, between, after}: Joints): Buffer {
	let size = before.length + after.length + (between.length * Math.max(0, count - 1));
	for (let index = 0; index < count; index++) {
		const start = offsets[index * 2]!;
		size += start >= 0 ? offsets[(index * 2) + 1]! - start : Buffer.byteLength(texts[index]!);
	}

	const out = Buffer.allocUnsafe(size);
	let at = out.write(before, 0, 'latin1');
	let index = 0;
	while (index < count) {
		if (index > 0) {
			at += out.write(between, at, 'latin1');
		}

		const start = offsets[index * 2]!;
		if (start < 0) {
			at += out.write(texts[index]!, at);
			index++;
			continue;
		}

		// A compact page holds its objects one comma apart: with a one-byte
		// separator, a run of them is one copy with the commas replaced.
		let last = index;
		if (between.length === 1) {
			while (last + 1 < count && offsets[(last + 1) * 2] === offsets[(last * 2) + 1]! + 1 && body[offsets[(last * 2) + 1]!] === 0x2C) {
				last++;
			}
		}

		const end = offsets[(last * 2) + 1]!;
		out.set(body.subarray(start, end), at);
		for (let inner = index; inner < last; inner++) {
			out[at + offsets[(inner * 2) + 1]! - start] = between.charCodeAt(0);
		}

		at += end - start;
		index = last + 1;
	}

	out.write(after, at, 'latin1');
	return out;
}

/**
 * NDJSON of the first `count` objects of a page, written over the page's own
 * bytes when they lie one comma apart, as a compact body holds them: each
 * comma between two objects becomes the newline, and so does the byte after
 * the last (the `]` or comma that followed it), and the lines are that stretch
 * of the body itself, with no copy. Undefined when an object's text is not its
 * bytes as sent, or the objects are not one comma apart: then joinedBytes.
 * The body is changed in place: a page's bytes are the writer's, written once
 * (the dump): a copy of every page raised a long dump's peak memory.
 */
export function linesInPlace(count: number, {body, offsets}: ObjectBytes): Uint8Array | undefined {
	if (count === 0) {
		return undefined;
	}

	for (let index = 0; index < count; index++) {
		const end = offsets[(index * 2) + 1]!;
		if (offsets[index * 2]! < 0 || end >= body.length || (index + 1 < count && (offsets[(index + 1) * 2] !== end + 1 || body[end] !== 0x2C))) {
			return undefined;
		}
	}

	for (let index = 0; index < count; index++) {
		body[offsets[(index * 2) + 1]!] = 0x0A;
	}

	return body.subarray(offsets[0], offsets[((count - 1) * 2) + 1]! + 1);
}
