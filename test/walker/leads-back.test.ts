import {describe, expect, it} from 'vitest';
import {leadsBack, loopAt} from '../../source/http/walk-rules.js';
import {makePage} from '../browser/pages.js';

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

describe('loopAt: the walk rules over pages walked before, numbered from 1 (the browser\'s page stack)', () => {
	const page = (url: string, ids: string[]) => makePage({url, ids});

	it('a link back by URL or cursor, even to a page no longer in memory, names the page it leads back to', () => {
		const stack = [{url: walked[0]!, page: null}, {url: walked[1]!, page: page(walked[1]!, ['a6'])}];
		expect(loopAt(stack, `${base}?limit=5`, 'next_uri')?.note).toBe('the next_uri of page 2 leads back to page 1, so following it would loop');
		expect(loopAt(stack, `${base}?limit=9&starting_after=a5`, 'next_uri')?.note).toBe('the next_uri of page 2 repeats the cursor starting_after=a5 of page 2, so following it would not advance');
		expect(loopAt(stack, walked[2]!, 'next_uri')).toBeUndefined();
	});

	it('given the page a fresh link brought, a page repeating one in memory', () => {
		const stack = [{url: walked[0]!, page: page(walked[0]!, ['a1', 'a2'])}, {url: walked[1]!, page: page(walked[1]!, ['a6', 'a7'])}];
		expect(loopAt(stack, walked[2]!, 'next_uri', page(walked[2]!, ['a1', 'a2']))?.note).toBe('the next_uri of page 2 leads back: page 3 holds the same objects as page 1, so following it would loop');
		expect(loopAt(stack, walked[2]!, 'next_uri', page(walked[2]!, ['a11']))).toBeUndefined();
		expect(loopAt([], walked[0]!, 'next_uri')).toBeUndefined();
	});
});
