/**
 * docs/browser.md: a column is shown with its whole name or not at all, the
 * sort arrow beside the name, never in its place. Checked on the sandbox's
 * own pages (accounts, checkouts, charges), at terminal widths from narrow
 * to very wide, at every sideways scroll, unsorted and sorted both ways.
 */
import stringWidth from 'string-width';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {rowsOf} from '../../source/browser/stack/cells.js';
import type {Row} from '../../source/browser/stack/cells.js';
import {formatHeader, markerWidth, screenLayout} from '../../source/browser/view/table-layout.js';
import {gap, maximumWidth} from '../../source/cells/table-layout.js';
import {startSandbox} from '../../source/sandbox/index.js';
import type {Sandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl} from '../sandbox/helpers.js';
import type {Api} from '../sandbox/helpers.js';

const widths = [40, 52, 60, 80, 100, 120, 160, 200, 300];
const lists: Array<[Api, string]> = [['account', '/v2/accounts'], ['commerce', '/checkouts'], ['commerce', '/charges']];
let sandbox: Sandbox;
const pages = new Map<string, Row[]>();

beforeAll(async () => {
	sandbox = await startSandbox({keyFiles: false});
	for (const [api, path] of lists) {
		// eslint-disable-next-line no-await-in-loop -- three small pages, one after another
		const reply = await get(listUrl(sandbox, api, 'limit=25', path), authHeaders(sandbox, api));
		pages.set(path, rowsOf(reply.body.data as Array<Record<string, unknown>>));
	}
});
afterAll(async () => {
	await sandbox.close();
});

describe('a header cell holds its column\'s whole name, or the column is not shown', () => {
	for (const [, path] of lists) {
		it(`${path}, at ${widths.join(', ')} columns, every scroll, sorted or not`, () => {
			const rows = pages.get(path)!;
			let checked = 0;
			for (const width of widths) {
				for (let offset = 0; ; offset++) {
					const layout = screenLayout(rows, width, undefined, {offset});
					const full = markerWidth + layout.columns.reduce((sum, column) => sum + column.width, 0) + gap * (layout.columns.length - 1);
					// `s` sorts by the leftmost column after the id.
					const sorted = layout.columns[1]?.path;
					const sorts = [null, ...(sorted === undefined ? [] : (['ascending', 'descending'] as const).map(direction => ({path: sorted, direction})))];
					for (const sort of sorts) {
						const header = formatHeader(layout.columns, sort);
						const where = `${path} at ${width} columns, scrolled ${offset}, sorted ${sort ? `${sort.path} ${sort.direction}` : 'not'}: ${JSON.stringify(header)}`;
						// The sandbox's names hold no blank and are shorter than the widest column.
						expect(header.replaceAll(/[▲▼]/g, ' ').trim().split(/ +/), where).toEqual(layout.columns.map(column => column.path));
						expect(stringWidth(header), where).toBe(full);
						if (sort) {
							expect(header, where).toContain(`${sort.direction === 'ascending' ? '▲' : '▼'}${sort.path}`);
						}

						checked++;
					}

					if (layout.hiddenPaths.length === 0 || offset > rows[0]!.cells.size) {
						break;
					}
				}
			}

			expect(checked).toBeGreaterThan(widths.length);
			expect(Math.max(...[...rows[0]!.cells.keys()].map(name => name.length))).toBeLessThan(maximumWidth);
		});
	}

	it('a name wider than the widest column is the one name cut, to that width', () => {
		const long = `metadata.${'n'.repeat(maximumWidth)}`;
		const rows = rowsOf([{id: 'a1', [long]: 'x', note: 'y'}]);
		const layout = screenLayout(rows, 200);
		expect(layout.columns.map(column => [column.path, column.width])).toEqual([['id', 2], [long, maximumWidth], ['note', 4]]);
		expect(formatHeader(layout.columns)).toBe(`  id  ${long.slice(0, maximumWidth - 1)}…  note`);
	});
});
