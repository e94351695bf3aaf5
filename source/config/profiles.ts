/**
 * Profiles: named targets in a config file, each with the two base URLs, the
 * API version and, per API, where its credential comes from (never the
 * credential itself). Pure: this module parses text it is given, finds the
 * file's path from an environment it is given, and turns a profile plus the
 * values already read into the environment the option resolver reads.
 * Reading the file and running credential commands is the commands'
 * business (commands/setup/profile-config.ts, commands/setup/credential-command.ts).
 */
import process from 'node:process';
import {UsageError} from '../text/errors.js';
import {inert} from '../text/inert.js';
import {JsonSyntaxError, parseJsonWithLines, type JsonNode} from '../json/json-lines.js';
import {editDistance} from '../text/edit-distance.js';
import {helpLine} from './hints.js';
import type {Api} from '../contract/types.js';

/** Where one API's credential comes from; `line` is where the file says so, for errors. */
export type CredentialSource =
	| {kind: 'env'; name: string; line: number}
	| {kind: 'key-file'; path: string; line: number}
	| {kind: 'command'; argv: string[]; line: number};

export type Profile = {
	name: string;
	/** The line of the profile's name in the file. */
	line: number;
	baseUrl?: string;
	commerceUrl?: string;
	apiVersion?: string;
	credentials: Partial<Record<Api, CredentialSource>>;
};

export type ProfileConfig = {
	/** The file's path, as it is named in messages. */
	file: string;
	/** The profile used when none is asked for (see selectProfile). */
	defaultProfile?: string;
	profiles: Profile[];
};

export const configFileName = 'config.json';

/** A path for a sentence, made inert so a crafted file name cannot drive the terminal. */
export function quotePath(path: string): string {
	return `'${inert(path)}'`;
}

/** A profile name for a sentence (names are checked to be plain, but a --profile value is not). */
function quoteName(name: string): string {
	return `'${inert(name)}'`;
}

class Reader {
	constructor(readonly file: string) {}

	fail(line: number, problem: string): never {
		throw new UsageError(`In the config file ${quotePath(this.file)}, line ${line} ${problem}; fix it there (see ${helpLine('profiles-file-see-help', 'profiles')} for the format).`);
	}

	object(node: JsonNode, what: string): Extract<JsonNode, {kind: 'object'}> {
		if (node.kind !== 'object') {
			this.fail(node.line, `needs ${what} to be an object ({ … }), not ${kindName(node)}`);
		}

		return node;
	}

	string(node: JsonNode, what: string): string {
		if (node.kind !== 'string') {
			this.fail(node.line, `needs ${what} to be a string, not ${kindName(node)}`);
		}

		if (node.value.trim() === '') {
			this.fail(node.line, `has an empty ${what}`);
		}

		return node.value;
	}

	/** Every key must be one of `known`: a misspelt key would otherwise be silently ignored. */
	keys(node: Extract<JsonNode, {kind: 'object'}>, known: readonly string[], where: string): void {
		for (const entry of node.entries) {
			if (!known.includes(entry.key)) {
				this.fail(entry.line, `has an unknown key "${inert(entry.key)}" ${where} (known: ${known.join(', ')})`);
			}
		}
	}
}

function kindName(node: JsonNode): string {
	return node.kind === 'array' ? 'a list' : node.kind === 'object' ? 'an object' : node.kind === 'null' ? 'null' : `a ${node.kind}`;
}

const profileKeys = ['base_url', 'commerce_url', 'api_version', 'account', 'commerce'] as const;
const sourceKeys = ['env', 'key_file', 'command'] as const;
/** Profile names go into messages and flags: keep them to plain words. */
const namePattern = /^[A-Za-z\d][\w.-]{0,63}$/;
const envNamePattern = /^[A-Za-z_]\w*$/;

function checkUrl(reader: Reader, node: JsonNode, key: string): string {
	const raw = reader.string(node, `"${key}"`);
	let url: URL | undefined;
	try {
		url = new URL(raw);
	} catch {
		// Not a URL: reported below with the line.
	}

	if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		reader.fail(node.line, `needs "${key}" to be an http or https URL`);
	}

	if (url.username !== '' || url.password !== '') {
		reader.fail(node.line, `has a user name or password in "${key}" (a credential belongs in "account" or "commerce")`);
	}

	if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
		reader.fail(node.line, `needs "${key}" to be a base URL without a query or fragment`);
	}

	return url.href;
}

