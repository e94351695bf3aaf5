import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {lineRows, sidewaysCut, wrappedRows, wrappedWindow, hanging, wrapLines} from '../../source/text/wrap.js';
import {helpLines} from '../../source/browser/keys/keymap.js';
import {overlayLines} from '../../source/browser/view/pane-lines.js';
import {statusLegend} from '../../source/browser/view/status-model.js';

describe('wrapping text panes', () => {
	it('wraps long lines at the width, nothing cut, wide characters never split', () => {
		const lines = ['short', 'a'.repeat(25), '日本語のテキストです'];
		expect(wrappedWindow(lines, 10, 0, 20).rows).toEqual(['short', 'a'.repeat(10), 'a'.repeat(10), 'aaaaa', '日本語のテ', 'キストです']);
		expect(wrappedRows(lines, 10)).toBe(6);
		expect(wrappedWindow(['日本語'], 5, 0, 5).rows).toEqual(['日本', '語']);
		for (const row of wrappedWindow(['👍🏽'.repeat(30)], 7, 0, 20).rows) {
			expect(stringWidth(row)).toBeLessThanOrEqual(7);
		}
	});

	it('wraps prose between words, breaking only a word longer than the row', () => {
		const help = 'toggle order asc/desc (new walk) and read the page again';
		const rows = wrappedWindow([help], 12, 0, 20).rows;
		expect(rows).toEqual(['toggle ', 'order ', 'asc/desc ', '(new walk) ', 'and read ', 'the page ', 'again']);
		expect(rows.join('')).toBe(help);
		expect(lineRows(help, 12)).toBe(rows.length);
		expect(wrappedWindow([help], 12, 3, 2).rows).toEqual(['(new walk) ', 'and read ']);
		// A word longer than a row is broken where the row ends, not moved down first.
		expect(wrappedWindow(['a xxxxxxxxxxxxxxxxxxxxxxxx b'], 10, 0, 5).rows).toEqual(['a xxxxxxxx', 'xxxxxxxxxx', 'xxxxxx b']);
		expect(wrappedWindow(['日本語 のテキスト です'], 10, 0, 5).rows).toEqual(['日本語 ', 'のテキスト', ' です']);
	});

	it('scrolls by wrapped rows, from the middle of a line, and names the lines shown', () => {
		const lines = ['first', 'b'.repeat(30), 'last'];
		expect(wrappedWindow(lines, 10, 2, 3)).toEqual({
			rows: ['b'.repeat(10), 'b'.repeat(10), 'last'],
			firstLine: 2,
			lastLine: 3,
			pieces: [{line: 1, start: 10, indent: 0}, {line: 1, start: 20, indent: 0}, {line: 2, start: 0, indent: 0}],
		});
	});

	it('wraps only what is shown of a megabyte line', () => {
		for (const unit of ['x', '日本', 'e\u0301']) {
			const huge = unit.repeat(Math.ceil(1_000_000 / unit.length));
			const window = wrappedWindow([huge, 'after'], 80, 0, 10);
			expect(window.rows).toHaveLength(10);
			expect(window.lastLine).toBe(1);
			for (const row of window.rows) {
				expect(stringWidth(row)).toBeLessThanOrEqual(80);
			}
		}

		expect(lineRows('x'.repeat(1_000_000), 80)).toBe(12_500);
		// An empty line is drawn as one row, so it counts as one (scrolling and the title agree).
		expect(lineRows('', 80)).toBe(1);
		expect(wrappedRows(['a', '', 'b'], 80)).toBe(3);
		expect(wrappedWindow(['a', '', 'b'], 80, 1, 2).rows).toEqual(['', 'b']);
	});

	it('with wrapping off, cuts each line and scrolls it sideways by cells', () => {
		expect(sidewaysCut('0123456789abcdef', 4, 6)).toBe('45678…');
		// Two cells each: 語のテ would fill the six cells and leave no room to mark the cut.
		expect(sidewaysCut('日本語のテキスト', 4, 6)).toBe('語の…');
		expect(sidewaysCut('日本語のテ', 4, 6)).toBe('語のテ');
		expect(sidewaysCut('short', 10, 6)).toBe('');
	});
});

describe('lines that hang keep their indent wherever they are copied', () => {
	it('a marked line hangs in a spread, a slice or beside other lines; an unmarked one does not', () => {
		const marked = hanging(['key   a description long enough to wrap twice over here'], 6);
		for (const lines of [marked, [...marked], ['plain line', ...marked.slice(0)], [...marked, 'another line that is long enough to wrap']]) {
			const window = wrappedWindow(lines, 24, 0, 20);
			const rows = window.rows.filter((_, at) => lines[window.pieces[at]!.line] === marked[0]);
			expect(rows.slice(1).every(row => row.startsWith('      ') && row[6] !== ' '), JSON.stringify(rows)).toBe(true);
		}

		expect(wrappedWindow(['another line that is long enough to wrap'], 24, 0, 5).rows[1]).toMatch(/^\S/);
	});

	it('the help pane at 60 columns: every continuation row of the keys and of the legend hangs under its text', () => {
		const pane = overlayLines({screen: {kind: 'help', scroll: 0}} as Parameters<typeof overlayLines>[0]);
		const window = wrappedWindow(pane, 60, 0, 1000);
		const helpIndent = helpLines()[0]!.search(/ {2}\S/) + 2;
		const legend = new Set(statusLegend());
		let continued = 0;
		for (const [at, row] of window.rows.entries()) {
			const piece = window.pieces[at]!;
			if (piece.start > 0) {
				continued++;
				expect(piece.indent, row).toBe(legend.has(pane[piece.line]!) ? 17 : helpIndent);
				expect(row.slice(0, piece.indent).trim(), row).toBe('');
			}
		}

		expect(continued).toBeGreaterThan(5);
	});
});

describe('wrapLines', () => {
	it('wraps at word boundaries, keeping every word', () => {
		expect(wrapLines('the account API rejected the credential; set TOKEN', 20)).toEqual(['the account API', 'rejected the', 'credential; set', 'TOKEN']);
		expect(wrapLines('short', 20)).toEqual(['short']);
	});

	it('breaks a word wider than the line, and caps the lines', () => {
		expect(wrapLines('abcdefghij klm', 4)).toEqual(['abcd', 'efgh', 'ij', 'klm']);
		expect(wrapLines('one two three four', 5, 2)).toEqual(['one', 'two …']);
	});
});

describe('one wrapper for panes and messages', () => {
	it('a message takes the rows a pane would, trimmed: never more, every word kept in order, none over the width', () => {
		const word = fc.oneof(fc.stringMatching(/^[a-z]{1,14}$/), fc.constantFrom('日本語', 'テキスト', 'e\u0301te\u0301', '👍🏽'));
		fc.assert(fc.property(fc.array(word, {minLength: 1, maxLength: 12}), fc.integer({min: 4, max: 30}), (words, width) => {
			const text = words.join(' ');
			const rows = wrapLines(text, width);
			const paneRows = wrappedWindow([text], width, 0, 1000).rows;
			expect(rows.length).toBeLessThanOrEqual(paneRows.length);
			expect(rows.join('').replaceAll(' ', '')).toBe(words.join(''));
			for (const row of rows) {
				expect(stringWidth(row)).toBeLessThanOrEqual(width);
			}
		}));
		// The same break rule: a word longer than a row is broken where the row ends, in a pane and in a message.
		expect(wrapLines('a xxxxxxxxxxxxxxxxxxxxxxxx b', 10)).toEqual(['a xxxxxxxx', 'xxxxxxxxxx', 'xxxxxx b']);
	});
});
