/**
 * The I/O half of profiles (the pure half is config/profiles.ts): reads the
 * config file, and reads a profile's credential from its source (an
 * environment variable, a key file's path, or a command's output), only for
 * the API a walk uses, so a second command (and its password prompt) runs
 * only when needed.
 */
import {defaults} from '../../config/config-defaults.js';
import {UsageError} from '../../text/errors.js';
import {parseBase} from '../../contract/links.js';
import type {WalkConfig} from '../../config/options.js';
import {configLocation, keyFilePath, parseProfileConfig, profilePlace, quotePath, unknownProfile, type CredentialSource, type Profile, type ProfileConfig, type ResolvedCredential} from '../../config/profiles.js';
import {parseKeyParts} from '../../config/cdp-key.js';
import {FileReadError, readRegularFile} from '../../config/regular-file.js';
import {keyFileCredential, tokenCredential, type ReadKeyFile, type ResolvedCredential as WalkResolvedCredential} from '../../config/credentials.js';
import {inert} from '../../text/inert.js';
import {unfitForHeader} from '../../text/secret.js';
import type {Api} from '../../contract/types.js';
import type {SecondCredential} from './second-credential.js';
import type {Credential} from '../../config/credentials.js';
import {flag} from '../../config/hints.js';
import type {ProfileIo} from '../process/command-io.js';

/** A config file is a few kilobytes; a huge one is the wrong file and is not read whole. */
const maxConfigBytes = 1024 * 1024;

/** The config file's text; anything but a regular file of at most 1 MiB is a FileReadError (see regular-file.ts). */
function readText(path: string): string {
	return readRegularFile(path, {maxBytes: maxConfigBytes}).text;
}

export type LoadedProfiles = {config: ProfileConfig | undefined; location: string | undefined};

/** The one sentence for a config file that cannot be read, naming it and its problem. */
function configFileError(where: {path: string; explicit: boolean}, error: FileReadError): UsageError {
	const file = quotePath(where.path);
	switch (error.code) {
		case 'missing': {
			return new UsageError(`PAGEWALK_CONFIG names ${file}, which does not exist; create it or unset PAGEWALK_CONFIG.`);
		}

		case 'too-large': {
			return new UsageError(`The config file ${file} is larger than 1 MiB, so it is not a pagewalk config; check PAGEWALK_CONFIG.`);
		}

		case 'denied': {
			return new UsageError(`The config file ${file} cannot be read (permission denied); fix its permissions or set PAGEWALK_CONFIG to another file.`);
		}

		default: {
			return new UsageError(`The config file ${file} ${error.phrase}; ${where.explicit ? 'set PAGEWALK_CONFIG to a JSON config file instead' : 'replace it with a JSON config file, or set PAGEWALK_CONFIG to one'}.`);
		}
	}
}

/**
 * Reads and parses the config file. No file at the default place is no
 * profiles; a PAGEWALK_CONFIG naming a missing file, an unreadable file (a
 * directory, a device, a pipe, too large) or a malformed one is one sentence
 * (exit 2).
 */
export function loadProfiles(env: Record<string, string | undefined>, io: ProfileIo = {}): LoadedProfiles {
	const where = configLocation(env, io.platform);
	if (where === undefined) {
		return {config: undefined, location: undefined};
	}

	let text: string;
	try {
		text = readText(where.path);
	} catch (error: unknown) {
		if (!(error instanceof FileReadError)) {
			throw error;
		}

		if (error.code === 'missing' && !where.explicit) {
			return {config: undefined, location: where.path};
		}

		throw configFileError(where, error);
	}

	return {config: parseProfileConfig(text, where.path), location: where.path};
}

/** Checks a token read from a profile's source: one line that an HTTP header can carry. */
function checkToken(value: string, what: string): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern looks for
	if (/[\u0000-\u001F\u007F]/.test(value)) {
		throw new UsageError(`${what} holds a line break or control character; it must give the bare credential.`);
	}

	const unfit = unfitForHeader(value);
	if (unfit > 0) {
		throw new UsageError(`${what} holds a character an HTTP header cannot carry (at position ${unfit}); it must give the bare credential as the API issued it.`);
	}

	return value;
}

/**
 * A command's output for the account API: a token, or a CDP key file's JSON
 * (as `op read` of a stored key file gives). JSON is told apart by its first
 * character: no token starts with '{'. The key is checked here, so a wrong
 * one names the profile, and is then handed on as name and private key.
 */
async function credentialFromOutput(text: string, api: Api, place: string): Promise<ResolvedCredential> {
	const output = `the output of the credential command of the ${place}`;
	const what = `The output of the credential command of the ${place}`;
	if (api !== 'account' || !text.startsWith('{')) {
		return {kind: 'token', value: checkToken(text, what)};
	}

	let record: Record<string, unknown> | undefined;
	try {
		const value: unknown = JSON.parse(text);
		record = typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
	} catch {
		// Not JSON: reported below like any other wrong shape.
	}

	// Never JSON.parse's message: it quotes the text around the fault, which may be key material.
	const name = typeof record?.['name'] === 'string' && record['name'] !== '' ? record['name'] : record?.['id'];
	if (typeof name !== 'string' || typeof record?.['privateKey'] !== 'string') {
		throw new UsageError(`${what} starts like a key file but is not a JSON object with "name" (or "id") and "privateKey"; it must print a token or the key file as the key portal gives it.`);
	}

	const privateKey = record['privateKey'];
	parseKeyParts({name, privateKey}, {name: `the key name in ${output}`, privateKey: `the private key in ${output}`});
	return {kind: 'key-parts', name, privateKey};
}

