import {expect, test} from 'vitest';
import {ResponsePage, type PageFields} from '../../source/http/response-page.js';

const body = '{"pagination":{"next_uri":null},"data":[{"id":"a","n":1.0},{"id":"é","big":12345678901234567890}]}';
const fields = {
	api: 'account',
	requestUrl: 'http://127.0.0.1/v2/accounts',
	requestHeaders: {},
	status: 200,
	objects: (JSON.parse(body) as {data: PageFields['objects']}).data,
	pagination: {ending_before: null, starting_after: null, limit: 25, order: 'desc', previous_uri: null, next_uri: null},
	rawPagination: {next_uri: null},
	nextUrl: null,
	previousUrl: null,
	warnings: [],
	startedAt: 0,
	ms: 1,
	retries: 0,
	bytes: Buffer.byteLength(body),
} satisfies PageFields;

test('the objects\' texts are found when first read, once, and their bytes only when kept', () => {
	const bytes = Buffer.from(body);
	const page = new ResponsePage(fields, body, bytes);
	expect(page.objectTexts).toEqual(['{"id":"a","n":1.0}', '{"id":"é","big":12345678901234567890}']);
	expect(page.objectTexts).toBe(page.objectTexts);
	const {offsets} = page.objectBytes!;
	expect(bytes.subarray(offsets[2], offsets[3]).toString()).toBe('{"id":"é","big":12345678901234567890}');
	// The browser keeps no bytes: the texts alone.
	const kept = new ResponsePage(fields, body, undefined);
	expect(kept.objectTexts).toEqual(page.objectTexts);
	expect(kept.objectBytes).toBeUndefined();
	// Every other field is the page's own, as given.
	expect(kept).toMatchObject(fields);
	expect(JSON.parse(JSON.stringify(kept))).toEqual(fields);
});
