/**
 * `--demo`: the walk commands' own sandbox. Resolving options is pure
 * (config/options.ts); starting the sandbox is a side effect, so it lives here
 * with the commands: every flag is checked first, then the sandbox starts,
 * then the config takes its URLs and credentials.
 */
import {randomBytes} from 'node:crypto';
import process from 'node:process';
import {PagewalkError, UsageError} from '../../text/errors.js';
import {redact} from '../../text/secret.js';
import {demoPlan, resolveConfig, type DemoSandbox, type ResolveInput, type WalkConfig} from '../../config/options.js';
import {quoteValue} from '../../config/parse-flags.js';
import {walkFlag} from '../../config/hints.js';
import {profileEnvironment, selectProfile} from '../../config/profiles.js';
import {loadProfiles, profileWalkCredential, readProfileCredential} from './profile-config.js';
import type {ProfileIo} from '../process/command-io.js';
import type {ScenarioName} from '../../sandbox/scenarios/scenario-names.js';

/** A started --demo sandbox: what the config needs, and how to stop it. */
export type RunningDemo = DemoSandbox & {close(): Promise<void> | void};

export type StartDemo = (options: {scenario: ScenarioName; latency?: string}) => Promise<RunningDemo>;

/** A walk configuration that may own a --demo sandbox. */
export type OpenConfig = WalkConfig & {
	/** Releases what the config owns (the --demo sandbox). Safe to call twice. */
	close(): Promise<void>;
	/** The profile in use (--profile, PAGEWALK_PROFILE or the config file's default), if any. */
	profile?: string;
};

/** Starts the sandbox on a free loopback port; loaded only when --demo asks for it. */
export async function startDemoSandbox(options: {scenario: ScenarioName; latency?: string}): Promise<RunningDemo> {
	const {parseLatency, startSandbox} = await import('../../sandbox/index.js');
	const latency = options.latency === undefined ? undefined : parseLatency(options.latency);
	if (latency && !latency.ok) {
		throw new UsageError(latencyUsage(options.latency!));
	}

	// No key files on disk: the demo hands its keys to the config directly.
	return startSandbox({port: 0, scenario: options.scenario, keyFiles: false, ...(latency ? {latency: latency.value} : {})}).catch(sandboxFailure);
}

/** The one sentence for a --latency the sandbox cannot read, for serve and --demo. */
export function latencyUsage(value: string): string {
	return `--latency must be milliseconds up to 60000, optionally ± a jitter no larger than it and /ms per object asked for, such as 50, 80±20 or 80+-20/0.5, not ${quoteValue(value)}.`;
}

/**
 * Rethrows a sandbox that cannot listen, or cannot keep its key files, as
 * the one sentence the user reads. The sandbox has its own error types: it
 * shares only the contract with the client, never its errors.
 */
export function sandboxFailure(error: unknown): never {
	// By name, not instanceof: importing the sandbox's server module here would
	// load it on every start of the walk commands, --demo or not.
	if (error instanceof Error && error.name === 'SandboxListenError') {
		throw new PagewalkError(error.message, {cause: error});
	}

	// Key files that cannot be kept in the state folder: a setting to change, like a wrong flag.
	throw error instanceof Error && error.name === 'SandboxKeyFileError' ? new UsageError(error.message) : error;
}

/** Where the credential's warnings go (one line each): stderr, before the walk starts. */
export type Warn = (line: string) => void;

const warnOnStderr: Warn = line => {
	process.stderr.write(`pagewalk: ${line}\n`);
};

/**
 * With a profile in use (see selectProfile in config/profiles.ts), the input the
 * option resolver reads: the profile's bases and API version, and the
 * credential read from its source for the API the endpoint belongs to, set
 * under the environment names the resolver knows. Flags still win: the
 * resolver reads a flag before its variable. The resolver runs twice: first
 * with a placeholder credential, so every flag is checked and the API is
 * known before a credential command runs; then with the real one.
 */
async function withProfile(input: Omit<ResolveInput, 'demo'> & {env: Record<string, string | undefined>}, io: ProfileIo | undefined): Promise<{input: Omit<ResolveInput, 'demo'>; profile?: string}> {
	const flag = typeof input.flags.profile === 'string' ? input.flags.profile : undefined;
	const {config, location} = loadProfiles(input.env, io);
	const selected = selectProfile(config, flag, input.env, location);
	if (selected === undefined) {
		return {input};
	}

	const {profile} = selected;
	const flags = {...input.flags, apiVersion: input.flags.apiVersion ?? profile.apiVersion};
	// A placeholder no text holds, random: redact() will remember its every run like any credential's
	// (a readable one would redact words such as "pagewalk"); it is never sent.
	const placeholder = randomBytes(16).toString('hex');
	const probeEnv = {...profileEnvironment(input.env, profile, undefined, undefined), COINBASE_ACCESS_TOKEN: placeholder, COINBASE_COMMERCE_API_KEY: placeholder};
	const {api} = resolveConfig({...input, flags, env: probeEnv});
	const credential = await readProfileCredential(config!, profile, api, input.env, io);
	// The credential comes to the resolver named after its source in the profile; flags still win (--key-file).
	const profileCredential = () => profileWalkCredential(profile, api, credential, input.readKeyFile);
	return {input: {...input, flags, env: profileEnvironment(input.env, profile, undefined, undefined), profileCredential}, profile: profile.name};
}

/**
 * Checks every flag, starts the --demo sandbox when asked for, and returns
 * the config with a close() that stops it. Throws a UsageError before
 * anything starts when a flag is wrong. Without --demo, applies the profile
 * in use, running its credential command if it has one. The credential's
 * warnings (a key file others can read) are told once, through `warn`.
 */
export async function openConfig({startDemo = startDemoSandbox, warn = warnOnStderr, profiles, ...input}: Omit<ResolveInput, 'demo'> & {startDemo?: StartDemo; warn?: Warn; profiles?: ProfileIo}): Promise<OpenConfig> {
	const resolveInput = {...input, env: input.env ?? process.env};
	if (input.flags.demo !== true) {
		const chosen = await withProfile(resolveInput, profiles);
		const config = resolveConfig(chosen.input);
		for (const line of config.credentialWarnings) {
			warn(redact(line));
		}

		return {...config, close: async () => {}, profile: chosen.profile};
	}

	if (input.flags.profile !== undefined) {
		throw new UsageError(`--demo runs its own sandbox with its own credentials, so it cannot be combined with ${walkFlag('profile')}.`);
	}

	const plan = demoPlan(resolveInput)!;
	const sandbox = await startDemo({scenario: plan.scenario, ...(plan.latency === undefined ? {} : {latency: plan.latency})});
	let closed = false;
	const close = async () => {
		if (!closed) {
			closed = true;
			await sandbox.close();
		}
	};

	try {
		return {...resolveConfig({...resolveInput, demo: sandbox}), close};
	} catch (error: unknown) {
		await close();
		throw error;
	}
}
