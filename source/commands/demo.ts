/**
 * `--demo`: the walk commands' own sandbox. Resolving options is pure
 * (core/options.ts); starting the sandbox is a side effect, so it lives here
 * with the commands: every flag is checked first, then the sandbox starts,
 * then the config takes its URLs and credentials.
 */
import process from 'node:process';
import {PagewalkError} from '../core/errors.js';
import {demoPlan, resolveConfig, type DemoSandbox, type ResolveInput, type WalkConfig} from '../core/options.js';
import type {ScenarioName} from '../core/contract.js';

/** A started --demo sandbox: what the config needs, and how to stop it. */
export type RunningDemo = DemoSandbox & {close(): Promise<void> | void};

export type StartDemo = (options: {scenario: ScenarioName}) => Promise<RunningDemo>;

/** A walk configuration that may own a --demo sandbox. */
export type OpenConfig = WalkConfig & {
	/** Releases what the config owns (the --demo sandbox). Safe to call twice. */
	close(): Promise<void>;
};

/** Starts the sandbox on a free loopback port; loaded only when --demo asks for it. */
export async function startDemoSandbox(options: {scenario: ScenarioName}): Promise<RunningDemo> {
	const {startSandbox} = await import('../sandbox/index.js');
	// No key files on disk: the demo hands its keys to the config directly.
	return startSandbox({port: 0, scenario: options.scenario, keyFiles: false}).catch(sandboxFailure);
}

/**
 * Rethrows a sandbox that cannot listen as the one sentence the user reads.
 * The sandbox has its own error type: it shares only the contract with the
 * client, never its errors.
 */
export function sandboxFailure(error: unknown): never {
	// By name, not instanceof: importing the sandbox's server module here would
	// load it on every start of the walk commands, --demo or not.
	throw error instanceof Error && error.name === 'SandboxListenError' ? new PagewalkError(error.message, {cause: error}) : error;
}

/** Where the credential's warnings go (one line each): stderr, before the walk starts. */
export type Warn = (line: string) => void;

const warnOnStderr: Warn = line => {
	process.stderr.write(`pagewalk: ${line}\n`);
};

/**
 * Checks every flag, starts the --demo sandbox when asked for, and returns
 * the config with a close() that stops it. Throws a UsageError before
 * anything starts when a flag is wrong. The credential's warnings (a key
 * file others can read) are told once, through `warn`.
 */
export async function openConfig({startDemo = startDemoSandbox, warn = warnOnStderr, ...input}: Omit<ResolveInput, 'demo'> & {startDemo?: StartDemo; warn?: Warn}): Promise<OpenConfig> {
	const resolveInput = {...input, env: input.env ?? process.env};
	const plan = demoPlan(resolveInput);
	if (plan === null) {
		const config = resolveConfig(resolveInput);
		for (const line of config.credentialWarnings) {
			warn(line);
		}

		return {...config, close: async () => {}};
	}

	const sandbox = await startDemo({scenario: plan.scenario});
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
