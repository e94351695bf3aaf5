/**
 * Related lists against the sandbox, through the real client: Enter on a row,
 * Enter on a related list, a walk in the child, Backspace back to the parent
 * as it was; short pages of the restricted credential in the child; a list
 * the sandbox does not serve is one sentence and Backspace still returns.
 */
import {describe, expect, it, vi} from 'vitest';
import type {ColumnChoice} from '../../source/cells/column-order.js';
import {visibleRows} from '../../source/browser/stack/cells.js';
import {objectLabel} from '../../source/browser/related/related-lists.js';
import type {ListObject} from '../../source/contract/types.js';
import {keys, type renderApp} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

const size = {columns: 120, rows: 16};
const fixture = sandboxBrowser({size});
const sandbox = () => fixture.sandbox();

async function browse(viewer: 'full' | 'restricted', columns?: Parameters<typeof renderApp>[0]['columns']) {
	return fixture.browse({token: sandbox().credentials.account[viewer], columns});
}

async function getJson(path: string, viewer: 'full' | 'restricted'): Promise<{data: ListObject[]; pagination: {next_uri: string | null}}> {
	const response = await fetch(`${sandbox().accountUrl}${path}`, {headers: {authorization: `Bearer ${sandbox().credentials.account[viewer]}`, 'cb-version': '2024-05-01'}});
	return response.json() as Promise<{data: ListObject[]; pagination: {next_uri: string | null}}>;
}

/** The status line's location line: the one naming the API. */
function location(frame: string): string {
	return frame.split('\n').find(line => line.startsWith('account '))!;
}

