/** Reading CDP keys in every shape the key portal and users produce, and refusing the rest in one sentence that never quotes the key. */
import {generateKeyPairSync, sign, verify, type KeyObject} from 'node:crypto';
import {chmodSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {inspect} from 'node:util';
import {afterAll, describe, expect, it} from 'vitest';
import {type CdpKey, CdpKeyError, keyFileModeWarning, parseKeyFile, parseKeyParts, readKeyFile} from '../../source/config/cdp-key.js';
import {UsageError} from '../../source/text/errors.js';

const ec = generateKeyPairSync('ec', {namedCurve: 'P-256'});
const ed = generateKeyPairSync('ed25519');
const sec1 = String(ec.privateKey.export({format: 'pem', type: 'sec1'}));
const ecPkcs8 = String(ec.privateKey.export({format: 'pem', type: 'pkcs8'}));
const edPkcs8 = String(ed.privateKey.export({format: 'pem', type: 'pkcs8'}));
const edJwk = ed.privateKey.export({format: 'jwk'});
const edSeed = Buffer.from(edJwk.d!, 'base64url');
const edPublic = Buffer.from(edJwk.x!, 'base64url');
const seed32 = edSeed.toString('base64');
const seedAndPublic64 = Buffer.concat([edSeed, edPublic]).toString('base64');
const rsaPkcs8 = String(generateKeyPairSync('rsa', {modulusLength: 1024}).privateKey.export({format: 'pem', type: 'pkcs8'}));
const rsaPkcs1 = String(generateKeyPairSync('rsa', {modulusLength: 1024}).privateKey.export({format: 'pem', type: 'pkcs1'}));
const p384Sec1 = String(generateKeyPairSync('ec', {namedCurve: 'P-384'}).privateKey.export({format: 'pem', type: 'sec1'}));
const p384Pkcs8 = String(generateKeyPairSync('ec', {namedCurve: 'P-384'}).privateKey.export({format: 'pem', type: 'pkcs8'}));
const keyTexts = [sec1, ecPkcs8, edPkcs8, seed32, seedAndPublic64, rsaPkcs8, rsaPkcs1, p384Sec1, p384Pkcs8];

const name = 'organizations/0f0e/apiKeys/9a8b';
const file = (fields: Record<string, unknown>) => JSON.stringify(fields);

/** The public key a parsed key signs for, checked by signing and verifying (not by comparing objects). */
function signsFor(key: CdpKey, publicKey: KeyObject): boolean {
	const data = Buffer.from('probe');
	const algorithm = key.algorithm === 'ES256' ? 'sha256' : null;
	return verify(algorithm, data, publicKey, sign(algorithm, data, key.reveal()));
}

/** Every 12-character run of a key's base64 body: none may appear in a message. */
function expectNoKeyText(message: string): void {
	for (const text of keyTexts) {
		const body = text.replaceAll(/-----[^-]+-----/g, '').replaceAll(/\s+/g, '');
		for (let start = 0; start + 12 <= body.length; start += 6) {
			expect(message).not.toContain(body.slice(start, start + 12));
		}
	}
}

function failure(run: () => unknown): CdpKeyError {
	try {
		run();
	} catch (error: unknown) {
		expect(error).toBeInstanceOf(CdpKeyError);
		expect(error).toBeInstanceOf(UsageError);
		const keyError = error as CdpKeyError;
		expect(keyError.exitCode).toBe(2);
		expectNoKeyText(keyError.message);
		expect(keyError.stack ?? '').not.toContain('BEGIN');
		return keyError;
	}

	throw new Error('expected a CdpKeyError');
}

describe('key shapes that are accepted', () => {
	it('ECDSA P-256 as SEC1 PEM is ES256', () => {
		const key = parseKeyFile(file({name, privateKey: sec1}), 'k.json');
		expect(key.algorithm).toBe('ES256');
		expect(key.name).toBe(name);
		expect(signsFor(key, ec.publicKey)).toBe(true);
	});

	it('SEC1 PEM after an EC PARAMETERS block (as openssl ecparam -genkey writes it) is ES256', () => {
		const withParameters = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${sec1}`;
		expect(signsFor(parseKeyFile(file({name, privateKey: withParameters}), 'k.json'), ec.publicKey)).toBe(true);
	});

	it('ECDSA P-256 as PKCS#8 PEM is ES256', () => {
		const key = parseKeyFile(file({name, privateKey: ecPkcs8}), 'k.json');
		expect(key.algorithm).toBe('ES256');
		expect(signsFor(key, ec.publicKey)).toBe(true);
	});

	it('Ed25519 as PKCS#8 PEM is EdDSA', () => {
		const key = parseKeyFile(file({name, privateKey: edPkcs8}), 'k.json');
		expect(key.algorithm).toBe('EdDSA');
		expect(signsFor(key, ed.publicKey)).toBe(true);
	});

	it('base64 of a 32-byte Ed25519 seed is EdDSA', () => {
		const key = parseKeyFile(file({id: 'c0ffee00-1111-2222-3333-444455556666', privateKey: seed32}), 'k.json');
		expect(key.algorithm).toBe('EdDSA');
		expect(key.name).toBe('c0ffee00-1111-2222-3333-444455556666');
		expect(signsFor(key, ed.publicKey)).toBe(true);
	});

	it('base64 of 64 bytes (seed, then public key) is EdDSA', () => {
		const key = parseKeyFile(file({id: 'abc', privateKey: seedAndPublic64}), 'k.json');
		expect(key.algorithm).toBe('EdDSA');
		expect(signsFor(key, ed.publicKey)).toBe(true);
	});

	it('hex of a 32-byte seed, or of 64 bytes (seed, then public key), is EdDSA: read as base64 it would be 48 or 96 bytes', () => {
		for (const hex of [edSeed.toString('hex'), Buffer.concat([edSeed, edPublic]).toString('hex').toUpperCase()]) {
			const key = parseKeyFile(file({name, privateKey: hex}), 'k.json');
			expect(key.algorithm).toBe('EdDSA');
			expect(signsFor(key, ed.publicKey)).toBe(true);
		}
	});

	it('a literal backslash-n inside the JSON string is a newline', () => {
		const escaped = sec1.replaceAll('\n', '\\n');
		expect(escaped).not.toContain('\n');
		expect(signsFor(parseKeyFile(file({name, privateKey: escaped}), 'k.json'), ec.publicKey)).toBe(true);
		// The same from the environment, as a .env file holds it.
		expect(signsFor(parseKeyParts({name, privateKey: edPkcs8.replaceAll('\n', '\\n')}), ed.publicKey)).toBe(true);
	});

	it('prefers name over id, and takes id when there is no name', () => {
		expect(parseKeyFile(file({id: 'the-id', name: 'the-name', privateKey: sec1}), 'k.json').name).toBe('the-name');
		expect(parseKeyFile(file({id: 'the-id', privateKey: sec1}), 'k.json').name).toBe('the-id');
	});

	it('takes a name and key from the environment', () => {
		const key = parseKeyParts({name, privateKey: seedAndPublic64});
		expect(key.name).toBe(name);
		expect(key.algorithm).toBe('EdDSA');
	});

	it('never prints the key: string, JSON, inspect', () => {
		const key = parseKeyFile(file({name, privateKey: sec1}), 'k.json');
		for (const shown of [String(key), JSON.stringify({key}), inspect(key), inspect({key}, {depth: 5}), `${key}`]) {
			expect(shown).toContain('[redacted]');
			expectNoKeyText(shown);
		}
	});
});

describe('key files and keys that are refused, in one sentence naming the source', () => {
	it('malformed JSON', () => {
		expect(failure(() => parseKeyFile(`{"name": "x", "privateKey": "${seed32}"`, 'keys/cdp.json')).message)
			.toBe('The key file \'keys/cdp.json\' is not valid JSON; download the key file again from the key portal.');
	});

	it('JSON that is not an object', () => {
		expect(failure(() => parseKeyFile('[1]', 'k.json')).message)
			.toBe('The key file \'k.json\' does not hold a JSON object with "name" and "privateKey"; download the key file again from the key portal.');
	});

	it('missing privateKey', () => {
		expect(failure(() => parseKeyFile(file({name}), 'k.json')).message)
			.toBe('The key file \'k.json\' has no "privateKey"; download the key file again from the key portal.');
	});

	it('missing name and id', () => {
		expect(failure(() => parseKeyFile(file({privateKey: sec1}), 'k.json')).message)
			.toBe('The key file \'k.json\' has no "name" (or "id") naming the key; download the key file again from the key portal.');
	});

	it('an RSA key, PKCS#8 or PKCS#1', () => {
		const sentence = 'The "privateKey" in the key file \'k.json\' is an RSA key; pagewalk signs with ECDSA P-256 (ES256) or Ed25519 (EdDSA) keys; create one of those in the key portal.';
		expect(failure(() => parseKeyFile(file({name, privateKey: rsaPkcs8}), 'k.json')).message).toBe(sentence);
		expect(failure(() => parseKeyFile(file({name, privateKey: rsaPkcs1}), 'k.json')).message).toBe(sentence);
	});

	it('a P-384 key, SEC1 or PKCS#8', () => {
		const sentence = 'The "privateKey" in the key file \'k.json\' is an ECDSA key on curve P-384, not P-256; pagewalk signs with ECDSA P-256 (ES256) or Ed25519 (EdDSA) keys; create one of those in the key portal.';
		expect(failure(() => parseKeyFile(file({name, privateKey: p384Sec1}), 'k.json')).message).toBe(sentence);
		expect(failure(() => parseKeyFile(file({name, privateKey: p384Pkcs8}), 'k.json')).message).toBe(sentence);
	});

	it('names the environment variable when the key came from there', () => {
		expect(failure(() => parseKeyParts({name, privateKey: rsaPkcs8})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is an RSA key; pagewalk signs with ECDSA P-256 (ES256) or Ed25519 (EdDSA) keys; create one of those in the key portal.');
		expect(failure(() => parseKeyParts({name: ' ', privateKey: sec1})).message)
			.toBe('COINBASE_API_KEY_NAME is empty; it must hold the key\'s name from the key portal.');
		expect(failure(() => parseKeyParts({name, privateKey: ''})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is empty; it must hold the private key from the key portal.');
	});

	it('a public key instead of the private one', () => {
		const publicPem = String(ec.publicKey.export({format: 'pem', type: 'spki'}));
		expect(failure(() => parseKeyParts({name, privateKey: publicPem})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is a public key; give the private key from the key file the portal gave.');
	});

	it('a damaged PEM', () => {
		const damaged = sec1.replace(/\n[A-Za-z\d+/]{20}/, '\nAAAA');
		expect(failure(() => parseKeyParts({name, privateKey: damaged})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is not a readable PEM private key; copy it again from the key portal, whole.');
	});

	it('base64 of the wrong length, text that is neither PEM nor base64, mismatched 64-byte halves', () => {
		expect(failure(() => parseKeyParts({name, privateKey: Buffer.alloc(48, 7).toString('base64')})).message)
			.toBe('COINBASE_API_PRIVATE_KEY decodes from base64 to 48 bytes, but an Ed25519 key is 32 bytes (the seed) or 64 (seed, then public key); copy it again from the key portal.');
		// Hex of another length says it is hex, not what it would decode to as base64.
		expect(failure(() => parseKeyParts({name, privateKey: Buffer.alloc(48, 7).toString('hex')})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is hex of 48 bytes, but an Ed25519 key is 32 bytes (64 hex digits: the seed) or 64 (128 digits: seed, then public key); copy it again from the key portal.');
		const mismatchedHex = Buffer.concat([edSeed, Buffer.alloc(32, 1)]).toString('hex');
		expect(failure(() => parseKeyParts({name, privateKey: mismatchedHex})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is 64 bytes whose second half is not the public key of the first; copy it again from the key portal.');
		expect(failure(() => parseKeyParts({name, privateKey: 'not a key at all!'})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is neither a PEM private key nor base64 of an Ed25519 key; copy it again from the key portal.');
		const mismatched = Buffer.concat([edSeed, Buffer.alloc(32, 1)]).toString('base64');
		expect(failure(() => parseKeyParts({name, privateKey: mismatched})).message)
			.toBe('COINBASE_API_PRIVATE_KEY is 64 bytes whose second half is not the public key of the first; copy it again from the key portal.');
	});
});

describe('key files on disk', () => {
	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-key-test-'));
	afterAll(() => {
		rmSync(directory, {recursive: true, force: true});
	});

	it('reads a private file without a warning', () => {
		const keyPath = path.join(directory, 'private.json');
		writeFileSync(keyPath, file({name, privateKey: sec1}), {mode: 0o600});
		const {key, warning} = readKeyFile(keyPath);
		expect(key.algorithm).toBe('ES256');
		expect(warning).toBeUndefined();
	});

	it('warns, as ssh does, about a file others can read', () => {
		const keyPath = path.join(directory, 'open.json');
		writeFileSync(keyPath, file({name, privateKey: sec1}));
		chmodSync(keyPath, 0o644);
		expect(readKeyFile(keyPath).warning)
			.toBe(`Warning: permissions 0644 for '${keyPath}' are too open; a private key file must not be readable by others: chmod 600 ${keyPath}`);
	});

	it('reads a key file that starts with a UTF-8 byte order mark (as Notepad saves it), saying nothing', () => {
		const keyPath = path.join(directory, 'bom.json');
		writeFileSync(keyPath, `\uFEFF${file({name, privateKey: sec1})}`, {mode: 0o600});
		const {key, warning} = readKeyFile(keyPath);
		expect(key.name).toBe(name);
		expect(signsFor(key, ec.publicKey)).toBe(true);
		expect(warning).toBeUndefined();
	});

	it('mode warnings: group-readable too; quoted paths; none on Windows', () => {
		expect(keyFileModeWarning('k.json', 0o100640)).toBe('Warning: permissions 0640 for \'k.json\' are too open; a private key file must not be readable by others: chmod 600 k.json');
		expect(keyFileModeWarning('my keys/k.json', 0o604)).toContain('chmod 600 \'my keys/k.json\'');
		expect(keyFileModeWarning('k.json', 0o600)).toBeUndefined();
		expect(keyFileModeWarning('k.json', 0o644, 'win32')).toBeUndefined();
	});

	it('a missing file, a directory, an oversized file', () => {
		expect(failure(() => readKeyFile(path.join(directory, 'nope.json'))).message)
			.toBe(`The key file '${path.join(directory, 'nope.json')}' does not exist; check --key-file or COINBASE_API_KEY_FILE.`);
		expect(failure(() => readKeyFile(directory)).message)
			.toBe(`The key file '${directory}' is a directory; give the path of the JSON key file itself.`);
		const big = path.join(directory, 'big.json');
		writeFileSync(big, 'x'.repeat(100_000), {mode: 0o600});
		expect(failure(() => readKeyFile(big)).message).toBe(`The key file '${big}' is 100000 bytes, too large to be a key file (they are under 1 KiB); check the path.`);
	});

	it('makes a hostile file name inert in the sentence', () => {
		const message = failure(() => parseKeyFile('{', 'evil\u001B]0;title\u0007.json')).message;
		expect(message).not.toContain('\u001B');
		expect(message).not.toContain('\u0007');
	});
});
