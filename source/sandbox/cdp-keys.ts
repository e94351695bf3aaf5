/**
 * The sandbox's CDP secret API keys: for each account credential (full and
 * restricted) one ECDSA P-256 key and one Ed25519 key, made fresh at start,
 * in the two file shapes the key portal gives (`name` + SEC1 PEM, and `id` +
 * base64 of seed then public key), so clients meet both shapes offline.
 * Key files are written into a private temporary directory (0700, files 0600)
 * that goes away when the sandbox closes or the process exits.
 */
import {generateKeyPairSync, type KeyObject} from 'node:crypto';
import {chmodSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import type {JwtAlgorithm, VerifiableKey} from './jwt-verify.js';
import type {Viewer} from './ordered-index.js';

/** A key file as the portal gives it. */
export type KeyFile = {name: string; privateKey: string} | {id: string; privateKey: string};

/** One issued key, as startSandbox() returns it: no key objects, only what a client is given. */
export type SandboxKey = {
	/** The key's name: kid and sub of its JWTs. */
	name: string;
	algorithm: JwtAlgorithm;
	/** Which account credential the key stands for. */
	viewer: Viewer;
	/** The key file's content. */
	keyFile: KeyFile;
	/** Where that file was written (mode 0600), or undefined when key files are off. */
	path: string | undefined;
};

/** What the account API checks a JWT against. */
export type IssuedKey = VerifiableKey & {viewer: Viewer};

const viewers: readonly Viewer[] = ['full', 'restricted'];

export function issueKeys(seed: number): {keys: SandboxKey[]; verifiable: IssuedKey[]} {
	const keys: SandboxKey[] = [];
	const verifiable: IssuedKey[] = [];
	const organization = `sandbox-${seed.toString(16).padStart(8, '0')}`;
	for (const viewer of viewers) {
		const ec = generateKeyPairSync('ec', {namedCurve: 'P-256'});
		const ecName = `organizations/${organization}/apiKeys/account-${viewer}-es256`;
		keys.push({name: ecName, algorithm: 'ES256', viewer, keyFile: {name: ecName, privateKey: String(ec.privateKey.export({format: 'pem', type: 'sec1'}))}, path: undefined});
		verifiable.push({name: ecName, algorithm: 'ES256', publicKey: ec.publicKey, viewer});

		const ed = generateKeyPairSync('ed25519');
		const edName = `${organization}-account-${viewer}-ed25519`;
		keys.push({name: edName, algorithm: 'EdDSA', viewer, keyFile: {id: edName, privateKey: ed25519Base64(ed.privateKey)}, path: undefined});
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

/** Writes each key's file (0600) into a new private directory (0700); returns the directory's remover. */
export function writeKeyFiles(keys: SandboxKey[]): () => void {
	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-keys-'));
	chmodSync(directory, 0o700);
	pending.add(directory);
	if (!hooked) {
		hooked = true;
		process.once('exit', removeAll);
	}

	for (const key of keys) {
		const file = path.join(directory, `${key.name.replaceAll(/[^\w.-]+/g, '_')}.json`);
		// `wx`: never follow or reuse something already there; mode 0600 from the first byte.
		writeFileSync(file, `${JSON.stringify(key.keyFile, null, 2)}\n`, {mode: 0o600, flag: 'wx'});
		key.path = file;
	}

	return () => {
		pending.delete(directory);
		rmSync(directory, {recursive: true, force: true});
	};
}
