import {describe, expect, test} from 'vitest';
import {canonicalUrl, checkSameOrigin, cursorOf, ForeignLinkError, linkIdentity, parseBase, resolveLink} from '../../source/contract/links.js';

const account = parseBase('https://api.coinbase.com');
const proxied = parseBase('https://proxy.example/coinbase/');
const commerce = parseBase('https://api.commerce.coinbase.com');
const local = parseBase('http://127.0.0.1:8080');

describe('resolveLink', () => {
	test('relative account links resolve against the origin', () => {
		expect(resolveLink('/v2/accounts?limit=100&starting_after=6b17', account)).toBe('https://api.coinbase.com/v2/accounts?limit=100&starting_after=6b17');
	});

	test('the documented ?& quirk and doubled & are tidied, values untouched', () => {
		expect(resolveLink('/v2/accounts?&limit=25&starting_after=5d5a', account)).toBe('https://api.coinbase.com/v2/accounts?limit=25&starting_after=5d5a');
		expect(resolveLink('/v2/accounts?limit=25&&order=asc&', account)).toBe('https://api.coinbase.com/v2/accounts?limit=25&order=asc');
		expect(resolveLink('/v2/accounts?&', account)).toBe('https://api.coinbase.com/v2/accounts');
	});

	test('\\u0026 in the raw JSON is just & once parsed', () => {
		const {uri} = JSON.parse('{"uri": "/v2/accounts?limit=2\\u0026starting_after=abc"}') as {uri: string};
		expect(resolveLink(uri, account)).toBe('https://api.coinbase.com/v2/accounts?limit=2&starting_after=abc');
	});

	test('a base with a path prefix gets it in front of relative links, once', () => {
		expect(resolveLink('/v2/accounts?starting_after=x', proxied)).toBe('https://proxy.example/coinbase/v2/accounts?starting_after=x');
		expect(resolveLink('/coinbase/v2/accounts?starting_after=x', proxied)).toBe('https://proxy.example/coinbase/v2/accounts?starting_after=x');
	});

	test('absolute commerce links are kept', () => {
		const link = 'https://api.commerce.coinbase.com/checkouts?limit=20&starting_after=fb67';
		expect(resolveLink(link, commerce)).toBe(link);
	});

	test('null, empty and blank links are the end of the list', () => {
		expect(resolveLink(null, account)).toBeNull();
		expect(resolveLink(undefined, account)).toBeNull();
		expect(resolveLink('', account)).toBeNull();
		expect(resolveLink('  ', account)).toBeNull();
	});
});

describe('checkSameOrigin', () => {
	test('accepts exactly the configured origin', () => {
		expect(checkSameOrigin('http://127.0.0.1:8080/v2/accounts?limit=1', local).pathname).toBe('/v2/accounts');
		expect(checkSameOrigin('https://API.coinbase.com:443/v2/accounts', account).host).toBe('api.coinbase.com');
	});

	const foreign: Array<[string, string, string]> = [
		['another host', 'https://evil.example/v2/accounts', 'https://evil.example'],
		['another scheme', 'http://api.coinbase.com/v2/accounts', 'http://api.coinbase.com'],
		['another port', 'https://api.coinbase.com:8443/v2/accounts', 'https://api.coinbase.com:8443'],
		['a look-alike host', 'https://api.coinbase.com.evil.example/v2', 'https://api.coinbase.com.evil.example'],
		['a javascript: URL', 'javascript:alert(1)', 'javascript: URL'],
	];
	for (const [name, url, origin] of foreign) {
		test(`refuses ${name}, naming it`, () => {
			expect(() => checkSameOrigin(url, account)).toThrow(ForeignLinkError);
			expect(() => checkSameOrigin(url, account)).toThrow(`points to ${origin}, not the configured https://api.coinbase.com; pagewalk stopped and sent nothing there.`);
		});
	}

	test('refuses userinfo even on the right origin', () => {
		expect(() => checkSameOrigin('https://user:pw@api.coinbase.com/v2/accounts', account)).toThrow(/userinfo/);
		expect(() => checkSameOrigin('https://user@api.coinbase.com/v2/accounts', account)).toThrow(/userinfo/);
	});

	// Links as a server might send them, resolved the way the walker does.
	const disguised: Array<[string, string]> = [
		['protocol-relative', '//evil.example/v2/accounts'],
		['backslash after slash', '/\\evil.example/v2/accounts'],
		['two backslashes', '\\\\evil.example/v2/accounts'],
		['backslash then slash', '\\/evil.example/v2/accounts'],
		['tab inside the slashes', '/\t/evil.example/v2/accounts'],
		['leading space and control', ' \u0001//evil.example/v2'],
		['scheme-relative with credentials', '//user:pw@evil.example/'],
		['absolute with another scheme', 'HTTP://api.coinbase.com/v2/accounts'],
	];
	for (const [name, link] of disguised) {
		test(`refuses a ${name} link`, () => {
			const resolved = resolveLink(link, account)!;
			expect(() => checkSameOrigin(resolved, account)).toThrow(ForeignLinkError);
		});
	}

	test('a disguised link through a prefixed base is still judged as it is', () => {
		const resolved = resolveLink('/\\evil.example/x', proxied)!;
		expect(resolved.startsWith('https://evil.example/')).toBe(true);
		expect(() => checkSameOrigin(resolved, proxied)).toThrow('points to https://evil.example');
	});

	test('an unparsable link is an error, not a crash', () => {
		expect(() => checkSameOrigin('http://[::1', account)).toThrow(/not a valid URL/);
	});
});

describe('canonicalUrl and cursorOf', () => {
	test('parameter order and repeats of the same value do not make a new URL', () => {
		expect(canonicalUrl('https://a/x?starting_after=1&limit=2&limit=2')).toBe(canonicalUrl('https://a/x?limit=2&starting_after=1'));
		expect(canonicalUrl('https://a/x?limit=2')).not.toBe(canonicalUrl('https://a/x?limit=3'));
	});

	test('cursors are read from the query', () => {
		expect(cursorOf('https://a/x?limit=2&starting_after=abc')).toEqual({starting_after: 'abc'});
		expect(cursorOf('https://a/x?ending_before=z')).toEqual({ending_before: 'z'});
		expect(cursorOf('https://a/x?starting_after=')).toEqual({});
	});

	test('linkIdentity reads both from one parse, as URLSearchParams does', () => {
		// The first value of a parameter is the one get() returns, even when empty.
		expect(linkIdentity('https://a/x?starting_after=&starting_after=b')).toEqual({canonical: 'https://a/x?starting_after=&starting_after=b', cursor: {}});
		expect(linkIdentity('https://a/x?ending_before=%7A&limit=2#frag').cursor).toEqual({ending_before: 'z'});
		// No fragment, no empty query, and a link that does not parse is its own form.
		expect(linkIdentity('https://a/x?#frag').canonical).toBe('https://a/x');
		expect(linkIdentity('https://a/x?b=1&a=2#f').canonical).toBe('https://a/x?a=2&b=1');
		expect(linkIdentity('::not a url')).toEqual({canonical: '::not a url', cursor: {}});
	});
});
