/**
 * The pure parts of the wire rules: links resolved against their request,
 * credential-like query parameters, redaction of echoed credentials, the
 * resume flag through a real shell, UTF-8 checking, relaxed cursors.
 */
import {execFileSync} from 'node:child_process';
import {isUtf8} from 'node:buffer';
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {resumeFlag} from '../../source/commands/dump/dump.js';
import {decodeBodyBytes, firstInvalidUtf8} from '../../source/http/body-bytes.js';
import {checkSameOrigin, credentialParameter, ForeignLinkError, parseBase, resolveLink} from '../../source/contract/links.js';
import {resolveConfig} from '../../source/config/options.js';
import {compareCredential} from '../../source/commands/setup/second-credential.js';
import {redact, Secret} from '../../source/text/secret.js';

describe('relative links resolve against the request they came from', () => {
	const proxied = parseBase('https://proxy.example/coinbase');
	const request = 'https://proxy.example/coinbase/v2/accounts?limit=3&starting_after=a';
	test('query-only: same path, base prefix kept', () => {
		expect(resolveLink('?limit=3&starting_after=b', proxied, request)).toBe('https://proxy.example/coinbase/v2/accounts?limit=3&starting_after=b');
	});

	test('path-relative: against the request path', () => {
		expect(resolveLink('accounts?starting_after=b', proxied, request)).toBe('https://proxy.example/coinbase/v2/accounts?starting_after=b');
		expect(resolveLink('../v3/accounts?starting_after=b', proxied, request)).toBe('https://proxy.example/coinbase/v3/accounts?starting_after=b');
	});

	test('path-absolute keeps the prefix rule; absolute and hostile links are judged as they are', () => {
		expect(resolveLink('/v2/accounts?starting_after=b', proxied, request)).toBe('https://proxy.example/coinbase/v2/accounts?starting_after=b');
		expect(resolveLink('https://other.example/x', proxied, request)).toBe('https://other.example/x');
		expect(() => checkSameOrigin(resolveLink('//evil.example/x', proxied, request)!, proxied)).toThrow(ForeignLinkError);
	});
});

describe('credential-like query parameters in a link are refused', () => {
	const base = parseBase('https://api.example');
	const refused = ['access_token', 'ACCESS_TOKEN', 'access%5Ftoken', 'access%255Ftoken', 'api_key', 'API-Key', 'apikey', 'token', 'key', 'secret', 'client_secret',
		'refresh_token', 'password', 'passwd', 'signature', 'sig', 'jwt', 'auth', 'X-CC-Api-Key', 'id_token'];
	for (const name of refused) {
		test(name, () => {
			expect(() => checkSameOrigin(`https://api.example/v2/accounts?starting_after=a&${name}=x`, base, 'The page URL'))
				.toThrow(/The page URL carries .+ in its query, which looks like a credential; pagewalk stopped and sent nothing/);
		});
	}

	test('cursors and paging parameters are not credentials', () => {
		for (const name of ['starting_after', 'ending_before', 'limit', 'order', 'page_token', 'nextPageToken', 'cursor', 'keyword', 'monkey', 'tokens_total']) {
			expect(credentialParameter(new URL(`https://api.example/x?${name}=1`)), name).toBeUndefined();
		}
	});

	test('any parameter whose value is a credential pagewalk holds', () => {
		new Secret('value-only-Credential-123');
		expect(credentialParameter(new URL('https://api.example/x?q=value-only-Credential-123'))).toBe('q');
	});
});

describe('redact', () => {
	const value = 'sk live/é+x=1 "q"';
	new Secret(`Bearer ${value}`);
	test.each([
		['bare', `got ${value}!`],
		['Bearer form', `header was Bearer ${value}`],
		['URL-encoded', `?t=${encodeURIComponent(value)}`],
		['URL-encoded, lowercase hex', `?t=${encodeURIComponent(value).replaceAll(/%[\dA-F]{2}/g, escape => escape.toLowerCase())}`],
		['form-encoded', `?t=${encodeURIComponent(value).replaceAll('%20', '+')}`],
		['JSON-escaped', JSON.stringify({m: value})],
	])('%s', (_name, text) => {
		const redacted = redact(text);
		expect(redacted).toContain('[redacted]');
		expect(redacted).not.toContain('live/');
		expect(redacted).not.toContain('live%2F');
		expect(redacted).not.toContain('live%2f');
	});

	test('leaves other text alone', () => {
		expect(redact('nothing secret here')).toBe('nothing secret here');
	});
});

