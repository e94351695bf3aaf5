import fc from 'fast-check';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {rowsOf} from '../../source/browser/stack/cells.js';
import {rowLine, screenLayout} from '../../source/browser/view/table-layout.js';

/**
 * The table hands Ink a blank line of each row's width and swaps the row's
 * text in when the line is written out (components/table-view.tsx). So the
 * width rowLine gives from the layout must never exceed the terminal (Ink
 * would wrap the blank) and never be less than what string-width, Ink's
 * measure, makes of the text (the text would overflow its blank). It is the
 * same as that measure but where a character joins the padding after it into
 * one cluster (a prepended letter such as U+11A84): the layout counts cells
 * per column, as a terminal draws them.
 */

const cell = fc.oneof(
	fc.string({unit: 'grapheme', maxLength: 40}),
	fc.string({unit: 'binary', maxLength: 40}),
	fc.constantFrom('日本語のテキスト', '👩‍👩‍👧 family', 'e\u0301te\u0301', 'ends wide\u3000', 'ends\u00A0', '0.00010000', '-12.5', '2026-10-31T17:45:00Z', ''),
);
const object = fc.record({id: fc.uuid(), name: cell, amount: cell, note: cell, created_at: cell});

function lines(objects: Array<Record<string, unknown>>, width: number, offset = 0) {
	const rows = rowsOf(objects);
	const layout = screenLayout(rows, width, undefined, {offset});
	return rows.flatMap(row => [false, true].map(selected => rowLine(row.cells, layout.columns, selected)));
}

describe('rowLine', () => {
	it('is never wider than the terminal, nor narrower than string-width measures its text', () => {
		fc.assert(
			fc.property(fc.array(object, {minLength: 1, maxLength: 8}), fc.integer({min: 20, max: 220}), fc.integer({min: 0, max: 3}), (objects, width, offset) => {
				for (const line of lines(objects, width, offset)) {
					expect(line.width).toBeLessThanOrEqual(width);
					expect(stringWidth(line.text)).toBeLessThanOrEqual(line.width);
					expect(line.text.endsWith(' ')).toBe(false);
				}
			}),
			{numRuns: 300},
		);
	});

	it('gives the width string-width measures for wide, combining and emoji text, cut or whole, and keeps a wide space at the end', () => {
		const objects = [
			{id: 'a1', name: '日本語のテキストがとても長い名前', note: '👩‍👩‍👧 family', amount: '0.00010000'},
			{id: 'a2', name: 'e\u0301te\u0301', note: 'ends wide\u3000', amount: '-12.5'},
			{id: 'a3', name: 'Sparkonto Ü', note: 'ends\u00A0', amount: '14898.35'},
		];
		for (const width of [30, 60, 120, 200]) {
			for (const line of lines(objects, width)) {
				expect(line.width).toBe(stringWidth(line.text));
			}
		}

		expect(lines(objects, 200)[2]!.text).toContain('ends wide\u3000');
	});
});
