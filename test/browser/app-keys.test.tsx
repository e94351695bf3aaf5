import {describe, expect, it} from 'vitest';
import {withChalkLevel} from './support/chalk-level.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

/**
 * Keys as terminals deliver them: several in one read (key repeat over ssh or
 * tmux, a paste), each of which must count, in order, in the table and in
 * every prompt; and q or Esc closing every overlay.
 */

const fixture = sandboxBrowser({size: {columns: 100, rows: 16}});
const browse = fixture.browse.bind(fixture);

/** The index of the selected row among the table's rows. */
function selectedIndex(frame: string): number {
	return frame.split('\n').slice(1).findIndex(line => line.startsWith('›'));
}

/** The status line's fill chart: one mark per page on the stack (`fill ▇▂█ · 2 short`). */
function fillMarks(frame: string): number {
	return [...(/^fill (\S+) ·/m.exec(frame)?.[1] ?? '')].length;
}

describe('every key of a chunk counts', () => {
	it('jjj in one read moves three rows, and kk two back', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('jjj');
		let frame = await app.waitFor(f => selectedIndex(f) === 3);
		// The status line's count agrees with the highlighted row.
		expect(frame).toContain('row 4/');
		await app.press('kk');
		frame = await app.waitFor(f => selectedIndex(f) === 1);
		expect(frame).toContain('row 2/');
	});

	it('arrows in one read each count', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.down + keys.down + keys.down + keys.up);
		const frame = await app.waitFor(f => selectedIndex(f) === 2);
		expect(frame).toContain('row 3/');
	});

	it('a pasted 100 then Enter in the L prompt sets limit 100, and a pasted filter filters', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('L');
		await app.press('100');
		await app.waitFor(f => f.includes('Enter applies: 100'));
		await app.press(keys.enter);
		await app.waitFor(f => f.includes('limit 100 ') && !f.includes('loading'));
		await app.press('/', 'Wallet' + keys.enter);
		const frame = await app.waitFor(f => f.includes('filter "Wallet"'));
		expect(frame).not.toContain('/ filter rows');
	});

	it('a limit typed after L that the contract does not allow is shown as typed and refused by name; the walk stays', async () => {
		const app = await browse({size: {columns: 160, rows: 16}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('L', '-1');
		// The - is typed, not dropped (-1 applied 1 before).
		await app.waitFor(f => f.includes('Enter applies: -1'));
		await app.press(keys.enter);
		let frame = await app.waitFor(f => f.includes('limit stays'));
		expect(frame).toContain('-1 is not a whole number from 0 to 100: limit stays 25');
		await app.press('L', '101\r');
		frame = await app.waitFor(f => f.includes('101 is over'));
		expect(frame).toContain('101 is over the most, 100: limit stays 25');
		expect(frame).toContain('limit 25 ');
		expect(frame).not.toContain('loading');
	});

	it('limit 0 shows the limit the server reports, and why', async () => {
		const app = await browse({size: {columns: 160, rows: 16}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('L', '0\r');
		const frame = await app.waitFor(f => f.includes('(sent 0; server default)') && !f.includes('loading'));
		expect(frame).toContain('limit 25 (sent 0; server default)');
		expect(frame).not.toContain('contract:');
	});

	it('a chunk with a digit string and Enter applies the limit in one read', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('L', '7\r');
		await app.waitFor(f => f.includes('limit 7 ') && !f.includes('loading'));
	});

	it('lllll in one read reaches page 6, each page loaded in turn', async () => {
		const app = await browse({limit: 5});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('lllll');
		const frame = await app.waitFor(f => f.includes('page 6 ') && !f.includes('loading'));
		// Every page on the way is on the stack: none was skipped.
		expect(fillMarks(frame)).toBe(6);
	});
});

describe('← in a chunk of → counts as one step back', () => {
	// Each case from the first page: the page every key of the chunk leads to.
	for (const [chunk, page] of [['lllh', 3], ['llllh', 4], ['lllhh', 2], ['lhll', 3]] as const) {
		it(`${chunk} in one read ends on page ${page}`, async () => {
			const app = await browse({limit: 5});
			await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
			await app.press(chunk);
			// Still loading, not the note that a ← stopped a load ("stopped loading the next page").
			const frame = await app.waitFor(f => f.includes(`page ${page} `) && !/(?<!stopped )loading (the )?(next )?page/.test(f));
			// ← took the pages above off the stack: it holds pages 1 to ${page}, no more.
			expect(fillMarks(frame)).toBe(page);
		});
	}
});

describe('Esc followed by keys in one write', () => {
	it('Esc / b i t c o i n Enter clears the filter, then types a new one, not btcbitcoin', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'btc', keys.enter);
		await app.waitFor(f => f.includes('filter "btc"'));
		await app.press('\u001B/bitcoin\r');
		const frame = await app.waitFor(f => f.includes('filter "bitcoin"'));
		expect(frame).not.toContain('btcbitcoin');
	});

	it('Esc j and Esc ? in one write: the filter cleared, then the key', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'Wallet', keys.enter);
		await app.waitFor(f => f.includes('filter "Wallet"'));
		await app.press('\u001Bj');
		await app.waitFor(f => !f.includes('filter "Wallet"') && f.includes('row 2/'));
		await app.press('\u001B?');
		await app.waitFor(f => f.startsWith('keys'));
	});

	it('Esc Enter in one write: the filter cleared, then the selected object opened', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'Wallet', keys.enter);
		await app.waitFor(f => f.includes('filter "Wallet"'));
		await app.press('\u001B\r');
		await app.waitFor(f => f.startsWith('object 1 of'));
		await app.press(keys.escape);
		const frame = await app.waitFor(f => f.startsWith('  id '));
		expect(frame).not.toContain('filter "Wallet"');
	});

	it('Esc Backspace in one write in the filter prompt: the prompt cancelled, not a character deleted', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'abc');
		await app.waitFor(f => f.includes('/ filter rows: abc'));
		await app.press('\u001B' + keys.backspace);
		await app.press('j');
		const frame = await app.waitFor(f => f.includes('row 2/'));
		expect(frame).not.toContain('/ filter rows');
	});

	it('Esc Esc in one write goes back two levels (help, then the filter); Esc ↓ clears the filter, then moves', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'Wallet', keys.enter);
		await app.waitFor(f => f.includes('filter "Wallet"'));
		await app.press('?');
		await app.waitFor(f => f.startsWith('keys'));
		await app.press('\u001B\u001B');
		await app.waitFor(f => f.startsWith('  id ') && !f.includes('filter "Wallet"'));
		await app.press('/', 'Wallet', keys.enter);
		await app.waitFor(f => f.includes('filter "Wallet"'));
		await app.press('\u001B' + keys.down);
		await app.waitFor(f => !f.includes('filter "Wallet"') && f.includes('row 2/'));
	});
});

