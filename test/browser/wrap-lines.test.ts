import {describe, expect, it} from 'vitest';
import {wrapLines} from '../../source/text/wrap-lines.js';

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
