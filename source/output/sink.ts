import {fstatSync, ftruncateSync, writeSync} from 'node:fs';
import type {Writable} from 'node:stream';
import {PagewalkError} from '../text/errors.js';
import {inert} from '../text/inert.js';

/** How much of the walk a write completes: the objects written in all, and the last one's id (where a resume starts after). */
export type Mark = {objects: number; lastId: string | undefined};

/** How many of the last pages a closing that does not fit may drop (each frees its bytes). */
const droppablePages = 8;

/**
 * stdout as a regular file, written with write(2) itself rather than the
 * stream Node gives for a file, which drops the rest of a short write (a disk
 * that fills up, a file size limit) without a word: here the rest is
 * retried, so a failure is known to the byte. `mayCut`: the file is not
 * stderr's too (a cut leaves the descriptor's offset where it was, and
 * stderr's next line would land past the end, after a gap of zeros).
 */
function regularFile(stream: Writable, stderr: Writable | undefined): {fd: number; mayCut: boolean} | undefined {
	const fd = (stream as {fd?: unknown}).fd;
	if (typeof fd !== 'number') {
		return undefined;
	}

	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) {
			return undefined;
		}

		const other = (stderr as {fd?: unknown} | undefined)?.fd;
		const shared = typeof other === 'number' && (() => {
			const errors = fstatSync(other);
			return errors.dev === stat.dev && errors.ino === stat.ino;
		})();
		return {fd, mayCut: !shared};
	} catch {
		return undefined;
	}
}

/** Writes all of `bytes`, at `position` (or the descriptor's offset), a short write's rest again; throws with `written` set to what went out. */
export function writeAll(fd: number, bytes: Uint8Array, position?: number): void {
	let done = 0;
	try {
		while (done < bytes.length) {
			done += writeSync(fd, bytes, done, bytes.length - done, position === undefined ? null : position + done);
		}
	} catch (error: unknown) {
		throw Object.assign(error as Error, {written: done});
	}
}

/**
 * stdout for the dump: honours backpressure, and treats a reader that went
 * away (`| head`, EPIPE) as the quiet end of the dump rather than an error.
 * Any other write error (a full disk, a file size limit, an I/O error) fails
 * the dump; to a file, the page whose write failed is cut off again, so the
 * file ends with the last whole page (whole lines, whole rows), and `kept`
 * says where that is.
 */
export class Sink {
	/** Set when the reader closed the pipe: stop walking, exit 0, say nothing. */
	gone = false;
	/** Any other write error (a full disk): the dump fails with it. */
	failure: Error | undefined;
	/** What the output holds whole: the mark of the last write that went out entirely. */
	kept: Mark = {objects: 0, lastId: undefined};
	/** stdout is a regular file (so a resumed dump can append to it). */
	readonly toFile: boolean;
	readonly #stream: Writable;
	readonly #onGone: () => void;
	readonly #file: {fd: number; mayCut: boolean} | undefined;
	/** The last pages written to the file: their sizes and the mark before each. */
	readonly #recent: Array<{bytes: number; before: Mark}> = [];
	/** Settles when the stream has called back for the last write it was given. */
	#pending: Promise<void> = Promise.resolve();

	constructor(stream: Writable, onGone: () => void, options: {stderr?: Writable} = {}) {
		this.#stream = stream;
		this.#onGone = onGone;
		this.#file = regularFile(stream, options.stderr);
		this.toFile = this.#file !== undefined;
		stream.on('error', (error: NodeJS.ErrnoException) => {
			this.#failed(error);
		});
	}

