/**
 * Columns and wide text in the running browser (ink-testing-library, the
 * sandbox over HTTP): the default columns at 60, 120 and 200 cells, sideways
 * scrolling with < > and Shift-arrows, the column picker (toggle, reorder,
 * remembered through the app's save callback) and the panes' wrap toggle.
 */
import {describe, expect, it, vi} from 'vitest';
import type {ColumnChoice} from '../../source/cells/column-order.js';
import {patience} from '../support/patience.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

const fixture = sandboxBrowser({size: {columns: 120, rows: 16}});
const browse = fixture.browse.bind(fixture);

/** The table header's column names, in order. */
const header = (frame: string) => frame.split('\n')[0]!.trim().split(/ {2,}/);

describe('default columns in the browser', () => {
	it('shows the fields people read at 60, 120, 200 and 210 cells', async () => {
		const expected: Array<[number, string[]]> = [
			[60, ['id', 'name']],
			[120, ['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at']],
			// A column whose whole name does not fit is left out (docs/browser.md), not shown with its name cut...
			[200, ['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at', 'currency.name', 'currency.type', 'updated_at', 'currency.color']],
			// ... and shown whole where it fits.
			[210, ['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at', 'currency.name', 'currency.type', 'updated_at', 'currency.color', 'currency.sort_index']],
		];
		for (const [columns, names] of expected) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const app = await browse({size: {columns, rows: 16}});
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const frame = await app.waitFor(f => f.includes('page 1 '));
			expect(header(frame), `${columns} cells`).toEqual(names);
			expect(frame, `${columns} cells`).toContain(`cols 1–${names.length} of 21`);
			if (columns >= 120) {
				// A whole timestamp in the first row.
				expect(frame.split('\n')[1]).toMatch(/ \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
			}
		}
	});
});

describe('scrolling sideways', () => {
	it('> and Shift-→ scroll the columns with the id pinned, < and Shift-← back; the status line says which are shown', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('cols 1–6 of 21'));
		await app.press('>');
		let frame = await app.waitFor(f => f.includes('cols 3–'));
		expect(header(frame).slice(0, 2)).toEqual(['id', 'balance.amount']);
		await app.press(keys.shiftRight);
		frame = await app.waitFor(f => f.includes('cols 4–'));
		expect(header(frame).slice(0, 2)).toEqual(['id', 'currency.code']);
		// Every column can be reached: the last one ends beside the id.
		await app.press(...Array.from({length: 30}, () => '>'));
		frame = await app.waitFor(f => /cols \d+–21 of 21/.test(f) && header(f).length === 2);
		expect(header(frame)[0]).toBe('id');
		await app.press(keys.shiftLeft, '<');
		await app.waitFor(f => f.includes('cols 19–'));
	});
});

