import type {Dispatcher} from 'undici';
import type {IncomingHttpHeaders} from 'undici/types/header.js';

/**
 * One GET through the pool, its whole body gathered in memory, through
 * undici's dispatch handler API rather than `request()`: a page is read
 * whole anyway, and `request()` hands the body out as a Readable stream
 * (an async iterator, a push and a read per chunk, promise ticks), which
 * bench:walk finds measurably slower than gathering the chunks here.
 *
 * The exchange can be ended at any time with a reason (the caller's abort,
 * the whole-page deadline): its promise rejects with that reason at once,
 * and the request is aborted as soon as undici lets it (so its socket is
 * closed, never left half read). The size cap is the dispatcher's own
 * (undici's maxResponseSize), which ends the exchange with its error.
 */

export type Received = {status: number; headers: IncomingHttpHeaders; data: Buffer; bytes: number};

export type Exchange = {
	/** Settles with the whole response, or rejects with undici's error or the reason it was ended with. */
	received: Promise<Received>;
	/** Ends the exchange: `received` rejects with `reason`, and the request is aborted. */
	end(reason: Error): void;
	/** Whether the final (non-1xx) response headers have arrived: the deadline's phase. */
	readonly responding: boolean;
};

class Collector implements Dispatcher.DispatchHandler {
	responding = false;
	#controller: Dispatcher.DispatchController | undefined;
	#reason: Error | undefined;
	#settled = false;
	#status = 0;
	#headers: IncomingHttpHeaders = {};
	#chunks: Buffer[] = [];
	#bytes = 0;

	constructor(
		private readonly resolve: (received: Received) => void,
		private readonly reject: (error: Error) => void,
	) {}

	onRequestStart(controller: Dispatcher.DispatchController): void {
		// Ended before undici started it: abort it now.
		if (this.#reason) {
			controller.abort(this.#reason);
			return;
		}

		this.#controller = controller;
	}

	onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
		// 1xx responses come before the final one and say nothing about the page.
		if (status < 200) {
			return;
		}

		this.responding = true;
		this.#status = status;
		this.#headers = headers;
	}

	onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
		this.#bytes += chunk.length;
		this.#chunks.push(chunk);
	}

	onResponseEnd(): void {
		if (this.#settled) {
			return;
		}

		this.#settled = true;
		const chunks = this.#chunks;
		this.#chunks = [];
		this.resolve({
			status: this.#status,
			headers: this.#headers,
			data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#bytes),
			bytes: this.#bytes,
		});
	}

	onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
		if (this.#settled) {
			return;
		}

		this.#settled = true;
		this.#chunks = [];
		this.reject(error);
	}

	end(reason: Error): void {
		if (this.#settled) {
			return;
		}

		this.#settled = true;
		this.#reason = reason;
		this.#chunks = [];
		this.reject(reason);
		this.#controller?.abort(reason);
	}
}

/** Sends `GET path` with `headers` through `dispatcher`, and gathers the response. */
export function getResponse(dispatcher: Dispatcher, {path, headers}: {path: string; headers: Record<string, string>}): Exchange {
	let collector!: Collector;
	const received = new Promise<Received>((resolve, reject) => {
		collector = new Collector(resolve, reject);
	});
	try {
		dispatcher.dispatch({path, method: 'GET', headers}, collector);
	} catch (error: unknown) {
		// undici refuses some requests before sending them (a header value it cannot carry).
		collector.end(error instanceof Error ? error : new Error(String(error)));
	}

	return {
		received,
		end(reason) {
			collector.end(reason);
		},
		get responding() {
			return collector.responding;
		},
	};
}
