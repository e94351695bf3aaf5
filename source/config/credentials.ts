/**
 * Where the credential of a walk comes from, and what it is: one model for
 * the walk, the compare view and the audit's second walk, so the client
 * attaches every kind the same way (see http-client.ts) and every message
 * names the source the user set, never the value.
 *
 * Order for the account API: `--key-file` (a flag beats the environment),
 * then a profile's credential (the hook `profile` below), then the
 * environment: COINBASE_API_KEY_FILE, COINBASE_API_KEY_NAME with
 * COINBASE_API_PRIVATE_KEY, or COINBASE_ACCESS_TOKEN. Two environment
 * sources at once is a usage error naming both: guessing which one the user
 * meant would send the wrong identity without a word.
 *
 * Synchronous on purpose, key file included (a few hundred bytes, read by
 * regular-file.ts, which never waits on a pipe or reads a device): options.ts stays one synchronous function that checks
 * everything before anything is sent or started, and the file reader is
 * injectable for tests and for the profiles' sources.
 */
import {keyEnvironment, parseKeyParts, readKeyFile, type CdpKey} from './cdp-key.js';
import {credentialEnv} from './config-defaults.js';
import {UsageError} from '../text/errors.js';
import {credentialCommands, flag} from './hints.js';
import {inert} from '../text/inert.js';
import {Secret, unfitForHeader} from '../text/secret.js';
import type {Api} from '../contract/types.js';

/**
 * A credential and where it came from. `from` names the source for
 * messages ('--key-file PATH', 'COINBASE_API_KEY_FILE',
 * 'COINBASE_API_KEY_NAME/COINBASE_API_PRIVATE_KEY', 'COINBASE_ACCESS_TOKEN',
 * 'profile NAME', 'demo restricted', ...); it never holds a secret.
 */
export type Credential = (
	/** An OAuth access token of the account API, sent as `Authorization: Bearer …`. */
	| {kind: 'bearer'; secret: Secret; from: string}
	/** A CDP secret API key: a fresh JWT is signed for every request (config/jwt-sign.ts). */
	| {kind: 'cdp-key'; key: CdpKey; from: string}
	/** A commerce API key, sent as `X-CC-Api-Key`. */
	| {kind: 'api-key'; secret: Secret; from: string}
) & {
	/**
	 * What to do about a refused token when its source is not a variable to
	 * set (a profile's command): "make … print a valid access token".
	 */
	fix?: string;
};

export type CredentialKind = Credential['kind'];

/** A key file read: the key, and ssh's one-line warning when others can read the file. */
export type ReadKeyFile = (path: string) => {key: CdpKey; warning: string | undefined};

/** A resolved credential and the warnings to print once (one line each) before the walk. */
export type ResolvedCredential = {credential: Credential; warnings: string[]};

export type CredentialInput = {
	api: Api;
	/** The `--key-file` flag's value, if given. */
	keyFile?: string | undefined;
	env: Record<string, string | undefined>;
	/**
	 * The profile's credential, for the profiles' resolution to plug in: asked
	 * after the flags and before the environment; undefined when no profile
	 * is in use or it gives no credential for this API.
	 */
	profile?: (() => ResolvedCredential | undefined) | undefined;
	/** Reads a key file; default config/cdp-key's readKeyFile (node:fs). */
	readKeyFile?: ReadKeyFile | undefined;
	/** With no credential set: the command line that tries the sandbox instead, for a command that takes --demo. */
	tryDemo?: (() => string) | undefined;
};

/** The header each API reads its credential from (what the client sends). */
export function credentialHeader(api: Api): 'Authorization' | 'X-CC-Api-Key' {
	return api === 'account' ? 'Authorization' : 'X-CC-Api-Key';
}

/** How a message names the credential in use: "CDP key ES256 from --key-file 'k.json'". Never a secret. */
export function describeCredential(credential: Credential): string {
	switch (credential.kind) {
		case 'cdp-key': {
			return `CDP key ${credential.key.algorithm} from ${credential.from}`;
		}

		case 'bearer': {
			return `bearer token from ${credential.from}`;
		}

		case 'api-key': {
			return `API key from ${credential.from}`;
		}
	}
}

/** What to set to fix a refused credential: named after its source. */
export function credentialAdvice(credential: Credential): string {
	switch (credential.kind) {
		case 'cdp-key': {
			return `check that the CDP key from ${credential.from} is active and allowed to read this list (create one in the key portal if not)`;
		}

		case 'bearer': {
			return credential.fix ?? `set ${credential.from} to a valid access token`;
		}

		case 'api-key': {
			return credential.fix ?? `set ${credential.from} to a valid API key`;
		}
	}
}

/**
 * A token or API key as given (environment, profile, command output),
 * checked so a bad one is a sentence now rather than an error from inside
 * undici at the first request. `from` names it in the messages.
 */