describe('q and Esc close overlays', () => {
	it('q closes help, detail, debug and compare, each back to the table with the walk intact', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j');
		await app.waitFor(f => selectedIndex(f) === 1);
		for (const [key, title] of [['?', 'keys'], [keys.enter, 'object 2 of'], ['d', 'debug: request'], ['c', 'compare']] as const) {
			// eslint-disable-next-line no-await-in-loop -- one overlay after another
			await app.press(key);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			await app.waitFor(f => f.startsWith(title));
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			await app.press('q');
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const frame = await app.waitFor(f => f.startsWith('  id '));
			expect(selectedIndex(frame), title).toBe(1);
		}
	});

	it('q with a filter applied clears it instead of quitting, and the browser goes on answering keys', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'Wallet', keys.enter);
		await app.waitFor(f => f.includes('filter "Wallet"'));
		await app.press('q');
		await app.waitFor(f => !f.includes('filter "Wallet"'));
		await app.press('j');
		const frame = await app.waitFor(f => selectedIndex(f) === 1);
		expect(frame).toContain('row 2/');
	});

	it('clearing a filter keeps the selected object selected, not the first row', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('/', 'Wallet', keys.enter, 'j');
		let frame = await app.waitFor(f => f.includes('filter "Wallet"') && selectedIndex(f) === 1);
		const chosen = frame.split('\n').find(line => line.startsWith('›'))!;
		await app.press(keys.escape);
		frame = await app.waitFor(f => !f.includes('filter "Wallet"'));
		// The first row of the page is not it: Wallet's second match is further down.
		expect(frame.split('\n').find(line => line.startsWith('›'))).toBe(chosen);
	});

	it('n and p show the next and previous object without leaving the detail view', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.enter);
		await app.waitFor(f => f.startsWith('object 1 of'));
		await app.press('n', 'n');
		await app.waitFor(f => f.startsWith('object 3 of'));
		await app.press('p');
		await app.waitFor(f => f.startsWith('object 2 of'));
		await app.press(keys.escape);
		const frame = await app.waitFor(f => f.startsWith('  id '));
		expect(selectedIndex(frame)).toBe(1);
	});
});

