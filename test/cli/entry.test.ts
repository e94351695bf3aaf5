import {execFile} from 'node:child_process';
import {existsSync} from 'node:fs';
import {promisify} from 'node:util';
import {beforeAll, describe, expect, it} from 'vitest';

const run = promisify(execFile);
const cli = 'dist/cli.js';

async function pagewalk(...args: string[]) {
	try {
		const {stdout, stderr} = await run(process.execPath, [cli, ...args], {env: {...process.env, NO_COLOR: '1'}});
		return {code: 0, stdout, stderr};
	} catch (error: unknown) {
		const failed = error as {code: number; stdout: string; stderr: string};
		return {code: failed.code, stdout: failed.stdout, stderr: failed.stderr};
	}
}

describe('the built entry, stdout piped', () => {
	beforeAll(() => {
		if (!existsSync(cli)) {
			throw new Error('dist/cli.js is missing: run `npm run build` (npm test does it first).');
		}
	});

	it('--help prints the top-level help listing every command, not a subcommand help', async () => {
		const {code, stdout} = await pagewalk('--help');
		expect(code).toBe(0);
		for (const usage of ['$ pagewalk [endpoint] [options]', '$ pagewalk dump [endpoint]', '$ pagewalk audit [endpoint]', '$ pagewalk serve']) {
			expect(stdout).toContain(usage);
		}
	});

	it('pagewalk help is the top-level help, and help COMMAND that command\'s', async () => {
		const top = await pagewalk('help');
		expect(top.code).toBe(0);
		expect(top.stdout).toBe((await pagewalk('--help')).stdout);
		const dump = await pagewalk('help', 'dump');
		expect(dump.code).toBe(0);
		expect(dump.stdout).toBe((await pagewalk('dump', '--help')).stdout);
	});

	it('help with a name that is no command is a usage error, naming the command it is one edit from', async () => {
		expect(await pagewalk('help', 'dmup')).toEqual({code: 2, stdout: '', stderr: 'pagewalk: No help for \'dmup\': it is not a command (did you mean pagewalk dump --help?); see pagewalk --help.\n'});
		expect(await pagewalk('help', 'nonsense')).toEqual({code: 2, stdout: '', stderr: 'pagewalk: No help for \'nonsense\': it is not a command; see pagewalk --help.\n'});
	});

	it('what --help says a pipe gets is what it gets: the first page as NDJSON', async () => {
		const help = (await pagewalk('--help')).stdout;
		expect(help).toContain('writes the first page as NDJSON instead');
		const piped = await pagewalk('accounts', '--demo', '--limit', '3');
		expect(piped.code).toBe(0);
		const lines = piped.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(3);
		for (const line of lines) {
			expect(JSON.parse(line)).toHaveProperty('id');
		}
	});

	it('--version prints the package version', async () => {
		const {code, stdout} = await pagewalk('--version');
		expect(code).toBe(0);
		expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
	});

	it('each subcommand has its own --help', async () => {
		for (const command of ['dump', 'audit', 'serve']) {
			// eslint-disable-next-line no-await-in-loop -- one subprocess at a time, on a machine of two cores
			const {code, stdout} = await pagewalk(command, '--help');
			expect(code).toBe(0);
			expect(stdout).toContain(`$ pagewalk ${command}`);
		}
	});

	it('a wrong flag or scenario is one sentence with exit status 2 in every command, nothing else', async () => {
		const cases: Array<[string[], RegExp]> = [
			[['audit', '--bogus'], /^pagewalk: Unknown flag --bogus; see pagewalk audit --help\.\n$/],
			[['dump', '--bogus'], /^pagewalk: Unknown flag --bogus; see pagewalk dump --help\.\n$/],
			[['serve', '--bogus'], /^pagewalk: Unknown flag --bogus; see pagewalk serve --help\.\n$/],
			[['dump', '--scenario', 'duplicate'], /^pagewalk: --scenario only applies with --demo \(or to pagewalk serve --scenario=duplicate\)\.\n$/],
			[['audit', '--demo', '--scenario', 'bogus'], /^pagewalk: --scenario must be one of restricted, churn, duplicate, wrong-limit, unordered, yielded-mismatch, missing-param, not 'bogus'\.\n$/],
			[['serve', '--scenario', 'nope'], /^pagewalk: --scenario must be one of restricted, churn, duplicate, wrong-limit, unordered, yielded-mismatch, missing-param, not 'nope'\.\n$/],
		];
		for (const [args, message] of cases) {
			// eslint-disable-next-line no-await-in-loop -- one child process at a time on a loaded machine
			const {code, stdout, stderr} = await pagewalk(...args);
			expect(code).toBe(2);
			expect(stdout).toBe('');
			expect(stderr).toMatch(message);
		}
	});

	it('audit --demo --scenario shows the one failing check and exits 1', async () => {
		const {code, stdout} = await pagewalk('audit', 'checkouts', '--demo', '--demo-credential', 'full', '--scenario', 'yielded-mismatch');
		expect(code).toBe(1);
		expect(stdout).toContain('✗ commerce yielded equals the number of objects in data (commerce counts describe the page and the list): 1 failure');
		expect(stdout).toContain('page 2: yielded is 26 but data holds 25 objects');
		expect(stdout.match(/✗/g)).toHaveLength(1);
	});
});
