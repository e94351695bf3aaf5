/**
 * CDP secret API keys: a key name and a private key, from the JSON file the
 * key portal gives or from two environment variables. The type (ES256 or
 * EdDSA) is read from the key itself, never from a setting, so a user cannot
 * pick the wrong one. Every error names where the key came from and what is
 * wrong with it, and never quotes the key's text.
 */
import {createPrivateKey, createPublicKey, type KeyObject} from 'node:crypto';
import process from 'node:process';
import {UsageError} from '../text/errors.js';
import {inert} from '../text/inert.js';
import {Redacted, rememberKeyMaterial} from '../text/secret.js';
import {shellWord} from '../text/shell-quote.js';
import {FileReadError, readRegularFile} from './regular-file.js';
import {credentialCommands, flag} from './hints.js';
import {quotePath} from './profiles.js';

export type CdpKeyAlgorithm = 'ES256' | 'EdDSA';

/**
 * A parsed key. Like a Secret it prints as a redaction mark everywhere
 * (string conversion, JSON, util.inspect), so an options object holding it can
 * be logged without leaking it; only the signer calls `reveal()`.
 */
export class CdpKey extends Redacted {
	/** The key's name: the JWT's `kid` and `sub`. Not secret: the debug view shows it. */
	readonly name: string;
	readonly algorithm: CdpKeyAlgorithm;
	readonly #privateKey: KeyObject;

	constructor(name: string, algorithm: CdpKeyAlgorithm, privateKey: KeyObject) {
		super();
		this.name = name;
		this.algorithm = algorithm;
		this.#privateKey = privateKey;
	}

	/** The private key, for signing only. */
	reveal(): KeyObject {
		return this.#privateKey;
	}

	/** The public half, for tests and verification. */
	publicKey(): KeyObject {
		return createPublicKey(this.#privateKey);
	}

}

/** A key that cannot be used: one sentence naming its source, exit status 2 (nothing was sent). */
export class CdpKeyError extends UsageError {
	constructor(message: string) {
		super(message);
		this.name = 'CdpKeyError';
	}
}

/**
 * How each part of a key is named in an error: `name` and `privateKey` are
 * phrases such as "COINBASE_API_PRIVATE_KEY" or "the key file 'k.json'".
 */
export type KeyLabels = {name: string; privateKey: string};

/** Env variables of the second key source, named in its errors. */
export const keyEnvironment = {name: 'COINBASE_API_KEY_NAME', privateKey: 'COINBASE_API_PRIVATE_KEY', file: 'COINBASE_API_KEY_FILE'} as const;

/** Key files are a few hundred bytes; anything far larger is not one, and is not read whole. */
const maximumKeyFileBytes = 64 * 1024;

// The PKCS#8 DER prefix of an Ed25519 private key (RFC 8410): wrapping a raw
// 32-byte seed in it lets node:crypto load the seed without a JWK detour.
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Parses the text of a portal key file (`{"name"|"id", "privateKey"}`); `path` only names it in errors. */
export function parseKeyFile(text: string, path: string): CdpKey {
	const where = `the key file ${quotePath(path)}`;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		// JSON.parse's own message quotes the text around the fault, which may be key material.
		throw new CdpKeyError(`${capitalize(where)} is not valid JSON; download the key file again from the key portal.`);
	}

	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new CdpKeyError(`${capitalize(where)} does not hold a JSON object with "name" and "privateKey"; download the key file again from the key portal.`);
	}

	const record = value as Record<string, unknown>;
	// The provider's own SDK reads `name`, or else `id`: older files carry only an id.
	const name = typeof record['name'] === 'string' && record['name'] !== '' ? record['name'] : record['id'];
	if (typeof name !== 'string' || name.trim() === '') {
		throw new CdpKeyError(`${capitalize(where)} has no "name" (or "id") naming the key; download the key file again from the key portal.`);
	}

	if (record['privateKey'] === undefined) {
		throw new CdpKeyError(`${capitalize(where)} has no "privateKey"; download the key file again from the key portal.`);
	}

	if (typeof record['privateKey'] !== 'string') {
		throw new CdpKeyError(`The "privateKey" in ${where} is not a string; download the key file again from the key portal.`);
	}

	return parseKeyParts({name, privateKey: record['privateKey']}, {name: where, privateKey: `the "privateKey" in ${where}`});
}

