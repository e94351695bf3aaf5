/**
 * The sandbox's CDP secret API keys: for each account credential (full and
 * restricted) one ECDSA P-256 key and one Ed25519 key, derived from the seed
 * (the same keys on every run with the same seed, so a profile pointing at a
 * key file keeps working across restarts), in the file shapes people hold:
 * `name` + SEC1 PEM (the portal's download), the same EC key as PKCS#8 PEM
 * (the only EC form the Node CDP SDK reads), and `id` + base64 of seed then
 * public key for Ed25519.
 *
 * Key files go either into a directory the caller names (kept: `serve` uses
 * the state directory) or into a private temporary directory (0700, files
 * 0600) that goes away when the sandbox closes or the process exits.
 */
import {createECDH, createHmac, createPrivateKey, createPublicKey, type KeyObject} from 'node:crypto';
import {chmodSync, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import type {JwtAlgorithm, VerifiableKey} from './jwt-verify.js';
import type {Viewer} from '../data/ordered-index.js';

/** A key file as the portal gives it. */
export type KeyFile = {name: string; privateKey: string} | {id: string; privateKey: string};

/** The form of a key file's private key: SEC1 (`BEGIN EC PRIVATE KEY`), PKCS#8 (`BEGIN PRIVATE KEY`), or base64 (Ed25519). */
export type KeyForm = 'sec1' | 'pkcs8' | 'base64';

/** One file of a key: its form, its content, and where it was written (mode 0600), or undefined when key files are off. */
export type IssuedKeyFile = {form: KeyForm; keyFile: KeyFile; path: string | undefined};

/** One issued key, as startSandbox() returns it: no key objects, only what a client is given. */
export type SandboxKey = {
	/** The key's name: kid and sub of its JWTs. */
	name: string;
	algorithm: JwtAlgorithm;
	/** Which account credential the key stands for. */
	viewer: Viewer;
	/** The key file's content, in the portal's form (SEC1 for ES256, base64 for EdDSA). */
	keyFile: KeyFile;
	/** Where that file was written (mode 0600), or undefined when key files are off. */
	path: string | undefined;
	/** Every file of this key, the portal's form first; an ES256 key also comes as PKCS#8, as the Node CDP SDK reads it. */
	files: IssuedKeyFile[];
};

/** What the account API checks a JWT against. */
export type IssuedKey = VerifiableKey & {viewer: Viewer};

const viewers: readonly Viewer[] = ['full', 'restricted'];

/** The order n of P-256: a private scalar lies in [1, n - 1]. */
const p256Order = 0xff_ff_ff_ff_00_00_00_00_ff_ff_ff_ff_ff_ff_ff_ff_bc_e6_fa_ad_a7_17_9e_84_f3_b9_ca_c2_fc_63_25_51n;
/** DER of a PKCS#8 Ed25519 private key, up to its 32-byte seed. */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * 32 secret bytes for one key, from the seed and the key's label. node:crypto
 * builds both key types from such bytes, so no key library is needed; these
 * keys guard a local sandbox's public test data, never anything real.
 */
function secretBytes(seed: number, label: string): Buffer {
	return createHmac('sha256', 'pagewalk sandbox CDP keys').update(`${seed}/${label}`).digest();
}

function p256Key(secret: Buffer): {privateKey: KeyObject; publicKey: KeyObject} {
	const scalar = (BigInt(`0x${secret.toString('hex')}`) % (p256Order - 1n)) + 1n;
	const d = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
	const ecdh = createECDH('prime256v1');
	ecdh.setPrivateKey(d);
	const point = ecdh.getPublicKey();
	const privateKey = createPrivateKey({key: {kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url')}, format: 'jwk'});
	return {privateKey, publicKey: createPublicKey(privateKey)};
}

function ed25519Key(secret: Buffer): {privateKey: KeyObject; publicKey: KeyObject} {
	const privateKey = createPrivateKey({key: Buffer.concat([ed25519Pkcs8Prefix, secret]), format: 'der', type: 'pkcs8'});
	return {privateKey, publicKey: createPublicKey(privateKey)};
}

export function issueKeys(seed: number): {keys: SandboxKey[]; verifiable: IssuedKey[]} {
	const keys: SandboxKey[] = [];
	const verifiable: IssuedKey[] = [];
	const organization = `sandbox-${seed.toString(16).padStart(8, '0')}`;
	for (const viewer of viewers) {
		const ec = p256Key(secretBytes(seed, `${viewer}/es256`));
		const ecName = `organizations/${organization}/apiKeys/account-${viewer}-es256`;
		const sec1: KeyFile = {name: ecName, privateKey: String(ec.privateKey.export({format: 'pem', type: 'sec1'}))};
		const pkcs8: KeyFile = {name: ecName, privateKey: String(ec.privateKey.export({format: 'pem', type: 'pkcs8'}))};
		keys.push({name: ecName, algorithm: 'ES256', viewer, keyFile: sec1, path: undefined, files: [{form: 'sec1', keyFile: sec1, path: undefined}, {form: 'pkcs8', keyFile: pkcs8, path: undefined}]});
		verifiable.push({name: ecName, algorithm: 'ES256', publicKey: ec.publicKey, viewer});

		const ed = ed25519Key(secretBytes(seed, `${viewer}/ed25519`));
		const edName = `${organization}-account-${viewer}-ed25519`;
		const raw: KeyFile = {id: edName, privateKey: ed25519Base64(ed.privateKey)};
		keys.push({name: edName, algorithm: 'EdDSA', viewer, keyFile: raw, path: undefined, files: [{form: 'base64', keyFile: raw, path: undefined}]});
		verifiable.push({name: edName, algorithm: 'EdDSA', publicKey: ed.publicKey, viewer});
	}

	return {keys, verifiable};
}

/** Base64 of 64 bytes, seed then public key: the portal's raw Ed25519 form. */
function ed25519Base64(privateKey: KeyObject): string {
	const jwk = privateKey.export({format: 'jwk'});
	return Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64');
}

// Directories still to remove if the process exits without close(): one exit hook for all sandboxes.
const pending = new Set<string>();
let hooked = false;

function removeAll(): void {
	for (const directory of pending) {
		rmSync(directory, {recursive: true, force: true});
	}

	pending.clear();
}

function fileName(key: SandboxKey, form: KeyForm): string {
	return `${key.name.replaceAll(/[^\w.-]+/g, '_')}${form === 'pkcs8' ? '.pkcs8' : ''}.json`;
}

/**
 * Writes each key's files (0600). Without `directory`, into a new private
 * temporary directory (0700) removed by the returned function; with one, into
 * that directory (made 0700 if missing; refused if it is a link or not a
 * directory), kept after the sandbox stops, each file replaced whole.
 */
export function writeKeyFiles(keys: SandboxKey[], directory?: string): () => void {
	if (directory !== undefined) {
		keepKeyFiles(keys, directory);
		return () => undefined;
	}

	const temporary = mkdtempSync(path.join(tmpdir(), 'pagewalk-keys-'));
	chmodSync(temporary, 0o700);
	pending.add(temporary);
	if (!hooked) {
		hooked = true;
		process.once('exit', removeAll);
	}

	for (const key of keys) {
		for (const file of key.files) {
			file.path = path.join(temporary, fileName(key, file.form));
			// `wx`: never follow or reuse something already there; mode 0600 from the first byte.
			writeFileSync(file.path, `${JSON.stringify(file.keyFile, null, 2)}\n`, {mode: 0o600, flag: 'wx'});
		}

		key.path = key.files[0]!.path;
	}

	return () => {
		pending.delete(temporary);
		rmSync(temporary, {recursive: true, force: true});
	};
}

/**
 * Key files that cannot be kept where they were asked for: one sentence. The
 * sandbox shares no error type with the commands; they tell it by its name.
 */
export class SandboxKeyFileError extends Error {
	constructor(message: string, options: {cause?: unknown} = {}) {
		super(message, {cause: options.cause});
		this.name = 'SandboxKeyFileError';
	}
}

function keepKeyFiles(keys: SandboxKey[], directory: string): void {
	// Made inert where it is printed (the commands' error report), as every message is.
	const shown = `'${directory}'`;
	try {
		// One level only, never recursive: the caller makes the folders it is in (see commands/setup/state-folder.ts).
		mkdirSync(directory, {mode: 0o700});
	} catch (error: unknown) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
			throw new SandboxKeyFileError(`The key folder ${shown} cannot be made (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); pick another state folder.`, {cause: error});
		}
	}

	const stat = lstatSync(directory);
	if (!stat.isDirectory()) {
		throw new SandboxKeyFileError(`The key folder ${shown} is not a folder (a link or a file is in its place); remove it or pick another state folder.`);
	}

	try {
		chmodSync(directory, 0o700);
		for (const key of keys) {
			for (const file of key.files) {
				file.path = path.join(directory, fileName(key, file.form));
				// A new file beside it, renamed over the old one: never written through a link left in its place.
				const next = `${file.path}.${process.pid}.tmp`;
				const fd = openSync(next, 'wx', 0o600);
				try {
					try {
						writeFileSync(fd, `${JSON.stringify(file.keyFile, null, 2)}\n`);
					} finally {
						closeSync(fd);
					}

					renameSync(next, file.path);
				} catch (error: unknown) {
					// What it made goes again (a full disk, a folder where the file goes): never a key left in a stray file.
					rmSync(next, {force: true});
					throw error;
				}
			}

			key.path = key.files[0]!.path;
		}
	} catch (error: unknown) {
		throw new SandboxKeyFileError(`The key files cannot be written in ${shown} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}); remove what is in their way or pick another state folder.`, {cause: error});
	}
}