function checkVersion(reader: Reader, node: JsonNode): string {
	const raw = reader.string(node, '"api_version"');
	const date = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T00:00:00Z`) : undefined;
	if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
		reader.fail(node.line, 'needs "api_version" to be a date in the form YYYY-MM-DD');
	}

	return raw;
}

function readSource(reader: Reader, node: JsonNode, api: Api): CredentialSource {
	const object = reader.object(node, `"${api}"`);
	reader.keys(object, sourceKeys, `in "${api}"`);
	if (object.entries.length !== 1) {
		reader.fail(object.line, `needs "${api}" to give exactly one of "env", "key_file" or "command"`);
	}

	const [{key, value, line}] = object.entries as [{key: string; value: JsonNode; line: number}];
	if (key === 'env') {
		const name = reader.string(value, '"env"');
		if (!envNamePattern.test(name)) {
			reader.fail(value.line, 'needs "env" to be an environment variable name such as WORK_TOKEN');
		}

		return {kind: 'env', name, line};
	}

	if (key === 'key_file') {
		if (api !== 'account') {
			reader.fail(line, 'gives a "key_file" for the commerce API, which takes an API key, not a CDP key (use "env" or "command")');
		}

		return {kind: 'key-file', path: reader.string(value, '"key_file"'), line};
	}

	if (value.kind !== 'array' || value.items.length === 0) {
		reader.fail(value.line, 'needs "command" to be a non-empty list of strings, such as ["op", "read", "op://vault/item/credential"] (it runs without a shell)');
	}

	const argv = value.items.map((item) => {
		if (item.kind !== 'string') {
			reader.fail(item.line, `needs every word of "command" to be a string, not ${kindName(item)}`);
		}

		// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern looks for
		if (/\u0000/.test(item.value)) {
			reader.fail(item.line, 'has a NUL character in "command"');
		}

		return item.value;
	});
	if (argv[0]!.trim() === '') {
		reader.fail(value.line, 'needs the first word of "command" to name a program');
	}

	return {kind: 'command', argv, line};
}

/**
 * Parses a config file's text; `file` names it in errors. Every problem is one
 * sentence naming the file and the line (a UsageError, exit 2).
 */
export function parseProfileConfig(text: string, file: string): ProfileConfig {
	const reader = new Reader(file);
	let root: JsonNode;
	try {
		root = parseJsonWithLines(text);
	} catch (error: unknown) {
		if (error instanceof JsonSyntaxError) {
			reader.fail(error.line, `is not valid JSON (${error.problem})`);
		}

		throw error;
	}

	const top = reader.object(root, 'the whole file');
	reader.keys(top, ['default', 'profiles'], 'at the top');
	const config: ProfileConfig = {file, profiles: []};
	let defaultLine = 0;
	for (const {key, value, line} of top.entries) {
		if (key === 'default') {
			config.defaultProfile = reader.string(value, '"default"');
			defaultLine = line;
			continue;
		}

		const profiles = reader.object(value, '"profiles"');
		for (const entry of profiles.entries) {
			if (!namePattern.test(entry.key)) {
				reader.fail(entry.line, `has a profile name "${inert(entry.key)}" that is not a plain word (letters, digits, '.', '_', '-')`);
			}

			const body = reader.object(entry.value, `the profile "${entry.key}"`);
			reader.keys(body, profileKeys, `in the profile "${entry.key}"`);
			const profile: Profile = {name: entry.key, line: entry.line, credentials: {}};
			for (const field of body.entries) {
				switch (field.key) {
					case 'base_url': {
						profile.baseUrl = checkUrl(reader, field.value, field.key);
						break;
					}

					case 'commerce_url': {
						profile.commerceUrl = checkUrl(reader, field.value, field.key);
						break;
					}

					case 'api_version': {
						profile.apiVersion = checkVersion(reader, field.value);
						break;
					}

					default: {
						const api = field.key as Api;
						profile.credentials[api] = readSource(reader, field.value, api);
					}
				}
			}

			config.profiles.push(profile);
		}
	}

	if (config.defaultProfile !== undefined && !config.profiles.some((profile) => profile.name === config.defaultProfile)) {
		reader.fail(defaultLine, `names a default profile "${inert(config.defaultProfile)}" that it does not define`);
	}

	return config;
}

/**
 * Where the config file is: `PAGEWALK_CONFIG` when set (then it must exist),
 * else the user's config directory: $XDG_CONFIG_HOME/pagewalk, else
 * ~/Library/Application Support/pagewalk on macOS, %APPDATA%\pagewalk on
 * Windows, ~/.config/pagewalk elsewhere. Only the given environment is read
 * (not the real home directory), so tests stay away from the user's file.
 * Undefined when no home is known.
 */
export function configLocation(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): {path: string; explicit: boolean} | undefined {
	const join = (...parts: string[]) => parts.join(platform === 'win32' ? '\\' : '/');
	if (env.PAGEWALK_CONFIG) {
		return {path: env.PAGEWALK_CONFIG, explicit: true};
	}

	if (env.XDG_CONFIG_HOME?.startsWith('/')) {
		// The XDG spec: a relative value is invalid and must be ignored.
		return {path: join(env.XDG_CONFIG_HOME, 'pagewalk', configFileName), explicit: false};
	}

	if (platform === 'win32') {
		return env.APPDATA ? {path: join(env.APPDATA, 'pagewalk', configFileName), explicit: false} : undefined;
	}

	if (!env.HOME) {
		return undefined;
	}

	return platform === 'darwin'
		? {path: join(env.HOME, 'Library', 'Application Support', 'pagewalk', configFileName), explicit: false}
		: {path: join(env.HOME, '.config', 'pagewalk', configFileName), explicit: false};
}

/**
 * The environment variables a profile in use replaces. A profile is one
 * coherent target (bases and the credentials meant for them), so nothing of
 * these leaks into it from the shell: a token left in the environment is
 * never sent to a profile's host, nor a profile's key to a base from the
 * environment. Variables a profile names itself ("env") are read as usual.
 */
export const replacedVariables = [
	'PAGEWALK_BASE_URL',
	'PAGEWALK_COMMERCE_URL',
	'COINBASE_ACCESS_TOKEN',
	'COINBASE_COMMERCE_API_KEY',
	'COINBASE_API_KEY_FILE',
	'COINBASE_API_KEY_NAME',
	'COINBASE_API_PRIVATE_KEY',
] as const;

/** Credential variables: when one is set, the config's default profile steps aside. */
const credentialVariables = replacedVariables.filter((name) => name.startsWith('COINBASE_'));

export type Selection = {profile: Profile; how: '--profile' | 'PAGEWALK_PROFILE' | 'default'};

/**
 * Which profile is in use: `--profile`, else `PAGEWALK_PROFILE`, else the
 * file's "default" unless the environment holds a credential variable (so
 * `COINBASE_ACCESS_TOKEN=… pagewalk` keeps meaning that token). A name that
 * the file does not define is one sentence, exit 2.
 */
export function selectProfile(config: ProfileConfig | undefined, flag: string | undefined, env: Record<string, string | undefined>, location?: string): Selection | undefined {
	const asked = flag ?? (env.PAGEWALK_PROFILE || undefined);
	if (asked !== undefined) {
		const how = flag === undefined ? 'PAGEWALK_PROFILE' : '--profile';
		const profile = config?.profiles.find((candidate) => candidate.name === asked);
		if (profile === undefined) {
			throw new UsageError(unknownProfile(config, asked, how, location));
		}

		return {profile, how};
	}

	if (config?.defaultProfile === undefined || credentialVariables.some((name) => env[name])) {
		return undefined;
	}

	return {profile: config.profiles.find((candidate) => candidate.name === config.defaultProfile)!, how: 'default'};
}

/** The sentence for a profile name the file does not define (or no file at all). */
export function unknownProfile(config: ProfileConfig | undefined, name: string, how: string, location?: string): string {
	if (config === undefined) {
		return location === undefined
			? `${how} ${quoteName(name)} needs a config file, and no home directory is known; set PAGEWALK_CONFIG to its path.`
			: `${how} ${quoteName(name)} needs a config file, and there is none at ${quotePath(location)}; create it (see ${helpLine('profiles-none-see-help', 'profiles')}) or set PAGEWALK_CONFIG.`;
	}

	const known = config.profiles.map((profile) => profile.name);
	// A slip of a letter or two gets the name meant, as a flag's typo does.
	const meant = known.map(candidate => ({candidate, distance: editDistance(name, candidate)})).filter(({distance}) => distance <= Math.max(1, Math.floor(name.length / 3))).sort((a, b) => a.distance - b.distance)[0]?.candidate;
	const hint = meant === undefined ? '' : ` (did you mean ${quoteName(meant)}?)`;
	return `${how} ${quoteName(name)} is not a profile in ${quotePath(config.file)}${hint}; ${known.length === 0 ? 'it defines none' : `it defines ${known.join(', ')}`}.`;
}

/** How a profile and the line of one of its parts are named in a sentence. */
export function profilePlace(config: ProfileConfig, profile: Profile, line = profile.line): string {
	return `profile ${quoteName(profile.name)} (${quotePath(config.file)} line ${line})`;
}

/** A credential once its source has been read: what the option resolver is given. */
export type ResolvedCredential =
	| {kind: 'token'; value: string}
	| {kind: 'key-file'; path: string}
	| {kind: 'key-parts'; name: string; privateKey: string};

/**
 * The environment the option resolver reads for a profile in use: the
 * replaced variables removed, then the profile's bases and the credential
 * read for `api` set under the names the resolver knows. Flags still win
 * over all of it, since the resolver reads a flag before its variable.
 */
export function profileEnvironment(env: Record<string, string | undefined>, profile: Profile, api: Api | undefined, credential: ResolvedCredential | undefined): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {...env};
	for (const name of replacedVariables) {
		delete result[name];
	}

	if (profile.baseUrl !== undefined) {
		result.PAGEWALK_BASE_URL = profile.baseUrl;
	}

	if (profile.commerceUrl !== undefined) {
		result.PAGEWALK_COMMERCE_URL = profile.commerceUrl;
	}

	if (api !== undefined && credential !== undefined) {
		if (api === 'commerce') {
			result.COINBASE_COMMERCE_API_KEY = credential.kind === 'token' ? credential.value : undefined;
		} else if (credential.kind === 'token') {
			result.COINBASE_ACCESS_TOKEN = credential.value;
		} else if (credential.kind === 'key-file') {
			result.COINBASE_API_KEY_FILE = credential.path;
		} else {
			result.COINBASE_API_KEY_NAME = credential.name;
			result.COINBASE_API_PRIVATE_KEY = credential.privateKey;
		}
	}

	return result;
}

/** Expands a leading ~ to `home`; a relative path is taken from the config file's folder. */
export function keyFilePath(path: string, configFile: string, home: string | undefined): string {
	if ((path === '~' || path.startsWith('~/')) && home) {
		return `${home.replace(/\/$/, '')}${path.slice(1)}`;
	}

	if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) {
		return path;
	}

	const slash = Math.max(configFile.lastIndexOf('/'), configFile.lastIndexOf('\\'));
	return slash === -1 ? path : `${configFile.slice(0, slash + 1)}${path}`;
}

/**
 * What a source is, for a listing: the variable's name (and whether it is
 * set), the key file's path, or the command's program and how many
 * arguments it has. Never a value, and a command's arguments are left out
 * (someone may have put a secret there); nothing is read or run.
 */
export function describeSource(source: CredentialSource, env: Record<string, string | undefined>): {text: string; json: Record<string, unknown>} {
	switch (source.kind) {
		case 'env': {
			const set = Boolean(env[source.name]);
			return {text: `environment variable ${source.name} (${set ? 'set' : 'not set'})`, json: {source: 'env', name: source.name, set}};
		}

		case 'key-file': {
			return {text: `key file ${inert(source.path)}`, json: {source: 'key_file', path: source.path}};
		}

		case 'command': {
			const program = programName(source.argv);
			const count = source.argv.length - 1;
			return {text: `command ${inert(program)} (${count} argument${count === 1 ? '' : 's'}, not run)`, json: {source: 'command', program, arguments: count}};
		}
	}
}

/** A command's program, without its directory (a path can name a user or a vault). */
export function programName(argv: readonly string[]): string {
	const program = argv[0] ?? '';
	return program.slice(Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\')) + 1);
}
