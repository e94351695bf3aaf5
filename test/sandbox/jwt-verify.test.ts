/** The sandbox's own JWT check without sockets: the nonce memory stays bounded on an injected clock. */
import {generateKeyPairSync} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {CdpKey} from '../../source/config/cdp-key.js';
import {signRequestJwt} from '../../source/config/jwt-sign.js';
import {JwtVerifier, looksLikeJwt} from '../../source/sandbox/auth/jwt-verify.js';
import {parseRateLimit, RateLimiter} from '../../source/sandbox/routes/rate-limit.js';

const pair = generateKeyPairSync('ed25519');
const key = new CdpKey('k', 'EdDSA', pair.privateKey);
const target = {method: 'GET', host: 'h:1', path: '/v2/accounts'};

describe('JwtVerifier', () => {
	it('forgets nonces once their JWTs have expired, and still refuses replays while they live', () => {
		let clock = 1_700_000_000_000;
		const verifier = new JwtVerifier([{name: 'k', algorithm: 'EdDSA', publicKey: pair.publicKey}], () => clock);
		const sign = (nonce?: string) => signRequestJwt(key, {method: 'GET', url: 'http://h:1/v2/accounts?limit=2', now: Math.floor(clock / 1000), ...(nonce ? {nonce} : {})});
		for (let second = 0; second < 200; second++) {
			for (let index = 0; index < 3; index++) {
				expect(verifier.verify(sign(), target).ok).toBe(true);
			}

			clock += 1000;
		}

		// 120 s of lifetime and 5 s of leeway at 3 a second, give or take one second's worth.
		expect(verifier.rememberedNonces).toBeLessThanOrEqual(3 * 127);
		const nonce = 'a'.repeat(32);
		expect(verifier.verify(sign(nonce), target).ok).toBe(true);
		clock += 100_000;
		expect(verifier.verify(sign(nonce), target)).toMatchObject({ok: false, problem: {status: 401, message: expect.stringMatching(/^nonce check failed/)}});
	});

	it('tells JWTs from opaque tokens', () => {
		expect(looksLikeJwt(signRequestJwt(key, {method: 'GET', url: 'http://h/'}))).toBe(true);
		expect(looksLikeJwt('sandbox-account-full-0badf00d')).toBe(false);
	});
});

describe('rate limit settings', () => {
	it('reads N/h, N/m and N/s', () => {
		expect(parseRateLimit('10000/h')).toEqual({ok: true, value: {count: 10_000, perMs: 3_600_000}});
		expect(parseRateLimit('5/s')).toEqual({ok: true, value: {count: 5, perMs: 1000}});
		expect(parseRateLimit('60/minute')).toEqual({ok: true, value: {count: 60, perMs: 60_000}});
	});

	it('refuses anything else in one sentence', () => {
		for (const text of ['', '10', '0/s', '5/d', 'x/h', '-1/s']) {
			expect(parseRateLimit(text)).toEqual({ok: false, message: `--rate-limit must be a number of requests per hour, minute or second, such as 10000/h or 5/s; got "${text}".`});
		}

		expect(() => new RateLimiter({count: 0, perMs: 1000})).toThrow(RangeError);
	});
});

describe('hostile tokens', () => {
	it('any three-part token is answered with a 401, never a throw', async () => {
		const fc = await import('fast-check');
		const verifier = new JwtVerifier([{name: 'k', algorithm: 'EdDSA', publicKey: pair.publicKey}, {name: 'e', algorithm: 'ES256', publicKey: generateKeyPairSync('ec', {namedCurve: 'P-256'}).publicKey}]);
		const part = fc.oneof(fc.base64String().map((text) => text.replaceAll('=', '').replaceAll('+', '-').replaceAll('/', '_')), fc.json().map((text) => Buffer.from(text).toString('base64url')), fc.constantFrom('eyJhbGciOiJFUzI1NiIsImtpZCI6ImUifQ', 'eyJhbGciOiJFZERTQSIsImtpZCI6ImsifQ'));
		fc.assert(fc.property(part, part, part, (header, payload, signature) => {
			const result = verifier.verify(`${header}.${payload}.${signature}`, target);
			return !result.ok && result.problem.status === 401;
		}), {numRuns: 300});
	});
});
