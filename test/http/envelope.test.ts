import {describe, expect, test} from 'vitest';
import {apiError, leadingPagination, parseJson, validateEnvelope} from '../../source/http/envelope.js';

const accountPagination = {ending_before: null, starting_after: null, limit: 25, order: 'desc', previous_uri: null, next_uri: '/v2/accounts?&limit=25&starting_after=a'};
const commercePagination = {order: 'asc', starting_after: null, ending_before: null, total: 4, yielded: 2, limit: 2, previous_uri: null, next_uri: 'https://c/checkouts?limit=2', cursor_range: ['a', 'b']};

function check(api: 'account' | 'commerce', value: unknown) {
	return () => validateEnvelope(api, value, JSON.stringify(value));
}

describe('validateEnvelope', () => {
	test('accepts both documented pages and keeps the raw pagination', () => {
		const page = validateEnvelope('account', {pagination: accountPagination, data: [{id: 'a', name: 'BTC Wallet'}]}, '');
		expect(page.objects).toEqual([{id: 'a', name: 'BTC Wallet'}]);
		expect(page.pagination.next_uri).toBe(accountPagination.next_uri);
		expect(page.rawPagination).toBe(accountPagination);
		const commerce = validateEnvelope('commerce', {pagination: commercePagination, data: [{id: 'a'}, {id: 'b'}]}, '');
		expect(commerce.pagination).toMatchObject({total: 4, yielded: 2, cursor_range: ['a', 'b']});
	});

	test('real account extras and absent optional fields are fine; absent cursors read as null', () => {
		const {previous_uri: _, ending_before: __, ...lean} = accountPagination;
		const page = validateEnvelope('account', {pagination: {...lean, next_starting_after: 'a', previous_ending_before: null}, data: []}, '');
		expect(page.pagination.previous_uri).toBeNull();
		expect(page.pagination.ending_before).toBeNull();
		expect(page.rawPagination).not.toHaveProperty('previous_uri');
	});

	test('warnings in both shapes become text', () => {
		expect(validateEnvelope('account', {pagination: accountPagination, data: [], warnings: [{id: 'missing_version', message: 'Please supply API version', url: 'u'}]}, '').warnings)
			.toEqual(['missing_version: Please supply API version']);
		expect(validateEnvelope('commerce', {pagination: commercePagination, data: [], warnings: ['Missing X-CC-Version header']}, '').warnings)
			.toEqual(['Missing X-CC-Version header']);
	});

	const broken: Array<[string, 'account' | 'commerce', unknown, RegExp]> = [
		['an array body', 'account', [], /the body is an array, not a JSON object/],
		['null body', 'account', null, /the body is null/],
		['missing data', 'account', {pagination: accountPagination}, /the field data is missing/],
		['data an object', 'account', {pagination: accountPagination, data: {}}, /data is an object, not an array/],
		['data a string', 'commerce', {pagination: commercePagination, data: 'x'}, /data is a string, not an array/],
		['an object that is an array', 'account', {pagination: accountPagination, data: [[1]]}, /data\[0\] is an array, not an object/],
		['an object without id', 'account', {pagination: accountPagination, data: [{id: 'a'}, {name: 'x'}]}, /data\[1\]\.id is missing/],
		['a numeric id', 'commerce', {pagination: commercePagination, data: [{id: 7}]}, /data\[0\]\.id is a number, not a non-empty string/],
		['an empty id', 'commerce', {pagination: commercePagination, data: [{id: ''}]}, /data\[0\]\.id is a string, not a non-empty string/],
		['missing pagination', 'account', {data: []}, /the field pagination is missing/],
		['pagination a string', 'account', {data: [], pagination: 'next'}, /pagination is a string, not an object/],
		['limit as text', 'account', {data: [], pagination: {...accountPagination, limit: '25'}}, /pagination\.limit is a string "25", not a whole number/],
		['negative limit', 'account', {data: [], pagination: {...accountPagination, limit: -1}}, /pagination\.limit is a number -1, not a whole number/],
		['bad order', 'commerce', {data: [], pagination: {...commercePagination, order: 'up'}}, /pagination\.order is a string "up", not "asc" or "desc"/],
		['next_uri a number', 'account', {data: [], pagination: {...accountPagination, next_uri: 5}}, /pagination\.next_uri is a number 5, not a string or null/],
		['missing next_uri', 'account', {data: [], pagination: {...accountPagination, next_uri: undefined}}, /pagination\.next_uri is missing/],
		['missing total (commerce)', 'commerce', {data: [], pagination: {...commercePagination, total: undefined}}, /pagination\.total is missing/],
		['yielded as text', 'commerce', {data: [], pagination: {...commercePagination, yielded: '2'}}, /pagination\.yielded is a string/],
		['cursor_range of one', 'commerce', {data: [], pagination: {...commercePagination, cursor_range: ['a']}}, /pagination\.cursor_range is an array .*not two ids/],
		['cursor starting_after a number', 'account', {data: [], pagination: {...accountPagination, starting_after: 3}}, /pagination\.starting_after is a number/],
	];
	for (const [name, api, value, message] of broken) {
		test(`rejects ${name}, naming the field, with an excerpt`, () => {
			expect(check(api, value)).toThrow(message);
			expect(check(api, value)).toThrow(/\(body starts /);
		});
	}
});

describe('parseJson', () => {
	test('says what kind of body it was', () => {
		expect(() => parseJson('<html><title>502 Bad Gateway</title></html>', 'text/html')).toThrow(/an HTML page, not JSON \(body starts "<html><title>502 Bad Gateway/);
		expect(() => parseJson('{"data": [{"id": "a"}, {"id"', 'application/json')).toThrow(/truncated JSON/);
		expect(() => parseJson('', 'application/json')).toThrow(/the body is empty, not JSON \(body starts an empty body\)/);
		expect(() => parseJson(' \n\t\r'.repeat(1000), 'application/json')).toThrow(/the body is 4,000 characters of whitespace and nothing else, not JSON/);
		expect(() => parseJson('OK', 'text/plain')).toThrow(/not valid JSON/);
	});

	test('excerpts are short and on one line', () => {
		const long = `${'x'.repeat(500)}\n\nmore`;
		expect(() => parseJson(long, undefined)).toThrow(/"x{80}…"\)\.$/);
	});
});

describe('apiError', () => {
	test('reads both error shapes', () => {
		expect(apiError({errors: [{id: 'invalid_token', message: 'The access token is invalid'}]})).toEqual({id: 'invalid_token', message: 'The access token is invalid'});
		expect(apiError({error: {type: 'authentication_error', message: 'No such API Key.'}})).toEqual({id: 'authentication_error', message: 'No such API Key.'});
		expect(apiError('nope')).toEqual({});
		expect(apiError({errors: []})).toEqual({});
	});
});

describe('leadingPagination', () => {
	const pagination = {ending_before: null, starting_after: null, limit: 2, order: 'desc', previous_uri: null, next_uri: '/v2/accounts?starting_after=b'};
	const body = JSON.stringify({pagination, data: [{id: 'a', name: '旅行の貯金 🏠'}, {id: 'b'}]});

	test('reads the pagination that leads a body, from any start of it that holds it whole', () => {
		const whole = JSON.stringify(pagination).length + '{"pagination":'.length;
		for (let cut = 0; cut <= body.length; cut++) {
			const read = leadingPagination('account', body.slice(0, cut));
			if (cut < whole) {
				expect(read, `cut at ${cut}`).toBeUndefined();
			} else {
				expect(read, `cut at ${cut}`).toMatchObject(pagination);
			}
		}
	});

	test('only when pagination is the first member, and as the contract checks it', () => {
		expect(leadingPagination('account', ` \n{ "pagin\\u0061tion" :\t${JSON.stringify(pagination)}}`)).toMatchObject(pagination);
		expect(leadingPagination('account', JSON.stringify({data: [], pagination}))).toBeUndefined();
		expect(leadingPagination('account', JSON.stringify({pagination: {...pagination, limit: 'two'}}))).toBeUndefined();
		expect(leadingPagination('account', JSON.stringify({pagination: [pagination]}))).toBeUndefined();
		expect(leadingPagination('account', '{"pagination":{"next_uri":"/v2/x",}}')).toBeUndefined();
		expect(leadingPagination('account', '[{"pagination":{}}]')).toBeUndefined();
	});
});
