/**
 * Every hint that tells the user what to run is made here, from the command
 * table and the flag tables (flags.ts), so a hint names only a command that
 * exists and flags that command takes: the compiler checks the names it is
 * given, and a flag the named command lacks is refused (thrown) when the
 * hint is built, never printed.
 *
 * Two kinds:
 * - `flag()`: a flag named in a sentence ("raise --timeout"), checked against
 *   the table of every command that can print the sentence.
 * - command lines: `again()` (the user's own command, changed), `commandLine()`
 *   and the parser's and the CLI's slips. Each call names its site (a
 *   string literal), and each line built is kept in `builtHints` with the
 *   arguments it stands for, so test/cli/hints-run.test.ts can run every hint
 *   the CLI printed, and fail for a site no situation reached.
 */
import {inert} from '../text/inert.js';
import {Secret, secretLikeHeader} from '../text/secret.js';
import {shellWord} from '../text/shell-quote.js';
import {commands, kebabName as kebab, type FlagValues} from './flags.js';

export type CommandName = keyof typeof commands;
type Table<C extends CommandName> = (typeof commands)[C]['flags'];
/** The flags every command of `C` takes (keyof a union of tables is the keys they share). */
type FlagOf<C extends CommandName> = keyof Table<C> & string;
/** A flag of any command. */
type AnyFlag = {[C in CommandName]: keyof Table<C>}[CommandName] & string;

/** The commands that walk a list: messages of the client, the walker and the writers are printed by these. */
export const walkCommands = ['browse', 'dump', 'audit'] as const;
/** The commands that read a credential: the walk commands and token. */
export const credentialCommands = [...walkCommands, 'token'] as const;

/** Characters no POSIX shell treats specially, in a value or an endpoint. */
const plainWord = /^[\w.:@%+,/=-]+$/;

function takes(command: CommandName, name: string): boolean {
	return Object.hasOwn(commands[command].flags, name);
}

function refuse(command: CommandName, name: string, site: string): never {
	throw new Error(`the hint ${site} names --${kebab(name)}, which ${commands[command].name} does not take`);
}

/** Whether `command` takes the flag `name` (camelCase): a hint that would need it is not offered. */
export function commandTakes(command: CommandName, name: string): boolean {
	return takes(command, name);
}

/** The command whose table is `flags` (the parser is handed the table's entry, not its name). */
export function commandOf(entry: {readonly name: string}): CommandName | undefined {
	return (Object.keys(commands) as CommandName[]).find(name => commands[name].name === entry.name);
}

/**
 * `--kebab-name` of a flag that every command in `printedBy` takes, for a
 * sentence ("raise --timeout"); `value`, when given, follows it as written.
 */
export function flag<C extends CommandName>(printedBy: readonly C[], name: FlagOf<C>, value?: string): string {
	for (const command of printedBy) {
		if (!takes(command, name)) {
			refuse(command, name, `flag(${name})`);
		}
	}

	return value === undefined ? `--${kebab(name)}` : `--${kebab(name)} ${value}`;
}

/** A flag of the walk commands (browse, dump, audit), for their shared messages. */
export function walkFlag(name: FlagOf<typeof walkCommands[number]>, value?: string): string {
	return flag(walkCommands, name, value);
}

type FlagValue = string | true | readonly string[];
type Flags = Readonly<Record<string, unknown>>;

/** A command line as the user gave it (or as a hint makes it): the command, its arguments, its parsed flags. */
export type UserLine<C extends CommandName = CommandName> = {
	readonly command: C;
	readonly input: readonly string[];
	readonly flags: Flags;
};

/** A hint as built: where, the command it names, and the arguments it stands for, as a test runs them. */
export type BuiltHint = {site: string; command: CommandName; argv: string[]; shown: string};

/** Every hint built in this process, in order (read by the tests; a few short entries per run otherwise). */
export const builtHints: BuiltHint[] = [];
const keptHints = 200;

function keep(hint: BuiltHint): void {
	if (builtHints.length >= keptHints) {
		builtHints.shift();
	}

	builtHints.push(hint);
}

/** One flag as arguments (`--all`, `--limit=5`, each value of a repeatable one) and as shown (inert, shell-quoted). */
function flagWords(name: string, value: unknown): {argv: string[]; shown: string[]} {
	const word = `--${kebab(name)}`;
	if (value === true) {
		return {argv: [word], shown: [word]};
	}

	const values = Array.isArray(value) ? (value as unknown[]).map(String) : [String(value)];
	return {
		argv: values.map(one => `${word}=${one}`),
		shown: values.map(one => {
			// A header that may carry a secret is shown as the redaction mark, as everywhere else.
			const headerName = /^[^:]*/.exec(one)![0];
			const safe = name === 'header' && secretLikeHeader(headerName) ? `${headerName}: ${Secret.mark}` : one;
			return `${word}=${shellWord(inert(safe), plainWord)}`;
		}),
	};
}

/** `--starting-after=ID` (or any flag and value) as a POSIX shell passes it through unchanged. */
export function flagText(name: string, value: string | true): string {
	return flagWords(name, value).shown.join(' ');
}

function lineWords(line: UserLine): {argv: string[]; shown: string[]} {
	const argv: string[] = [];
	const shown: string[] = [];
	// An argument that starts with '-' was given after `--`, and goes there again, after the flags.
	const dashed = line.input.some(word => word.startsWith('-'));
	if (!dashed) {
		argv.push(...line.input);
		shown.push(...line.input.map(word => shellWord(inert(word), plainWord)));
	}

	for (const [name, value] of Object.entries(line.flags)) {
		if (value === undefined || value === false) {
			continue;
		}

		const words = flagWords(name, value);
		argv.push(...words.argv);
		shown.push(...words.shown);
	}

	if (dashed) {
		argv.push('--', ...line.input);
		shown.push('--', ...line.input.map(word => shellWord(inert(word), plainWord)));
	}

	return {argv, shown};
}

