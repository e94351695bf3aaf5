/**
 * Every command and mode parses flags the same way: the built CLI in a
 * subprocess (a private copy of dist/), stdout a pipe, so `pagewalk` itself
 * runs in its bare mode (the first page as a dump).
 */
import {readFileSync} from 'node:fs';
import {beforeAll, describe, expect, it} from 'vitest';
import {runCli, usePrivateCli} from '../support/run-dump.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version: string}).version;

/** No credentials and no network: every case here ends before anything is sent. */
const env = {NO_COLOR: '1'};

type Command = {
	name: string;
	argv: string[];
	usage: string;
	/** A typo of one of its flags, with a value, and the flag meant. */
	typo: [string[], string];
	/** A flag that takes a value, and a value of the wrong kind with the sentence it gets. */
	valued: string;
	wrongValue: [string[], string];
};

const walkCommand = (name: string, argv: string[], usage: string): Command => ({
	name,
	argv,
	usage,
	typo: [['--demo', '--lmit', '2'], '--limit'],
	valued: '--limit',
	wrongValue: [['--demo', '--limit', 'abc'], '--limit must be a whole number from 0 to 100, not \'abc\'.'],
});

const table: Command[] = [
	walkCommand('pagewalk', [], '$ pagewalk [endpoint] [options]'),
	walkCommand('pagewalk dump', ['dump'], '$ pagewalk dump [endpoint] [options]'),
	walkCommand('pagewalk audit', ['audit'], '$ pagewalk audit [endpoint] [options]'),
	{
		name: 'pagewalk serve',
		argv: ['serve'],
		usage: '$ pagewalk serve [options]',
		typo: [['--prot', '0'], '--port'],
		valued: '--port',
		wrongValue: [['--port', 'abc'], '--port must be a whole number from 0 to 65535, not \'abc\'.'],
	},
];

/** Every usage error: one line, one sentence, the same shape in every command. */
const sentence = /^pagewalk: [^\n]+\.\n$/;

beforeAll(() => {
	usePrivateCli();
});

describe.each(table)('$name, stdout a pipe', command => {
	const pagewalk = async (...args: string[]) => runCli([...command.argv, ...args], env);

	it('an unknown flag: one sentence naming it and the help, exit 2', async () => {
		const result = await pagewalk('--bogus');
		expect(result).toEqual({code: 2, stdout: '', stderr: `pagewalk: Unknown flag --bogus; see ${command.name} --help.\n`});
	});

	it('a typo: the closest flag is suggested, exit 2', async () => {
		const [args, meant] = command.typo;
		const result = await pagewalk(...args);
		expect(result).toEqual({code: 2, stdout: '', stderr: `pagewalk: Unknown flag ${args.at(-2)!} (did you mean ${meant}?); see ${command.name} --help.\n`});
	});

	it('-h and --help print the same help to stdout and exit 0, even with a wrong flag on the line', async () => {
		const long = await pagewalk('--help');
		expect(long.code).toBe(0);
		expect(long.stderr).toBe('');
		expect(long.stdout).toContain(command.usage);
		expect(await pagewalk('-h')).toEqual(long);
		expect(await pagewalk('--bogus', '-h')).toEqual(long);
	});

	it('--version prints the version and exits 0', async () => {
		expect(await pagewalk('--version')).toEqual({code: 0, stdout: `${version}\n`, stderr: ''});
	});

	it('a flag without its value: one sentence, exit 2', async () => {
		const result = await pagewalk(command.valued);
		expect(result).toEqual({code: 2, stdout: '', stderr: `pagewalk: ${command.valued} needs a value; see ${command.name} --help.\n`});
	});

	it('a value of the wrong kind: one sentence, exit 2', async () => {
		const [args, message] = command.wrongValue;
		const result = await pagewalk(...args);
		expect(result).toEqual({code: 2, stdout: '', stderr: `pagewalk: ${message}\n`});
	});

	it('every usage error above has the same shape', async () => {
		for (const args of [['--bogus'], command.typo[0], [command.valued], command.wrongValue[0], [`${command.valued}=1`, `${command.valued}=2`]]) {
			// eslint-disable-next-line no-await-in-loop -- one child process at a time on a loaded machine
			const result = await pagewalk(...args);
			expect(result.code).toBe(2);
			expect(result.stdout).toBe('');
			expect(result.stderr).toMatch(sentence);
		}
	});
});

describe('a command name one edit off', () => {
	it('is a slip for that command, not an endpoint: one sentence, exit 2', async () => {
		expect(await runCli(['dupm', '--demo'], env)).toEqual({code: 2, stdout: '', stderr: 'pagewalk: Unknown command \'dupm\' (did you mean pagewalk dump --demo?); see pagewalk --help.\n'});
	});
});
