import {describe, expect, it} from 'vitest';
import {createMouseFilter, wheelRows} from '../../source/browser/keys/mouse.js';

describe('the mouse filter', () => {
	it('an SGR wheel report scrolls three rows and types nothing, with or without the ESC Ink strips', () => {
		const filter = createMouseFilter();
		expect(filter('[<64;10;5M')).toEqual({rows: -wheelRows, keys: ''});
		expect(filter('[<65;10;5M')).toEqual({rows: wheelRows, keys: ''});
		expect(filter('\u001B[<65;200;50M')).toEqual({rows: 3, keys: ''});
		// With Shift, Meta or Ctrl held, still the wheel.
		expect(filter('[<81;1;1M')).toEqual({rows: 3, keys: ''});
	});

	it('clicks, releases and the sideways wheel are swallowed', () => {
		const filter = createMouseFilter();
		for (const report of ['[<0;3;4M', '[<0;3;4m', '[<2;3;4M', '[<66;3;4M', '[<35;3;4M']) {
			expect(filter(report)).toEqual({rows: 0, keys: ''});
		}
	});

	it('keys pass as they are, brackets and digits included', () => {
		const filter = createMouseFilter();
		for (const keys of ['[', '<', 'jjj', '[<64', '[<64;1;1Mx', '', 'q']) {
			expect(filter(keys)).toEqual({rows: 0, keys});
		}
	});

	it('the old form: ESC[M and three raw bytes, even split across reads, never become keys', () => {
		const filter = createMouseFilter();
		// Wheel down at column 81 (q), row 10: button 65 + 32, x + 32, y + 32.
		expect(filter('[M')).toEqual({rows: 0, keys: ''});
		expect(filter(`${String.fromCodePoint(97)}q*`)).toEqual({rows: 3, keys: ''});
		expect(filter('[M')).toEqual({rows: 0, keys: ''});
		expect(filter(String.fromCodePoint(96))).toEqual({rows: 0, keys: ''});
		expect(filter('qq')).toEqual({rows: -3, keys: ''});
		expect(filter('j')).toEqual({rows: 0, keys: 'j'});
	});
});
