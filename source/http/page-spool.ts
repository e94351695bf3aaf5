import fs from 'node:fs';
import {openSpillFile, type SpillFile} from './spill-files.js';
import type {ListObject, ObjectBytes} from '../contract/types.js';

/**
 * The pages of the chain a walk from both ends writes last, held on disk
 * until the chains meet and then read back last page first, each page's
 * objects last first: the order the user asked for. Only an offset and a
 * length per page stay in memory. Each object keeps its exact text (what
 * the writers copy) and its id (for the resume hint).
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

const header = 8;

export class PageSpool {
	pages = 0;
	objects = 0;
	#offsets: number[] = [];
	#lengths: number[] = [];
	#end = 0;
	readonly #file: SpillFile;

	constructor(parent?: string) {
		this.#file = openSpillFile('pages', parent);
	}

	/**
	 * Keeps the first `count` objects of a page: each one's text as UTF-8,
	 * copied from the body's bytes where they are its text (Page.objectBytes),
	 * and its id.
	 */
	append(objects: readonly ListObject[], texts: readonly string[] | undefined, count: number, bytes?: ObjectBytes): void {
		if (count === 0) {
			return;
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

		this.#offsets.push(this.#end);
		this.#lengths.push(chunk.length);
		this.#end += chunk.length;
		this.pages += 1;
		this.objects += count;
	}

	/** The pages kept, last first, each with its objects last first. */
	* reversed(): Generator<SpooledObjects> {
		for (let page = this.pages - 1; page >= 0; page--) {
			const chunk = Buffer.allocUnsafe(this.#lengths[page]!);
			fs.readSync(this.#file.fd, chunk, 0, chunk.length, this.#offsets[page]!);
			yield decode(chunk);
		}
	}

	close(): void {
		this.#file.close();
	}
}

function decode(chunk: Buffer): SpooledObjects {
	const count = chunk.readUInt32LE(0);
	const exact = chunk.readUInt32LE(4) === 1;
	const offsets = new Int32Array(count * 2);
	const ids: string[] = [];
	let at = header + (count * 8);
	for (let index = 0; index < count; index++) {
		const textLength = chunk.readUInt32LE(header + (index * 8));
		const idLength = chunk.readUInt32LE(header + (index * 8) + 4);
		// Last first: the object read last is written first.
		const slot = count - 1 - index;
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
