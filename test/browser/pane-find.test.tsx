/**
 * `/` in a pane, then `/ Enter` again and again: every line holding the text
 * is reached in turn, wrapping around, also once the pane is scrolled to its
 * end; the matches on screen are drawn inverse, and without colour (no
 * inverse either) the rows holding one are marked `›` in a gutter. Help
 * lines that wrap hang under the descriptions.
 */
import {describe, expect, it} from 'vitest';
import {helpLines} from '../../source/browser/keys/keymap.js';
import {withChalkLevel} from './support/chalk-level.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

const fixture = sandboxBrowser();

/** The line numbers (1-based) of the help that hold `text`, any case. */
function helpLinesHolding(text: string): number[] {
	return helpLines().flatMap((line, index) => (line.toLowerCase().includes(text) ? [index + 1] : []));
}

describe('find next in a pane', () => {
	withChalkLevel(3);

	for (const size of [{columns: 60, rows: 15}, {columns: 100, rows: 16}, {columns: 200, rows: 50}]) {
		it(`at ${size.columns}x${size.rows}: / Enter reaches every line holding the text, in order, wrapping around (help, /copy)`, async () => {
			const app = await fixture.browse({size});
			await app.waitFor(text => text.includes('page 1 '));
			await app.press('?');
			await app.waitFor(text => text.startsWith('keys'));
			const expected = helpLinesHolding('copy');
			expect(expected.length).toBeGreaterThan(2);
			const reached: number[] = [];
			await app.press('/', 'copy', keys.enter);
			for (let turn = 0; turn <= expected.length; turn++) {
				// eslint-disable-next-line no-await-in-loop -- one find after another
				const frame = await app.waitFor(text => /"copy" on line \d+ of/.test(text));
				reached.push(Number(/"copy" on line (\d+) of/.exec(frame)![1]));
				// eslint-disable-next-line no-await-in-loop -- the next find, once this one is on screen
				await app.press('/', keys.enter);
			}

			// From the line after the top one: the first match, each after it, then round to the first again.
			expect(reached).toEqual([...expected, expected[0]]);
		});
	}

	it('marks the matches on screen inverse', async () => {
		const app = await fixture.browse({size: {columns: 100, rows: 16}});
		await app.waitFor(text => text.includes('page 1 '));
		await app.press('?', '/', 'copy', keys.enter);
		await app.waitFor(text => /"copy" on line/.test(text));
		const raw = app.instance.lastFrame() ?? '';
		// eslint-disable-next-line no-control-regex -- the inverse escape is what is looked for
		const marked = [...raw.matchAll(/\u001B\[7m([^\u001B]*)\u001B\[27m/g)].map(match => match[1]);
		expect(marked.length).toBeGreaterThan(0);
		expect(marked.every(text => text!.toLowerCase() === 'copy')).toBe(true);
	});

	it('without colour (NO_COLOR): no escape at all; the rows holding a match are marked › in a gutter', async () => {
		const app = await fixture.browse({size: {columns: 100, rows: 16}, env: {NO_COLOR: '1'}});
		await app.waitFor(text => text.includes('page 1 '));
		await app.press('?', '/', 'copy', keys.enter);
		await app.waitFor(text => /"copy" on line/.test(text));
		const raw = app.instance.lastFrame() ?? '';
		expect(raw).not.toContain('\u001B');
		// The pane's rows: the frame less its title and the four lines of the status area.
		const shown = raw.split('\n');
		const rows = shown.slice(1, shown.findIndex(line => line.startsWith('account ')));
		expect(rows.every(row => row.startsWith('› ') || row.startsWith('  ') || row === '')).toBe(true);
		const markedRows = rows.filter(row => row.startsWith('› '));
		expect(markedRows.length).toBeGreaterThan(0);
		expect(markedRows.every(row => row.toLowerCase().includes('copy'))).toBe(true);
		expect(rows.filter(row => !row.startsWith('› ')).some(row => row.toLowerCase().includes('copy'))).toBe(false);
	});
});

describe('help at 60 columns', () => {
	it('a description too long for its row goes on under the descriptions, not at column 0', async () => {
		const app = await fixture.browse({size: {columns: 60, rows: 40}});
		await app.waitFor(text => text.includes('page 1 '));
		await app.press('?');
		const frame = await app.waitFor(text => text.startsWith('keys'));
		const indent = helpLines()[0]!.search(/ {2}\S/) + 2;
		const rows = frame.split('\n').slice(1, 30);
		// The row after `← h [  previous page (cached; previous_uri at the`: its words under the description.
		const at = rows.findIndex(row => row.startsWith('← h ['));
		expect(rows[at + 1]).toMatch(new RegExp(`^ {${indent}}\\S`));
		for (const row of rows.filter(row => row !== '' && !row.startsWith(' '))) {
			// Every row that does not hang starts a key's line.
			expect(helpLines().some(line => line.startsWith(row.slice(0, Math.min(row.length, indent)).trimEnd()))).toBe(true);
		}
	});
});
