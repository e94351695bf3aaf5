#!/usr/bin/env node
import process from 'node:process';
import v8 from 'node:v8';
import {UsageError} from './core/errors.js';
import {editDistance, quoteValue} from './core/parse-flags.js';
import {describeError} from './core/report-error.js';
import {loadTextWidth} from './core/text-width.js';

type Command = {run(argv: string[]): Promise<number>};

// Each subcommand is its own chunk: `serve` and `dump` never load React or Ink.
const subcommands: Record<string, () => Promise<Command>> = {
	serve: async () => import('./commands/serve.js'),
	audit: async () => import('./commands/audit.js'),
	dump: async () => import('./commands/dump.js'),
	profiles: async () => import('./commands/profiles.js'),
	token: async () => import('./commands/token.js'),
	completion: async () => import('./commands/completion.js'),
};

/**
 * V8 flags each entry sets before its modules load, named here at dispatch
 * rather than inside the commands. A dump's every page, and the browser's
 * every page, frame and row, is garbage once written or drawn: a young
 * generation that does not grow past its starting size is enough for that,
 * and by default V8 lets the heap grow well past what is live before it
 * collects, so the browser's resident memory climbed with every page walked;
 * sized for memory, it collects sooner (bench:walk and bench:memory, figures
 * in docs/benchmarks.md). V8 reads these flags each time it considers
 * growing a space, so setting them after start-up takes effect.
 */
const heapFlags: Record<'dump' | 'browser', readonly string[]> = {
	dump: ['--semi-space-growth-factor=1'],
	browser: ['--optimize-for-size', '--semi-space-growth-factor=1'],
};

function setHeapFlags(entry: keyof typeof heapFlags): void {
	for (const flag of heapFlags[entry]) {
		v8.setFlagsFromString(flag);
	}
}

async function main(argv: string[]): Promise<number> {
	// `pagewalk help [command]` is `--help`, as in git and gh: no list is called "help".
	if (argv[0] === 'help') {
		const command = argv[1];
		return main(command !== undefined && command in subcommands ? [command, '--help'] : ['--help']);
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

		return (await load()).run(rest);
	}

	// `pagewalk dupm` is a slip for a command, not an endpoint: no endpoint
	// name is one edit from a command's name.
	const meant = first === undefined || first.startsWith('-') || first.includes('/') ? undefined : Object.keys(subcommands).find(name => editDistance(first, name) === 1);
	if (meant !== undefined) {
		throw new UsageError(`Unknown command ${quoteValue(first!)} (did you mean pagewalk ${meant}?); see pagewalk --help.`);
	}

	setHeapFlags('browser');
	return (await import('./commands/browse.js')).run(argv);
}

try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error: unknown) {
	await loadTextWidth();
	const {message, exitCode} = describeError(error);
	process.stderr.write(`pagewalk: ${message}\n`);
	process.exitCode = exitCode;
}
