import {beforeAll, describe, expect, it} from 'vitest';
import type {LoadPage} from '../../source/browser/search/search-pages.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

/**
 * Jump to a cursor (`:`) and search across pages (`n`, `N`) in the app,
 * against the sandbox: the status line says where a walk started, what a
 * search is looking at, and how it ended. A request is held (really made,
 * only later) where a test needs to see the search in the middle.
 */

const fixture = sandboxBrowser({size: {columns: 160, rows: 16}, limit: 10});
let pageIds: string[][] = [];

beforeAll(async () => {
	const sandbox = fixture.sandbox();
	let next: string | null = '/v2/accounts?limit=10&order=desc';
	pageIds = [];
	while (next) {
		// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
		const response = await fetch(`${sandbox.accountUrl}${next}`, {headers: {authorization: `Bearer ${sandbox.credentials.account.full}`}});
		// eslint-disable-next-line no-await-in-loop -- the body of that same page
		const body = (await response.json()) as {data: Array<{id: string}>; pagination: {next_uri: string | null}};
		pageIds.push(body.data.map(object => object.id));
		next = body.pagination.next_uri;
	}
});

async function browse(options: Parameters<typeof fixture.browse>[0] = {}) {
	const app = await fixture.browse({token: fixture.sandbox().credentials.account.full, ...options});
	await app.waitFor(f => f.includes('page 1 ·') && f.includes('more pages follow'));
	return app;
}

/** Holds the request for page `n` of the list until `release()`; an abort (Esc) ends the wait. */
function holding(n: number) {
	const cursor = `starting_after=${pageIds[n - 2]!.at(-1)!}`;
	let release: () => void = () => undefined;
	const released = new Promise<void>(resolve => {
		release = resolve;
	});
	const wrapLoad = (load: LoadPage): LoadPage => async (url, options) => {
		if (url.includes(cursor)) {
			await new Promise<void>((resolve, reject) => {
				void released.then(resolve);
				options.signal.addEventListener('abort', () => {
					reject(new Error('aborted'));
				}, {once: true});
			});
		}

		return load(url, options);
	};

	return {wrapLoad, release: () => release()};
}

/** The id in the selected row (the one with ›). */
function selectedId(frame: string): string | undefined {
	return /^› (\S+)/m.exec(frame)?.[1];
}

describe(': jumps to a cursor', () => {
	it('an id starts a new walk after it; <id before it; the status line says which', async () => {
		const app = await browse();
		const after = pageIds[2]![4]!;
		await app.press(':');
		await app.waitFor(f => f.includes(': jump (id: after it, <id: before it):'));
		await app.press(after, keys.enter);
		let frame = await app.waitFor(f => f.includes('page 1 · started after') && !f.includes('loading'));
		expect(selectedId(frame)).toBe(pageIds[2]![5]);
		expect(frame).toContain('jump: a new walk after that id (0 returns to the start)');

		const before = pageIds[4]![0]!;
		await app.press(':', `<${before}`, keys.enter);
		frame = await app.waitFor(f => f.includes('page 1 · started before') && !f.includes('loading'));
		// The ten objects just before it: page 4 of the list.
		expect(selectedId(frame)).toBe(pageIds[3]![0]);
		await app.press(keys.right);
		frame = await app.waitFor(f => f.includes('page 2 · started before'));
		expect(selectedId(frame)).toBe(before);
	});

	it('empty or malformed input is one sentence and the page stays', async () => {
		const app = await browse();
		await app.press(':', keys.enter);
		let frame = await app.waitFor(f => f.includes('no id typed'));
		expect(frame).toContain('page 1 · from the start');
		expect(selectedId(frame)).toBe(pageIds[0]![0]);
		await app.press(':', 'two ids', keys.enter);
		frame = await app.waitFor(f => f.includes('not an id: press : and type one id, without spaces'));
		expect(selectedId(frame)).toBe(pageIds[0]![0]);
	});

	it('a cursor the server does not know is one sentence over the page still shown', async () => {
		const app = await browse();
		await app.press(keys.right);
		await app.waitFor(f => f.includes('page 2 ·') && !f.includes('loading'));
		await app.press(':', '00000000-0000-4000-8000-00000000beef', keys.enter);
		const frame = await app.waitFor(f => f.includes('jump failed'));
		expect(frame).toContain('jump failed, the page stays (: tries another id)');
		expect(frame).toContain('400');
		// The advice is about the id typed, not about flags the user never gave.
		expect(frame).not.toContain('query flags');
		expect(frame).toContain('page 2 · from the start');
		expect(selectedId(frame)).toBe(pageIds[1]![0]);
	});

	it('the id typed is drawn inert', async () => {
		const app = await browse();
		await app.press(':', 'a\u001B[2Jb');
		const frame = await app.waitFor(f => f.includes(': jump'));
		expect(frame).not.toContain('\u001B[2J');
	});
});

