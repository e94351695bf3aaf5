import type {Dispatcher} from 'undici';
// Three of undici's internal modules, not its public entry: the entry loads
// every dispatcher, fetch, WebSocket and the caches, about twice the bundle
// and start-up CPU of what the client uses (docs/benchmarks.md). These paths
// are not undici's promise, so package.json allows patch releases only and
// test/http/undici-parts.test.ts fails, naming the path, when one moves or
// stops being what the public entry exports. Types: ./undici-parts.d.ts.
// This module is the only one that knows them.
import undiciErrors from 'undici/lib/core/errors.js';
import Client from 'undici/lib/dispatcher/client.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import type {ConnectionErrorKind} from './retry-policy.js';

/** The connections to the one trusted origin, and how to close them. */
export type Connections = Dispatcher & {close(): Promise<void>};

export type ConnectionOptions = {
	/** Bounds connecting, the headers and each pause in the body. */
	timeoutMs: number;
	/** Bytes of a body beyond which undici ends the exchange with its error. */
	maxResponseSize: number;
	/** One connection reused for every request (a walk), or a pool of four (the browser): see ClientOptions. */
	sequential: boolean;
};

export function openConnections(origin: string, {timeoutMs, maxResponseSize, sequential}: ConnectionOptions): Connections {
	const connection = {
		connectTimeout: timeoutMs,
		headersTimeout: timeoutMs,
		bodyTimeout: timeoutMs,
		keepAliveTimeout: 10_000,
		maxResponseSize,
	};
	return sequential ? new Client(origin, connection) : new Pool(origin, {...connection, connections: 4});
}

const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

function errorCode(error: unknown): string | undefined {
	const code = (error as {code?: unknown})?.code;
	return typeof code === 'string' ? code : undefined;
}

/** Sorts an error from below HTTP (undici or the socket) into the kinds the retry policy knows. */
export function connectionErrorKind(error: unknown): ConnectionErrorKind {
	const code = errorCode(error);
	if (error instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
		return 'connect-timeout';
	}

	if (error instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
		return 'headers-timeout';
	}

	if (error instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
		return 'body-timeout';
	}

	if (error instanceof undiciErrors.ResponseExceededMaxSizeError || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
		return 'too-large';
	}

	if (code === 'ECONNREFUSED') {
		return 'refused';
	}

	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return 'dns';
	}

	if (code !== undefined && resetCodes.has(code)) {
		return 'reset';
	}

	return code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ? 'truncated' : 'other';
}
