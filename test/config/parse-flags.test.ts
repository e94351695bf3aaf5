import {describe, expect, it} from 'vitest';
import {UsageError} from '../../source/text/errors.js';
import {commands, type CommandFlags} from '../../source/config/flags.js';
import {parseCommandLine, parseFlags} from '../../source/config/parse-flags.js';
import {editDistance} from '../../source/text/edit-distance.js';

const every: CommandFlags[] = Object.values(commands);

const usage = (run: () => unknown): string => {
	try {
		run();
	} catch (error: unknown) {
		expect(error).toBeInstanceOf(UsageError);
		return (error as Error).message;
	}

	throw new Error('expected a UsageError');
};

describe('parseFlags', () => {
	it('takes --flag value and --flag=value alike, kebab-case names as camelCase keys, and leaves absent flags out', () => {
		expect(parseFlags(['checkouts', '--limit', '5', '--order=asc', '--starting-after=-abc', '--demo'], commands.dump)).toEqual({
			input: ['checkouts'],
			flags: {limit: '5', order: 'asc', startingAfter: '-abc', demo: true},
		});
	});

	it('collects a repeatable flag in order, and keeps an empty = value', () => {
		expect(parseFlags(['--header', 'A: 1', '--header=B: 2', '--limit='], commands.audit)).toEqual({input: [], flags: {header: ['A: 1', 'B: 2'], limit: ''}});
	});

	it('reads everything after -- as arguments, and a lone - as an argument', () => {
		expect(parseFlags(['-', '--', '--help', '-x'], commands.browse)).toEqual({input: ['-', '--help', '-x'], flags: {}});
	});

	it('answers -h and --help with help and --version with version, wherever they stand and whatever else is wrong', () => {
		for (const command of every) {
			expect(parseFlags(['-h'], command)).toBe('help');
			expect(parseFlags(['--bogus', '--limit', '--help'], command)).toBe('help');
			expect(parseFlags(['--version', '--bogus'], command)).toBe('version');
			expect(parseFlags(['--version', '-h'], command)).toBe('help');
		}
	});

	it('names an unknown flag and suggests the closest one when the slip is small', () => {
		expect(usage(() => parseFlags(['--demo', '--lmit', '2'], commands.browse))).toBe('Unknown flag --lmit (did you mean --limit?); see pagewalk --help.');
		expect(usage(() => parseFlags(['--demo-credentail', 'full'], commands.dump))).toBe('Unknown flag --demo-credentail (did you mean --demo-credential?); see pagewalk dump --help.');
		expect(usage(() => parseFlags(['--baseUrl', 'x'], commands.audit))).toBe('Unknown flag --baseUrl (did you mean --base-url?); see pagewalk audit --help.');
		expect(usage(() => parseFlags(['--hlep'], commands.serve))).toBe('Unknown flag --hlep (did you mean --help?); see pagewalk serve --help.');
		expect(usage(() => parseFlags(['-limit', '2'], commands.browse))).toBe('Unknown flag -limit (did you mean --limit?); see pagewalk --help.');
		expect(usage(() => parseFlags(['--bogus'], commands.serve))).toBe('Unknown flag --bogus; see pagewalk serve --help.');
		expect(usage(() => parseFlags(['-x'], commands.dump))).toBe('Unknown flag -x; see pagewalk dump --help.');
	});

	it('says which command takes a flag this one does not', () => {
		expect(usage(() => parseFlags(['--all'], commands.browse))).toBe('Unknown flag --all (pagewalk dump takes it); see pagewalk --help.');
		expect(usage(() => parseFlags(['--json'], commands.dump))).toBe('Unknown flag --json (pagewalk audit, pagewalk serve and pagewalk profiles take it); see pagewalk dump --help.');
		expect(usage(() => parseFlags(['--port', '1'], commands.audit))).toBe('Unknown flag --port (pagewalk serve takes it); see pagewalk audit --help.');
	});

	it('refuses a missing value without swallowing the next flag, and shows the = form for a value starting with -', () => {
		expect(usage(() => parseFlags(['--limit'], commands.dump))).toBe('--limit needs a value; see pagewalk dump --help.');
		expect(usage(() => parseFlags(['--limit', '--demo'], commands.dump))).toBe('--limit needs a value; see pagewalk dump --help.');
		expect(usage(() => parseFlags(['--starting-after', '-abc'], commands.browse))).toBe(
			'--starting-after needs a value (for a value that starts with \'-\', write --starting-after=-abc); see pagewalk --help.',
		);
	});

	it('refuses a value given to a switch, a single-valued flag given twice, and an argument to serve', () => {
		expect(usage(() => parseFlags(['--demo=yes'], commands.audit))).toBe('--demo is a switch and takes no value, not \'yes\'; see pagewalk audit --help.');
		expect(usage(() => parseFlags(['--limit', '2', '--limit=3'], commands.browse))).toBe('--limit is given more than once; see pagewalk --help.');
		expect(usage(() => parseFlags(['extra'], commands.serve))).toBe('pagewalk serve takes flags only, not the argument \'extra\'; see pagewalk serve --help.');
	});

	it('reports the first problem on the line, and makes what it quotes inert', () => {
		expect(usage(() => parseFlags(['--x\u001B[31m', '--limit'], commands.dump))).not.toContain('\u001B');
		expect(usage(() => parseFlags(['--bogus', '--limit'], commands.dump))).toBe('Unknown flag --bogus; see pagewalk dump --help.');
	});

	it('declares every command once, with kebab-case-able names and no defaults', () => {
		for (const command of every) {
			for (const [name, spec] of Object.entries(command.flags)) {
				expect(name).toMatch(/^[a-z]+(?:[A-Z][a-z]+)*$/);
				// A type, and for a string flag at most: repeatable, a value that may start with '-'. No default.
				// And a short form (dump's -o): one letter, and no two flags of a command share it (nor -h).
				const extra = Object.keys(spec).filter(key => key !== 'type' && key !== 'shortFlag');
				expect(extra.every(key => spec.type === 'string' && (key === 'isMultiple' || key === 'dashValue') && (spec as Record<string, unknown>)[key] === true), name).toBe(true);
				if ('shortFlag' in spec) {
					expect(spec.shortFlag).toMatch(/^[a-gi-z]$/);
					expect(Object.values(command.flags).filter(other => 'shortFlag' in other && other.shortFlag === spec.shortFlag)).toHaveLength(1);
				}
			}
		}
	});

	it('takes a flag\'s one-letter form after one dash (-o FILE, -o=FILE), and names it as the long one', () => {
		expect(parseFlags(['transactions', '-o', 'out.ndjson'], commands.dump)).toEqual({input: ['transactions'], flags: {output: 'out.ndjson'}});
		expect(parseFlags(['-o=out.ndjson'], commands.dump)).toEqual({input: [], flags: {output: 'out.ndjson'}});
		expect(() => parseFlags(['-o'], commands.dump)).toThrow('--output needs a value; see pagewalk dump --help.');
		expect(() => parseFlags(['-o', 'a', '--output', 'b'], commands.dump)).toThrow('--output is given more than once; see pagewalk dump --help.');
		expect(() => parseFlags(['-o', 'a'], commands.audit)).toThrow('Unknown flag -o; see pagewalk audit --help.');
	});
});

