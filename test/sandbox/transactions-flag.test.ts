/**
 * `--transactions N` (SandboxOptions.transactionsPerAccount): a
 * sized load, every account exactly N transactions, served as any list of
 * an account is; a number out of range is refused before anything listens.
 */
import {expect, it} from 'vitest';
import {startSandbox} from '../../source/sandbox/index.js';
import {authHeaders, get, listUrl} from './helpers.js';

it('every account has exactly N transactions, served whole through the API', async () => {
	const sandbox = await startSandbox({records: 6, transactionsPerAccount: 130, keyFiles: false});
	try {
		for (const id of sandbox.store.ids('accounts')) {
			expect(sandbox.store.transactionIds(id)).toHaveLength(130);
		}

		const id = sandbox.store.ids('accounts')[2]!;
		const reply = await get(listUrl(sandbox, 'account', 'limit=100', `/v2/accounts/${id}/transactions`), authHeaders(sandbox, 'account'));
		expect(reply.status).toBe(200);
		expect(reply.body.data).toHaveLength(100);
		expect(reply.body.pagination.next_uri).toMatch(/starting_after=/);
	} finally {
		await sandbox.close();
	}
});

it('refuses a number that is not a whole number from 0 to the records\' maximum', async () => {
	await expect(startSandbox({transactionsPerAccount: -1, keyFiles: false})).rejects.toThrow('transactionsPerAccount must be a whole number from 0 to 1000000; got -1.');
});
