#!/usr/bin/env node
import process from 'node:process';
import {describeError} from './core/report-error.js';

type Command = {run(argv: string[]): Promise<number>};

// Each subcommand is its own chunk: `serve` and `dump` never load React or Ink.
const subcommands: Record<string, () => Promise<Command>> = {
	serve: async () => import('./commands/serve.js'),
	audit: async () => import('./commands/audit.js'),
	dump: async () => import('./commands/dump.js'),
};

async function main(argv: string[]): Promise<number> {
	const [first, ...rest] = argv;
	const load = first === undefined ? undefined : subcommands[first];
	if (load) {
		return (await load()).run(rest);
	}

	return (await import('./commands/browse.js')).run(argv);
}

try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error: unknown) {
	const {message, exitCode} = describeError(error);
	process.stderr.write(`pagewalk: ${message}\n`);
	process.exitCode = exitCode;
}