describe('parseCommandLine', () => {
	const capture = () => {
		const out = {text: '', async write(chunk: string) {
			out.text += chunk;
		}};
		return out;
	};

	it('prints the help (meow-rendered, with the package description) or the version to the given stdout, and returns nothing to run', async () => {
		const help = capture();
		expect(await parseCommandLine(['--limit', '-h'], commands.dump, '\n\tUsage\n\t  $ pagewalk dump\n', help)).toBeUndefined();
		expect(help.text).toMatch(/^\n {2}Interactive terminal browser.*\n\n {2}Usage\n {4}\$ pagewalk dump\n\n$/s);
		const version = capture();
		expect(await parseCommandLine(['--version'], commands.serve, 'help', version)).toBeUndefined();
		expect(version.text).toMatch(/^\d+\.\d+\.\d+\n$/);
	});

	it('returns the parsed flags otherwise, printing nothing', async () => {
		const out = capture();
		expect(await parseCommandLine(['--port=0'], commands.serve, 'help', out)).toEqual({input: [], flags: {port: '0'}});
		expect(out.text).toBe('');
	});
});

describe('editDistance', () => {
	it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
		expect(editDistance('lmit', 'limit')).toBe(1);
		expect(editDistance('limits', 'limit')).toBe(1);
		expect(editDistance('limut', 'limit')).toBe(1);
		expect(editDistance('lmiit', 'limit')).toBe(1);
		expect(editDistance('', 'abc')).toBe(3);
		expect(editDistance('bogus', 'host')).toBeGreaterThan(2);
	});
});
