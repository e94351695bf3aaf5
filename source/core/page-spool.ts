import fs from 'node:fs';
import {openSpillFile, type SpillFile} from './spill-files.js';
import type {ListObject} from './types.js';

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
	/** Their exact texts, parallel to `objects`; absent when the page had none (built in tests). */
	texts: string[] | undefined;
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

	/** Keeps the first `count` objects of a page. */
	append(objects: readonly ListObject[], texts: readonly string[] | undefined, count: number): void {
		if (count === 0) {
			return;
		}

		const parts: Buffer[] = [];
		const sizes = Buffer.alloc(header + (count * 8));
		sizes.writeUInt32LE(count, 0);
		sizes.writeUInt32LE(texts === undefined ? 0 : 1, 4);
		for (let index = 0; index < count; index++) {
			const text = Buffer.from(texts?.[index] ?? JSON.stringify(objects[index]));
			const id = Buffer.from(objects[index]!.id);
			sizes.writeUInt32LE(text.length, header + (index * 8));
			sizes.writeUInt32LE(id.length, header + (index * 8) + 4);
			parts.push(text, id);
		}

		const chunk = Buffer.concat([sizes, ...parts]);
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
			const chunk = Buffer.alloc(this.#lengths[page]!);
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
	const texts: string[] = [];
	const ids: string[] = [];
	let at = header + (count * 8);
	for (let index = 0; index < count; index++) {
		const textLength = chunk.readUInt32LE(header + (index * 8));
		const idLength = chunk.readUInt32LE(header + (index * 8) + 4);
		texts.push(chunk.toString('utf8', at, at + textLength));
		at += textLength;
		ids.push(chunk.toString('utf8', at, at + idLength));
		at += idLength;
	}

	texts.reverse();
	ids.reverse();
	// With exact texts the writers need of each object only its id: the
	// text is what they write.
	const objects = exact ? ids.map(id => ({id})) : texts.map(text => JSON.parse(text) as ListObject);
	return {objects, texts: exact ? texts : undefined};
}
