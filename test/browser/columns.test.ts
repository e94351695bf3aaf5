/**
 * The default column choice, pure maths without React: which columns of the
 * sandbox's accounts and checkouts a terminal 60, 120 and 200 cells wide
 * shows, in what order and how wide; sideways scrolling; the user's choice.
 * Pages come from the sandbox over HTTP, as the browser gets them.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {rowsOf} from '../../source/browser/stack/cells.js';
import type {Row} from '../../source/browser/stack/cells.js';
import {formatHeader, formatRow, pickerItems, screenLayout} from '../../source/browser/view/table-layout.js';
import {chooseColumns, columnTraits, nameRank, orderColumns, parseColumnList, ranks} from '../../source/cells/column-order.js';
import {createClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import {displayWidth} from '../../source/text/text-width.js';
import {startSandbox} from '../../source/sandbox/index.js';
import type {Sandbox} from '../../source/sandbox/index.js';

let sandbox: Sandbox;
let accounts: Row[];
let checkouts: Row[];

async function firstPage(api: 'account' | 'commerce', endpoint: string, token: string, limit: number): Promise<Row[]> {
	const config = await resolveConfig({
		input: [endpoint],
		flags: {[api === 'account' ? 'baseUrl' : 'commerceUrl']: api === 'account' ? sandbox.accountUrl : sandbox.commerceUrl, limit: String(limit)},
		env: {[api === 'account' ? 'COINBASE_ACCESS_TOKEN' : 'COINBASE_COMMERCE_API_KEY']: token},
	});
	const client = createClient(config);
	try {
		return rowsOf((await client.fetchPage(client.firstUrl, {})).objects);
	} finally {
		await client.close();
	}
}

beforeAll(async () => {
	sandbox = await startSandbox({port: 0});
	accounts = await firstPage('account', 'accounts', sandbox.credentials.account.restricted, 25);
	checkouts = await firstPage('commerce', 'checkouts', sandbox.credentials.commerce.full, 25);
});

afterAll(async () => {
	await sandbox.close();
});

const shown = (rows: readonly Row[], width: number, offset = 0) => screenLayout(rows, width, undefined, {offset}).columns.map(column => column.path);
const widthOf = (rows: readonly Row[], width: number, path: string) => screenLayout(rows, width).columns.find(column => column.path === path)?.width;

describe('the default column choice', () => {
	it('accounts: names, balances and currency codes first; colours, URLs, resource types and constant columns last', () => {
		const order = orderColumns(accounts.map(row => row.cells));
		expect(order.slice(0, 6)).toEqual(['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at']);
		const position = (path: string) => order.indexOf(path);
		for (const late of ['currency.color', 'resource_path', 'resource', 'currency.sort_index', 'currency.asset_id', 'currency.address_regex', 'primary']) {
			expect(position(late), late).toBeGreaterThan(position('updated_at'));
		}

		// Always false on this page: says nothing about a row.
		expect(order.at(-1) === 'primary' || order.slice(-6).includes('primary')).toBe(true);
		// The same text as currency.code on every row.
		expect(position('balance.currency')).toBeGreaterThan(position('currency.color'));
	});

	it('accounts at 60, 120 and 200 columns', () => {
		expect(shown(accounts, 60)).toEqual(['id', 'name']);
		expect(shown(accounts, 120)).toEqual(['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at']);
		// currency.sort_index's whole name does not fit at 200: the column is left out, not cut (docs/browser.md).
		expect(shown(accounts, 200)).toEqual([
			'id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at', 'currency.name', 'currency.type', 'updated_at', 'currency.color',
		]);
		expect(shown(accounts, 210)).toEqual([...shown(accounts, 200), 'currency.sort_index']);
		// The timestamp whole (its order is in its last digits), the id whole.
		expect(widthOf(accounts, 120, 'created_at')).toBe(20);
		expect(widthOf(accounts, 200, 'created_at')).toBe(20);
		expect(widthOf(accounts, 60, 'id')).toBe(36);
		for (const width of [60, 120, 200]) {
			const {columns} = screenLayout(accounts, width);
			expect(displayWidth(formatHeader(columns))).toBeLessThanOrEqual(width);
			for (const row of accounts) {
				expect(displayWidth(formatRow(row.cells, columns, true))).toBeLessThanOrEqual(width);
			}
		}
	});

	it('checkouts at 60, 120 and 200 columns', () => {
		expect(shown(checkouts, 60)).toEqual(['id', 'name']);
		expect(shown(checkouts, 120)).toEqual(['id', 'name', 'local_price.amount', 'local_price.currency', 'pricing_type']);
		expect(shown(checkouts, 200).slice(0, 7)).toEqual(['id', 'name', 'local_price.amount', 'local_price.currency', 'pricing_type', 'created_at', 'description']);
		expect(widthOf(checkouts, 200, 'created_at')).toBe(20);
		// Free text keeps a readable width rather than twelve cells.
		expect(widthOf(checkouts, 200, 'description')).toBeGreaterThanOrEqual(24);
		expect(shown(checkouts, 200)).not.toContain('resource');
	});

	it('right-aligns numbers and amounts, numeric strings and JSON numbers alike', () => {
		const {columns} = screenLayout(accounts, 210);
		expect(columns.find(column => column.path === 'balance.amount')?.align).toBe('right');
		expect(columns.find(column => column.path === 'currency.sort_index')?.align).toBe('right');
		expect(columns.find(column => column.path === 'name')?.align).toBeUndefined();
		expect(columns.find(column => column.path === 'id')?.align).toBeUndefined();
		const line = formatRow(accounts[0]!.cells, columns, false);
		const header = formatHeader(columns);
		// The amount ends where its header ends.
		const amount = accounts[0]!.cells.get('balance.amount')!;
		expect(line.indexOf(amount) + amount.length).toBe(header.indexOf('balance.amount') + 'balance.amount'.length);
	});

	it('ranks by name and by what the page holds', () => {
		expect(nameRank('id')).toBe(ranks.id);
		expect(nameRank('title')).toBe(ranks.name);
		expect(nameRank('local_price.amount')).toBe(ranks.amount);
		expect(nameRank('pricing.settlement.currency')).toBe(ranks.currency);
		expect(nameRank('status')).toBe(ranks.status);
		expect(nameRank('hosted_url')).toBe(ranks.decorative);
		const rows = [new Map([['a', '#FFAA00'], ['b', 'https://x.test/1'], ['n', '12'], ['t', '2026-01-01T00:00:00Z']]), new Map([['a', '#000000'], ['b', 'http://x.test/2'], ['n', '-1.5e3'], ['t', '2026-01-02T00:00:00Z']])];
		expect(columnTraits(rows, 'a')).toEqual({numeric: false, timestamp: false, decorative: true});
		expect(columnTraits(rows, 'b').decorative).toBe(true);
		expect(columnTraits(rows, 'n')).toEqual({numeric: true, timestamp: false, decorative: false});
		expect(columnTraits(rows, 't').timestamp).toBe(true);
		expect(orderColumns(rows)).toEqual(['id', 'n', 't', 'a', 'b']);
	});
});

describe('scrolling sideways', () => {
	it('keeps the id pinned and reaches every column of the page', () => {
		const all = orderColumns(accounts.map(row => row.cells));
		const reached = new Set<string>();
		for (let offset = 0; offset < all.length; offset++) {
			const paths = shown(accounts, 120, offset);
			expect(paths[0]).toBe('id');
			expect(paths[1]).toBe(all[Math.min(offset, all.length - 2) + 1]);
			for (const path of paths) {
				reached.add(path);
			}
		}

		expect([...reached].sort()).toEqual([...all].sort());
		// Past the end: the last column stays beside the id.
		expect(shown(accounts, 120, 999)).toEqual(['id', all.at(-1)]);
	});
});

describe('a choice of columns', () => {
	it('puts the chosen columns first, leaves out hidden ones, keeps the id pinned, skips names not on the page', () => {
		const cells = accounts.map(row => row.cells);
		const paths = chooseColumns(cells, {order: ['created_at', 'no.such.field', 'name'], hidden: ['balance.amount']});
		expect(paths.slice(0, 3)).toEqual(['id', 'created_at', 'name']);
		expect(paths).not.toContain('balance.amount');
		expect(paths).not.toContain('no.such.field');
		expect(chooseColumns(cells, {order: ['name', 'created_at'], only: true})).toEqual(['id', 'name', 'created_at']);
		expect(screenLayout(accounts, 120, undefined, {choice: {order: ['created_at'], only: true}}).columns.map(column => column.path)).toEqual(['id', 'created_at']);
	});

	it('the picker lists every column, hidden ones in place', () => {
		const items = pickerItems(accounts, {order: ['id', 'created_at', 'name'], hidden: ['name']});
		expect(items.slice(0, 3)).toEqual([{path: 'id', shown: true}, {path: 'created_at', shown: true}, {path: 'name', shown: false}]);
		expect(items).toHaveLength(orderColumns(accounts.map(row => row.cells)).length);
	});

	it('--columns: names separated by commas; an empty name or one given twice is refused in a sentence', () => {
		expect(parseColumnList('id, name,balance.amount')).toEqual(['id', 'name', 'balance.amount']);
		expect(parseColumnList(undefined)).toBeUndefined();
		expect(() => parseColumnList('id,,name')).toThrow(/--columns takes column names separated by commas.*has an empty one\.$/);
		expect(() => parseColumnList('name,name')).toThrow(/--columns names 'name' twice; give each column once\.$/);
	});
});