/**
 * How messages name the source of a profile's credential, as the user wrote
 * it in the profile: its variable, key file or program, and the profile.
 */
export function profileSourceName(profile: Profile, source: CredentialSource): string {
	const name = `profile '${inert(profile.name)}'`;
	switch (source.kind) {
		case 'env': {
			return `${inert(source.name)} (named by ${name})`;
		}

		case 'key-file': {
			return `the key file '${inert(source.path)}' of ${name}`;
		}

		case 'command': {
			return `the command of ${name} (${inert(source.argv[0] ?? '')})`;
		}
	}
}

/**
 * A profile's credential as the walk uses it, named after its source (see
 * profileSourceName) in every message, the debug view and the curl copy.
 */
export function profileWalkCredential(profile: Profile, api: Api, read: ResolvedCredential, readKey?: ReadKeyFile): WalkResolvedCredential {
	const source = profile.credentials[api]!;
	const from = profileSourceName(profile, source);
	switch (read.kind) {
		case 'token': {
			const credential = tokenCredential(api, read.value, from);
			const fix = source.kind === 'command' ? `make ${from} print a valid ${api === 'account' ? 'access token' : 'API key'}` : undefined;
			return {credential: fix === undefined ? credential : {...credential, fix}, warnings: []};
		}

		case 'key-file': {
			return keyFileCredential(read.path, from, readKey);
		}

		case 'key-parts': {
			return {credential: {kind: 'cdp-key', key: parseKeyParts({name: read.name, privateKey: read.privateKey}), from}, warnings: []};
		}
	}
}

/** Reads `api`'s credential from `profile`'s source; every problem is one sentence naming the profile and line. */
export async function readProfileCredential(config: ProfileConfig, profile: Profile, api: Api, env: Record<string, string | undefined>, io: ProfileIo = {}): Promise<ResolvedCredential> {
	const source = profile.credentials[api];
	if (source === undefined) {
		throw new UsageError(`The ${profilePlace(config, profile)} gives no ${api} credential; add "${api}": {"env": …}, {"command": […]}${api === 'account' ? ' or {"key_file": …}' : ''} to it.`);
	}

	const place = profilePlace(config, profile, source.line);
	switch (source.kind) {
		case 'env': {
			const value = env[source.name]?.trim();
			if (!value) {
				throw new UsageError(`The ${place} takes its ${api} credential from ${source.name}, which is not set; set it or change the profile.`);
			}

			return {kind: 'token', value: checkToken(value, `${source.name} (named by the ${place})`)};
		}

		case 'key-file': {
			return {kind: 'key-file', path: keyFilePath(source.path, config.file, env.HOME)};
		}

		case 'command': {
			// Loaded only for a command: a walk without one never loads child_process.
			const {runCredentialCommand} = await import('./credential-command.js');
			const text = await runCredentialCommand(source.argv, {place, timeoutMs: io.commandTimeoutMs, env});
			return await credentialFromOutput(text, api, place);
		}
	}
}

export const demoCompareProfile = `--compare-profile cannot be used with ${flag(['browse', 'audit'], 'demo')}, whose sandbox knows only its own credentials; without the flag the compare uses the sandbox's other one.`;

/**
 * `--compare-profile NAME`: the second credential of a compare, read from
 * another profile for the API in use. Its base must be the one in use: the
 * compare asks the same origin, and a credential is only ever sent where its
 * profile says.
 */
export async function compareProfileCredential(name: string, walk: WalkConfig, env: Record<string, string | undefined>, io: ProfileIo = {}): Promise<SecondCredential | Credential> {
	if (walk.demo) {
		throw new UsageError(demoCompareProfile);
	}

	const {config, location} = loadProfiles(env, io);
	const profile = config?.profiles.find((candidate) => candidate.name === name);
	if (config === undefined || profile === undefined) {
		throw new UsageError(unknownProfile(config, name, '--compare-profile', location));
	}

	const base = parseBase(walk.api === 'account' ? profile.baseUrl ?? defaults.baseUrl : profile.commerceUrl ?? defaults.commerceUrl);
	if (base.origin !== walk.base.origin || base.prefix !== walk.base.prefix) {
		throw new UsageError(`The ${profilePlace(config, profile)} is for ${base.origin}${base.prefix}, not ${walk.base.origin}${walk.base.prefix} in use; a compare sends both credentials to the same API, so name a profile with the same base.`);
	}

	const credential = await readProfileCredential(config, profile, walk.api, env, io);
	const from = `profile ${profile.name}`;
	switch (credential.kind) {
		case 'token': {
			return {envName: from, value: credential.value};
		}

		// A CDP key compares as it walks: the client signs a fresh JWT for every request.
		case 'key-file': {
			return keyFileCredential(credential.path, from).credential;
		}

		case 'key-parts': {
			return {kind: 'cdp-key', key: parseKeyParts({name: credential.name, privateKey: credential.privateKey}, {name: `the key name of the ${from}`, privateKey: `the private key of the ${from}`}), from};
		}
	}
}