describe('related lists in the browser', () => {
	it('Enter, Enter opens an account\'s transactions as a new walk; Backspace returns to the same page, row and filter', async () => {
		const accounts = (await getJson('/v2/accounts?limit=25&order=desc', 'full')).data;
		const rows = visibleRows(accounts, 'Wallet');
		// The row whose account has the most transactions: more than a page of them.
		const counts = rows.map(row => sandbox().store.transactionIds(String(row.object['id']))!.length);
		const index = counts.indexOf(Math.max(...counts));
		const target = rows[index]!.object;
		const transactions = sandbox().store.transactionIds(String(target['id']))!;
		expect(transactions.length).toBeGreaterThan(25);

		const app = await browse('full');
		await app.waitFor(f => f.includes('page 1 ') && f.includes('more pages follow'));
		await app.press('/', ...'Wallet', keys.enter, ...Array.from({length: index}, () => 'j'));
		await app.waitFor(f => f.includes(`row ${index + 1}/${rows.length}`) && f.includes('filter "Wallet"'));

		await app.press(keys.enter);
		let frame = await app.waitFor(f => f.includes('related: [transactions] addresses deposits withdrawals buys sells'));
		expect(frame).toContain(`"id": "${String(target['id'])}"`);

		await app.press(keys.enter);
		const crumb = `accounts › ${objectLabel(target)} › transactions`;
		frame = await app.waitFor(f => f.includes(crumb) && f.includes('page 1 ') && f.includes('more pages follow'));
		// A new walk: its own first page, in the browser's order and limit, no filter.
		expect(location(frame)).toMatch(new RegExp(`^account ${crumb} · page 1 · from the start · desc · limit 25 · seen 25`));
		expect(frame).not.toContain('filter "Wallet"');
		expect(frame).toContain(transactions[0]!.slice(0, 8));

		// A page in the child, then back.
		await app.press(keys.right);
		frame = await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		expect(frame).toContain(transactions[25]!.slice(0, 8));

		await app.press(keys.backspace);
		frame = await app.waitFor(f => location(f)?.startsWith('account /v2/accounts · page 1 '));
		expect(frame).toContain(`row ${index + 1}/${rows.length}`);
		expect(frame).toContain('filter "Wallet"');
		expect(frame).not.toContain('›  transactions');
		// The same object is still the selected one.
		await app.press(keys.enter);
		frame = await app.waitFor(f => f.includes(`object ${index + 1} of ${rows.length}`));
		expect(frame).toContain(`"id": "${String(target['id'])}"`);
	});

	it('Esc and q go back from a related list as Backspace does, a filter in it first; neither quits', async () => {
		const app = await browse('full');
		await app.waitFor(f => f.includes('page 1 ') && f.includes('more pages follow'));
		for (const back of [keys.escape, 'q']) {
			// eslint-disable-next-line no-await-in-loop -- one way back after the other, in order
			await app.press(keys.enter, keys.enter);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			await app.waitFor(f => f.includes(' › transactions') && f.includes('page 1 ') && !f.includes('loading'));
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			await app.press('/', '0', keys.enter);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			await app.waitFor(f => f.includes('filter "0"'));
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			await app.press(back);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			let frame = await app.waitFor(f => !f.includes('filter "0"'));
			expect(location(frame)).toContain(' › transactions');
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			await app.press(back);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before
			frame = await app.waitFor(f => location(f)?.startsWith('account /v2/accounts · page 1 '));
			expect(frame).toContain('row 1/');
		}
	});

	it('→ in the detail chooses addresses; they open with their own breadcrumb', async () => {
		const accounts = (await getJson('/v2/accounts?limit=25&order=desc', 'full')).data;
		const index = accounts.findIndex(account => (sandbox().store.addressIds(account.id)?.length ?? 0) > 0);
		const target = accounts[index]!;
		const addresses = sandbox().store.addressIds(target.id)!;
		const app = await browse('full');
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(...Array.from({length: index}, () => 'j'), keys.enter, keys.right);
		await app.waitFor(f => f.includes('related: transactions [addresses] deposits'));
		await app.press(keys.enter);
		const frame = await app.waitFor(f => f.includes(`accounts › ${objectLabel(target)} › addresses`) && f.includes('page 1 ') && !f.includes('loading'));
		expect(frame).toContain(addresses[0]!.slice(0, 8));
		expect(frame).toMatch(addresses.length > 25 ? /more pages follow/ : /end of list/);
	});

	it('columns chosen in a related list are saved under its pattern and used for the next list of its kind', async () => {
		const accounts = (await getJson('/v2/accounts?limit=25&order=desc', 'full')).data;
		const [first, second] = accounts.flatMap((account, index) => ((sandbox().store.transactionIds(account.id)?.length ?? 0) > 0 ? [index] : []));
		const save = vi.fn<(choice: ColumnChoice, endpoint?: string) => void>();
		const app = await browse('full', {save, remembered: {}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(...Array.from({length: first!}, () => 'j'), keys.enter, keys.enter);
		let frame = await app.waitFor(f => f.includes('› transactions') && f.includes('page 1 ') && !f.includes('loading') && f.includes('type'));
		// Hide the second column (the first after the pinned id) in the picker.
		await app.press('C', 'j', ' ', keys.enter);
		await app.waitFor(() => save.mock.calls.length === 1);
		const [choice, endpoint] = save.mock.calls[0]!;
		expect(endpoint).toBe('/v2/accounts/:id/transactions');
		const hidden = choice.hidden![0]!;
		await app.press(keys.backspace);
		frame = await app.waitFor(f => f.includes('account /v2/accounts · page 1 '));
		await app.press(...Array.from({length: second! - first!}, () => 'j'), keys.enter, keys.enter);
		frame = await app.waitFor(f => f.includes('› transactions') && f.includes('page 1 ') && !f.includes('loading') && !f.includes('this page is empty'));
		// The picker of this other account's transactions starts from the choice made in the first.
		await app.press('C');
		frame = await app.waitFor(f => f.startsWith('columns:'));
		expect(frame).toContain(`[ ] ${hidden}`);
		await app.press(keys.escape);
		// Nothing saved for the accounts list on the way back.
		expect(save).toHaveBeenCalledTimes(1);
	});

	it('a choice made in the parent and one in a related list are saved once each: returning to the parent saves nothing again', async () => {
		const accounts = (await getJson('/v2/accounts?limit=25&order=desc', 'full')).data;
		const first = accounts.findIndex(account => (sandbox().store.transactionIds(account.id)?.length ?? 0) > 0);
		const save = vi.fn<(choice: ColumnChoice, endpoint?: string) => void>();
		const app = await browse('full', {save, remembered: {}});
		await app.waitFor(f => f.includes('page 1 '));
		// A choice for the accounts list, then one for an account's transactions.
		await app.press('C', 'j', ' ', keys.enter);
		await app.waitFor(() => save.mock.calls.length === 1);
		expect(save.mock.calls[0]![1]).toBeUndefined();
		await app.press(...Array.from({length: first}, () => 'j'), keys.enter, keys.enter);
		await app.waitFor(f => f.includes('› transactions') && f.includes('page 1 ') && !f.includes('loading') && f.includes('type'));
		await app.press('C', 'j', ' ', keys.enter);
		await app.waitFor(() => save.mock.calls.length === 2);
		expect(save.mock.calls[1]![1]).toBe('/v2/accounts/:id/transactions');
		// Back to the accounts list, whose own choice comes back with it.
		await app.press(keys.backspace);
		await app.waitFor(f => f.includes('account /v2/accounts · page 1 '));
		await app.press('j');
		await app.waitFor(f => f.includes('account /v2/accounts · page 1 '));
		expect(save).toHaveBeenCalledTimes(2);
	});

	it('the restricted credential sees short pages in the child, and the walk goes on past them', async () => {
		const accounts = (await getJson('/v2/accounts?limit=25&order=desc', 'restricted')).data;
		let index = -1;
		for (const [position, account] of accounts.entries()) {
			// eslint-disable-next-line no-await-in-loop -- one account after another, until one fits
			const page = await getJson(`/v2/accounts/${account.id}/transactions?limit=25&order=desc`, 'restricted');
			if (page.data.length < 25 && page.pagination.next_uri !== null) {
				index = position;
				break;
			}
		}

		expect(index).toBeGreaterThanOrEqual(0);
		const target = accounts[index]!;
		const app = await browse('restricted');
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(...Array.from({length: index}, () => 'j'), keys.enter, keys.enter);
		const frame = await app.waitFor(f => f.includes(`› ${objectLabel(target)} › transactions`) && f.includes('page 1 ') && f.includes('more pages follow'));
		expect(frame).toMatch(/\d+\/25 short · more pages follow/);
		await app.press(keys.right);
		await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		await app.press(keys.backspace);
		await app.waitFor(f => location(f)?.startsWith('account /v2/accounts · page 1 ') && f.includes(`row ${index + 1}/${accounts.length}`));
	});

	it('a related list the sandbox does not serve is one sentence, and Backspace still returns', async () => {
		const app = await browse('restricted');
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j', keys.enter, keys.right, keys.right);
		await app.waitFor(f => f.includes('related: transactions addresses [deposits]'));
		await app.press(keys.enter);
		const frame = await app.waitFor(f => f.includes('› deposits') && /error/.test(f));
		const banner = frame.split('\n').filter(line => line.startsWith(' error'));
		expect(banner.length).toBeGreaterThan(0);
		expect(frame).toContain('404');
		expect(frame).not.toMatch(/\bat .+:\d+:\d+/);
		await app.press(keys.backspace);
		await app.waitFor(f => location(f)?.startsWith('account /v2/accounts · page 1 ') && f.includes('row 2/'));
	});
});
