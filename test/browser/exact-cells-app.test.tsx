/**
 * The browser shows what dump writes: numbers as the server wrote them (a big
 * integer, a trailing zero), and a key "a.b" apart from a nested a → b, in
 * the table and in the detail view. A server of its own sends the raw body.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startExactServer} from '../support/exact-object.js';
import {keys, renderApp} from './support/render-app.js';

let server: Awaited<ReturnType<typeof startExactServer>>;
let origin: string;
const open: Array<{close(): Promise<void>}> = [];

beforeAll(async () => {
	server = await startExactServer();
	origin = server.origin;
});

afterAll(async () => {
	await Promise.all(open.map(async app => app.close()));
	await server.close();
});

describe('exact values in the browser', () => {
	it('the table and the detail view show 9007199254740993, 1.10 and both a.b values', async () => {
		const app = await renderApp({baseUrl: origin, token: 'token', size: {columns: 160, rows: 20}});
		open.push(app);
		const table = await app.waitFor(frame => frame.includes('acct-1'));
		expect(table).toContain('9007199254740993');
		expect(table).not.toContain('9007199254740992');
		expect(table).toContain('1.10');
		expect(table).toContain('["a.b"]');
		expect(table).toContain('flat');
		expect(table).toContain('nested');
		await app.press(keys.enter);
		const detail = await app.waitFor(frame => frame.includes('"price"'));
		expect(detail).toContain('"n": 9007199254740993,');
		expect(detail).toContain('"price": 1.10,');
		expect(detail).toContain('"a.b": "flat",');
		expect(detail).toContain('"b": "nested"');
	});
});