/** Builds a key from a name and a private key's text, such as COINBASE_API_KEY_NAME and COINBASE_API_PRIVATE_KEY. */
export function parseKeyParts(parts: {name: string; privateKey: string}, labels: KeyLabels = keyEnvironment): CdpKey {
	const name = parts.name.trim();
	if (name === '') {
		throw new CdpKeyError(`${capitalize(labels.name)} is empty; it must hold the key's name from the key portal.`);
	}

	const {algorithm, key} = parsePrivateKey(parts.privateKey, labels.privateKey);
	return new CdpKey(name, algorithm, key);
}

function parsePrivateKey(raw: string, label: string): {algorithm: CdpKeyAlgorithm; key: KeyObject} {
	// Before any check: even a key refused here is redacted wherever text of it turns up.
	rememberKeyMaterial(raw);
	const where = capitalize(label);
	// A literal backslash-n stands for a newline, as the provider's SDKs read it (JSON escaped twice, .env files);
	// neither PEM nor base64 ever holds a backslash, so the replacement cannot damage a key.
	const text = raw.replaceAll('\\n', '\n').replaceAll('\r\n', '\n').trim();
	if (text === '') {
		throw new CdpKeyError(`${where} is empty; it must hold the private key from the key portal.`);
	}

	if (text.includes('-----BEGIN')) {
		return parsePem(text, where);
	}

	return parseEd25519Base64(text, where);
}

const supported = 'pagewalk signs with ECDSA P-256 (ES256) or Ed25519 (EdDSA) keys; create one of those in the key portal';

function parsePem(text: string, where: string): {algorithm: CdpKeyAlgorithm; key: KeyObject} {
	const label = /-----BEGIN ([A-Z\d ]+)-----/.exec(text)?.[1];
	if (label === 'PUBLIC KEY' || label === 'EC PUBLIC KEY' || (label === undefined && /BEGIN [A-Z ]*PUBLIC KEY/.test(text))) {
		throw new CdpKeyError(`${where} is a public key; give the private key from the key file the portal gave.`);
	}

	if (label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type: *4,ENCRYPTED/.test(text)) {
		throw new CdpKeyError(`${where} is encrypted with a passphrase; give the unencrypted private key from the key portal.`);
	}

	if (label === 'RSA PRIVATE KEY') {
		throw new CdpKeyError(`${where} is an RSA key; ${supported}.`);
	}

	if (label === 'OPENSSH PRIVATE KEY') {
		throw new CdpKeyError(`${where} is in OpenSSH format; give the PEM private key from the key portal.`);
	}

	let key: KeyObject;
	try {
		key = createPrivateKey({key: text, format: 'pem'});
	} catch {
		// OpenSSL's reason says nothing a user can act on, and never the key: one sentence of ours instead.
		throw new CdpKeyError(`${where} is not a readable PEM private key; copy it again from the key portal, whole.`);
	}

	return checkType(key, where);
}

