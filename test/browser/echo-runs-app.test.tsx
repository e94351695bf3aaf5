/**
 * The browser's error banner and debug view, against a server that echoes
 * pieces of the token (the echo-runs fault: cut, JSON-escaped,
 * percent-encoded, in a header, warnings, a pagination field and a 401's
 * message): no run of 8 of its characters is drawn.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {leakedRun} from '../support/secret-runs.js';
import {keys, renderApp} from './support/render-app.js';

const token = 'echoTok-4f9a2c7e1b3d5f60-a8c2e4f6b1d3';
let faulty: FaultyServer;

beforeAll(async () => {
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty.close();
});

/** The frame as drawn, and its lines joined with the pane's edges and padding taken off, so a run wrapped over two lines is found too. */
function drawn(frame: string): string {
	const joined = frame.split('\n').map(line => line.replace(/^[\s│|]+|[\s│|]+$/g, '')).join('');
	return `${frame}\n${joined}`;
}

describe('echoed runs of the token', () => {
	it('the debug view of the page that echoed them, then the banner and debug view of the 401 that did', async () => {
		const app = await renderApp({baseUrl: faulty.base('echo-runs'), token, size: {columns: 120, rows: 200}});
		try {
			await app.waitFor(frame => frame.includes('page 1 '));
			await app.press('d');
			const debug = await app.waitFor(frame => frame.includes('debug: request') && frame.includes('pagination (raw)'));
			expect(debug).toContain('x-echo: [redacted] | [redacted]');
			expect(debug).toContain('You sent [redacted]');
			// The raw pagination shows the echo JSON-encoded again: its escaped pieces escaped twice.
			expect(debug).toMatch(/"echo": "\[redacted\] \| /);
			expect(leakedRun(drawn(debug), [token])).toBeUndefined();

			await app.press('d', keys.right);
			const banner = await app.waitFor(frame => frame.includes(' error'));
			expect(banner).toContain('Not valid: [redacted] | [redacted]');
			expect(leakedRun(drawn(banner), [token])).toBeUndefined();

			await app.press('d');
			const failed = await app.waitFor(frame => frame.includes('debug: request') && frame.includes('last error'));
			expect(leakedRun(drawn(failed), [token])).toBeUndefined();
		} finally {
			await app.close();
		}
	});
});
