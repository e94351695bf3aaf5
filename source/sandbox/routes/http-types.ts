/**
 * The request and response each API handler works with: plain data, so
 * handlers are testable without sockets and the server stays a thin adapter.
 */
export type SandboxRequest = {
	method: string;
	/** The request target as sent: path and query. */
	url: string;
	/** Lowercase header names, as Node gives them. */
	headers: Record<string, string | string[] | undefined>;
};

export type SandboxResponse = {
	status: number;
	headers: Record<string, string>;
	body: string;
};

export function json(status: number, value: unknown, headers: Record<string, string> = {}): SandboxResponse {
	return {status, headers: {'content-type': 'application/json', 'cache-control': 'no-store', ...headers}, body: JSON.stringify(value)};
}

/** Splits a request target into path and raw query; accepts absolute-form targets too. */
export function splitTarget(url: string): {path: string; query: string} {
	let target = url;
	if (!target.startsWith('/')) {
		try {
			const parsed = new URL(target);
			target = parsed.pathname + parsed.search;
		} catch {
			return {path: target, query: ''};
		}
	}

	const mark = target.indexOf('?');
	const hash = target.indexOf('#');
	const end = hash === -1 ? target.length : hash;
	return mark === -1 || mark > end ? {path: target.slice(0, end), query: ''} : {path: target.slice(0, mark), query: target.slice(mark + 1, end)};
}

/** First value of a header that may have been repeated. */
export function header(request: SandboxRequest, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}
