import {UsageError} from '../text/errors.js';
import {commands, kebabName as kebab, type CommandFlags, type FlagDeclarations, type FlagValues} from './flags.js';
import {inert} from '../text/inert.js';
import {editDistance} from '../text/edit-distance.js';
import {commandOf, fixedLine, helpLine, takenBy, type CommandName} from './hints.js';

export type ParsedArgs<D extends FlagDeclarations> = {input: string[]; flags: FlagValues<D>};

const camel = (name: string) => name.replaceAll(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A value as messages show it: quoted, inert, and cut when long. Messages about a flag's value use it too. */
export function quoteValue(value: string): string {
	const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
	return `'${inert(shown)}'`;
}

/** A flag name as typed, shown safely in a message. */
function shownFlag(raw: string): string {
	return inert(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
}

/** `argv` with `count` arguments at `index` replaced by `word`. */
function replaced(argv: readonly string[], index: number, count: number, word: string): string[] {
	return [...argv.slice(0, index), word, ...argv.slice(index + count)];
}

/**
 * What follows "Unknown flag --x": the commands that take it, or the
 * closest flag of this command when it is a small slip (one edit in a short
 * name, two in a longer one), or nothing. `argv` and `index`: the user's
 * line and where the flag stands in it (`value`: the argument after it).
 */
function unknownFlagHint(typed: string, command: CommandName, argv: readonly string[], index: number, inline: string | undefined): string {
	const name = camel(typed.toLowerCase());
	if (Object.values(commands).some(other => other.name !== commands[command].name && Object.hasOwn(other.flags, name))) {
		const next = argv[index + 1];
		const value = inline === undefined && next !== undefined && !next.startsWith('-') ? [next] : [];
		return ` (${takenBy('parse-taken-by', name, command, [argv[index]!, ...value])})`;
	}

	const known = [...Object.keys(commands[command].flags).map(flag => kebab(flag)), 'help', 'version'];
	const allowed = typed.length <= 4 ? 1 : 2;
	let best: {flag: string; distance: number} | undefined;
	for (const flag of known) {
		const distance = editDistance(typed.toLowerCase(), flag);
		if (distance <= allowed && (best === undefined || distance < best.distance)) {
			best = {flag, distance};
		}
	}

	if (best === undefined) {
		return '';
	}

	const fixed = `--${best.flag}${inline === undefined ? '' : `=${inline}`}`;
	return ` (did you mean ${fixedLine('parse-flag-slip', command, replaced(argv, index, 1, fixed), `--${best.flag}`)}?)`;
}

/**
 * The one flag parser of every command and mode (the browser on a terminal
 * and on a pipe, dump, audit, serve), over the tables in flags.ts.
 *
 * Returns 'help' for -h or --help and 'version' for --version, wherever they
 * stand (before `--`) and whatever else is wrong on the line: asking for help
 * always gets it. Otherwise every problem is one sentence ending in
 * "see <command> --help." (a UsageError, exit status 2): an unknown flag, with
 * the closest known one when the slip is small; a flag without its value; a
 * value given to a switch; a flag given twice that takes one value; an
 * argument to a command that takes none.
 *
 * `--flag value` and `--flag=value` both work. A value starting with '-' must
 * use the `=` form (`--starting-after=-abc`): otherwise a forgotten value
 * would silently swallow the next flag.
 *
 * Why not node:util parseArgs (which this replaced): it takes the next
 * argument as the value even when it is a flag, its errors run to several
 * sentences in Node's words, and in its lenient mode it does not report
 * unknown flags at all, so suggesting the closest one meant tokenizing twice.
 * Long flags with one optional `=` need no more code than this.
 */
export function parseFlags<D extends FlagDeclarations>(argv: readonly string[], command: CommandFlags<D>): ParsedArgs<D> | 'help' | 'version' {
	const scanned = scanFlags(argv, command);
	if (typeof scanned === 'function') {
		throw new UsageError(scanned());
	}

	return scanned;
}

/** `argv` as `command` reads it, or undefined when the parser would refuse it (its message and hints are not made). */
export function parsesAs<D extends FlagDeclarations>(argv: readonly string[], command: CommandFlags<D>): ParsedArgs<D> | 'help' | 'version' | undefined {
	const scanned = scanFlags(argv, command);
	return typeof scanned === 'function' ? undefined : scanned;
}

/** The parse, or the sentence refusing it, made only when told. */
function scanFlags<D extends FlagDeclarations>(argv: readonly string[], command: CommandFlags<D>): ParsedArgs<D> | 'help' | 'version' | (() => string) {
	const key = commandOf(command);
	if (key === undefined) {
		throw new Error(`${command.name} is not in the command table (flags.ts)`);
	}

	const input: string[] = [];
	const flags: Record<string, unknown> = {};
	let wants: 'help' | 'version' | undefined;
	// The first problem is told; its words (and the hint in them) are made only for it.
	let problem: (() => string) | undefined;
	const fail = (sentence: () => string) => {
		problem ??= sentence;
	};

	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index]!;
		if (argument === '--') {
			input.push(...argv.slice(index + 1));
			break;
		}

		if (argument === '-' || !argument.startsWith('-')) {
			input.push(argument);
			continue;
		}

		if (argument === '-h') {
			wants = 'help';
			continue;
		}

		const equals = argument.indexOf('=');
		let typed = equals === -1 ? argument.slice(2) : argument.slice(2, equals);
		const inline = equals === -1 ? undefined : argument.slice(equals + 1);
		if (!argument.startsWith('--')) {
			// One dash: -h and a flag's declared short form (dump's -o) are the short flags; `-limit` is a slip for --limit.
			const letter = equals === -1 ? argument.slice(1) : argument.slice(1, equals);
			const short = Object.entries(command.flags).find(([, spec]) => spec.shortFlag !== undefined && spec.shortFlag === letter);
			if (short === undefined) {
				const at = index;
				const long = () => (letter.length > 1 && Object.hasOwn(command.flags, camel(letter)) ? ` (did you mean ${fixedLine('parse-one-dash', key, replaced(argv, at, 1, `-${argument}`), `-${argument}`)}?)` : '');
				fail(() => `Unknown flag ${shownFlag(argument)}${long()}`);
				continue;
			}

			typed = kebab(short[0]);
		}

		if (typed === 'help') {
			wants = 'help';
			continue;
		}

		if (typed === 'version') {
			wants ??= 'version';
			continue;
		}

		const name = camel(typed);
		// Only kebab-case spellings: --startingAfter is a slip, not a synonym.
		const spec = typed === kebab(name) && Object.hasOwn(command.flags, name) ? command.flags[name] : undefined;
		if (spec === undefined) {
			const at = index;
			fail(() => `Unknown flag --${shownFlag(typed)}${unknownFlagHint(typed, key, argv, at, inline)}`);
			continue;
		}

		let value: string | true;
		if (spec.type === 'boolean') {
			if (inline !== undefined) {
				fail(() => `--${typed} is a switch and takes no value, not ${quoteValue(inline)}`);
				continue;
			}

			value = true;
		} else if (inline !== undefined) {
			value = inline;
		} else {
			const next = argv[index + 1];
			if (next === undefined || (next.startsWith('-') && next !== '-')) {
				const dashed = next !== undefined && next !== '--' && !next.startsWith('--');
				const at = index;
				// Only a flag whose values may start with '-' (an id, a path) is told to take one: `--limit=-1` is no page size.
				const dash = () => (!dashed ? '' : spec.dashValue === true
					? ` (for a value that starts with '-', write ${fixedLine('parse-dash-value', key, replaced(argv, at, 2, `${argument}=${next}`), `${argument}=${shownFlag(next)}`)})`
					: ` (no value of --${typed} starts with '-')`);
				fail(() => `--${typed} needs a value${dash()}`);
				continue;
			}

			value = next;
			index++;
		}

		if (spec.isMultiple === true) {
			((flags[name] ??= []) as unknown[]).push(value);
		} else if (Object.hasOwn(flags, name)) {
			fail(() => `--${typed} is given more than once`);
		} else {
			flags[name] = value;
		}
	}

	if (wants !== undefined) {
		return wants;
	}

	if (problem === undefined && !command.takesArguments && input.length > 0) {
		fail(() => `${command.name} takes flags only, not the argument ${quoteValue(input[0]!)}`);
	}

	if (problem !== undefined) {
		const told = problem;
		return () => `${told()}; see ${helpLine('parse-see-help', key)}.`;
	}

	return {input, flags: flags as FlagValues<D>};
}