function checkType(key: KeyObject, where: string): {algorithm: CdpKeyAlgorithm; key: KeyObject} {
	const type = key.asymmetricKeyType;
	if (type === 'ed25519') {
		return {algorithm: 'EdDSA', key};
	}

	if (type === 'ec') {
		const curve = key.asymmetricKeyDetails?.namedCurve;
		if (curve === 'prime256v1') {
			return {algorithm: 'ES256', key};
		}

		const names: Record<string, string> = {secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1'};
		const shown = curve === undefined ? 'an unnamed curve' : names[curve] ? `curve ${names[curve]}` : `curve ${curve}`;
		throw new CdpKeyError(`${where} is an ECDSA key on ${shown}, not P-256; ${supported}.`);
	}

	const kinds: Record<string, string> = {rsa: 'an RSA key', 'rsa-pss': 'an RSA-PSS key', dsa: 'a DSA key', ed448: 'an Ed448 key', x25519: 'an X25519 key', x448: 'an X448 key', dh: 'a Diffie-Hellman key'};
	throw new CdpKeyError(`${where} is ${kinds[type ?? ''] ?? 'a key of an unsupported type'}; ${supported}.`);
}

function parseEd25519Base64(text: string, where: string): {algorithm: CdpKeyAlgorithm; key: KeyObject} {
	const compact = text.replaceAll(/\s+/g, '');
	// Strict base64 (standard or URL alphabet): Buffer.from would silently skip stray characters.
	if (!/^(?:[A-Za-z\d+/]+={0,2}|[A-Za-z\d_-]+)$/.test(compact)) {
		throw new CdpKeyError(`${where} is neither a PEM private key nor base64 of an Ed25519 key; copy it again from the key portal.`);
	}

	let bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
	if (bytes.length !== 32 && bytes.length !== 64 && /^(?:[\da-f]{2})+$/i.test(compact)) {
		// Hex, as other Ed25519 tools write a key: 64 or 128 digits read as base64
		// give 48 or 96 bytes, never a key, so reading them as hex cannot mistake one.
		bytes = Buffer.from(compact, 'hex');
		if (bytes.length !== 32 && bytes.length !== 64) {
			throw new CdpKeyError(`${where} is hex of ${bytes.length} bytes, but an Ed25519 key is 32 bytes (64 hex digits: the seed) or 64 (128 digits: seed, then public key); copy it again from the key portal.`);
		}
	}

	if (bytes.length !== 32 && bytes.length !== 64) {
		throw new CdpKeyError(`${where} decodes from base64 to ${bytes.length} bytes, but an Ed25519 key is 32 bytes (the seed) or 64 (seed, then public key); copy it again from the key portal.`);
	}

	const seed = bytes.subarray(0, 32);
	let key: KeyObject;
	try {
		key = createPrivateKey({key: Buffer.concat([ed25519Pkcs8Prefix, seed]), format: 'der', type: 'pkcs8'});
	} catch {
		throw new CdpKeyError(`${where} is not a usable Ed25519 seed; copy it again from the key portal.`);
	}

	if (bytes.length === 64) {
		// The second half must be the first's public key: a mismatch means a damaged copy, better told now than as 401s later.
		const spki = createPublicKey(key).export({format: 'der', type: 'spki'});
		if (!spki.subarray(-32).equals(bytes.subarray(32))) {
			throw new CdpKeyError(`${where} is 64 bytes whose second half is not the public key of the first; copy it again from the key portal.`);
		}
	}

	return {algorithm: 'EdDSA', key};
}

/**
 * The one-line warning ssh gives for a private key file readable by group or
 * others, or undefined when the mode is private. POSIX modes only: on Windows
 * the bits do not describe access, so nothing is said.
 */
export function keyFileModeWarning(path: string, mode: number, platform: NodeJS.Platform = process.platform): string | undefined {
	if (platform === 'win32' || (mode & 0o077) === 0) {
		return undefined;
	}

	const octal = (mode & 0o777).toString(8).padStart(4, '0');
	// The path as one shell word, so the suggested command can be pasted as is.
	return `Warning: permissions ${octal} for ${quotePath(path)} are too open; a private key file must not be readable by others: chmod 600 ${shellWord(inert(path), /^[\w@%+=:,./-]+$/)}`;
}

/**
 * Reads and parses a key file: a missing, unreadable, oversized or malformed
 * file is a {@link CdpKeyError}, and so is anything but a regular file (a
 * device such as /dev/zero, a named pipe, a directory), refused without
 * reading or waiting on it (see regular-file.ts); a file others can read
 * gives `warning` (the key is still used, as ssh would not, because the user
 * may not own the file).
 */
export function readKeyFile(path: string): {key: CdpKey; warning: string | undefined} {
	const where = `The key file ${quotePath(path)}`;
	let text: string;
	let mode: number;
	try {
		({text, mode} = readRegularFile(path, {maxBytes: maximumKeyFileBytes}));
	} catch (error: unknown) {
		throw error instanceof FileReadError ? fileError(where, error) : error;
	}

	return {key: parseKeyFile(text, path), warning: keyFileModeWarning(path, mode)};
}

function fileError(where: string, error: FileReadError): CdpKeyError {
	switch (error.code) {
		case 'missing': {
			return new CdpKeyError(`${where} does not exist; check ${flag(credentialCommands, 'keyFile')} or ${keyEnvironment.file}.`);
		}

		case 'too-large': {
			return new CdpKeyError(`${where} ${error.phrase}, too large to be a key file (they are under 1 KiB); check the path.`);
		}

		case 'denied': {
			return new CdpKeyError(`${where} cannot be read (permission denied); make it readable by you, and only you (chmod 600).`);
		}

		case 'directory':
		case 'not-a-file': {
			return new CdpKeyError(`${where} ${error.phrase}; give the path of the JSON key file itself.`);
		}

		default: {
			return new CdpKeyError(`${where} ${error.phrase}; check the path.`);
		}
	}
}