describe('column names', () => {
	for (const columns of [300, 160, 120, 80]) {
		it(`at ${columns} columns every column shown has its whole name in the header (fewer columns, none cut)`, async () => {
			const app = await browse({size: {columns, rows: 12}});
			const frame = await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
			const header = frame.split('\n')[0]!;
			expect(header).not.toContain('…');
			if (columns === 300) {
				expect(header).toContain('currency.exponent');
			}
		});
	}
});

describe('ids where space is short', () => {
	it('at 40 columns the id column shows each id\'s first characters as git shows a hash, no ellipsis; detail has it whole', async () => {
		const app = await browse({size: {columns: 40, rows: 30}});
		const frame = await app.waitFor(f => f.includes('page 1') && !f.includes('loading'));
		const rowLines = frame.split('\n').slice(1).filter(line => /^[› ] [\da-f]{8}/.test(line));
		expect(rowLines.length).toBeGreaterThan(3);
		for (const line of rowLines) {
			expect(line.slice(2).split('  ')[0]).toMatch(/^[\da-f-]{12,35}$/);
		}

		const prefix = /^› ([\da-f-]+)/m.exec(frame)![1]!;
		await app.press(keys.enter);
		const detail = await app.waitFor(f => f.startsWith('object 1 of'));
		// The pane wraps the line: the id follows its key on the next line, whole.
		expect(detail.replaceAll('\n', ' ')).toMatch(new RegExp(`"id": +"${prefix}[\\da-f-]{4,}"`));
	});
});

describe('s sorts the rows on screen', () => {
	it('by the leftmost column after the id: ▲ numbers as numbers, then ▼, then the server\'s order; the selected object stays selected; said in the status line', async () => {
		const app = await browse({size: {columns: 140, rows: 40}});
		const first = await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
		const serverOrder = first.split('\n').slice(1).filter(line => /^[›+ ] [\da-f]{8}-/.test(line)).map(line => line.slice(2, 38));
		await app.press('j', 'j');
		const chosen = /^› (\S+)/m.exec(await app.waitFor(f => f.includes('row 3/')))![1]!;
		// > scrolls to the second column (balance.amount after name), s sorts by it.
		await app.press('>', 's');
		let frame = await app.waitFor(f => f.includes('rows sorted by balance.amount ▲ on screen'));
		// The arrow before the whole name, not in its place (docs/browser.md: a column's name is whole or not shown).
		expect(frame.split('\n')[0]).toMatch(/ ▲balance\.amount(?: |$)/);
		const amounts = (text: string) => text.split('\n').slice(1).filter(line => /^[›+ ] [\da-f]{8}-/.test(line)).map(line => Number(line.slice(38).trim().split(/\s+/)[0]));
		const up = amounts(frame);
		expect(up.length).toBeGreaterThan(5);
		expect(up).toEqual([...up].sort((a, b) => a - b));
		expect(/^› (\S+)/m.exec(frame)![1]).toBe(chosen);
		await app.press('s');
		frame = await app.waitFor(f => f.includes('balance.amount ▼') && / ▼balance\.amount(?: |$)/.test(f.split('\n')[0]!));
		const down = amounts(frame);
		expect(down).toEqual([...down].sort((a, b) => b - a));
		await app.press('s');
		frame = await app.waitFor(f => !f.includes('rows sorted by'));
		await app.press('<');
		frame = await app.waitFor(f => f.split('\n')[0]!.includes(' name'));
		expect(frame.split('\n').slice(1).filter(line => /^[›+ ] [\da-f]{8}-/.test(line)).map(line => line.slice(2, 38))).toEqual(serverOrder);
		expect(/^› (\S+)/m.exec(frame)![1]).toBe(chosen);
	});
});

