#!/usr/bin/env node
import module from 'node:module';
import {homedir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {UsageError} from './text/errors.js';
import {parsesAs, quoteValue} from './config/parse-flags.js';
import {editDistance} from './text/edit-distance.js';
import {commands, type CommandFlags} from './config/flags.js';
import {commandLine, helpLine, type CommandName} from './config/hints.js';
import {describeError} from './text/report-error.js';
import {loadTextWidth} from './text/text-width.js';
import {setHeapFlags} from './commands/process/heap-flags.js';
import {systemIo, type CommandIo} from './commands/process/command-io.js';

type Command = {run(argv: string[], io: CommandIo): Promise<number>};

/**
 * Node 22.1 and later keep V8's compiled code of the bundle on disk, so the
 * next start skips parsing and compiling what it loads (the browser's chunks
 * are most of its start-up). In $XDG_CACHE_HOME/pagewalk, else
 * ~/.cache/pagewalk; Node checks each entry against its file and its own
 * version, and a directory it cannot write only means no cache
 * (NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache for
 * ES modules: there this does nothing. Enabled before the commands' chunks
 * are imported, which is what it caches.
 */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
	const enable = (module as {enableCompileCache?: (directory?: string) => unknown}).enableCompileCache;
	if (!enable) {
		return;
	}

	const xdg = env['XDG_CACHE_HOME'];
	const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env['HOME'] ?? homedir(), '.cache');
	try {
		enable(path.join(base, 'pagewalk', 'compile-cache'));
	} catch {
		// A cache is an optimisation: without it pagewalk starts as it would have.
	}
}

// Each subcommand is its own chunk: `serve` and `dump` never load React or Ink.
const subcommands: Record<string, () => Promise<Command>> = {
	serve: async () => import('./commands/serve/serve.js'),
	audit: async () => import('./commands/audit/audit.js'),
	dump: async () => import('./commands/dump/dump.js'),
	profiles: async () => import('./commands/profiles/profiles.js'),
	token: async () => import('./commands/token/token.js'),
	completion: async () => import('./commands/completion/completion.js'),
};

/** The command one edit away from `typed`, if any. */
function closestCommand(typed: string): Exclude<CommandName, 'browse'> | undefined {
	return (Object.keys(subcommands) as Array<Exclude<CommandName, 'browse'>>).find(name => editDistance(typed, name) === 1);
}

/**
 * ` (did you mean pagewalk dump …?)` for a slip one edit from a command's
 * name, with the rest of the line when that command takes it; for `help`, the
 * command's help. Else nothing.
 */
function commandHint(typed: string, rest: readonly string[] | 'help'): string {
	const meant = closestCommand(typed);
	if (meant === undefined) {
		return '';
	}

	if (rest === 'help') {
		return ` (did you mean ${helpLine('cli-help-slip', meant)}?)`;
	}

	// The rest when that command reads it, else the command's name alone.
	const parsed = parsesAs(rest, commands[meant] as CommandFlags);
	const line = typeof parsed === 'object' ? parsed : {input: [], flags: {}};
	return ` (did you mean ${commandLine('cli-command-slip', meant, line.flags as Record<string, never>, line.input)}?)`;
}

async function main(argv: string[]): Promise<number> {
	// `pagewalk help [command]` is `--help`, as in git and gh: no list is called "help".
	if (argv[0] === 'help') {
		const command = argv[1];
		if (command === undefined) {
			return main(['--help']);
		}

		if (command in subcommands) {
			return main([command, '--help']);
		}

		// Only the commands have a help of their own: anything else is a slip, named as `pagewalk dmup` names it.
		throw new UsageError(`No help for ${quoteValue(command)}: it is not a command${commandHint(command, 'help')}; see ${helpLine('cli-help-see-help', 'browse')}.`);
	}

	const [first, ...rest] = argv;
	// Every command but dump draws text for a terminal; dump loads string-width only when it does.
	if (first !== 'dump') {
		await loadTextWidth();
	}

	const load = first === undefined ? undefined : subcommands[first];
	if (load) {
		if (first === 'dump') {
			setHeapFlags('dump');
		}

		return (await load()).run(rest, systemIo());
	}

	// `pagewalk dupm` is a slip for a command, not an endpoint: no endpoint
	// name is one edit from a command's name.
	if (first !== undefined && !first.startsWith('-') && !first.includes('/') && closestCommand(first) !== undefined) {
		throw new UsageError(`Unknown command ${quoteValue(first)}${commandHint(first, rest)}; see ${helpLine('cli-see-help', 'browse')}.`);
	}

	return (await import('./commands/browse/browse.js')).run(argv, systemIo());
}

enableCompileCache(process.env);
// A stderr that cannot be written (a full disk, a reader gone) has no one to
// tell: the command goes on, and its exit status still says how it ended.
process.stderr.on('error', () => {});
try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error: unknown) {
	await loadTextWidth();
	const {message, exitCode} = describeError(error);
	process.stderr.write(`pagewalk: ${message}\n`);
	process.exitCode = exitCode;
}
