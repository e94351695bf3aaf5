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
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';

export type Recorded = {path: string; host: string | undefined; authorization: string | undefined; status: number; body: string};

export type ProxyMode = 'pass' | 'rewrite-host' | 'replay' | 'ignore-order';

export type RecordingProxy = {
	origin: string;
	recorded: Recorded[];
	mode: ProxyMode;
	reset(): void;
	close(): Promise<void>;
};

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
	const upstream = new URL(target);
	const state: {recorded: Recorded[]; mode: ProxyMode; first: string | undefined} = {recorded: [], mode: 'pass', first: undefined};
	const server = http.createServer((request, response) => {
		request.resume();
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
			});
		});
		forwarded.on('error', () => {
			response.writeHead(502).end();
		});
		forwarded.end();
	});
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
