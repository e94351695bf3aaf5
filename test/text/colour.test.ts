import {describe, expect, it} from 'vitest';
import {colourLevel} from '../../source/text/colour.js';

describe('colourLevel: one decision for the browser and dump', () => {
	it('NO_COLOR (non-empty), TERM=dumb and a pipe turn colour off', () => {
		expect(colourLevel({NO_COLOR: '1', TERM: 'xterm'}, true)).toBe(0);
		expect(colourLevel({NO_COLOR: '', TERM: 'xterm'}, true)).toBe(1);
		expect(colourLevel({TERM: 'dumb'}, true)).toBe(0);
		expect(colourLevel({TERM: 'xterm'}, false)).toBe(0);
	});

	it('FORCE_COLOR wins, as in Node and chalk: 0 none, 1 to 3 that depth', () => {
		expect(colourLevel({FORCE_COLOR: '0', TERM: 'xterm-256color'}, true)).toBe(0);
		expect(colourLevel({FORCE_COLOR: 'false'}, true)).toBe(0);
		expect(colourLevel({FORCE_COLOR: '1', TERM: 'dumb'}, false)).toBe(1);
		expect(colourLevel({FORCE_COLOR: '2', NO_COLOR: '1'}, false)).toBe(2);
		expect(colourLevel({FORCE_COLOR: '3'}, false)).toBe(3);
		expect(colourLevel({FORCE_COLOR: ''}, false)).toBe(1);
		expect(colourLevel({FORCE_COLOR: '9'}, false)).toBe(3);
	});

	it('reads the depth from TERM and COLORTERM on a terminal', () => {
		expect(colourLevel({TERM: 'xterm'}, true)).toBe(1);
		expect(colourLevel({TERM: 'xterm-256color'}, true)).toBe(2);
		expect(colourLevel({TERM: 'xterm', COLORTERM: 'truecolor'}, true)).toBe(3);
	});
});
