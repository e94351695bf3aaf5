import {describe, expect, it} from 'vitest';
import {jsonTokens} from '../../source/browser/view/json-tokens.js';

describe('jsonTokens: syntax colour for pretty JSON lines', () => {
	it('tells keys, strings, numbers and literals apart, and loses no character', () => {
		const line = '  "amount": "1.50", "n": -2.5e3, "ok": true, "x": null,';
		const tokens = jsonTokens(line);
		expect(tokens.map(token => token.text).join('')).toBe(line);
		expect(tokens.filter(token => token.tone !== 'plain')).toEqual([
			{text: '"amount"', tone: 'key'},
			{text: '"1.50"', tone: 'string'},
			{text: '"n"', tone: 'key'},
			{text: '-2.5e3', tone: 'number'},
			{text: '"ok"', tone: 'key'},
			{text: 'true', tone: 'literal'},
			{text: '"x"', tone: 'key'},
			{text: 'null', tone: 'literal'},
		]);
	});

	it('leaves a string cut before its closing quote, or escaped text, plain but whole', () => {
		for (const line of ['  "name": "a very long na…', '  "s": "quote \\" inside",', '{', '  ],']) {
			expect(jsonTokens(line).map(token => token.text).join('')).toBe(line);
		}

		expect(jsonTokens('  "s": "quote \\" inside",').find(token => token.tone === 'string')).toEqual({text: '"quote \\" inside"', tone: 'string'});
	});
});