describe('/ in a pane finds text, as in less', () => {
	it('in help: Enter scrolls to the line holding the text, / Enter again to the next; the pane stays open; Esc in the prompt leaves it as it was', async () => {
		const app = await browse({size: {columns: 100, rows: 12}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('?');
		await app.waitFor(f => f.startsWith('keys'));
		await app.press('/', 'WRAP long', keys.enter);
		let frame = await app.waitFor(f => f.includes('"WRAP long" on line'));
		expect(frame.startsWith('keys')).toBe(true);
		expect(frame.split('\n')[1]).toMatch(/^z +wrap long lines/);
		await app.press('/', keys.escape);
		frame = await app.waitFor(f => !f.includes('/ find in this pane'));
		expect(frame.split('\n')[1]).toMatch(/^z +wrap long lines/);
		await app.press('/', 'no such text anywhere', keys.enter);
		await app.waitFor(f => f.includes('no line of this pane holds "no such text anywhere"'));
	});

	it('in detail: finds a field of the object; Enter alone finds the same text again', async () => {
		const app = await browse({size: {columns: 100, rows: 12}});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press(keys.enter);
		await app.waitFor(f => f.startsWith('object 1 of'));
		await app.press('/', 'exponent', keys.enter);
		const frame = await app.waitFor(f => f.includes('"exponent" on line'));
		expect(frame.split('\n')[1]).toContain('"exponent"');
		await app.press('/', keys.enter);
		await app.waitFor(f => f.includes('"exponent" on line'));
	});
});

describe('F follows the newest end', () => {
	it('new objects appear at the top as they arrive, marked + and counted; any key stops', async () => {
		const app = await browse({appProps: () => ({followEveryMs: 20}), size: {columns: 160, rows: 16}});
		await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
		await app.press('F');
		await app.waitFor(f => f.includes('following · 0 new'));
		const ids = [fixture.sandbox().store.insert('accounts', {hidden: false}), fixture.sandbox().store.insert('accounts', {hidden: false})];
		const frame = await app.waitFor(f => f.includes('following · 2 new') && !f.includes('loading'));
		const rows = frame.split('\n').slice(1, 4);
		for (const [index, id] of [...ids].reverse().entries()) {
			expect(rows[index]).toContain(id.slice(0, 8));
			expect(rows[index]).toMatch(/^\+ /);
		}

		// The selection stayed on its object, now under the new ones.
		expect(rows[2]).toMatch(/^› /);
		await app.press('j');
		const stopped = await app.waitFor(f => f.includes('stopped following: 2 new objects arrived'));
		expect(stopped).not.toContain('following ·');
	});
});

describe('a terminal too small to draw in', () => {
	it('at 20x5 says it is too small, in lines that fit, and draws the page once it grows', async () => {
		const app = await browse({size: {columns: 20, rows: 5}});
		const frame = await app.waitFor(f => f.includes('Q quits'));
		const lines = frame.split('\n');
		expect(lines.length).toBeLessThanOrEqual(4);
		expect(lines.every(line => line.length <= 20)).toBe(true);
		expect(lines.join(' ').replaceAll(/\s+/g, ' ').trim()).toBe('terminal 20x5 is too small: pagewalk needs 32x8; Q quits');
		app.resize({columns: 100, rows: 16});
		await app.waitFor(f => f.includes('page 1 '));
	});
});

describe('colour honours NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
	const escape = '\u001B[';
	withChalkLevel(3);

	it('draws colour by default, and not one escape sequence under NO_COLOR or TERM=dumb, in the table and every overlay', async () => {
		const coloured = await browse({env: {TERM: 'xterm-256color'}});
		await coloured.waitFor(f => f.includes('page 1 '));
		expect(coloured.instance.lastFrame()).toContain(escape);
		// The detail view's JSON in syntax colour: keys cyan (36), strings green (32).
		await coloured.press(keys.enter);
		await coloured.waitFor(f => f.startsWith('object 1 of'));
		expect(coloured.instance.lastFrame()).toContain(`${escape}36m"id"`);
		expect(coloured.instance.lastFrame()).toContain(`${escape}32m"`);
		for (const env of [{NO_COLOR: '1', TERM: 'xterm-256color'}, {TERM: 'dumb'}, {FORCE_COLOR: '0'}] as Array<Record<string, string>>) {
			// eslint-disable-next-line no-await-in-loop -- one environment after another
			const app = await browse({env});
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			await app.waitFor(f => f.includes('page 1 '));
			for (const key of ['', keys.enter, 'd', '?', 'L']) {
				if (key !== '') {
					// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
					await app.press(key);
					// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
					await app.waitFor(f => !f.startsWith('  id ') || key === 'L');
				}

				expect(app.instance.lastFrame(), `${JSON.stringify(env)} ${key}`).not.toContain(escape);
				if (key !== '') {
					// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
					await app.press(keys.escape);
					// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
					await app.waitFor(f => f.startsWith('  id ') && !f.includes('limit (0'));
				}
			}
		}
	});
});
