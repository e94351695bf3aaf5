import {pageSpans} from '../json/json-spans.js';
import type {ObjectBytes, Page} from '../contract/types.js';

/** What the client knows of a page as soon as its body is read and checked. */
export type PageFields = Omit<Page, 'objectTexts' | 'objectBytes'>;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the class below carries every field of PageFields, assigned at once in its constructor
export interface ResponsePage extends PageFields {}

/**
 * A page read from a response. Its objects' exact texts, and their places in
 * the body's bytes, are found when first read, not when the page is made: a
 * walk with read-ahead asks for the next page before it hands this one on
 * (walker.ts), so the writer finding them overlaps the server's work on the
 * next page instead of coming before it.
 *
 * A class, so the two getters live on its prototype. Written into each
 * page's object literal instead, they made two new functions and a new
 * hidden class for every page, and those kept pages from the young
 * generation's collections until a full one, and a dump's peak memory rose
 * (docs/benchmarks.md, "figures behind source comments").
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class ResponsePage implements Page {
	readonly #body: string;
	readonly #bytes: Uint8Array | undefined;
	#spans: {texts: string[] | undefined; bytes?: ObjectBytes} | undefined;

	/**
	 * @param body The body's text, which JSON.parse read into `fields.objects`.
	 * @param bytes The UTF-8 bytes `body` was decoded from, when the writer copies them (the dump).
	 */
	constructor(fields: PageFields, body: string, bytes: Uint8Array | undefined) {
		Object.assign(this, fields);
		this.#body = body;
		this.#bytes = bytes;
	}

	get objectTexts(): string[] | undefined {
		return this.#found().texts;
	}

	get objectBytes(): ObjectBytes | undefined {
		return this.#found().bytes;
	}

	#found(): {texts: string[] | undefined; bytes?: ObjectBytes} {
		this.#spans ??= pageSpans(this.#body, this.objects.length, this.#bytes);
		return this.#spans;
	}
}
