/**
 * The HTTP adapter: one Node `http` listener per API (two origins, like the
 * real services), each handing plain requests to a pure handler. Nothing a
 * client sends reaches a throw without being answered in the API's shape.
 */
import http from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import type {SandboxRequest, SandboxResponse} from './http-types.js';

/**
 * The sandbox cannot listen (port taken, no such interface). Its own type:
 * the sandbox shares only the contract with the client, never its errors;
 * the commands turn this into the sentence the user reads.
 */
export class SandboxListenError extends Error {
	constructor(message: string, options: {cause?: unknown} = {}) {
		super(message, {cause: options.cause});
		this.name = 'SandboxListenError';
	}
}

export type Handler = (request: SandboxRequest) => SandboxResponse;

export type Listener = {url: string; close(): Promise<void>};

type ListenOptions = {
	host: string;
	port: number;
	/** The API's name in log lines and errors: "account" or "commerce". */
	name: string;
	handler: Handler;
	/** Renders a failure outside the handler (a bug, malformed HTTP) in the API's error shape. */
	failure: (status: number, code: string, message: string) => SandboxResponse;
	verbose?: ((line: string) => void) | undefined;
	/** How long to hold each answer before its first byte (the --latency model); none when absent. */
	delayMs?: ((url: string) => number) | undefined;
};

/** Drops credentials from a request target before it is logged. */
export function redactTarget(url: string): string {
	return url.replaceAll(/(access(?:_|%5f)token=)[^&#]*/gi, '$1[redacted]');
}

/** Hosts that bind every interface: no client connects to them by that name. */
export const wildcardHosts: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]', '::0']);

export function formatOrigin(host: string, port: number): string {
	return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function listen(options: ListenOptions): Promise<Listener> {
	const {handler, verbose, name} = options;
	// Node's own check of Host answers an empty 400; ours answers in the API's shape.
	const server = http.createServer({requireHostHeader: false}, (request, response) => {
		const started = performance.now();
		// The APIs take no body; drain one if sent so the connection stays usable.
		request.resume();
		let answer: SandboxResponse;
		try {
			const method = request.method ?? 'GET';
			answer = request.headers.host === undefined
				? options.failure(400, 'invalid_request', 'The request has no Host header; send one (HTTP/1.1 requires it).')
				// HEAD is GET without the body: same status and headers, and
				// Node's response sends no body for a HEAD request.
				: handler({method: method === 'HEAD' ? 'GET' : method, url: request.url ?? '/', headers: request.headers});
		} catch (error: unknown) {
			// A bug, not the client's fault: still JSON in the API's shape, and the process lives on.
			answer = options.failure(500, 'internal_server_error', `The sandbox failed on this request (${error instanceof Error ? error.message : String(error)}); please report it.`);
		}

		const send = () => {
			response.writeHead(answer.status, {...answer.headers, 'content-length': Buffer.byteLength(answer.body)});
			response.end(answer.body);
			if (verbose) {
				verbose(`${name} ${request.method ?? '?'} ${redactTarget(request.url ?? '')} ${answer.status} ${(performance.now() - started).toFixed(1)}ms`);
			}
		};

		const delay = options.delayMs?.(request.url ?? '/') ?? 0;
		if (delay <= 0) {
			send();
			return;
		}

		const timer = setTimeout(() => {
			held.delete(timer);
			send();
		}, delay);
		held.add(timer);
	});
	// Answers held for --latency; dropped at close, with their connections.
	const held = new Set<NodeJS.Timeout>();
	server.keepAliveTimeout = 30_000;
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		// Malformed HTTP: answer 400 in JSON when the socket can still take it.
		if (socket.writable && error.code !== 'ECONNRESET') {
			// Headers past what Node reads (16 KiB) are said as such, not as HTTP that is not valid.
			const large = error.code === 'HPE_HEADER_OVERFLOW';
			const {body} = large
				? options.failure(431, 'request_header_fields_too_large', 'The request\'s headers are larger than this server reads (16 KiB).')
				: options.failure(400, 'invalid_request', 'The request is not valid HTTP.');
			socket.end(`HTTP/1.1 ${large ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
		} else {
			socket.destroy();
		}
	});

	await new Promise<void>((resolve, reject) => {
		const onError = (error: NodeJS.ErrnoException) => {
			server.off('listening', onListening);
			reject(
				error.code === 'EADDRINUSE'
					? new SandboxListenError(`Port ${options.port} on ${options.host} is already in use, so the ${name} API cannot listen there; choose another --port (0 picks a free one).`, {cause: error})
					: new SandboxListenError(`The ${name} API cannot listen on ${options.host} port ${options.port}: ${error.message}.`, {cause: error}),
			);
		};

		const onListening = () => {
			server.off('error', onError);
			resolve();
		};

		server.once('error', onError);
		server.once('listening', onListening);
		server.listen(options.port, options.host);
	});

	const {port} = server.address() as AddressInfo;
	return {
		// Bound to every interface: the URL a client on this machine can connect to is loopback's.
		url: formatOrigin(wildcardHosts.has(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host, port),
		close: async () =>
			new Promise<void>((resolve) => {
				for (const timer of held) {
					clearTimeout(timer);
				}

				held.clear();
				server.close(() => {
					resolve();
				});
				server.closeAllConnections();
			}),
	};
}