export function tokenCredential(api: Api, raw: string, from: string): Credential {
	let value = raw.trim();
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern looks for
	if (/[\u0000-\u001F\u007F]/.test(value)) {
		throw new UsageError(`${from} contains a line break or control character; set it to the bare credential.`);
	}

	const unfit = unfitForHeader(value);
	if (unfit > 0) {
		throw new UsageError(`${from} holds a character an HTTP header cannot carry (at position ${unfit}; only ASCII and Latin-1 fit); set it to the bare credential as the API issued it.`);
	}

	if (api === 'commerce') {
		return {kind: 'api-key', secret: new Secret(value), from};
	}

	// A token pasted with its scheme is the same token.
	value = value.replace(/^bearer\s+/i, '');
	if (value === '') {
		throw new UsageError(`${from} holds only "Bearer"; set it to the access token itself.`);
	}

	return {kind: 'bearer', secret: new Secret(value), from};
}

/** A key file, read and parsed: errors name the file, never quote the key. */
export function keyFileCredential(path: string, from: string, read: ReadKeyFile = readKeyFile): ResolvedCredential {
	const {key, warning} = read(path);
	return {credential: {kind: 'cdp-key', key, from}, warnings: warning === undefined ? [] : [warning]};
}

function given(env: Record<string, string | undefined>, name: string): string | undefined {
	const value = env[name];
	return value === undefined || value.trim() === '' ? undefined : value;
}

/** A path for a message: quoted and inert, so a crafted name cannot drive the terminal. */
function shownPath(path: string): string {
	return `'${inert(path)}'`;
}

/**
 * The account API's environment sources that are set, each with how to
 * read it; more than one is the caller's error to report.
 */
function accountEnvironment(env: Record<string, string | undefined>, read: ReadKeyFile): Array<{name: string; resolve(): ResolvedCredential}> {
	const found: Array<{name: string; resolve(): ResolvedCredential}> = [];
	const file = given(env, keyEnvironment.file);
	if (file !== undefined) {
		found.push({name: keyEnvironment.file, resolve: () => keyFileCredential(file.trim(), `${keyEnvironment.file} ${shownPath(file.trim())}`, read)});
	}

	const name = given(env, keyEnvironment.name);
	const privateKey = given(env, keyEnvironment.privateKey);
	if (name !== undefined || privateKey !== undefined) {
		const both = `${keyEnvironment.name}/${keyEnvironment.privateKey}`;
		found.push({
			name: both,
			resolve() {
				if (name === undefined) {
					throw new UsageError(`${keyEnvironment.privateKey} is set but ${keyEnvironment.name} is not; set both, or neither.`);
				}

				if (privateKey === undefined) {
					throw new UsageError(`${keyEnvironment.name} is set but ${keyEnvironment.privateKey} is not; set both, or neither.`);
				}

				return {credential: {kind: 'cdp-key', key: parseKeyParts({name, privateKey}), from: both}, warnings: []};
			},
		});
	}

	const token = given(env, credentialEnv.account);
	if (token !== undefined) {
		found.push({name: credentialEnv.account, resolve: () => ({credential: tokenCredential('account', token, credentialEnv.account), warnings: []})});
	}

	return found;
}

/**
 * The walk's credential, from the first source that gives one (see the top
 * of this file for the order). Throws a UsageError (exit 2) with one
 * sentence when none is set, two environment sources are, or the one in use
 * cannot be read.
 */
export function resolveCredential({api, keyFile, env, profile, readKeyFile: read = readKeyFile, tryDemo}: CredentialInput): ResolvedCredential {
	const orDemo = () => (tryDemo === undefined ? '' : ` (or try ${tryDemo()})`);
	if (keyFile !== undefined) {
		if (api !== 'account') {
			throw new UsageError(`--key-file is for the account API; the commerce API takes an API key in ${credentialEnv.commerce}.`);
		}

		if (keyFile.trim() === '') {
			throw new UsageError('--key-file needs the path of the JSON key file the key portal gave.');
		}

		return keyFileCredential(keyFile, `--key-file ${shownPath(keyFile)}`, read);
	}

	const fromProfile = profile?.();
	if (fromProfile !== undefined) {
		return fromProfile;
	}

	if (api === 'commerce') {
		const key = given(env, credentialEnv.commerce);
		if (key === undefined) {
			throw new UsageError(`Set ${credentialEnv.commerce} to an API key for the commerce API${orDemo()}; credentials are read only from the environment.`);
		}

		return {credential: tokenCredential('commerce', key, credentialEnv.commerce), warnings: []};
	}

	const found = accountEnvironment(env, read);
	if (found.length > 1) {
		const names = found.map(source => source.name);
		throw new UsageError(`Both ${names.slice(0, -1).join(', ')} and ${names.at(-1)!} are set, so pagewalk cannot tell which credential to use; unset all but one (or give ${flag(credentialCommands, 'keyFile')}, which wins).`);
	}

	if (found.length === 0) {
		throw new UsageError(`Set a credential for the account API${orDemo()}: ${flag(credentialCommands, 'keyFile', 'PATH')} or ${keyEnvironment.file} for a CDP key file, ${keyEnvironment.name} with ${keyEnvironment.privateKey}, or ${credentialEnv.account} for an access token.`);
	}

	return found[0]!.resolve();
}
