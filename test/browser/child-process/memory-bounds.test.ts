/**
 * What the browser's state holds as a walk grows, asserted by structure, not
 * by timing: a child (support/stack-memory.ts) walks 100-object pages
 * through the page stack, each drawn as a table, then searches 300 pages on,
 * and reports after a garbage collection which pages still hold rows, which
 * pages the search loaded are still alive, and how many ids were copied into
 * new sets. Figures of the whole browser: bench:memory (docs/benchmarks.md).
 */
import {spawnSync} from 'node:child_process';
import process from 'node:process';
import {describe, expect, it} from 'vitest';
import {maxRowPages} from '../../../source/browser/stack/cells.js';

type Report = {
	walk: {entries: number; entriesWithPages: number; maxCachedPages: number; pagesWithRows: number; seen: number; idsCopied: number};
	search: {result: string; searched: number; entries: number; pagesLoadedAlive: number; seen: number; idsCopied: number};
};

function run(pages: number): Report {
	const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/browser/child-process/stack-memory.ts', String(pages)], {encoding: 'utf8', timeout: 60_000});
	expect(child.stderr).toBe('');
	return JSON.parse(child.stdout) as Report;
}

describe('memory held by the page stack, by design', () => {
	it('keeps rows for the last few pages drawn, data for the cached window, and no copy of the ids seen per page', () => {
		const {walk, search} = run(60);
		expect(walk.entries).toBe(60);
		expect(walk.entriesWithPages).toBeLessThanOrEqual(walk.maxCachedPages);
		// Rows take several times a page's data: only the pages drawn last keep them (re-derived on ←).
		expect(walk.pagesWithRows).toBeLessThanOrEqual(maxRowPages);
		// Each page adds its own ids to the walk's set: over the whole walk, fewer ids copied than seen.
		expect(walk.seen).toBe(6000);
		expect(walk.idsCopied).toBeLessThan(walk.seen);
		// The search keeps the pages it passed as URLs: only the page it stopped on is alive, and it grew the same set.
		expect(search).toMatchObject({result: 'bound', searched: 300, entries: 360, seen: 36_000});
		expect(search.pagesLoadedAlive).toBeLessThanOrEqual(1);
		expect(search.idsCopied).toBeLessThan(walk.seen);
	});
});
