/** Our per-request JWTs, verified by a second, independent implementation (`jose`), and the `uri` claim's rules. */
import {generateKeyPairSync} from 'node:crypto';
import {decodeProtectedHeader, jwtVerify} from 'jose';
import {describe, expect, it} from 'vitest';
import {CdpKey} from '../../source/config/cdp-key.js';
import {decodeJwtClaims, requestUri, signRequestJwt} from '../../source/config/jwt-sign.js';

const keys = {
	ES256: new CdpKey('organizations/o/apiKeys/es', 'ES256', generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey),
	EdDSA: new CdpKey('organizations/o/apiKeys/ed', 'EdDSA', generateKeyPairSync('ed25519').privateKey),
};

describe('signRequestJwt', () => {
	for (const algorithm of ['ES256', 'EdDSA'] as const) {
		it(`${algorithm}: jose verifies the signature and every claim`, async () => {
			const key = keys[algorithm];
			const now = Math.floor(Date.now() / 1000);
			const jwt = signRequestJwt(key, {method: 'GET', url: 'https://api.example.com/v2/accounts?limit=5&starting_after=x'});
			const {payload, protectedHeader} = await jwtVerify(jwt, key.publicKey(), {algorithms: [algorithm], issuer: 'cdp', subject: key.name, typ: 'JWT'});
			expect(protectedHeader).toEqual({alg: algorithm, kid: key.name, typ: 'JWT', nonce: expect.stringMatching(/^[\da-f]{32}$/)});
			expect(payload).toEqual({sub: key.name, iss: 'cdp', nbf: expect.any(Number), exp: expect.any(Number), uri: 'GET api.example.com/v2/accounts'});
			expect(Math.abs(payload.nbf! - now)).toBeLessThanOrEqual(1);
			expect(payload.exp! - payload.nbf!).toBe(120);
		});
	}

	it('ES256 signatures are raw r||s (64 bytes), as JOSE requires, not DER', () => {
		const jwt = signRequestJwt(keys.ES256, {method: 'GET', url: 'http://h/p'});
		expect(Buffer.from(jwt.split('.')[2]!, 'base64url')).toHaveLength(64);
	});

	it('a fresh nonce every time: never the same JWT twice', () => {
		const jwts = Array.from({length: 500}, () => signRequestJwt(keys.EdDSA, {method: 'GET', url: 'http://h/p', now: 1_700_000_000}));
		expect(new Set(jwts).size).toBe(500);
		expect(new Set(jwts.map((jwt) => decodeProtectedHeader(jwt).nonce)).size).toBe(500);
	});

	it('takes now and nonce for tests', async () => {
		const jwt = signRequestJwt(keys.ES256, {method: 'GET', url: 'http://h/p', now: 1_700_000_000, nonce: 'ab'.repeat(16)});
		const {payload} = await jwtVerify(jwt, keys.ES256.publicKey(), {currentDate: new Date(1_700_000_010_000)});
		expect(payload.nbf).toBe(1_700_000_000);
		expect(payload.exp).toBe(1_700_000_120);
		expect(decodeProtectedHeader(jwt).nonce).toBe('ab'.repeat(16));
	});
});

describe('the uri claim', () => {
	it('is method, host and path, never the query or fragment', () => {
		expect(requestUri('GET', 'https://api.coinbase.com/v2/accounts?limit=100&starting_after=abc#x')).toBe('GET api.coinbase.com/v2/accounts');
		expect(requestUri('GET', new URL('/v2/accounts/a%20b/transactions?order=asc', 'http://127.0.0.1:4010'))).toBe('GET 127.0.0.1:4010/v2/accounts/a%20b/transactions');
	});

	it('keeps the port only when it is not the default', () => {
		expect(requestUri('GET', 'https://api.example.com:443/v2/accounts')).toBe('GET api.example.com/v2/accounts');
		expect(requestUri('GET', 'http://api.example.com:80/v2/accounts')).toBe('GET api.example.com/v2/accounts');
		expect(requestUri('GET', 'https://api.example.com:8443/v2/accounts')).toBe('GET api.example.com:8443/v2/accounts');
		expect(requestUri('GET', 'http://[::1]:4010/v2/accounts')).toBe('GET [::1]:4010/v2/accounts');
	});
});

describe('decodeJwtClaims', () => {
	it('gives header and payload for the debug view, and no signature', () => {
		const jwt = signRequestJwt(keys.ES256, {method: 'GET', url: 'http://h:1/v2/accounts?x=1', now: 100});
		const claims = decodeJwtClaims(jwt)!;
		expect(claims.header.kid).toBe(keys.ES256.name);
		expect(claims.payload).toEqual({sub: keys.ES256.name, iss: 'cdp', nbf: 100, exp: 220, uri: 'GET h:1/v2/accounts'});
		expect(JSON.stringify(claims)).not.toContain(jwt.split('.')[2]!);
	});

	it('is undefined for text that is not a JWT', () => {
		for (const text of ['', 'sandbox-account-full-1234', 'a.b', 'a.b.c', `${Buffer.from('[1]').toString('base64url')}.e30.x`]) {
			expect(decodeJwtClaims(text)).toBeUndefined();
		}
	});
});
