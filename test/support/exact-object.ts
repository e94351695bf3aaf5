import http from 'node:http';
import type {AddressInfo} from 'node:net';

/** One object whose values a parse-and-serialize would change, and a page holding it: for the exact-value tests. */
export const exactObject = '{"id":"acct-1","n":9007199254740993,"price":1.10,"a.b":"flat","a":{"b":"nested"}}';
export const exactPage = `{"pagination":{"ending_before":null,"starting_after":null,"limit":25,"order":"desc","previous_uri":null,"next_uri":null},"data":[${exactObject}]}`;

/** A server on 127.0.0.1:0 that answers every request with that page, byte for byte. */
export async function startExactServer(): Promise<{origin: string; close(): Promise<void>}> {
	const server = http.createServer((request, response) => {
		request.resume();
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(exactPage);
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		async close() {
			server.closeAllConnections();
			await new Promise(resolve => {
				server.close(resolve);
			});
		},
	};
}
