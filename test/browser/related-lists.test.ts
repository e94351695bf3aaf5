import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {childLists, listName, objectLabel, relatedLists, safeResourcePath, walkBase} from '../../source/browser/related/related-lists.js';

const base = {origin: 'https://api.example.com', prefix: ''};
const account = {id: 'a1', name: 'BTC Wallet', resource: 'account', resource_path: '/v2/accounts/a1'};

describe('related lists', () => {
	it('offers the account API\'s lists of an account, in the table\'s order, under its resource_path', () => {
		const lists = relatedLists(account, base, 'account');
		expect(lists.map(list => list.name)).toEqual(['transactions', 'addresses', 'deposits', 'withdrawals', 'buys', 'sells']);
		expect(lists[0]).toEqual({
			name: 'transactions',
			url: 'https://api.example.com/v2/accounts/a1/transactions',
			path: '/v2/accounts/a1/transactions',
			pattern: '/v2/accounts/:id/transactions',
		});
		expect(childLists.get('account')).toHaveLength(6);
	});

	it('offers none where the API has no links between lists, or the resource is not in the table', () => {
		expect(relatedLists({...account}, base, 'commerce')).toEqual([]);
		expect(relatedLists({id: 'c1', resource: 'checkout', resource_path: '/checkouts/c1'}, base, 'account')).toEqual([]);
		expect(relatedLists({id: 't1', resource: 'transaction', resource_path: '/v2/accounts/a1/transactions/t1'}, base, 'account')).toEqual([]);
		expect(relatedLists({id: 'a1', resource: 'account'}, base, 'account')).toEqual([]);
		expect(relatedLists({id: 'a1', resource_path: '/v2/accounts/a1'}, base, 'account')).toEqual([]);
		// Inherited names are no resource kinds.
		expect(relatedLists({id: 'a1', resource: 'constructor', resource_path: '/v2/accounts/a1'}, base, 'account')).toEqual([]);
	});

	it('puts the base\'s path prefix in front, as the account API\'s links get it', () => {
		const proxied = {origin: 'https://proxy.example', prefix: '/coinbase'};
		expect(relatedLists(account, proxied, 'account')[1]).toMatchObject({url: 'https://proxy.example/coinbase/v2/accounts/a1/addresses', path: '/v2/accounts/a1/addresses'});
		const already = relatedLists({...account, resource_path: '/coinbase/v2/accounts/a1'}, proxied, 'account');
		expect(already[0]).toMatchObject({url: 'https://proxy.example/coinbase/v2/accounts/a1/transactions', path: '/v2/accounts/a1/transactions', pattern: '/v2/accounts/:id/transactions'});
	});

	it.each([
		'//evil.example/v2/accounts/a1',
		'/\\evil.example/a1',
		'https://evil.example/v2/accounts/a1',
		'v2/accounts/a1',
		'/v2/accounts/../../admin',
		'/v2/accounts/%2e%2e/admin',
		'/v2/accounts/%2E',
		'/v2/accounts/a1%2f..%2fx',
		'/v2/accounts/a1%5cx',
		'/v2/accounts/a1?limit=1',
		'/v2/accounts/a1#x',
		'/v2/accounts/a1/',
		'/v2//accounts',
		'/v2/accounts/a\u001B[31m',
		'/v2/accounts/a%00',
		'/v2/accounts/a%1b',
		'/v2/accounts/é',
		'/v2/accounts/a 1',
		'/v2/accounts/%zz',
		'',
		'/',
		`/${'a'.repeat(600)}`,
	])('refuses the resource_path %j', (path) => {
		expect(safeResourcePath(path)).toBeUndefined();
		expect(relatedLists({...account, resource_path: path}, base, 'account')).toEqual([]);
	});

	it('refuses what is no string', () => {
		for (const value of [null, 1, ['/v2/accounts/a1'], {toString: () => '/v2/accounts/a1'}]) {
			expect(safeResourcePath(value)).toBeUndefined();
		}
	});

	it('never leaves the base\'s origin nor its prefix, whatever the server writes', () => {
		const proxied = {origin: 'http://127.0.0.1:4010', prefix: '/p'};
		fc.assert(fc.property(fc.oneof(fc.string(), fc.webPath(), fc.webUrl(), fc.string().map(text => `/v2/accounts/${text}`)), (path) => {
			for (const list of relatedLists({...account, resource_path: path}, proxied, 'account')) {
				const url = new URL(list.url);
				expect(url.origin).toBe(proxied.origin);
				expect(url.pathname.startsWith('/p/')).toBe(true);
				expect(url.href).toBe(list.url);
				expect(url.search).toBe('');
			}
		}), {numRuns: 500});
	});

	it('finds the base of a walk from its start URL and endpoint', () => {
		expect(walkBase('http://127.0.0.1:4010/v2/accounts?limit=25', '/v2/accounts')).toEqual({origin: 'http://127.0.0.1:4010', prefix: ''});
		expect(walkBase('https://proxy.example/coinbase/v2/accounts', '/v2/accounts')).toEqual({origin: 'https://proxy.example', prefix: '/coinbase'});
		expect(walkBase('https://api.example.com/v2/other', '/v2/accounts')).toEqual({origin: 'https://api.example.com', prefix: ''});
	});

	it('labels an object by its name, else its id, cut to a width and inert', () => {
		expect(objectLabel(account)).toBe('BTC Wallet');
		expect(objectLabel({id: 'a1', name: ''})).toBe('a1');
		expect(objectLabel({id: 'a1', name: null})).toBe('a1');
		expect(objectLabel({id: 'a1', name: 'Evil \u001B]52;c;x\u0007 name'})).not.toMatch(/\p{Cc}/u);
		expect(objectLabel({id: 'a1', name: '旅行の貯金'.repeat(10)}, 10)).toBe('旅行の貯…');
		expect(objectLabel({id: 'a1', name: 'x'.repeat(1_000_000)})).toHaveLength(24);
		expect(listName('/v2/accounts')).toBe('accounts');
		expect(listName('/v2/accounts/a1/transactions')).toBe('transactions');
		expect(listName('/checkouts/')).toBe('checkouts');
	});
});
