import process from 'node:process';
import type {Writable} from 'node:stream';

/**
 * What every command takes from outside, injected (gh's IOStreams): its
 * streams and environment. The CLI hands each command the process's
 * (`systemIo`); tests hand their own, so a command runs in process.
 */
export type CommandIo = {
	stdout: Writable & {isTTY?: boolean; columns?: number};
	stderr: Writable & {isTTY?: boolean};
	env: Record<string, string | undefined>;
	/** How profiles are read (tests: another platform, a short credential command timeout). */
	profiles?: ProfileIo;
};

/** What profile handling needs from outside; tests replace parts of it. */
export type ProfileIo = {
	platform?: NodeJS.Platform;
	/** Bound on a credential command's run (default 10 s). */
	commandTimeoutMs?: number;
};

/** The process's own streams and environment: what the CLI runs a command with. */
export function systemIo(): CommandIo {
	return {stdout: process.stdout, stderr: process.stderr, env: process.env};
}
