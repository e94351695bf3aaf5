/**
 * One JWT per request, as the account API wants for CDP keys: made right
 * before the request is sent, for that request's method, host and path only.
 *
 * Signed with node:crypto, not `jose`: bench:jwt finds node:crypto the
 * faster of the two (jose's WebCrypto path is asynchronous and converts a
 * KeyObject on every call; figures in docs/benchmarks.md), though either is
 * small beside a request. What
 * decides is that node:crypto is synchronous, so a JWT is made in the code
 * that builds a request's headers (retries, prefetch) with no await and no
 * window between signing and sending. A compact JWS is base64url of
 * two JSON objects and one signature: too little to be worth a runtime
 * dependency. `jose` stays a devDependency, to verify our JWTs independently
 * in the tests.
 */
import {randomBytes, sign} from 'node:crypto';
import {rememberJwt} from '../text/secret.js';
import type {CdpKey, CdpKeyAlgorithm} from './cdp-key.js';

/** What the account API accepts: a JWT lives at most two minutes. */
export const jwtLifetimeSeconds = 120;

export type JwtHeader = {alg: CdpKeyAlgorithm; kid: string; typ: 'JWT'; nonce: string};
export type JwtPayload = {sub: string; iss: 'cdp'; nbf: number; exp: number; uri: string};

export type SignRequest = {
	method: 'GET';
	/** The request's absolute URL; its query (if any) is left out of `uri`. */
	url: string | URL;
	/** Seconds since the epoch; default now. For tests. */
	now?: number;
	/** Default 16 random bytes in hex. For tests. */
	nonce?: string;
};

/**
 * The `uri` claim: method, one space, host (with its port only when not the
 * scheme's default, as URL.host gives it) and path WITHOUT the query. Signing
 * the whole next_uri, query included, is the classic page-2 401.
 */
export function requestUri(method: string, url: string | URL): string {
	const parsed = typeof url === 'string' ? new URL(url) : url;
	return `${method} ${parsed.host}${parsed.pathname}`;
}

/** A compact JWT (header.payload.signature) for one request. Never reuse it. */
export function signRequestJwt(key: CdpKey, request: SignRequest): string {
	return signRequest(key, request).jwt;
}

/**
 * signRequestJwt, also giving the header and payload it signed: the client
 * records them for the debug view without decoding the JWT again (that
 * decode cost a fifth of the signature, on every request).
 */
export function signRequest(key: CdpKey, request: SignRequest): {jwt: string; header: JwtHeader; payload: JwtPayload} {
	const now = request.now ?? Math.floor(Date.now() / 1000);
	const header: JwtHeader = {alg: key.algorithm, kid: key.name, typ: 'JWT', nonce: request.nonce ?? randomBytes(16).toString('hex')};
	const payload: JwtPayload = {sub: key.name, iss: 'cdp', nbf: now, exp: now + jwtLifetimeSeconds, uri: requestUri(request.method, request.url)};
	const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
	const data = Buffer.from(input);
	// JOSE wants ECDSA signatures as raw r||s (64 bytes), not node's default DER; Ed25519 takes no digest.
	const signature = key.algorithm === 'ES256'
		? sign('sha256', data, {key: key.reveal(), dsaEncoding: 'ieee-p1363'})
		: sign(null, data, key.reveal());
	const jwt = `${input}.${signature.toString('base64url')}`;
	// Every JWT is redacted from the moment it exists (the token command's too), in case a server echoes it.
	rememberJwt(jwt);
	return {jwt, header, payload};
}

function base64url(text: string): string {
	return Buffer.from(text).toString('base64url');
}

export type JwtClaims = {header: Partial<JwtHeader> & Record<string, unknown>; payload: Partial<JwtPayload> & Record<string, unknown>};

/**
 * The decoded header and payload of a JWT, never its signature: what the
 * debug view shows (kid, uri, nbf, exp) to someone chasing a 401. Undefined
 * when the text is not a JWT.
 */
export function decodeJwtClaims(jwt: string): JwtClaims | undefined {
	const parts = jwt.split('.');
	if (parts.length !== 3) {
		return undefined;
	}

	try {
		const header: unknown = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
		const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
		if (!isRecord(header) || !isRecord(payload)) {
			return undefined;
		}

		return {header, payload} as JwtClaims;
	} catch {
		return undefined;
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
