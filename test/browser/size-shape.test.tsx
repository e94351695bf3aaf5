/**
 * The browser on pages of pathological shape (the faulty server's size
 * faults): objects nested 50,000 levels deep beside plain ones, a 4 MiB cell
 * of emoji, an object with 100,000 fields. The page draws; an object that
 * cannot be shown costs only its own cells; the detail pane and a refresh
 * of such a page do not take the browser down.
 */
import {afterAll, afterEach, beforeAll, describe, expect, test} from 'vitest';
import {startFaultyServer, type FaultName, type FaultyServer} from '../support/faulty-server.js';
import {flatten, rowsOf} from '../../source/browser/stack/cells.js';
import {jsonLines} from '../../source/browser/view/format.js';
import {keys, renderApp} from './support/render-app.js';

let faulty: FaultyServer;
let open: Array<{close(): Promise<void>}> = [];

beforeAll(async () => {
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty.close();
});

afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
});

async function browse(fault: FaultName) {
	const app = await renderApp({baseUrl: faulty.base(fault), token: 'browser-token', size: {columns: 100, rows: 16}});
	open.push(app);
	return app;
}

/** `{"a":{"a":…1…}}`, `levels` deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
	let value: Record<string, unknown> = {a: 1};
	for (let level = 1; level < levels; level++) {
		value = {a: value};
	}

	return value;
}

describe('browser cells: a value too deep to serialize costs only its own cell', () => {
	test('flattened to 32 levels, the rest one cell with a note; the other fields as usual', () => {
		const cells = flatten({id: 'deep', v: nested(50_000), list: [1, [2]], name: 'n'});
		expect(cells.get('id')).toBe('deep');
		expect(cells.get('name')).toBe('n');
		expect(cells.get('list')).toBe('[1,[2]]');
		expect(cells.get(`v${'.a'.repeat(31)}`)).toBe('(nested too deep to show)');
		expect(cells.size).toBe(4);
	});

	test('a page with one such object: every row has its cells; the detail lines are the note', () => {
		const rows = rowsOf([{id: 'a', n: 1}, {id: 'deep', v: nested(50_000)}, {id: 'b', n: 2}]);
		expect(rows.map(row => row.cells.get('id'))).toEqual(['a', 'deep', 'b']);
		expect(rows[2]!.cells.get('n')).toBe('2');
		expect(jsonLines({id: 'deep', v: nested(50_000)})).toEqual(['(nested too deep to show)']);
		expect(jsonLines({id: 'x'})).toEqual(['{', '  "id": "x"', '}']);
	});
});

describe('browser: size and shape', () => {
	test('nested 50,000 deep: every row drawn, neighbours as usual; detail and refresh survive', async () => {
		const app = await browse('deep');
		const frame = await app.waitFor(text => text.includes('after'));
		expect(frame).toMatch(/before +first/);
		expect(frame).toMatch(/deep-object +nested/);
		expect(frame).toMatch(/deep-array +nested/);
		expect(frame).toMatch(/after +last/);
		// The deep object's detail pane.
		await app.press(keys.down, keys.enter);
		const detail = await app.waitFor(text => text.includes('(nested too deep to show)'));
		expect(detail).not.toMatch(/RangeError|call stack/i);
		await app.press(keys.escape, 'r');
		// Compared by the exact texts: the same page, although JSON.stringify could not serialize it.
		const refreshed = await app.waitFor(text => text.includes('refreshed: page unchanged') && text.includes('after'));
		expect(refreshed).toMatch(/after +last/);
	});

	test('a 4 MiB cell of emoji is cut to its column', async () => {
		const app = await browse('huge-cell');
		const frame = await app.waitFor(text => text.includes('small-2'));
		expect(frame).toMatch(/huge +é漢字🎉/u);
		for (const line of frame.split('\n')) {
			expect(line.length).toBeLessThan(400);
		}
	});

	test('100,000 fields: the columns that fit, the rest named', async () => {
		const app = await browse('wide');
		const frame = await app.waitFor(text => text.includes('narrow'));
		expect(frame).toMatch(/wide +0 +1/);
	});
});