describe('the resume flag survives a POSIX shell unchanged', () => {
	const ids = ['obj-2-2', '-rf', '--all', 'a b  c', 'it\'s "q"', '$HOME `x` \\ !*?[a]', `long-${'x'.repeat(4000)}`, '\'', 'tab\u00A0nbsp', 'émoji 🎉', '~user', '#comment', 'a;b|c&d'];
	for (const id of ids) {
		test(JSON.stringify(id.slice(0, 30)), () => {
			const flag = resumeFlag(id);
			const argv = execFileSync('sh', ['-c', `printf '%s\\0' ${flag}`], {encoding: 'utf8'}).split('\0').slice(0, -1);
			expect(argv).toEqual([`--starting-after=${id}`]);
		});
	}
});

describe('cursors: any id a server can produce is accepted', () => {
	const env = {COINBASE_ACCESS_TOKEN: 'test-token-1234'};
	for (const id of ['-rf', 'a b', 'it\'s "q"', 'x'.repeat(4096)]) {
		test(JSON.stringify(id.slice(0, 20)), () => {
			const config = resolveConfig({input: ['accounts'], flags: {startingAfter: id}, env});
			expect(config.query.startingAfter).toBe(id);
		});
	}

	test('a credential a header cannot carry is one sentence at config time, without the value', () => {
		expect(() => resolveConfig({input: ['accounts'], flags: {}, env: {COINBASE_ACCESS_TOKEN: 'tok€n-secret'}})).toThrow('COINBASE_ACCESS_TOKEN holds a character an HTTP header cannot carry (at position 4; only ASCII and Latin-1 fit); set it to the bare credential as the API issued it.');
	});

	test('so is a --compare-env credential', () => {
		expect(() => compareCredential('OTHER', {OTHER: 'ok-🎉'})).toThrow('OTHER holds a character an HTTP header cannot carry (at position 4; only ASCII and Latin-1 fit)');
		expect(compareCredential('OTHER', {OTHER: 'ok-é'})).toEqual({envName: 'OTHER', value: 'ok-é'});
	});
});

describe('body bytes', () => {
	test('firstInvalidUtf8 agrees with isUtf8 on arbitrary bytes', () => {
		// Bytes near the UTF-8 boundaries, so the invalid cases are not all trivial.
		const byte = fc.oneof(fc.integer({min: 0, max: 0x7F}), fc.integer({min: 0x80, max: 0xBF}), fc.integer({min: 0xC0, max: 0xFF}));
		fc.assert(fc.property(fc.array(byte, {maxLength: 12}), bytes => (firstInvalidUtf8(Uint8Array.from(bytes)) === -1) === isUtf8(Uint8Array.from(bytes))), {numRuns: 500});
		fc.assert(fc.property(fc.string({unit: 'binary', maxLength: 12}), text => firstInvalidUtf8(Buffer.from(text)) === -1), {numRuns: 200});
	});

	test('names the offset of the first bad byte', () => {
		const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xED, 0xA0, 0x80]), Buffer.from('"}')]);
		expect(() => decodeBodyBytes(200, {}, bytes, 'http://x')).toThrow(/not valid UTF-8 \(the first bad byte, 0xed, is at offset 6 of the body\)/);
	});

	test('an error body is decoded leniently, a BOM dropped', () => {
		expect(decodeBodyBytes(500, {}, Buffer.from([0xEF, 0xBB, 0xBF, 0x61, 0xFF]), 'http://x').text).toBe('a\uFFFD');
	});
});