	/** A reader that went away is the quiet end; anything else fails the output. */
	#failed(error: NodeJS.ErrnoException): void {
		if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || error.code === 'ECONNRESET') {
			this.#markGone();
		} else {
			this.#fail(error);
		}
	}

	#markGone(): void {
		if (!this.gone) {
			this.gone = true;
			this.#onGone();
		}
	}

	#fail(error: Error): void {
		if (this.failure === undefined) {
			this.failure = error;
			this.#onGone();
		}
	}

	/**
	 * Writes `text` (or bytes), waiting for the stream to drain when its
	 * buffer is full; `mark` is what the output holds once it is written.
	 */
	async write(text: string | Uint8Array, mark?: Mark): Promise<void> {
		if (text.length === 0 || this.gone || this.failure) {
			return;
		}

		if (this.#file) {
			this.#writeFile(typeof text === 'string' ? Buffer.from(text) : text, mark);
			return;
		}

		if (this.#stream.destroyed || this.#stream.writableEnded) {
			this.#markGone();
			return;
		}

		// Kept once it went out: a stream says so in the write's callback, in order.
		let calledBack!: () => void;
		this.#pending = new Promise<void>(resolve => {
			calledBack = resolve;
		});
		const written = this.#stream.write(text, (error?: Error | null) => {
			if (error) {
				this.#failed(error);
			} else if (mark) {
				this.kept = mark;
			}

			calledBack();
		});
		if (written) {
			return;
		}

		await new Promise<void>(resolve => {
			const done = () => {
				this.#stream.off('drain', done);
				this.#stream.off('close', done);
				this.#stream.off('error', done);
				resolve();
			};

			this.#stream.on('drain', done);
			this.#stream.on('close', done);
			this.#stream.on('error', done);
		});
	}

	/**
	 * Resolves once the last write went out or failed (`gone`, `failure`):
	 * a stream's write that returned may still fail (a device that is full
	 * says so in the write's callback), or never call back once destroyed.
	 */
	async settled(): Promise<void> {
		if (this.#file || this.gone || this.failure) {
			return;
		}

		let closed!: () => void;
		await Promise.race([this.#pending, new Promise<void>(resolve => {
			closed = resolve;
			this.#stream.once('close', closed);
		})]);
		this.#stream.off('close', closed);
	}

	#writeFile(bytes: Uint8Array, mark: Mark | undefined): void {
		const {fd, mayCut} = this.#file!;
		try {
			writeAll(fd, bytes);
		} catch (error: unknown) {
			const written = (error as {written: number}).written;
			if (written > 0 && mayCut) {
				try {
					// The part of this page that went out, taken off the end again: the file ends with the last whole page.
					ftruncateSync(fd, fstatSync(fd).size - written);
				} catch {
					// The cut line stays; the failure is said all the same.
				}
			}

			this.#fail(error as Error);
			return;
		}

		this.#recent.push({bytes: bytes.length, before: this.kept});
		if (this.#recent.length > droppablePages) {
			this.#recent.shift();
		}

		if (mark) {
			this.kept = mark;
		}
	}

	/**
	 * After a failed write to a file: closes the document where the last
	 * whole page ends (`closing(objects)` gives the text that closes one
	 * holding that many objects; '' for none). Where even that does not fit,
	 * whole pages are taken off the end, a few at most, until it does;
	 * `kept` follows. Written at a named position, as a cut leaves the
	 * descriptor's offset past the end.
	 */
	closeAfterFailure(closing: (objects: number) => string): void {
		if (!this.#file?.mayCut || this.failure === undefined) {
			return;
		}

		const {fd} = this.#file;
		try {
			let end = fstatSync(fd).size;
			for (;;) {
				const text = closing(this.kept.objects);
				if (text === '') {
					return;
				}

				try {
					writeAll(fd, Buffer.from(text), end);
					return;
				} catch {
					const page = this.#recent.pop();
					ftruncateSync(fd, page === undefined ? end : end - page.bytes);
					if (page === undefined) {
						return;
					}

					end -= page.bytes;
					this.kept = page.before;
				}
			}
		} catch {
			// The file could not be read or cut: it stays as the failure left it.
		}
	}
}

/** The one sentence for output that could not be written: its cause, in the system's words (no space left, file too large, an I/O error). */
export function writeFailure(error: Error): string {
	return `could not write the output (${inert(error.message)})`;
}

/** What a command other than dump writes its output through (its help included). */
export type CommandOutput = {write(text: string): Promise<void>};

/**
 * A command's stdout (help, a report, a token, a script, the sandbox's
 * settings) written through a Sink as dump's is: whole (a short write's rest
 * again), quietly nothing more once the reader went away (`| head`), and a
 * failed write an error of one sentence naming the cause, exit 1. The part
 * of a write that failed is taken off a file again: no output cut short in
 * silence.
 */
export function commandOutput(stream: Writable, stderr: Writable): CommandOutput {
	// stderr is required: on the same file as stdout, the failed write is not taken off (stderr's sentence would follow a gap of zeros).
	const sink = new Sink(stream, () => {}, {stderr});
	return {
		async write(text) {
			await sink.write(text);
			await sink.settled();
			if (sink.failure) {
				throw new PagewalkError(`${writeFailure(sink.failure)}; run the same command again where the output fits.`);
			}
		},
	};
}
