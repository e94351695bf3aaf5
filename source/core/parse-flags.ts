import {parseArgs} from 'node:util';
import {UsageError} from './errors.js';
import {inert} from './inert.js';

/** A flag as meow declares it; only the parts node:util needs. */
export type FlagSpec = {type: 'string' | 'boolean'; isMultiple?: boolean};

const kebab = (name: string) => name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

/**
 * Parses meow-style flag declarations with node:util. meow and its
 * dependencies take ~20 ms to load, a tenth of the time to the first page,
 * so the commands load meow only to print --help and --version; the flag
 * declarations stay meow's, so both parsers read the same table.
 *
 * `command` names the command in the one-sentence error, e.g. `pagewalk dump`.
 */
export function parseFlags(argv: string[], declarations: Record<string, FlagSpec>, command: string): {input: string[]; flags: Record<string, unknown>} {
	const options: Record<string, {type: 'string' | 'boolean'; multiple: boolean}> = {};
	const names: Record<string, string> = {};
	for (const [name, flag] of Object.entries(declarations)) {
		options[kebab(name)] = {type: flag.type, multiple: flag.isMultiple === true};
		names[kebab(name)] = name;
	}

	try {
		const {values, positionals} = parseArgs({args: argv, options, allowPositionals: true, strict: true});
		const flags: Record<string, unknown> = {};
		for (const [option, value] of Object.entries(values)) {
			flags[names[option]!] = value;
		}

		return {input: positionals, flags};
	} catch (error: unknown) {
		// Node's messages run on about '--' and positionals; the first sentence says it.
		const message = (error instanceof Error ? error.message : String(error)).split(/\.\s/)[0]!.replace(/\.$/, '');
		throw new UsageError(`${inert(message)}; see ${command} --help.`);
	}
}
