/**
 * `npx tsx test/bench/jwt.ts`: what one request's JWT costs, signed our way
 * (node:crypto, synchronous, config/jwt-sign.ts) against the well-kept library
 * (`jose`'s SignJWT, asynchronous, WebCrypto underneath), for both key types.
 * jose is given the same KeyObject the client holds, and also a CryptoKey
 * imported once (its fastest path). Medians of --runs batches of --count
 * signatures each; microseconds per JWT, and the ratio to node:crypto.
 *
 * Options: --count N (default 2000), --runs N (default 7).
 */
import {generateKeyPairSync, webcrypto, type KeyObject} from 'node:crypto';
import process from 'node:process';
import {parseArgs} from 'node:util';
import {SignJWT} from 'jose';
import {CdpKey, type CdpKeyAlgorithm} from '../../source/config/cdp-key.js';
import {requestUri, signRequestJwt} from '../../source/config/jwt-sign.js';

const {values} = parseArgs({options: {count: {type: 'string', default: '2000'}, runs: {type: 'string', default: '7'}}});
const count = Number(values.count);
const runs = Number(values.runs);
const url = 'http://127.0.0.1:4010/v2/accounts?limit=100&starting_after=abc';

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(run: () => unknown): Promise<number> {
	// Warm-up, then batches: microseconds per call.
	for (let index = 0; index < 200; index++) {
		await run();
	}

	const samples: number[] = [];
	for (let batch = 0; batch < runs; batch++) {
		const started = performance.now();
		for (let index = 0; index < count; index++) {
			await run();
		}

		samples.push(((performance.now() - started) * 1000) / count);
	}

	return median(samples);
}

async function joseSign(algorithm: CdpKeyAlgorithm, name: string, key: KeyObject | webcrypto.CryptoKey): Promise<string> {
	const now = Math.floor(Date.now() / 1000);
	return new SignJWT({uri: requestUri('GET', url)})
		.setProtectedHeader({alg: algorithm, kid: name, typ: 'JWT', nonce: webcrypto.getRandomValues(new Uint8Array(16)).reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '')})
		.setSubject(name)
		.setIssuer('cdp')
		.setNotBefore(now)
		.setExpirationTime(now + 120)
		.sign(key);
}

const rows: string[] = [];
for (const algorithm of ['ES256', 'EdDSA'] as const) {
	const {privateKey} = algorithm === 'ES256' ? generateKeyPairSync('ec', {namedCurve: 'P-256'}) : generateKeyPairSync('ed25519');
	const key = new CdpKey('organizations/bench/apiKeys/bench', algorithm, privateKey);
	// Node 20 has no KeyObject.toCryptoKey: import the same key through WebCrypto.
	const cryptoKey = await webcrypto.subtle.importKey('pkcs8', privateKey.export({format: 'der', type: 'pkcs8'}), algorithm === 'ES256' ? {name: 'ECDSA', namedCurve: 'P-256'} : {name: 'Ed25519'}, false, ['sign']);
	const ours = await measure(() => signRequestJwt(key, {method: 'GET', url}));
	const joseKeyObject = await measure(async () => joseSign(algorithm, key.name, privateKey));
	const joseCryptoKey = await measure(async () => joseSign(algorithm, key.name, cryptoKey));
	rows.push(
		`${algorithm.padEnd(6)} node:crypto        ${ours.toFixed(1).padStart(7)} µs/JWT  1.00x`,
		`${algorithm.padEnd(6)} jose (KeyObject)   ${joseKeyObject.toFixed(1).padStart(7)} µs/JWT  ${(joseKeyObject / ours).toFixed(2)}x`,
		`${algorithm.padEnd(6)} jose (CryptoKey)   ${joseCryptoKey.toFixed(1).padStart(7)} µs/JWT  ${(joseCryptoKey / ours).toFixed(2)}x`,
	);
}

process.stdout.write(`JWT signing per request, medians of ${runs} x ${count} (Node ${process.version}):\n${rows.join('\n')}\n`);
