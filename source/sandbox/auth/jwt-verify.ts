/**
 * The sandbox's check of a CDP key's JWT, as the account API makes it. This
 * is the server's own code, deliberately not the client's signer read
 * backwards: a shared mistake would then pass both sides. Each failed check
 * is a 401 whose message names the check, so a client's author (and
 * pagewalk's 401 hints) can tell a clock problem from a `uri` mistake.
 */
import {verify, type KeyObject} from 'node:crypto';
import type {ApiProblem} from '../routes/query.js';

export type JwtAlgorithm = 'ES256' | 'EdDSA';

/** A key the sandbox knows: its name (the JWT's kid and sub) and public half. */
export type VerifiableKey = {name: string; algorithm: JwtAlgorithm; publicKey: KeyObject};

/** The request a JWT must be for: its method, Host header and path (no query). */
export type JwtTarget = {method: string; host: string | undefined; path: string};

export type Verified<K> = {ok: true; key: K} | {ok: false; problem: ApiProblem};

/** Clock skew forgiven on nbf and exp. */
export const leewaySeconds = 5;
/** The longest a JWT may live (exp - nbf). */
export const maximumLifetimeSeconds = 120;

/** Whether a bearer token is shaped as a compact JWS (three base64url parts), rather than an opaque token. */
export function looksLikeJwt(token: string): boolean {
	return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

function reject(message: string, code = 'invalid_token'): {ok: false; problem: ApiProblem} {
	return {ok: false, problem: {status: 401, code, message}};
}

/** A value for a message: quoted, bounded, so a hostile token cannot make a huge error. */
function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
	return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}

/**
 * What a claim held, for the end of a refusal: "it has none" rather than
 * `undefined` or `null`, so a reason never names a JavaScript value.
 */
function found(claim: string, value: unknown): string {
	return value === undefined || value === null || value === '' ? `the JWT has no ${claim}` : `got ${shown(value)}`;
}

/**
 * The requests a JWT is for. The account API's docs and the Python SDK sign
 * `uri` (one string); the Node CDP SDK signs `uris` (an array of one or more).
 * The real API takes both, so the sandbox does; a JWT carrying both is
 * refused, since the two could disagree and no official client makes one.
 */
function signedUris(payload: Record<string, unknown>): {ok: true; claim: 'uri' | 'uris'; uris: string[]} | {ok: false; reason: string} {
	const {uri, uris} = payload;
	if (uri !== undefined && uris !== undefined) {
		return {ok: false, reason: 'the JWT carries both uri and uris; sign one of them'};
	}

	if (uris !== undefined) {
		if (!Array.isArray(uris) || uris.length === 0 || !uris.every((entry) => typeof entry === 'string')) {
			return {ok: false, reason: `uris must be a list of one or more "METHOD host/path" strings; ${found('uris', uris)}`};
		}

		return {ok: true, claim: 'uris', uris};
	}

	if (typeof uri !== 'string' || uri === '') {
		return {ok: false, reason: uri === undefined ? 'the JWT has neither uri nor uris' : `uri must be a "METHOD host/path" string; ${found('uri', uri)}`};
	}

	return {ok: true, claim: 'uri', uris: [uri]};
}

