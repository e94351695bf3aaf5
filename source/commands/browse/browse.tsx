import process from 'node:process';
import {parseCommandLine, parseFlags, type ParsedArgs} from '../../config/parse-flags.js';
import {commands, walkFlagsHelp} from '../../config/flags.js';
import type {CommandIo} from '../process/command-io.js';
import {commandOutput} from '../../output/sink.js';

const help = `
	Usage
	  $ pagewalk [endpoint] [options]   browse a list endpoint page by page
	  $ pagewalk dump [endpoint]        write the objects as NDJSON, JSON, CSV or a table
	  $ pagewalk audit [endpoint]       walk a list and check the contract
	  $ pagewalk serve                  run the local sandbox of both APIs
	  $ pagewalk profiles               list the config file's profiles (secrets left out)
	  $ pagewalk token [endpoint]       print a JWT (or the token) for one request, for curl
	  $ pagewalk completion bash|zsh|fish
	                                    print a shell completion script (docs/completion.md)

	In a terminal, opens the browser (press ? inside for the keys). When stdout
	is not a terminal, writes the first page as NDJSON instead (one object a
	line; --format picks json, csv or table), like 'dump'.
${walkFlagsHelp}
	Compare
	  --compare-env NAME       c shows which ids of the page on screen the credential in
	                           environment variable NAME sees, against yours (with --demo:
	                           the sandbox's other credential, without this flag)
	  --compare-profile NAME   the same with the credential of profile NAME (for the API in
	                           use; its base URL must be the one in use)

	Mouse
	  --no-mouse               leave the mouse to the terminal: no wheel scrolling, and a
	                           plain drag selects text (the wheel scrolls 3 rows otherwise;
	                           Shift-drag selects then in most terminals)

	Columns
	  --columns a,b,c          start with these columns, in this order (id stays first); C in
	                           the browser picks, hides and reorders them, remembered per endpoint
	                           in $XDG_STATE_HOME/pagewalk/columns.json. On a pipe with --format
	                           csv or table: exactly these columns

	On a pipe
	  --format ndjson|json|csv|table
	                           how the first page is written (default ndjson, as in dump)

	Examples
	  $ pagewalk --demo
	  $ pagewalk checkouts --limit 50 --order asc
`;

export type BrowseArgs = ParsedArgs<typeof commands.browse.flags>;

/** The browser's flags, as the one parser reads them; 'help' and 'version' when asked for. */
export function parseWalkArgs(argv: string[]): BrowseArgs | 'help' | 'version' {
	return parseFlags(argv, commands.browse);
}

/**
 * `pagewalk [endpoint]`: the interactive browser on a terminal. Not a
 * terminal: the bare dump, without ever loading React or Ink.
 */
export async function run(argv: string[], io: CommandIo): Promise<number> {
	// One parse for both modes: on a pipe the same flags, the same errors,
	// and `pagewalk --help | less` gets this help, not dump's.
	const parsed = await parseCommandLine(argv, commands.browse, help, commandOutput(io.stdout, io.stderr));
	if (parsed === undefined) {
		return 0;
	}

	// The terminal the browser takes is the process's own (raw mode, the alternate screen).
	if (!io.stdout.isTTY || !process.stdin.isTTY) {
		return (await import('../dump/dump.js')).runBare(parsed, io);
	}

	return (await import('./browse-terminal.js')).runTerminal(parsed);
}
