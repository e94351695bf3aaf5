import type {Writable} from 'node:stream';

/**
 * stdout for the dump: honours backpressure, and treats a reader that went
 * away (`| head`, EPIPE) as the quiet end of the dump rather than an error.
 */
export class Sink {
	/** Set when the reader closed the pipe: stop walking, exit 0, say nothing. */
	gone = false;
	/** Any other write error (a full disk): the dump fails with it. */
	failure: Error | undefined;
	readonly #stream: Writable;
	readonly #onGone: () => void;

	constructor(stream: Writable, onGone: () => void) {
		this.#stream = stream;
		this.#onGone = onGone;
		stream.on('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || error.code === 'ECONNRESET') {
				this.#markGone();
			} else {
				this.failure ??= error;
				this.#onGone();
			}
		});
	}

	#markGone(): void {
		if (!this.gone) {
			this.gone = true;
			this.#onGone();
		}
	}

	/** Writes `text` (or bytes), waiting for the stream to drain when its buffer is full. */
	async write(text: string | Uint8Array): Promise<void> {
		if (text.length === 0 || this.gone || this.failure) {
			return;
		}

		if (this.#stream.destroyed || this.#stream.writableEnded) {
			this.#markGone();
			return;
		}

		if (this.#stream.write(text)) {
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
}
