import fs from 'node:fs';
import {openKeptFile, openSpillFile, type SpillFile} from './spill-files.js';
import type {ListObject, ObjectBytes} from '../contract/types.js';

/**
 * Pages held on disk instead of in memory, each object with its exact text
 * (what the writers copy) and its id (for the resume hint); only an offset
 * and a length per page stay in memory (a SpoolChunk). Two readers: the
 * chain a walk from both ends writes last, held until the chains meet and
 * read back last page first, each page's objects last first (reversed());
 * and the lists of every account that finished before the lists ahead of
 * them, read back as they came (read()), from a file that outlives the
 * process when the walk is to be resumed (PageSpool.kept).
 */

/** Objects of one spooled page, in the order they are to be written. */
export type SpooledObjects = {
	objects: ListObject[];
	/**
	 * Their texts for the writers, parallel to `objects`: empty where `bytes`
	 * holds them (every one, when the page had exact texts); absent when the
	 * page had none (built in tests), and the objects are then parsed back.
	 */
	texts: string[] | undefined;
	/**
	 * Where each exact text lies, as UTF-8, in the page's bytes read back (as
	 * Page.objectBytes): the writers copy them from there, as from a body.
	 */
	bytes: ObjectBytes | undefined;
};

/** Where one page appended lies in the spool's file. */
export type SpoolChunk = {offset: number; length: number};

const header = 8;

export class PageSpool {
	pages = 0;
	objects = 0;
	/** The chunk of every page, for reversed(); undefined where only read() is used (the caller keeps the chunks). */
	readonly #chunks: SpoolChunk[] | undefined;
	#end = 0;
	readonly #file: SpillFile;

	constructor(parent?: string, options: {kept?: SpillFile & {size: number}; chunks?: 'kept' | 'caller'} = {}) {
		this.#file = options.kept ?? openSpillFile('pages', parent);
		// A kept file goes on after what it holds (a torn last page of a killed walk is never read: nothing names it).
		this.#end = options.kept?.size ?? 0;
		this.#chunks = options.chunks === 'caller' ? undefined : [];
	}

	/**
	 * A spool whose pages are read back with the chunks append() gave (the
	 * caller keeps them): in a temporary file under `parent`, or in `file`,
	 * kept after close.
	 */
	static forChunks({file, parent}: {file?: string | undefined; parent?: string | undefined}): PageSpool {
		return new PageSpool(parent, {chunks: 'caller', ...(file === undefined ? {} : {kept: openKeptFile(file)})});
	}

	/**
	 * Keeps the first `count` objects of a page: each one's text as UTF-8,
	 * copied from the body's bytes where they are its text (Page.objectBytes),
	 * and its id.
	 */
	append(objects: readonly ListObject[], texts: readonly string[] | undefined, count: number, bytes?: ObjectBytes): SpoolChunk | undefined {
		if (count === 0) {
			return undefined;
		}

		const parts: Uint8Array[] = [];
		const sizes = Buffer.alloc(header + (count * 8));
		sizes.writeUInt32LE(count, 0);
		sizes.writeUInt32LE(texts === undefined ? 0 : 1, 4);
		let size = sizes.length;
		for (let index = 0; index < count; index++) {
			const start = bytes?.offsets[index * 2] ?? -1;
			const text = start >= 0 ? bytes!.body.subarray(start, bytes!.offsets[(index * 2) + 1]) : Buffer.from(texts?.[index] ?? JSON.stringify(objects[index]));
			const id = Buffer.from(objects[index]!.id);
			sizes.writeUInt32LE(text.length, header + (index * 8));
			sizes.writeUInt32LE(id.length, header + (index * 8) + 4);
			parts.push(text, id);
			size += text.length + id.length;
		}

		const chunk = Buffer.concat([sizes, ...parts], size);
		let written = 0;
		while (written < chunk.length) {
			written += fs.writeSync(this.#file.fd, chunk, written, chunk.length - written, this.#end + written);
		}

		const kept = {offset: this.#end, length: chunk.length};
		this.#chunks?.push(kept);
		this.#end += chunk.length;
		this.pages += 1;
		this.objects += count;
		return kept;
	}

	/** The pages kept, last first, each with its objects last first. */
	* reversed(): Generator<SpooledObjects> {
		for (let page = this.pages - 1; page >= 0; page--) {
			yield this.read(this.#chunks![page]!, 'reversed');
		}
	}

	/** One page appended (its chunk), its objects in the order they were appended, or last first. */
	read({offset, length}: SpoolChunk, order: 'forward' | 'reversed' = 'forward'): SpooledObjects {
		const chunk = Buffer.allocUnsafe(length);
		let read = 0;
		while (read < length) {
			const got = fs.readSync(this.#file.fd, chunk, read, length - read, offset + read);
			if (got === 0) {
				throw new Error(`the spool ends before its page at ${offset} does`);
			}

			read += got;
		}

		return decode(chunk, order === 'reversed');
	}

	close(): void {
		this.#file.close();
	}
}

function decode(chunk: Buffer, reversed: boolean): SpooledObjects {
	const count = chunk.readUInt32LE(0);
	const exact = chunk.readUInt32LE(4) === 1;
	const offsets = new Int32Array(count * 2);
	const ids: string[] = [];
	let at = header + (count * 8);
	for (let index = 0; index < count; index++) {
		const textLength = chunk.readUInt32LE(header + (index * 8));
		const idLength = chunk.readUInt32LE(header + (index * 8) + 4);
		// Reversed, last first: the object read last is written first.
		const slot = reversed ? count - 1 - index : index;
		offsets[slot * 2] = at;
		offsets[(slot * 2) + 1] = at + textLength;
		at += textLength;
		ids[slot] = chunk.toString('utf8', at, at + idLength);
		at += idLength;
	}

	if (exact) {
		// With exact texts the writers need of each object only its id, and
		// of the texts only their bytes (every offset here is a whole text).
		return {objects: ids.map(id => ({id})), texts: ids.map(() => ''), bytes: {body: chunk, offsets}};
	}

	const texts = ids.map((_, index) => chunk.toString('utf8', offsets[index * 2], offsets[(index * 2) + 1]));
	return {objects: texts.map(text => JSON.parse(text) as ListObject), texts: undefined, bytes: undefined};
}
