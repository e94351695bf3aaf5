import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {helpLines} from '../../source/browser/keys/keymap.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import stringWidth from 'string-width';
import {keys, renderApp} from './support/render-app.js';
import {hostile, startTestServer, type TestServer} from './support/servers.js';

let sandbox: Sandbox;
let server: TestServer;
let open: Array<{close(): Promise<void>}> = [];

// The sandbox is only read; the test server holds per-test state (failing, requests): one each.
beforeAll(async () => {
	sandbox = await startSandbox({port: 0});
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(async () => {
	idWidth = 0;
	server = await startTestServer();
});

afterEach(async () => {
	await Promise.all(open.map(async app => app.close()));
	open = [];
	await server.close();
});

const size = {columns: 80, rows: 16};

async function browse(options: Partial<Parameters<typeof renderApp>[0]> = {}) {
	const app = await renderApp({baseUrl: sandbox.accountUrl, token: sandbox.credentials.account.restricted, size, ...options});
	open.push(app);
	const waitFor = app.waitFor;
	// Every frame that shows a table sets the id column width the assertions use.
	app.waitFor = async predicate => {
		const frame = await waitFor(predicate);
		if (frame.startsWith('  id ')) {
			readIdWidth(frame);
		}

		return frame;
	};

	return app;
}

/** The frame's lines with timings made stable: "12 ms", or "1.3 s" on a slow machine. */
function lines(frame: string): string[] {
	return frame.split('\n').map(line => line.replace(/\b(?:\d+ ms|\d+\.\d s)\b/, 'N ms').trimEnd());
}

/** What the restricted credential sees on each page of `limit` in `order`: the server scans `limit` objects per page. */
function expectedPages(limit: number, order: 'asc' | 'desc' = 'desc'): string[][] {
	const visible = new Set(sandbox.store.ids('accounts', {viewer: 'restricted'}));
	const all = sandbox.store.ids('accounts', {order});
	const pages: string[][] = [];
	for (let start = 0; start < all.length; start += limit) {
		pages.push(all.slice(start, start + limit).filter(id => visible.has(id)));
	}

	return pages;
}

/** The id cell as the table draws it: cut to the id column's width, read from the header. */
let idWidth = 0;
function idCell(id: string): string {
	return id.length <= idWidth ? id : `${id.slice(0, idWidth - 1)}…`;
}

function readIdWidth(frame: string): void {
	const header = lines(frame)[0]!;
	const second = /^ {2}id +(\S)/.exec(header);
	idWidth = second ? second[0].length - 1 - 2 - 2 : 36;
}

/** Id cells of the table rows in the frame, in order. */
function rowIds(frame: string): string[] {
	return lines(frame)
		.slice(1)
		.map(line => /^[› ] ([\da-f]{8}-[\da-f-]{3,27}(?:…|[\da-f]))(?: |$)/.exec(line)?.[1])
		.filter((cell): cell is string => cell !== undefined);
}

describe('<App> on the sandbox', () => {
	it('shows the first page, its columns fitted to the width, and a status line that does not call a short page the end', async () => {
		const app = await browse();
		const frame = await app.waitFor(f => f.includes('more pages follow'));
		const page = expectedPages(25)[0]!;
		expect(page.length).toBeLessThan(25);
		const shown = lines(frame);
		// The fields people read first (names, then amounts, right-aligned), not the always-false primary.
		expect(shown[0]).toBe(`  id${' '.repeat(36)}name         balance.amount`);
		expect(shown[1]).toMatch(new RegExp(`^› ${idCell(page[0]!)}  DOGE Wallet +\\d+\\.\\d{8}$`));
		expect(rowIds(frame)).toEqual(page.slice(0, 10).map(idCell));
		// At 80 columns the lines leave out what is least needed (the latency, what the API does not report), whole segments only.
		expect(shown.slice(-4)).toEqual([
			`account /v2/accounts · page 1 · from the start · desc · limit 25 · seen ${page.length}`,
			expect.stringMatching(new RegExp(`^row 1/${page.length} · ${page.length}/25 short · more pages follow · cols 1–\\d+ of 21 \\(< >\\)$`)),
			// The fill strip: one page so far, short; the note says why it may be short.
			'fill ▆ · 1 short · 0 empty',
			`${page.length} of 25: fewer than limit: permissions or access level; the list continues.`,
		]);
		// Never taller than the terminal, one line to spare.
		expect(shown).toHaveLength(size.rows - 1);
	});

	it('walks forward and back: → pushes the next page, ← returns to the cached one with its selection, 0 goes to the first', async () => {
		const app = await browse();
		const pages = expectedPages(25);
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j', keys.down);
		let frame = await app.waitFor(f => f.includes(`› ${idCell(pages[0]![2]!)}`));
		await app.press(keys.right);
		frame = await app.waitFor(f => f.includes('page 2 '));
		expect(rowIds(frame)[0]).toBe(idCell(pages[1]![0]!));
		// At 80 columns the latency at the end of the line is left out.
		expect(lines(frame).at(-4)).toBe(`account /v2/accounts · page 2 · from the start · desc · limit 25 · seen ${pages[0]!.length + pages[1]!.length}`);
		await app.press('l');
		await app.waitFor(f => f.includes('page 3 '));
		await app.press(keys.left, 'h');
		frame = await app.waitFor(f => f.includes('page 1 '));
		expect(frame).toContain(`› ${idCell(pages[0]![2]!)}`);
		await app.press(']', ']', '0');
		frame = await app.waitFor(f => f.includes('page 1 ') && f.includes(`› ${idCell(pages[0]![2]!)}`));
		await app.press('0');
		frame = await app.waitFor(f => f.includes('already on the first page'));
	});

	it('keys pressed while pages load are neither lost nor misapplied', async () => {
		const app = await browse({limit: 5});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.right, keys.right, keys.right, 'j');
		const pages = expectedPages(5);
		const frame = await app.waitFor(f => f.includes('page 4 '));
		const withRows = pages[3]!.length > 1;
		expect(frame).toContain(withRows ? `› ${idCell(pages[3]![1]!)}` : 'page 4');
	});

	it('o flips the order in place: the selected object stays selected and on screen, the walk starts at it, o again comes back to it', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.right);
		await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		await app.press('j', 'j');
		let frame = await app.waitFor(f => /^› /m.test(f) && f.includes('row 3/'));
		const chosen = /^› (\S+)/m.exec(frame)![1]!;
		await app.press('o');
		frame = await app.waitFor(f => / · asc\b/.test(f) && !f.includes('loading') && f.includes('new walk started at'));
		expect(/^› (\S+)/m.exec(frame)![1]).toBe(chosen);
		// The message line, wrapped at 80 columns after the fill strip: read whole.
		const message = lines(frame).slice(lines(frame).findIndex(line => line.startsWith('fill ')) + 1).join(' ');
		expect(message).toMatch(new RegExp(`^order asc: new walk started at ${chosen.replace('…', '')}\\S* \\(0: from the first page\\)$`));
		await app.press('o');
		frame = await app.waitFor(f => / · desc\b/.test(f) && !f.includes('loading') && f.includes('new walk started at'));
		expect(/^› (\S+)/m.exec(frame)![1]).toBe(chosen);
		// 0 then starts the new order from its first page.
		await app.press('o');
		await app.waitFor(f => / · asc\b/.test(f) && !f.includes('loading'));
		await app.press('0');
		frame = await app.waitFor(f => f.includes('page 1 · from the start · asc') && !f.includes('loading'));
		const page = expectedPages(25, 'asc')[0]!;
		expect(rowIds(frame)).toEqual(page.slice(0, 10).map(idCell));
	});

	it('+, - and L change the limit and start a new walk', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('limit 25 '));
		await app.press('+');
		let frame = await app.waitFor(f => f.includes('limit 30 ') && !f.includes('loading'));
		expect(lines(frame).at(-1)).toBe('limit 30: new walk from the first page');
		await app.press('-', '-');
		await app.waitFor(f => f.includes('limit 20 ') && !f.includes('loading'));
		await app.press('L', '7');
		frame = await app.waitFor(f => f.includes('limit (0–100), Enter applies: 7'));
		await app.press(keys.enter);
		frame = await app.waitFor(f => f.includes('limit 7 ') && f.includes('/7'));
		const page = expectedPages(7)[0]!;
		expect(lines(frame).at(-3)).toMatch(new RegExp(`^row 1/${page.length} · ${page.length}/7${page.length < 7 ? ' short' : ''} · more pages follow`));
	});

	it('Enter shows the selected object as JSON, scrollable; Esc returns to the table', async () => {
		const app = await browse();
		const id = expectedPages(25)[0]![1]!;
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j', keys.enter);
		let frame = await app.waitFor(f => f.includes('object 2 of'));
		let shown = lines(frame);
		expect(shown[0]).toMatch(/^object 2 of \d+ · lines 1–\d+ of \d+ · q or Esc closes$/);
		// An account's related lists come first (see related.test.tsx), then its JSON.
		expect(shown.slice(1, 4)).toEqual(['related: [transactions] addresses deposits withdrawals buys sells  (← → Enter)', '{', `  "id": "${id}",`]);
		await app.press(keys.down, keys.down, keys.down);
		frame = await app.waitFor(f => f.includes('lines 4–'));
		shown = lines(frame);
		// The second row of the seed-1 sandbox's restricted first page.
		expect(shown[1]).toBe('  "name": "BTC Wallet",');
		await app.press(keys.escape);
		frame = await app.waitFor(f => f.startsWith('  id '));
		expect(frame).toContain(`› ${idCell(id)}`);
	});

	it('d shows the request with its credential redacted, the response and the raw pagination', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('d');
		const frame = await app.waitFor(f => f.includes('debug: request and response'));
		const shown = lines(frame);
		expect(shown[1]).toBe(`GET ${sandbox.accountUrl}/v2/accounts`);
		expect(frame).not.toContain(sandbox.credentials.account.restricted);
		expect(frame).toMatch(/Authorization: \S*redacted/i);
		expect(frame).toMatch(/status 200 · \d+ ms · 0 retries · [\d.]+ KiB · \d+ objects/);
		await app.press('G');
		const end = await app.waitFor(f => f.includes('"next_uri"'));
		expect(end).toContain('"previous_uri": null');
		await app.press(keys.escape);
		await app.waitFor(f => f.startsWith('  id '));
	});

	it('? shows help generated from the keymap', async () => {
		// Wide enough for the longest help line (a narrower pane wraps it), tall enough for all of them.
		const app = await browse({size: {columns: 200, rows: 60}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('?');
		const frame = await app.waitFor(f => f.startsWith('keys'));
		expect(lines(frame).slice(1, helpLines().length + 1)).toEqual(helpLines().map(line => line.trimEnd()));
		await app.press('?');
		await app.waitFor(f => f.startsWith('  id '));
	});

	it('/ filters the rows of the page as you type; Esc clears it', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'B', 'T', 'C');
		let frame = await app.waitFor(f => f.includes('/ filter rows: BTC'));
		const btc = lines(frame)
			.slice(1, -4)
			.filter(line => line.trim() !== '');
		expect(btc.length).toBeGreaterThan(0);
		for (const line of btc) {
			expect(line).toMatch(/BTC Wallet/);
		}

		await app.press(keys.enter);
		frame = await app.waitFor(f => f.includes('filter "BTC": '));
		// At 80 columns the row's position gives way (the marker shows it): what the filter lets through stays.
		expect(lines(frame).at(-3)).toMatch(new RegExp(`^\\d+/25 short · more pages follow · filter "BTC": ${btc.length} shown · cols 1–\\d+ of 21 \\(< >\\)$`));
		await app.press(keys.escape);
		frame = await app.waitFor(f => !f.includes('filter "BTC"'));
		expect(frame).toContain('DOGE Wallet');
	});

	it('shows commerce total and yielded', async () => {
		const app = await browse({baseUrl: sandbox.commerceUrl, token: sandbox.credentials.commerce.full, api: 'commerce', endpoint: 'checkouts', limit: 10});
		const frame = await app.waitFor(f => f.includes('page 1 '));
		expect(lines(frame).at(-4)).toMatch(/^commerce \/checkouts · page 1 · from the start · desc · limit 10 · seen 10( · N ms)?$/);
		// At 80 columns the row's position gives way to the totals and the columns shown.
		expect(lines(frame).at(-3)).toMatch(/^10\/10 · more pages follow · total \d+ · yielded 10 · cols 1–\d+ of \d+ \(< >\)$/);
	});

	it('an error shows in a banner, the page stays, and r retries', async () => {
		// Failing until told otherwise: the background prefetch of page 2 fails too.
		server.failing = true;
		const app = await browse({baseUrl: server.origin, token: 'test-token'});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.right);
		let frame = await app.waitFor(f => f.includes('error:'));
		const shown = lines(frame);
		// The banner wraps: it starts after the location, page and fill lines.
		expect(shown.find(line => line.startsWith(' error'))).toMatch(/^ error \(r: retry\): /);
		// The failure quoted server bytes: shown escaped, never raw.
		expect(frame).not.toContain('\u001B[31m');
		expect(shown.some(line => /^account .* · page 1 · /.test(line))).toBe(true);
		expect(frame).toContain('› hostile-1');
		server.failing = false;
		await app.press('r');
		frame = await app.waitFor(f => f.includes('page 2 '));
		expect(frame).toContain('w3');
		expect(frame).not.toContain('error:');
	});

	it('renders an object that attacks the terminal inert, in the table and in the detail view', async () => {
		const app = await browse({baseUrl: server.origin, token: 'test-token', size: {columns: 160, rows: 16}});
		let frame = await app.waitFor(f => f.includes('page 1 '));
		const raw = () => app.instance.lastFrame() ?? '';
		const row = lines(frame)[1]!;
		expect(row).toContain('clear\\x1b[2Jscreen');
		expect(row).toContain('\\x1b]52;c;ZWNobyBwd25lZA==\\x07');
		expect(row).toContain('abc\\u{202e}dcba');
		expect(row).toContain('ding\\x07');
		for (const bad of ['\u001B[2J', '\u001B]52', '\u202E', '\u0007']) {
			expect(raw()).not.toContain(bad);
		}

		await app.press(keys.enter);
		frame = await app.waitFor(f => f.includes('"bidi"'));
		expect(frame).toContain(String.raw`"bidi": "abc\u{202e}dcba",`);
		expect(frame).toContain(String.raw`"name": "clear\u001b[2Jscreen",`);
		for (const bad of ['\u001B[2J', '\u001B]52', '\u202E', '\u0007']) {
			expect(raw()).not.toContain(bad);
		}

		expect(hostile.name).toContain('\u001B');
	});

	it('keeps columns aligned with wide characters and emoji, cut with an ellipsis', async () => {
		/** Terminal cell at which `text` starts in `line`. */
		const cellOf = (line: string, text: string) => {
			const index = line.indexOf(text);
			expect(index, `${text} in ${line}`).toBeGreaterThanOrEqual(0);
			return stringWidth(line.slice(0, index));
		};

		let app = await browse({baseUrl: server.origin, token: 'test-token', size: {columns: 36, rows: 16}});
		let shown = lines(await app.waitFor(f => f.includes('page 1 ')));
		// Eleven two-cell characters and the ellipsis: 23 cells, never a split character.
		expect(shown[2]).toBe('  wide-1     日本語のウォレット名前…');
		expect(cellOf(shown[2]!, '日')).toBe(cellOf(shown[0]!, 'name'));
		expect(cellOf(shown[3]!, 'Wallet')).toBe(cellOf(shown[0]!, 'name'));

		app = await browse({baseUrl: server.origin, token: 'test-token', size: {columns: 200, rows: 16}});
		shown = lines(await app.waitFor(f => f.includes('page 1 ')));
		const header = shown[0]!;
		// Emoji take two cells each; the next column still starts where its header does.
		expect(cellOf(shown[2]!, '👍👍')).toBe(cellOf(header, 'balance.amount'));
		expect(cellOf(shown[2]!, 'JPY')).toBe(cellOf(header, 'balance.currency'));
		expect(cellOf(shown[3]!, 'BTC')).toBe(cellOf(header, 'balance.currency'));
		expect(shown[2]).toContain('日本語のウォレット名前です');
	});

	it('windows a page of 100 rows into the terminal height and keeps the selection visible', async () => {
		const app = await browse({token: sandbox.credentials.account.full, limit: 100});
		await app.waitFor(f => f.includes('100/100'));
		await app.press('G');
		const last = sandbox.store.ids('accounts')[99]!;
		const frame = await app.waitFor(f => f.includes(`› ${idCell(last)}`));
		expect(lines(frame)).toHaveLength(size.rows - 1);
		expect(lines(frame)[size.rows - 1 - 5]).toContain(`› ${idCell(last)}`);
	});

	it('re-fits columns and rows when the terminal is resized', async () => {
		const app = await browse();
		let frame = await app.waitFor(f => f.includes('page 1 '));
		expect(lines(frame)[0]).toBe(`  id${' '.repeat(36)}name         balance.amount`);
		app.resize({columns: 50, rows: 10});
		frame = await app.waitFor(f => lines(f).length === 9);
		expect(lines(frame)[0]).toBe(`  id${' '.repeat(19)}name         balance.amount`);
		for (const line of lines(frame)) {
			expect(line.length).toBeLessThanOrEqual(50);
		}

		app.resize({columns: 140, rows: 30});
		frame = await app.waitFor(f => lines(f).length === 29);
		expect(lines(frame)[0]!.length).toBeGreaterThan(100);
	});
});