describe('the column picker', () => {
	it('C lists every column; Space hides, J moves down, Enter applies and the choice is saved; Esc cancels', async () => {
		const saved: ColumnChoice[] = [];
		const app = await browse({columns: {save: choice => saved.push(choice)}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('C');
		let frame = await app.waitFor(f => f.startsWith('columns:'));
		expect(frame).toContain('› [x] id  (pinned)');
		expect(frame).toContain('  [x] name');
		// Hide name; move balance.amount below currency.code.
		await app.press('j', ' ', 'j', 'J');
		frame = await app.waitFor(f => f.includes('› [x] balance.amount') && f.indexOf('currency.code') < f.indexOf('balance.amount'));
		expect(frame).toContain('  [ ] name');
		await app.press(keys.enter);
		frame = await app.waitFor(f => f.startsWith('  id '));
		expect(header(frame).slice(0, 4)).toEqual(['id', 'currency.code', 'balance.amount', 'type']);
		// Saved from an effect, after the frame.
		await vi.waitFor(() => {
			expect(saved).toHaveLength(1);
		}, {timeout: patience});
		expect(saved[0]!.order.slice(0, 4)).toEqual(['id', 'name', 'currency.code', 'balance.amount']);
		expect(saved[0]!.hidden).toEqual(['name']);
		// The picker shows the choice in place; Esc leaves it as it was, and nothing more is saved.
		await app.press('C');
		frame = await app.waitFor(f => f.startsWith('columns:'));
		expect(frame).toContain('  [ ] name');
		await app.press('j', ' ', keys.escape);
		frame = await app.waitFor(f => f.startsWith('  id '));
		expect(header(frame)).not.toContain('name');
		await app.press('C');
		await app.waitFor(f => f.startsWith('columns:'));
		await app.press('q');
		await app.waitFor(f => f.startsWith('  id '));
		expect(saved).toHaveLength(1);
	});

	it('r in the picker goes back to the default columns and forgets the choice (an empty one is saved)', async () => {
		const saved: ColumnChoice[] = [];
		const app = await browse({columns: {initial: {order: ['created_at', 'name'], hidden: ['balance.amount']}, save: choice => saved.push(choice)}});
		let frame = await app.waitFor(f => f.includes('page 1 '));
		const chosen = header(frame);
		expect(chosen.slice(0, 3)).toEqual(['id', 'created_at', 'name']);
		await app.press('C');
		frame = await app.waitFor(f => f.startsWith('columns:'));
		expect(frame.split('\n')[0]).toContain('r defaults');
		await app.press('r');
		frame = await app.waitFor(f => f.startsWith('  id ') && header(f)[1] === 'name');
		expect(header(frame)).toEqual(['id', 'name', 'balance.amount', 'currency.code', 'type', 'created_at']);
		await vi.waitFor(() => {
			expect(saved).toEqual([{order: [], hidden: []}]);
		});
	});

	it('starts from the columns given (--columns or remembered), the id pinned', async () => {
		const app = await browse({columns: {initial: {order: ['created_at', 'name'], only: true}}});
		const frame = await app.waitFor(f => f.includes('page 1 '));
		expect(header(frame)).toEqual(['id', 'created_at', 'name']);
	});
});

describe('wrapping in text panes', () => {
	it('wraps long lines by default; z turns wrapping off, and > scrolls the pane sideways', async () => {
		const app = await browse({size: {columns: 60, rows: 40}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.enter);
		let frame = await app.waitFor(f => f.includes('"address_regex"'));
		const regexLine = frame.split('\n').findIndex(line => line.includes('"address_regex"'));
		// The regex does not fit beside its key: it goes on the next row (wrapped between words), never cut with an ellipsis.
		expect(frame.split('\n')[regexLine]!.endsWith('…')).toBe(false);
		expect(frame.split('\n')[regexLine + 1]).toMatch(/^"\^/);
		expect(frame.split('\n')[regexLine + 1]).not.toMatch(/^ {4}"/);
		await app.press('z');
		frame = await app.waitFor(f => f.includes('wrap off'));
		const cut = frame.split('\n').find(line => line.includes('"address_regex"'))!;
		expect(cut.endsWith('…')).toBe(true);
		await app.press('>');
		frame = await app.waitFor(f => f.includes('from cell 9'));
		expect(frame).toContain('"address_regex"'.slice(4));
		await app.press('z');
		await app.waitFor(f => !f.includes('wrap off'));
	});
});

describe('--columns naming a column the page does not have', () => {
	it('is said in the status line with the closest column, not silently dropped', async () => {
		const app = await fixture.browse({size: {columns: 200, rows: 16}, columns: {initial: {order: ['id', 'nme'], typed: true}}});
		const frame = await app.waitFor(text => text.includes('page 1 '));
		expect(frame).toContain('no column \'nme\' here, did you mean \'name\'?');
	});

	it('a remembered choice (the picker\'s, naming what an earlier page had) is not a column asked for: no warning', async () => {
		const app = await fixture.browse({size: {columns: 200, rows: 16}, columns: {initial: {order: ['id', 'name', 'currency.retired_at'], hidden: []}}});
		const frame = await app.waitFor(text => text.includes('page 1 '));
		expect(frame).not.toContain('no column');
	});
});

describe('the filter reads every column, and says where the text is when it is off screen', () => {
	it('a row let through by a column off screen is counted, with the column named; once the column is on screen, nothing is added', async () => {
		const app = await browse({size: {columns: 120, rows: 24}});
		await app.waitFor(f => f.includes('cols 1–6 of 21'));
		// currency.name (Bitcoin) is off screen at 120 cells; the rows on screen say BTC.
		await app.press('/', ...'bitcoin', keys.enter);
		let frame = await app.waitFor(f => f.includes('filter "bitcoin": '));
		expect(frame).toMatch(/filter "bitcoin": (\d+) shown \(\1 matched only in hidden columns? currency\.name/);
		// Hidden in the picker is hidden too: with name hidden, the fiat accounts (type fiat, named "… Wallet") match there only.
		await app.press(keys.escape, 'C', 'j', ' ', keys.enter, '/', ...'wallet', keys.enter);
		frame = await app.waitFor(f => f.includes('filter "wallet": '));
		const fiat = frame.split('\n').filter(line => / fiat /.test(line)).length;
		expect(fiat).toBeGreaterThan(0);
		expect(frame).toContain(`shown (${fiat} matched only in hidden column name)`);
		// With name hidden, currency.name has come on screen: the match is in sight, nothing to say.
		await app.press(keys.escape, '/', ...'bitcoin', keys.enter);
		frame = await app.waitFor(f => f.includes('filter "bitcoin": ') && header(f).includes('currency.name'));
		expect(frame).not.toContain('matched only in hidden');
	});
});
