import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, selectedRow, TmuxServer} from './support/tmux.js';

/**
 * Related lists in a real terminal (see support/tmux.ts): Enter on a row
 * shows its related lists, Enter opens the first (an account's transactions)
 * with the breadcrumb in the status line, Backspace returns to the very row.
 */

const server = new TmuxServer('related');

afterAll(removeBuiltCli);

describe('related lists in a real terminal (tmux)', () => {
	beforeAll(() => {
		requireTmux();
		builtCli();
	});

	afterAll(() => {
		server.kill();
	});

	it('Enter, Enter opens transactions with a breadcrumb; Backspace returns to the same row', async () => {
		server.start('related');
		let text = await server.waitForScreen(t => t.includes('page 1 ·') && t.includes('more pages follow'));
		await server.keys('j', 'j');
		text = await server.waitForScreen(t => /row 3\//.test(t));
		const row = selectedRow(text);

		await server.keys('Enter');
		text = await server.waitForScreen(t => t.includes('related: [transactions] addresses deposits withdrawals buys sells'));
		expect(text).toContain('object 3 of');

		await server.keys('Enter');
		text = await server.waitForScreen(t => /account accounts › .+ › transactions · page 1 · from the start/.test(t) && !t.includes('loading'));
		expect(text).not.toContain('related:');

		await server.keys('BSpace');
		text = await server.waitForScreen(t => t.includes('account /v2/accounts · page 1 ·') && /row 3\//.test(t));
		expect(selectedRow(text)).toBe(row);
		expect(text).not.toContain('› transactions');

		await server.keys('q');
		await server.waitForScreen(t => t.includes('AFTER rc=0'));
	});
});
