/**
 * Runs a profile's credential command (`op read …`, `pass show …`, a keychain
 * tool) and returns what it printed, trimmed: the secret. The command comes
 * only from the config file, never from a flag or the environment, and runs
 * without a shell, so no word of it is expanded or re-parsed.
 *
 * Bounded: it is stopped (SIGKILL) after `timeoutMs`, and its output is cut
 * off past `maxBytes` (a credential is short; megabytes mean the wrong command).
 * It is done when it exits, even if a process it left behind holds its stdout.
 *
 * Its stderr is read and dropped, never shown: a secret tool that fails may
 * print part of the secret, a vault path or a session hint there, and the
 * user can run the same command to see it. The error names the profile and
 * the program, never the output.
 */
import {spawn as nodeSpawn} from 'node:child_process';
import {UsageError} from '../text/errors.js';
import {inert} from '../text/inert.js';
import {programName} from '../config/profiles.js';

export const commandDefaults = {timeoutMs: 10_000, maxBytes: 64 * 1024} as const;

export type CommandOptions = {
	/** How the command is named in errors, e.g. "profile 'work' ('/home/u/.config/pagewalk/config.json' line 7)". */
	place: string;
	timeoutMs?: number;
	maxBytes?: number;
	env?: Record<string, string | undefined>;
	spawn?: typeof nodeSpawn;
};

/** Runs `argv` and resolves to its trimmed stdout, or rejects with one sentence (a UsageError, exit 2). */
export async function runCredentialCommand(argv: readonly string[], options: CommandOptions): Promise<string> {
	const {place, timeoutMs = commandDefaults.timeoutMs, maxBytes = commandDefaults.maxBytes, spawn = nodeSpawn} = options;
	const program = inert(programName(argv));
	const fail = (what: string) => new UsageError(`The credential command '${program}' of ${place} ${what}; run it yourself to see why, or fix the profile.`);

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
		});
		const finish = (error: Error | undefined, value?: string) => {
			if (settled) {
				return;
			}

			settled = true;
			clearTimeout(timer);
			if (error) {
				child.kill('SIGKILL');
				reject(error);
			} else {
				resolve(value!);
			}
		};

		const timer = setTimeout(() => {
			finish(fail(`did not finish within ${formatSeconds(timeoutMs)} and was stopped`));
		}, timeoutMs);
		child.stdout!.on('data', (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > maxBytes) {
				finish(fail(`printed more than ${Math.round(maxBytes / 1024)} KiB, far more than a credential`));
				return;
			}

			chunks.push(chunk);
		});
		// Read and dropped (see above); reading keeps a chatty tool from blocking on a full pipe.
		child.stderr!.resume();
		child.on('error', (error: NodeJS.ErrnoException) => {
			finish(fail(error.code === 'ENOENT' ? 'could not be started: no such program on PATH' : error.code === 'EACCES' ? 'could not be started: not executable' : `could not be started (${error.code ?? 'unknown error'})`));
		});
		let grace: NodeJS.Timeout | undefined;
		const exited = (code: number | null, signal: NodeJS.Signals | null) => {
			clearTimeout(grace);
			// Stop waiting on pipes a child it left running may hold open; what it printed has been read.
			child.stdout!.destroy();
			child.stderr!.destroy();
			if (code !== 0) {
				finish(fail(signal ? `was ended by ${signal}` : `exited with status ${code}`));
				return;
			}

			const text = Buffer.concat(chunks).toString('utf8').trim();
			finish(text === '' ? fail('printed nothing') : undefined, text);
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