function render(line: UserLine): {argv: string[]; text: string} {
	const {argv, shown} = lineWords(line);
	return {argv, text: [commands[line.command].name, ...shown].join(' ')};
}

export type Change<C extends CommandName> = {
	/** Another command than the user's (the flags it does not take are left out). */
	command?: C;
	/** Flags to set (replacing the user's value); each must be one the command takes. */
	set?: FlagValues<Table<C>>;
	/** Flags to leave out. */
	drop?: readonly AnyFlag[];
	/** The endpoint in place of the user's. */
	endpoint?: string;
};

/**
 * What a hint says to do, in two forms: `phrase` ("the same command with
 * --all", or the whole line when the command changes) and `action` ("add
 * --all", "replace --ending-before=X with --starting-after=Y", or "run
 * pagewalk dump accounts --all").
 */
export type Suggestion = {phrase: string; action: string};

function equal(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The user's command line changed as `change` says: another command, flags
 * set or dropped, another endpoint. The user's flags are carried over as
 * they gave them (those the command does not take are left out); a flag
 * `set` that the command does not take is refused.
 */
export function again<C extends CommandName = CommandName>(site: string, line: UserLine, change: Change<C>): Suggestion {
	const command: CommandName = change.command ?? line.command;
	const set = (change.set ?? {}) as Record<string, FlagValue | undefined>;
	const drop = new Set<string>(change.drop ?? []);
	for (const name of Object.keys(set)) {
		if (set[name] !== undefined && !takes(command, name)) {
			refuse(command, name, site);
		}
	}

	const flags: Record<string, unknown> = {};
	const removed: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(line.flags)) {
		if (value === undefined) {
			continue;
		}

		if (drop.has(name) || (set[name] !== undefined && !equal(set[name], value))) {
			removed[name] = value;
		} else if (takes(command, name)) {
			flags[name] = value;
		}
	}

	const added: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(set)) {
		if (value !== undefined && !equal(line.flags[name], value)) {
			flags[name] = value;
			added[name] = value;
		}
	}

	const input = commands[command].takesArguments ? (change.endpoint === undefined ? line.input : [change.endpoint, ...line.input.slice(1)]) : [];
	const built = render({command, input, flags});
	if (command !== line.command || change.endpoint !== undefined) {
		keep({site, command, argv: built.argv, shown: built.text});
		return {phrase: built.text, action: `run ${built.text}`};
	}

	const words = (values: Record<string, unknown>) => Object.entries(values).flatMap(([name, value]) => flagWords(name, value).shown).join(' ');
	const plus = words(added);
	const minus = words(removed);
	if (plus === '' && minus === '') {
		throw new Error(`the hint ${site} changes nothing in the command line`);
	}

	// What is printed of the line is the change: that is what a test finds in the output.
	keep({site, command, argv: built.argv, shown: plus === '' ? minus : plus});
	if (minus === '') {
		return {phrase: `the same command with ${plus}`, action: `add ${plus}`};
	}

	return plus === ''
		? {phrase: `the same command without ${minus}`, action: `remove ${minus}`}
		: {phrase: `the same command with ${plus} in place of ${minus}`, action: `replace ${minus} with ${plus}`};
}

/**
 * A command line from nothing the user typed: `pagewalk <command> <input>
 * <flags>`; `help` asks for the command's help, which every command takes.
 */
export function commandLine<C extends CommandName>(site: string, command: C, flags: FlagValues<Table<C>> & {help?: true} = {}, input: readonly string[] = []): string {
	const {help, ...own} = flags as Record<string, unknown> & {help?: true};
	for (const name of Object.keys(own)) {
		if (own[name] !== undefined && !takes(command, name)) {
			refuse(command, name, site);
		}
	}

	const built = render({command, input, flags: own});
	const argv = help ? [...built.argv, '--help'] : built.argv;
	const text = help ? `${built.text} --help` : built.text;
	keep({site, command, argv, shown: text});
	return text;
}

/** `pagewalk dump --help`: what "see …" names. */
export function helpLine(site: string, command: CommandName): string {
	return commandLine(site, command, {help: true});
}

/**
 * The parser's slips: a flag of the user's line written another way. The
 * sentence shows `shown` (`--limit`, `--starting-after=-abc`); what is kept
 * is the user's whole line with that fix, so the test runs what the user would.
 */
export function fixedLine(site: string, command: CommandName, argv: readonly string[], shown: string): string {
	keep({site, command, argv: [...argv], shown});
	return shown;
}

/**
 * "(pagewalk dump takes it)": the commands but `except` whose table has the
 * flag `name` (camelCase) that the user gave to `except`, with `argv` (the
 * flag as typed, with its value) as the line each would take.
 */
export function takenBy(site: string, name: string, except: CommandName, argv: readonly string[]): string {
	const names = (Object.keys(commands) as CommandName[]).filter(command => command !== except && takes(command, name));
	for (const command of names) {
		keep({site, command, argv: [...argv], shown: commands[command].name});
	}

	const shown = names.map(command => commands[command].name);
	const list = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}`;
	return `${list} ${shown.length === 1 ? 'takes' : 'take'} it`;
}

/** The one name of `known` a slip `typed` is closest to, if any (at most `most` edits). */
export function closestName(typed: string, known: readonly string[], distance: (a: string, b: string) => number, most: number): string | undefined {
	let best: {name: string; edits: number} | undefined;
	for (const name of known) {
		const edits = distance(typed, name);
		if (edits <= most && (best === undefined || edits < best.edits)) {
			best = {name, edits};
		}
	}

	return best?.name;
}
