/**
 * The screen at 60x15 and at 200x50, drawn by Ink from the real sandbox: a
 * narrow terminal leaves out whole segments, the least needed first, and
 * keeps the keys (`Q quit`, how a pane closes) and the limit; nothing it
 * keeps is cut mid-text.
 */
import {describe, expect, it} from 'vitest';
import {keys, renderApp} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {displayWidth} from '../../source/text/text-width.js';

const fixture = sandboxBrowser();
// A vitest fixture (beforeAll and afterAll), not a React hook, whatever its name says.
// eslint-disable-next-line react-hooks/rules-of-hooks -- not a React hook
const faulty = useFaultyServer();

const lines = (frame: string) => frame.split('\n');

async function browseFull(size: {columns: number; rows: number}) {
	// The full credential: page 1 is full, so the message line is the keys' hint.
	return fixture.browse({size, token: fixture.sandbox().credentials.account.full});
}

describe('at 60x15', () => {
	it('the status lines keep the limit and Q quit, leave out whole segments, and fit', async () => {
		const app = await browseFull({columns: 60, rows: 15});
		const frame = await app.waitFor(text => text.includes('page 1 ') && text.includes('more pages follow'));
		const shown = lines(frame);
		expect(shown.at(-4)).toBe('account /v2/accounts · page 1 · desc · limit 25 · seen 25');
		expect(shown.at(-3)).toBe('row 1/25 · 25/25 · more pages follow · cols 1–2 of 21 (< >)');
		expect(shown.at(-1)).toBe('? help · ← → pages · Enter detail · Esc back · Q quit');
		for (const line of shown) {
			expect(displayWidth(line)).toBeLessThanOrEqual(60);
		}
	});

	it('why a page is short (or a note) is wrapped to its end, not cut mid-text', async () => {
		// The restricted credential: page 1 is short, and the message line says why.
		const app = await fixture.browse({size: {columns: 60, rows: 15}});
		const frame = await app.waitFor(text => text.includes('page 1 ') && text.includes('list continues.'));
		const shown = lines(frame);
		expect(shown.slice(-2).join(' ')).toMatch(/^\d+ of 25: fewer than limit: permissions or access level; the list continues\.$/);
		expect(shown.at(-3)).toMatch(/^fill /);
		expect(shown).toHaveLength(14);
	});

	it('a pane\'s title keeps how it closes, wrap off and scrolled sideways', async () => {
		const app = await browseFull({columns: 60, rows: 15});
		await app.waitFor(text => text.includes('page 1 '));
		await app.press('d', 'z', '>');
		const frame = await app.waitFor(text => text.includes('from cell 9'));
		expect(lines(frame)[0]).toBe('debug: request an… · wrap off, from cell 9 · q or Esc closes');
		// Wrapping is the browser's, not the pane's: still off in the detail view.
		await app.press(keys.escape, keys.enter);
		const detail = await app.waitFor(text => text.includes('wrap off') && text.startsWith('object'));
		expect(lines(detail)[0]).toMatch(/^object 1 of 25 · (lines \d+–\d+ of \d+ · )?wrap off · q or Esc closes$/);
	});
});

describe('an error banner at 60x15', () => {
	it('wraps a long error to its end, taking rows from the table, never cut mid-text', async () => {
		// A sign-in page answering for the API: one of the longest sentences pagewalk says.
		const app = await renderApp({baseUrl: faulty().base('html-login'), token: 'token', size: {columns: 60, rows: 15}});
		try {
			const frame = await app.waitFor(text => text.includes(' error: '));
			const shown = lines(frame);
			const first = shown.findIndex(line => line.startsWith(' error: '));
			const banner = shown.slice(first).map(line => line.trim()).join(' ');
			expect(banner).toMatch(/^error: http:\/\/127\.0\.0\.1:\d+ answered 200 with an HTML page titled "Sign in – Example SSO", not the account API's JSON: .* then run again\.$/);
			expect(banner).not.toContain('…');
			expect(shown.slice(first).length).toBeGreaterThan(4);
			expect(shown).toHaveLength(14);
		} finally {
			await app.close();
		}
	});
});

describe('at 200x50', () => {
	it('everything is said, whole', async () => {
		const app = await browseFull({columns: 200, rows: 50});
		const frame = await app.waitFor(text => text.includes('page 1 ') && / \d+ ms$/m.test(text));
		const shown = lines(frame);
		expect(shown.at(-4)).toMatch(/^account \/v2\/accounts · page 1 · from the start · desc · limit 25 · seen 25 · \d+ ms$/);
		expect(shown.at(-3)).toMatch(/^row 1\/25 · 25\/25 · more pages follow · cols 1–\d+ of 21 \(< >\) · total\/yielded not provided$/);
		expect(shown.at(-1)).toBe('? help · ← → pages · Enter detail · d debug · Esc back · Q quit');
		await app.press('d');
		const pane = await app.waitFor(text => text.startsWith('debug'));
		expect(lines(pane)[0]).toBe('debug: request and response · q or Esc closes');
	});
});
