/**
 * Runs a profile's credential command (`op read …`, `pass show …`, a keychain
 * tool) and returns what it printed, trimmed: the secret. The command comes
 * only from the config file, never from a flag or the environment, and runs
 * without a shell, so no word of it is expanded or re-parsed.
 *
 * Bounded: it is stopped after `timeoutMs`, and when its output passes
 * `maxBytes` (a credential is short; megabytes mean the wrong command), and
 * when pagewalk itself is interrupted. It runs in a process group of its own,
 * and stopping it stops the whole group: SIGTERM, then SIGKILL to what is
 * left after a grace, so no process it started (a `sleep &`, a helper that
 * traps TERM) outlives it. The group has no terminal (a new session), so a
 * tool that would prompt there fails at once instead of waiting.
 * It is done when it exits, even if a process it left behind holds its stdout.
 *
 * Its stderr is read and dropped, never shown: a secret tool that fails may
 * print part of the secret, a vault path or a session hint there, and the
 * user can run the same command to see it. The error names the profile and
 * the program, never the output.
 */
import {spawn as nodeSpawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import process from 'node:process';
import {UsageError} from '../../text/errors.js';
import {inert} from '../../text/inert.js';
import {programName} from '../../config/profiles.js';

export const commandDefaults = {timeoutMs: 10_000, maxBytes: 64 * 1024, stopGraceMs: 1000} as const;

export type CommandOptions = {
	/** How the command is named in errors, e.g. "profile 'work' ('/home/u/.config/pagewalk/config.json' line 7)". */
	place: string;
	timeoutMs?: number;
	maxBytes?: number;
	/** How long a stopped command's group has to end on SIGTERM before SIGKILL. */
	stopGraceMs?: number;
	env?: Record<string, string | undefined>;
	spawn?: typeof nodeSpawn;
};

/** Why a program could not be started, from the error of its spawn. */
function startFailure(argv: readonly string[], code: string | undefined): string {
	if (code === 'ENOENT') {
		// A path is run as it is, never looked up on PATH: say which of the two is missing.
		const program = argv[0]!;
		if (/[/\\]/.test(program)) {
			return existsSync(program) ? 'could not be started: the interpreter its #! line names does not exist' : 'could not be started: the file the profile names does not exist';
		}

		return 'could not be started: no such program on PATH';
	}

	return code === 'EACCES' ? 'could not be started: not executable' : `could not be started (${code ?? 'unknown error'})`;
}

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Stops `child` and every process of its group: SIGTERM, then SIGKILL to
 * whatever is left after `graceMs`. Resolves when none is left, or when
 * SIGKILL has been sent.
 */
async function stopGroup(child: ChildProcess, graceMs: number, group: boolean): Promise<void> {
	const pid = child.pid;
	if (pid === undefined) {
		return;
	}

	// Gone (ESRCH) or not ours to signal: nothing left to stop either way.
	const send = (signal: NodeJS.Signals | 0): boolean => {
		try {
			if (group) {
				process.kill(-pid, signal);
			} else if (signal !== 0) {
				child.kill(signal);
			}

			return group || (child.exitCode === null && child.signalCode === null);
		} catch {
			return false;
		}
	};

	if (!send('SIGTERM')) {
		return;
	}

	const deadline = Date.now() + graceMs;
	await new Promise<void>((resolve) => {
		const poll = setInterval(() => {
			if (!send(0)) {
				clearInterval(poll);
				resolve();
			} else if (Date.now() >= deadline) {
				clearInterval(poll);
				send('SIGKILL');
				resolve();
			}
		}, Math.min(25, graceMs));
	});
}

/** Runs `argv` and resolves to its trimmed stdout, or rejects with one sentence (a UsageError, exit 2). */
export async function runCredentialCommand(argv: readonly string[], options: CommandOptions): Promise<string> {
	const {place, timeoutMs = commandDefaults.timeoutMs, maxBytes = commandDefaults.maxBytes, stopGraceMs = commandDefaults.stopGraceMs, spawn = nodeSpawn} = options;
	const program = inert(programName(argv));
	const fail = (what: string) => new UsageError(`The credential command '${program}' of ${place} ${what}; run it yourself to see why, or fix the profile.`);
	// Windows has no process groups to signal: there the command alone is stopped.
	const group = process.platform !== 'win32';

	return new Promise<string>((resolve, reject) => {
		let settled = false;
		const chunks: Buffer[] = [];
		let bytes = 0;
		const child = spawn(argv[0]!, argv.slice(1), {
			shell: false,
			// No terminal input: a tool that would prompt fails at once instead of
			// waiting on a keyboard the browser is about to take over.
			stdio: ['ignore', 'pipe', 'pipe'],
			env: options.env,
			windowsHide: true,
			// Its own process group (and session), so stopping it reaches every process it started.
			detached: group,
		});

		// If pagewalk ends while the command runs (process.exit, a crash), the group goes with it.
		const killNow = () => {
			if (group && child.pid !== undefined) {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {
					// Already gone.
				}
			}
		};

		const release = () => {
			clearTimeout(timer);
			process.off('exit', killNow);
			for (const signal of stopSignals) {
				process.off(signal, interrupted);
			}
		};

		/** Settles once, with what the command gave: it ended by itself, and what it left running (an agent) is its own. */
		const settle = (error: Error | undefined, value?: string) => {
			if (settled) {
				return;
			}

			settled = true;
			release();
			if (error) {
				reject(error);
			} else {
				resolve(value!);
			}
		};

		/** Settles once with `error`, after stopping the command and its whole group. */
		const stop = (error: Error, then?: () => void) => {
			if (settled) {
				return;
			}

			settled = true;
			clearTimeout(timer);
			void stopGroup(child, stopGraceMs, group).then(() => {
				release();
				child.stdout!.destroy();
				child.stderr!.destroy();
				reject(error);
				then?.();
			});
		};

		// A stop signal for pagewalk while the command runs: the command's group
		// is not in the terminal's, so Ctrl-C does not reach it; stop it here.
		function interrupted(signal: NodeJS.Signals) {
			stop(fail(`was stopped because pagewalk was interrupted (${signal})`), () => {
				// No one else handles the signal: end as it would have ended pagewalk, with its status.
				if (process.listenerCount(signal) === 0) {
					process.kill(process.pid, signal);
				}
			});
		}

		const timer = setTimeout(() => {
			stop(fail(`did not finish within ${formatSeconds(timeoutMs)} and was stopped`));
		}, timeoutMs);
		process.on('exit', killNow);
		for (const signal of stopSignals) {
			process.on(signal, interrupted);
		}

		child.stdout!.on('data', (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > maxBytes) {
				stop(fail(`printed more than ${Math.round(maxBytes / 1024)} KiB, far more than a credential`));
				return;
			}

			chunks.push(chunk);
		});
		// Read and dropped (see above); reading keeps a chatty tool from blocking on a full pipe.
		child.stderr!.resume();
		child.on('error', (error: NodeJS.ErrnoException) => {
			settle(fail(startFailure(argv, error.code)));
		});
		let grace: NodeJS.Timeout | undefined;
		const exited = (code: number | null, signal: NodeJS.Signals | null) => {
			clearTimeout(grace);
			// Stop waiting on pipes a child it left running may hold open; what it printed has been read.
			child.stdout!.destroy();
			child.stderr!.destroy();
			if (code !== 0) {
				settle(fail(signal ? `was ended by ${signal}` : `exited with status ${code}`));
				return;
			}

			const text = Buffer.concat(chunks).toString('utf8').trim();
			settle(text === '' ? fail('printed nothing') : undefined, text);
		};

		// 'close' waits for the pipes to close too, and a background process the
		// command started (an agent, a cache) may keep its stdout open long
		// after it exited: git and aws read a credential helper's output once
		// it has exited, and so does this. What it wrote before exiting is
		// already in the pipe: read to its end, or for a moment when a child
		// left behind keeps it open.
		child.on('exit', (code, signal) => {
			if (child.stdout!.readableEnded) {
				exited(code, signal);
				return;
			}

			child.stdout!.once('end', () => {
				exited(code, signal);
			});
			grace = setTimeout(() => {
				exited(code, signal);
			}, exitGraceMs);
		});
	});
}

/** How long output still in the pipe is read after the command exited, when its stdout stays open. */
const exitGraceMs = 200;

function formatSeconds(ms: number): string {
	return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} seconds` : `${ms} ms`;
}
