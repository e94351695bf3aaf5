import http from 'node:http';
import type {AddressInfo} from 'node:net';

/**
 * A tiny account-API server for what the sandbox cannot do on purpose: an
 * object whose fields attack the terminal, and a page that fails until told
 * otherwise. Speaks the contract's envelope (docs/contract.md#the-envelope).
 */
export type TestServer = {
	origin: string;
	/** While true, the second page fails with HTTP 500 (not retried by the client). */
	failing: boolean;
	/** The status a failing page answers with (500 when not set). */
	failStatus?: number;
	requests: string[];
	close(): Promise<void>;
};

export const hostile = {
	id: 'hostile-1',
	name: 'clear\u001B[2Jscreen',
	clipboard: '\u001B]52;c;ZWNobyBwd25lZA==\u0007',
	bidi: 'abc\u202Edcba',
	bell: 'ding\u0007',
};

/** Wide (two-cell) characters and an emoji: the table must stay aligned. */
export const wide = {id: 'wide-1', name: '日本語のウォレット名前です', balance: {amount: '👍👍', currency: 'JPY'}};

function page(path: string, ids: string[], next: string | null, limit: number) {
	return {
		pagination: {ending_before: null, starting_after: null, limit, order: 'desc', previous_uri: null, next_uri: next},
		data: ids.map(id => (id === hostile.id ? hostile : id === wide.id ? wide : {id, name: `Wallet ${id}`, balance: {amount: '1.00', currency: 'BTC'}})),
		path,
	};
}

export async function startTestServer(): Promise<TestServer> {
	const state: TestServer = {origin: '', failing: false, requests: [], close: async () => undefined};
	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		state.requests.push(url.pathname + url.search);
		const send = (status: number, body: unknown) => {
			// A cookie and credential-like headers the debug view must redact, and one it shows.
			response.writeHead(status, {'content-type': 'application/json', 'set-cookie': 'session=cookie-secret-1', 'x-request-signature': 'signature-secret-2', 'x-request-id': 'req-visible-3'});
			response.end(JSON.stringify(body));
		};

		const limit = Number(url.searchParams.get('limit') ?? 25);
		if (url.searchParams.get('starting_after') === 'w2') {
			if (state.failing) {
				send(state.failStatus ?? 500, {errors: [{id: 'internal_server_error', message: 'the page broke \u001B[31mred'}]});
				return;
			}

			send(200, page(url.pathname, ['w3', 'w4'], null, limit));
			return;
		}

		send(200, page(url.pathname, [hostile.id, wide.id, 'w2'], '/v2/accounts?limit=25&starting_after=w2', limit));
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = async () =>
		new Promise(resolve => {
			server.closeAllConnections();
			server.close(() => {
				resolve();
			});
		});
	return state;
}