/** Where a command writes its output: the command's own writer (output/sink.ts's commandOutput), which writes it whole or fails in one sentence. */
export type TextOutput = {write(text: string): Promise<void>};

/**
 * Writes the help or the version to stdout (exit status 0, on a pipe too).
 * meow renders them, as before the parser was ours; it and its dependencies
 * take measurable time to load (docs/benchmarks.md), so only these two paths load it.
 */
export async function printHelpOrVersion(what: 'help' | 'version', help: string, stdout: TextOutput): Promise<void> {
	const {default: meow} = await import('meow');
	const cli = meow(help, {importMeta: import.meta, argv: [], autoHelp: false, autoVersion: false});
	await stdout.write(what === 'help' ? `${cli.help}\n` : `${String(cli.pkg.version)}\n`);
}

/**
 * Parses `argv` for `command`; for -h, --help and --version prints them and
 * returns undefined (the command then exits 0 without doing anything else).
 */
export async function parseCommandLine<D extends FlagDeclarations>(
	argv: readonly string[],
	command: CommandFlags<D>,
	help: string,
	stdout: TextOutput,
): Promise<ParsedArgs<D> | undefined> {
	const parsed = parseFlags(argv, command);
	if (parsed === 'help' || parsed === 'version') {
		await printHelpOrVersion(parsed, help, stdout);
		return undefined;
	}

	return parsed;
}