describe('<App> explains short pages', () => {
	it('draws a fill strip of the pages walked, with short and empty pages counted', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		// The seed-1 restricted pages at limit 25: 17, 18, 20, then an empty one.
		for (const page of [2, 3, 4]) {
			// eslint-disable-next-line no-await-in-loop -- keys are pressed in order
			await app.press(keys.right);
			// eslint-disable-next-line no-await-in-loop -- each page is waited for before the next key
			await app.waitFor(f => f.includes(`page ${page} `));
		}

		let frame = await app.waitFor(f => f.includes('fill ▆▆▇· · 3 short · 1 empty'));
		expect(lines(frame).at(-1)).toBe('No objects: fewer than limit: permissions or access level; the list continues.');
		// ← goes back a page; the strip keeps every page this walk has walked.
		await app.press(keys.left);
		frame = await app.waitFor(f => f.includes('page 3 '));
		expect(frame).toContain('fill ▆▆▇· · 3 short · 1 empty');
	});

	it('the debug panel shows the cursor evidence: whether next_uri starts after the last object shown', async () => {
		const app = await browse({size: {columns: 120, rows: 40}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('d');
		let frame = await app.waitFor(f => f.includes('cursor evidence'));
		const cursorOf = (text: string) => /next_uri starting_after {2}(\S+)/.exec(text)?.[1];
		// Page 1's window ends on an object this credential sees.
		expect(cursorOf(frame)).toBe(expectedPages(25)[0]!.at(-1));
		expect(frame).toContain(', the last object shown.');
		// Page 4 is empty: its whole window was hidden, and the cursor is one of those objects.
		await app.press(keys.right, keys.right, keys.right);
		frame = await app.waitFor(f => f.includes('– (empty page)'));
		expect(sandbox.store.hiddenIds('accounts')).toContain(cursorOf(frame));
		expect(frame).toContain('but this page shows no object: the server scanned past');
	});

	it('c compares the page with a second credential: the ids only it sees are exactly the hidden ones', async () => {
		const app = await browse({compareToken: sandbox.credentials.account.full, size: {columns: 100, rows: 40}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('c');
		const frame = await app.waitFor(f => f.includes('only COMPARE_TOKEN'));
		expect(lines(frame)[0]).toMatch(/^compare: COINBASE_ACCESS_TOKEN against COMPARE_TOKEN/);
		// Each id with its object's name beside it.
		const onlyFull = [...frame.matchAll(/^· ✓ {2}(\S+) {2}\S.* {2}only COMPARE_TOKEN$/gm)].map(match => match[1]);
		const both = [...frame.matchAll(/^✓ ✓ {2}(\S+) {2}\S.*$/gm)].map(match => match[1]);
		const hidden = new Set(sandbox.store.hiddenIds('accounts'));
		const page = expectedPages(25)[0]!;
		expect(both).toEqual(page);
		expect(onlyFull.length).toBe(25 - page.length);
		expect(onlyFull.every(id => hidden.has(id!))).toBe(true);
		// Page keys keep the compare view open and compare the next page.
		await app.press(keys.right);
		await app.waitFor(f => f.includes('page 2 ') && f.startsWith('compare:') && f.includes('only COMPARE_TOKEN'));
	});

	it('c without a second credential says how to give one', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('c');
		await app.waitFor(f => f.includes('Start pagewalk with --compare-env NAME'));
	});
});
