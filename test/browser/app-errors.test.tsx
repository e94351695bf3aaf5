import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {keys, renderApp} from './support/render-app.js';
import {startTestServer, type TestServer} from './support/servers.js';

/**
 * Errors offer r only where asking again can help, and say their fix in
 * full (the banner wraps); the debug view shows the response headers with
 * cookies and credentials redacted.
 */

let server: TestServer;
let open: Array<{close(): Promise<void>}> = [];

beforeEach(async () => {
	server = await startTestServer();
});

afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
	await server.close();
});

async function browse() {
	const app = await renderApp({baseUrl: server.origin, token: 'test-token-value', size: {columns: 60, rows: 16}});
	open.push(app);
	return app;
}

/** The banner's lines joined back into one message. */
function banner(frame: string): string {
	const lines = frame.split('\n');
	const first = lines.findIndex(line => line.startsWith(' error'));
	return lines.slice(first).map(line => line.trim()).join(' ');
}

describe('the error banner', () => {
	it('on a 500, offers r and gives the advice in full, wrapped rather than cut', async () => {
		server.failing = true;
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.right);
		const frame = await app.waitFor(f => f.includes(' error'));
		expect(banner(frame)).toMatch(/^error \(r: retry\): The account API failed \(500 internal_server_error: .*\); try again later\.$/);
		expect(banner(frame)).not.toContain('…');
		// Never taller than the terminal, one line to spare.
		expect(frame.split('\n')).toHaveLength(15);
	});

	for (const status of [401, 403, 404]) {
		it(`on a ${status}, offers no retry: the fix is elsewhere, and said in full`, async () => {
			server.failing = true;
			server.failStatus = status;
			const app = await browse();
			await app.waitFor(f => f.includes('page 1 '));
			await app.press(keys.right);
			const frame = await app.waitFor(f => f.includes(' error'));
			const text = banner(frame);
			expect(text).toMatch(/^error: The account API /);
			expect(text).not.toContain('(r: retry)');
			expect(text).toMatch(status === 404 ? /check the endpoint path and the base URL\.$/ : /COINBASE_ACCESS_TOKEN .*\.$/);
		});
	}
});

describe('the debug view', () => {
	it('shows the response headers, cookies and credential-like ones redacted', async () => {
		const app = await renderApp({baseUrl: server.origin, token: 'test-token-value', size: {columns: 100, rows: 40}});
		open.push(app);
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('d');
		const frame = await app.waitFor(f => f.includes('debug: request'));
		expect(frame).toContain('set-cookie: [redacted]');
		expect(frame).toContain('x-request-signature: [redacted]');
		expect(frame).toContain('x-request-id: req-visible-3');
		expect(frame).not.toContain('cookie-secret-1');
		expect(frame).not.toContain('signature-secret-2');
		expect(frame).not.toContain('test-token-value');
	});
});

describe('the debug view wraps', () => {
	it('shows the next_uri and the cursor evidence whole at 50 columns, never cut with …', async () => {
		const app = await renderApp({baseUrl: server.origin, token: 'test-token-value', size: {columns: 50, rows: 60}});
		open.push(app);
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('d');
		const frame = await app.waitFor(f => f.includes('debug: request'));
		const body = frame.split('\n').slice(1, -4);
		expect(body.join('\n')).not.toContain('…');
		const next = `${server.origin}/v2/accounts?limit=25&starting_after=w2`;
		// Wrapped to the width: joined back, the URL is whole.
		expect(body.join('')).toContain(`next page: ${next}`);
		expect(body.join(' ').replaceAll(/\s+/g, ' ')).toContain('next_uri starts after w2, the last object shown.');
	});
});
