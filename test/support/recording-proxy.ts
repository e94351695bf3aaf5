/**
 * A recording proxy in front of the sandbox, for the CDP key tests: it
 * forwards every request as is (its Host header included, so the sandbox
 * checks each JWT's uri against the host the client signed for) and records
 * what the client sent and what the sandbox answered. Two modes break the
 * request on purpose, to show the user what a rejection looks like:
 * `rewrite-host` sends the sandbox's own host (a uri mismatch) and `replay`
 * sends the first request's Authorization again on every later one (a nonce
 * used twice). `ignore-order` drops the order parameter, as a server that
 * lists in one order only would (the walk from both ends must notice).
 * `drop` closes every connection a request comes on, unanswered: a server
 * gone (a lost connection).
 * A hold keeps the requests it matches at the proxy until the test releases
 * them, and tells the test when one has arrived: a test that needs a request
 * still in flight when its keys arrive waits on that, not on the clock.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';

export type Recorded = {path: string; host: string | undefined; authorization: string | undefined; status: number; body: string};

export type ProxyMode = 'pass' | 'rewrite-host' | 'replay' | 'ignore-order' | 'drop';

/** Requests kept at the proxy until `release()`. */
export type Hold = {
	/** The paths of the requests the hold has kept so far, in the order they arrived. */
	arrived: string[];
	/** Sends on what the hold kept (a request its client gave up on meanwhile is dropped) and ends the hold. */
	release(): void;
};

export type RecordingProxy = {
	origin: string;
	recorded: Recorded[];
	mode: ProxyMode;
	/** Keeps every request whose path `matches` from the upstream until the hold is released. */
	hold(matches: (path: string) => boolean): Hold;
	/** Requests that reached the proxy so far (held or dropped ones too). */
	readonly seen: number;
	/** Settles once `check` holds, asked again at every request that arrives and every answer recorded. */
	waitFor(check: () => boolean): Promise<void>;
	reset(): void;
	close(): Promise<void>;
};

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
	const upstream = new URL(target);
	const state: {recorded: Recorded[]; mode: ProxyMode; first: string | undefined} = {recorded: [], mode: 'pass', first: undefined};
	const holds = new Set<{matches: (path: string) => boolean; arrived: string[]; released: Promise<void>}>();
	let seen = 0;
	const waiting = new Set<{check: () => boolean; resolve: () => void}>();
	const changed = () => {
		for (const wait of waiting) {
			if (wait.check()) {
				waiting.delete(wait);
				wait.resolve();
			}
		}
	};

	const server = http.createServer((request, response) => {
		request.resume();
		seen += 1;
		changed();
		if (state.mode === 'drop') {
			request.socket.destroy();
			return;
		}

		const held = [...holds].find(hold => hold.matches(request.url ?? ''));
		if (held) {
			held.arrived.push(request.url ?? '');
			void held.released.then(() => {
				if (!request.socket.destroyed) {
					forward(request, response);
				}
			});
			return;
		}

		forward(request, response);
	});

	function forward(request: http.IncomingMessage, response: http.ServerResponse) {
		const headers = {...request.headers};
		if (state.mode === 'rewrite-host') {
			headers.host = upstream.host;
		}

		if (state.mode === 'replay') {
			state.first ??= headers.authorization;
			headers.authorization = state.first;
		}

		const path = state.mode === 'ignore-order' ? (request.url ?? '').replace(/([?&])order=[^&]*(&|$)/, '$1').replace(/[?&]$/, '') : request.url;
		const forwarded = http.request({host: upstream.hostname, port: upstream.port, path, method: request.method, headers}, answer => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				// A request the client gave up on (a walk from both ends cancels the chain it no longer
				// needs) is not recorded: its answer would land in the next test's record.
				if (request.socket.destroyed) {
					return;
				}

				const body = Buffer.concat(chunks);
				state.recorded.push({path: request.url ?? '', host: request.headers.host, authorization: request.headers.authorization, status: answer.statusCode ?? 0, body: body.toString()});
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				response.end(body);
				changed();
			});
		});
		forwarded.on('error', () => {
			response.writeHead(502).end();
		});
		forwarded.end();
	}

	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		get recorded() {
			return state.recorded;
		},
		get mode() {
			return state.mode;
		},
		set mode(mode: ProxyMode) {
			state.mode = mode;
		},
		get seen() {
			return seen;
		},
		async waitFor(check) {
			if (check()) {
				return;
			}

			await new Promise<void>(resolve => {
				waiting.add({check, resolve});
			});
		},
		hold(matches) {
			let release!: () => void;
			const released = new Promise<void>(resolve => {
				release = resolve;
			});
			const hold = {matches, arrived: [] as string[], released};
			holds.add(hold);
			return {
				arrived: hold.arrived,
				release() {
					holds.delete(hold);
					release();
				},
			};
		},
		reset() {
			state.recorded = [];
			state.mode = 'pass';
			state.first = undefined;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
			});
		},
	};
}
