/**
 * What the docs claim about the sandbox, checked against the sandbox itself:
 * the demo's page sizes quoted in the README are the ones it serves, and the
 * figures of the accounts' transactions are the ones it holds.
 */
import {readFileSync} from 'node:fs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {defaultLongTail, startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {heldObjectLimit} from '../../source/sandbox/data/store.js';
import {authHeaders, get} from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
	// The demo's sandbox: the defaults, the restricted credential.
	sandbox = await startSandbox({});
});
afterAll(async () => {
	await sandbox.close();
});

describe('docs/sandbox.md on the sandbox', () => {
	it('quotes the demo\'s first page sizes (desc, limit 25, restricted) as the sandbox serves them', async () => {
		const readme = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8').replaceAll(/\s+/g, ' ');
		const quoted = /Default demo pages in `desc` at limit 25 hold ([\d, *]+), … objects/.exec(readme);
		expect(quoted, 'docs/sandbox.md no longer quotes the demo page sizes; update this test with it').not.toBeNull();
		const claimed = quoted![1]!.replaceAll('*', '').split(',').map(size => Number(size.trim())).filter(size => !Number.isNaN(size));
		const sizes: number[] = [];
		let url: string | null = `${sandbox.accountUrl}/v2/accounts?limit=25`;
		while (url !== null && sizes.length < claimed.length) {
			// eslint-disable-next-line no-await-in-loop -- each page's link is in the one before
			const reply = await get(url, authHeaders(sandbox, 'account', 'restricted'));
			sizes.push((reply.body.data as unknown[]).length);
			url = reply.body.pagination.next_uri === null ? null : new URL(reply.body.pagination.next_uri as string, sandbox.accountUrl).href;
		}

		expect(sizes).toEqual(claimed);
	});

	it('gives the default accounts\' transactions as the sandbox holds them', () => {
		const text = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8').replaceAll(/\s+/g, ' ');
		const number = (figure: string) => Number(figure.replaceAll(',', ''));
		const shape = /to N \(default ([\d,]+)\)/.exec(text);
		const figures = /With the defaults: (\d+) accounts, ([\d,]+) transactions, (\d+) accounts with none, (\d+) with over 1,000, the longest ([\d,]+)\. The restricted credential sees (\d+) of the accounts and, of their transactions, ([\d,]+),/.exec(text);
		const held = /held, up to ([\d,]+) objects in all/.exec(text);
		expect(shape && figures && held, 'docs/sandbox.md no longer gives the transactions\' figures; update this test with it').toBeTruthy();
		expect(number(shape![1]!)).toBe(defaultLongTail);
		expect(number(held![1]!)).toBe(heldObjectLimit);
		const {store} = sandbox;
		const accounts = store.ids('accounts');
		const counts = accounts.map(account => store.transactionIds(account)!.length);
		const visible = store.ids('accounts', {viewer: 'restricted'});
		const restricted = visible.reduce((sum, account) => sum + store.transactionIds(account)!.length - store.hiddenTransactionIds(account)!.length, 0);
		expect(figures!.slice(1).map(number)).toEqual([
			accounts.length,
			counts.reduce((sum, count) => sum + count, 0),
			counts.filter(count => count === 0).length,
			counts.filter(count => count > 1000).length,
			Math.max(...counts),
			visible.length,
			restricted,
		]);
	});
});