describe('n and N search across pages', () => {
	it('n with no filter says to type / first', async () => {
		const app = await browse();
		await app.press('n');
		const frame = await app.waitFor(f => f.includes('nothing to search for'));
		expect(frame).toContain('press / and type a filter first');
	});

	it('n walks to the page holding a match several pages on, showing progress, and lands there', async () => {
		const target = pageIds[5]![3]!;
		const hold = holding(4);
		const app = await browse({wrapLoad: hold.wrapLoad});
		await app.press('/', target, keys.enter);
		await app.waitFor(f => f.includes(`filter "${target}": 0 shown`));
		await app.press('n');
		await app.waitFor(f => f.includes('searching page 4… (Esc cancels)'));
		hold.release();
		const frame = await app.waitFor(f => f.includes('match on page 6'));
		expect(frame).toContain('match on page 6 (5 pages searched; ← walks back)');
		expect(frame).toContain('page 6 · from the start');
		expect(selectedId(frame)).toBe(target);
		// ← goes back through the pages passed (fetched again).
		await app.press(keys.escape, keys.left);
		const back = await app.waitFor(f => f.includes('page 5 ·') && !f.includes('loading'));
		expect(selectedId(back)).toBe(pageIds[4]![0]);
	});

	it('Esc stops the search on the page reached', async () => {
		const hold = holding(5);
		const app = await browse({wrapLoad: hold.wrapLoad});
		await app.press('/', 'zz-matches-nothing', keys.enter);
		await app.press('n');
		await app.waitFor(f => f.includes('searching page 5… (Esc cancels)'));
		await app.press(keys.escape);
		const frame = await app.waitFor(f => f.includes('search stopped (Esc)'));
		expect(frame).toContain('search stopped (Esc) after 3 pages with no match: n goes on from here');
		expect(frame).toContain('page 4 · from the start');
		// The filter stays: Esc stopped the search, it did not clear the filter.
		expect(frame).toContain('filter "zz-matches-nothing"');
	});

	it('says so when the list ends with no match, with the pages searched, and stays', async () => {
		const app = await browse();
		await app.press('/', 'zz-matches-nothing', keys.enter, 'n');
		const frame = await app.waitFor(f => f.includes('no match for'));
		expect(frame).toContain('no match for "zz-matches-nothing" in the 29 pages after this one: the list ends there');
		expect(frame).toContain('page 1 · from the start');
	});

	it('stops at --max-pages', async () => {
		const app = await browse({bounds: {maxPages: 3, maxItems: null}});
		await app.press('/', 'zz-matches-nothing', keys.enter, 'n');
		const frame = await app.waitFor(f => f.includes('no match for'));
		expect(frame).toContain('no match for "zz-matches-nothing" in 2 pages: stopped at --max-pages 3 (the list goes on)');
		expect(frame).toContain('page 3 · from the start');
	});

	it('N walks back to the previous page holding a match', async () => {
		const app = await browse();
		const target = pageIds[1]![7]!;
		await app.press(keys.right, keys.right, keys.right);
		await app.waitFor(f => f.includes('page 4 ·') && !f.includes('loading'));
		await app.press('/', target, keys.enter, 'N');
		const frame = await app.waitFor(f => f.includes('match on page 2'));
		expect(frame).toContain('page 2 · from the start');
		expect(selectedId(frame)).toBe(target);
	});
});