function decodePart(part: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

export class JwtVerifier<K extends VerifiableKey> {
	readonly #keys: Map<string, K>;
	readonly #now: () => number;
	/**
	 * Nonces seen, each with its JWT's exp, in the order they were seen. A JWT
	 * is accepted only within [nbf - leeway, exp + leeway] and lives at most
	 * 120 s, so entries are dropped from the front once expired: memory stays
	 * about (requests per second) x (lifetime + leeway).
	 */
	readonly #nonces = new Map<string, number>();

	/** `now` gives milliseconds since the epoch; tests pass their own clock. */
	constructor(keys: readonly K[], now: () => number = Date.now) {
		this.#keys = new Map(keys.map((key) => [key.name, key]));
		this.#now = now;
	}

	/** Checks a JWT for `target`; on success its nonce is spent. */
	verify(token: string, target: JwtTarget): Verified<K> {
		const parts = token.split('.');
		if (parts.length !== 3 || !looksLikeJwt(token)) {
			return reject('The JWT is malformed: it must be header.payload.signature, each base64url.');
		}

		const header = decodePart(parts[0]!);
		const payload = decodePart(parts[1]!);
		if (!header || !payload) {
			return reject(`The JWT is malformed: its ${header ? 'payload' : 'header'} is not base64url of a JSON object.`);
		}

		const {alg, kid, nonce} = header;
		if (alg !== 'ES256' && alg !== 'EdDSA') {
			return reject(`alg check failed: alg must be ES256 or EdDSA; ${found('alg', alg)}.`);
		}

		if (typeof kid !== 'string') {
			return reject('kid check failed: the JWT header has no kid naming the key.');
		}

		const key = this.#keys.get(kid);
		if (!key) {
			return reject(`kid check failed: no key is named ${shown(kid)}.`);
		}

		if (alg !== key.algorithm) {
			return reject(`alg check failed: key ${shown(kid)} signs with ${key.algorithm}, but the JWT says ${alg}.`);
		}

		const data = Buffer.from(`${parts[0]!}.${parts[1]!}`);
		const signature = Buffer.from(parts[2]!, 'base64url');
		// JOSE's ES256 signature is raw r||s (64 bytes), not DER: say so to node:crypto.
		let valid = false;
		try {
			valid = alg === 'ES256'
				? signature.length === 64 && verify('sha256', data, {key: key.publicKey, dsaEncoding: 'ieee-p1363'}, signature)
				: verify(null, data, key.publicKey, signature);
		} catch {
			// A signature OpenSSL cannot even parse is simply not valid.
		}

		if (!valid) {
			return reject(`signature check failed: the JWT is not signed by the private key of ${shown(kid)}.`);
		}

		if (payload['sub'] !== kid) {
			return reject(`sub check failed: sub must equal kid ${shown(kid)}; ${found('sub', payload['sub'])}.`);
		}

		if (payload['iss'] !== 'cdp') {
			return reject(`iss check failed: iss must be "cdp"; ${found('iss', payload['iss'])}.`);
		}

		const {nbf, exp, iat} = payload;
		if (typeof nbf !== 'number' || typeof exp !== 'number' || !Number.isFinite(nbf) || !Number.isFinite(exp)) {
			return reject('nbf/exp check failed: nbf and exp must be numbers of seconds since the epoch.');
		}

		if (exp <= nbf || exp - nbf > maximumLifetimeSeconds) {
			return reject(`lifetime check failed: exp is ${exp - nbf} s after nbf; it must be after nbf and at most ${maximumLifetimeSeconds} s.`);
		}

		const now = this.#now() / 1000;
		if (nbf > now + leewaySeconds) {
			return reject(`nbf check failed: the JWT is not yet valid for another ${Math.ceil(nbf - now)} s; check the clock.`);
		}

		// iat is optional (the Node CDP SDK sends it, the Python SDK does not); when present it must be a time not in the future.
		if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) {
			return reject('iat check failed: iat, when sent, must be a number of seconds since the epoch.');
		}

		if (typeof iat === 'number' && iat > now + leewaySeconds) {
			return reject(`iat check failed: the JWT says it was issued ${Math.ceil(iat - now)} s from now; check the clock.`);
		}

		if (exp < now - leewaySeconds) {
			return reject(`exp check failed: the JWT expired ${Math.floor(now - exp)} s ago; sign a fresh JWT for every request, and check the clock.`, 'expired_token');
		}

		const expected = `${target.method} ${target.host ?? ''}${target.path}`;
		if (target.host === undefined || target.host === '') {
			return reject('uri check failed: the request has no Host header to match the JWT\'s uri against.');
		}

		const signed = signedUris(payload);
		if (!signed.ok) {
			return reject(`uri check failed: ${signed.reason}; sign ${shown(expected)}.`);
		}

		if (!signed.uris.includes(expected)) {
			if (signed.uris.some((entry) => entry.includes('?'))) {
				return reject(`uri check failed: ${signed.claim} must not carry the query string; sign ${shown(expected)}.`);
			}

			const signedFor = signed.uris.length === 1 ? shown(signed.uris[0]) : `${signed.uris.length} requests (${signed.uris.slice(0, 3).map(shown).join(', ')}${signed.uris.length > 3 ? ', …' : ''})`;
			return reject(`uri check failed: the JWT is for ${signedFor}, but this request is ${shown(expected)}.`);
		}

		if (typeof nonce !== 'string' || nonce === '') {
			return reject('nonce check failed: the JWT header has no nonce.');
		}

		this.#forgetExpired(now);
		if (this.#nonces.has(nonce)) {
			return reject('nonce check failed: this nonce was already used; sign a fresh JWT for every request.');
		}

		this.#nonces.set(nonce, exp);
		return {ok: true, key};
	}

	/** How many nonces are remembered; for tests of the memory bound. */
	get rememberedNonces(): number {
		return this.#nonces.size;
	}

	#forgetExpired(now: number): void {
		// Seen order is near exp order (exp lies within lifetime + leeway of the time seen), so stopping
		// at the first live entry keeps this O(1) amortized and leaves stale entries at most that long.
		for (const [nonce, exp] of this.#nonces) {
			if (exp >= now - leewaySeconds) {
				break;
			}

			this.#nonces.delete(nonce);
		}
	}
}
