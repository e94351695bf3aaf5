import {describe, expect, it} from 'vitest';
import {leadsBack} from '../../source/http/walk-rules.js';

const base = 'http://127.0.0.1:1/v2/accounts';
const walked = [`${base}?limit=5`, `${base}?limit=5&starting_after=a5`, `${base}?limit=5&starting_after=a10`];

describe('leadsBack: the walk rules\' judgement of a link into pages walked before', () => {
	it('a link to one of them, however its query is ordered, leads back', () => {
		expect(leadsBack(walked[2]!, walked, 'next_uri')).toBe(true);
		expect(leadsBack(`${base}?starting_after=a5&limit=5`, walked, 'next_uri')).toBe(true);
	});

	it('a link repeating one of their cursors under another URL leads back', () => {
		expect(leadsBack(`${base}?limit=7&starting_after=a10`, walked, 'next_uri')).toBe(true);
	});

	it('a fresh cursor does not, nor any link when nothing was walked', () => {
		expect(leadsBack(`${base}?limit=5&starting_after=a15`, walked, 'next_uri')).toBe(false);
		expect(leadsBack(walked[0]!, [], 'next_uri')).toBe(false);
	});
});
