import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

/**
 * Jump to a cursor (`:`) and search across pages (`/` then `n`, `N`) in the
 * built CLI, in a real terminal (see support/tmux.ts), on the --demo sandbox.
 */

const server = new TmuxServer('search', {columns: 120, rows: 24});

const settled = (text: string) => !text.includes('loading');

beforeAll(() => {
	requireTmux();
	builtCli();
});

afterAll(() => {
	server.kill();
	removeBuiltCli();
});

describe('jump and search in a real terminal (tmux)', () => {
	it(': id starts a walk after it, :<id before it; / then n finds a page further on and N one back', async () => {
		server.start('search', {args: '--limit 10'});
		let text = await server.waitForScreen(t => t.includes('page 1 · from the start') && t.includes('more pages follow'));
		const first = selectedRow(text);

		// → to page 3, remembering ids to jump to and search for.
		await server.keys('Right');
		text = await server.waitForScreen(t => t.includes('page 2 ·') && settled(t));
		const second = selectedRow(text);
		await server.keys('Right');
		text = await server.waitForScreen(t => t.includes('page 3 ·') && settled(t));
		const third = selectedRow(text);

		// : with the first id: a new walk right after it.
		await server.keys(':');
		await server.waitForScreen(t => t.includes(': jump (id: after it, <id: before it):'));
		await server.keys('-l', first);
		await server.keys('Enter');
		text = await server.waitForScreen(t => t.includes('page 1 · started after') && settled(t));
		expect(text).toContain('jump: a new walk after that id (0 returns to the start)');
		expect(selectedRow(text)).not.toBe(first);

		// :<id with page 2's first id: the page before it is the list's page 1.
		await server.keys(':');
		await server.waitForScreen(t => t.includes(': jump'));
		await server.keys('-l', `<${second}`);
		await server.keys('Enter');
		text = await server.waitForScreen(t => t.includes('page 1 · started before') && settled(t));
		expect(selectedRow(text)).toBe(first);

		// Empty input: one sentence, the walk stays.
		await server.keys(':');
		await server.waitForScreen(t => t.includes(': jump'));
		await server.keys('Enter');
		text = await server.waitForScreen(t => t.includes('no id typed'));
		expect(text).toContain('page 1 · started before');

		// Back to the start, filter for page 3's first id, and n walks there.
		await server.keys('0');
		text = await server.waitForScreen(t => t.includes('page 1 · from the start') && settled(t));
		await server.keys('/');
		await server.keys('-l', third);
		await server.keys('Enter');
		await server.waitForScreen(t => t.includes('0 shown'));
		await server.keys('n');
		text = await server.waitForScreen(t => t.includes('match on page 3'));
		expect(text).toContain('page 3 · from the start');
		expect(selectedRow(text)).toBe(third);

		// n again: no later page holds it, and the search says so and stays.
		await server.keys('n');
		text = await server.waitForScreen(t => t.includes('no match for'));
		expect(text).toContain('page 3 · from the start');

		// Esc clears the filter; one for the first page's id, and N walks back to it.
		await server.keys('Escape');
		await server.waitForScreen(t => !t.includes('filter "'));
		await server.keys('/');
		await server.keys('-l', first);
		await server.keys('Enter');
		await server.keys('N');
		text = await server.waitForScreen(t => t.includes('match on page 1'));
		expect(selectedRow(text)).toBe(first);
	});
});
