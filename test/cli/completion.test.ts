/**
 * `pagewalk completion`: the scripts, loaded in their own shells, complete
 * what the flag table holds. A `pagewalk` on PATH (a shim for the built CLI)
 * answers the profile names, as an installed one would.
 */
import {execFile} from 'node:child_process';
import {chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {flagsOf} from '../../source/commands/completion.js';
import {commands} from '../../source/config/flags.js';

const run = promisify(execFile);
const cli = path.resolve('dist/cli.js');
let directory: string;
let env: Record<string, string | undefined>;

beforeAll(() => {
	if (!existsSync(cli)) {
		throw new Error('dist/cli.js is missing: run `npm run build` (npm test does it first).');
	}

	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-completion-'));
	const shim = path.join(directory, 'pagewalk');
	writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`);
	chmodSync(shim, 0o755);
	const config = path.join(directory, 'config.json');
	writeFileSync(config, JSON.stringify({profiles: {work: {account: {env: 'WORK_TOKEN'}}, staging: {account: {env: 'STAGING_TOKEN'}}}}));
	env = {...process.env, PATH: `${directory}:${process.env['PATH'] ?? ''}`, PAGEWALK_CONFIG: config};
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

/** What bash's completion function offers for the words typed (the last one is being completed). */
async function bash(...typed: string[]): Promise<string[]> {
	const words = typed.map(word => `'${word}'`).join(' ');
	const script = `source <(pagewalk completion bash) && COMP_WORDS=(${words}) && COMP_CWORD=${typed.length - 1} && { _pagewalk; printf '%s\\n' "\${COMPREPLY[@]}"; }`;
	const {stdout} = await run('bash', ['-c', script], {env});
	return stdout.split('\n').filter(Boolean);
}

describe('bash', () => {
	it('completes commands, each command\'s flags, and the values of flags', async () => {
		expect(await bash('pagewalk', 'd')).toEqual(['dump']);
		expect(await bash('pagewalk', 'dump', '--for')).toEqual(['--format']);
		expect(await bash('pagewalk', 'dump', '--format', '')).toEqual(['ndjson', 'json', 'csv', 'table']);
		expect(await bash('pagewalk', '--api', 'c')).toEqual(['commerce']);
		expect(await bash('pagewalk', 'serve', '--scenario', 'du')).toEqual(['duplicate']);
		expect(await bash('pagewalk', 'audit', '--order', '')).toEqual(['asc', 'desc']);
		expect(await bash('pagewalk', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
		// A flag of another command is not offered.
		expect(await bash('pagewalk', 'serve', '--fo')).toEqual([]);
	});

	it('completes profile names from the config file', async () => {
		expect(await bash('pagewalk', 'dump', '--profile', '')).toEqual(['work', 'staging']);
		expect(await bash('pagewalk', '--compare-profile', 'st')).toEqual(['staging']);
	});

	it('offers every flag of the table for each command, generated from it', async () => {
		for (const [command, table] of [['', commands.browse], ['dump', commands.dump], ['audit', commands.audit], ['serve', commands.serve], ['token', commands.token]] as const) {
			const typed = command === '' ? ['pagewalk', '--'] : ['pagewalk', command, '--'];
			// eslint-disable-next-line no-await-in-loop -- one shell at a time
			expect((await bash(...typed)).sort()).toEqual(flagsOf(table.flags).map(flag => `--${flag.name}`).sort());
		}
	});
});

describe('zsh and fish', () => {
	it('zsh loads the script and registers the completion', async () => {
		const {stdout, stderr} = await run('zsh', ['-c', 'source <(pagewalk completion zsh) && complete -p pagewalk'], {env});
		expect(stderr).toBe('');
		expect(stdout).toContain('_pagewalk');
	});

	it('fish completes commands, flags and values', async () => {
		const complete = async (line: string) => (await run('fish', ['-c', `pagewalk completion fish | source; complete -C ${JSON.stringify(line)}`], {env})).stdout.split('\n').filter(Boolean).map(entry => entry.split('\t')[0]);
		expect(await complete('pagewalk d')).toEqual(['dump']);
		expect(await complete('pagewalk dump --for')).toEqual(['--format']);
		expect(await complete('pagewalk dump --format ')).toEqual(expect.arrayContaining(['ndjson', 'json', 'csv', 'table']));
		expect(await complete('pagewalk --profile ')).toEqual(expect.arrayContaining(['work', 'staging']));
	});
});

describe('pagewalk completion itself', () => {
	it('a shell it does not know is one sentence, exit 2', async () => {
		const failed = await run(process.execPath, [cli, 'completion', 'tcsh'], {env}).catch((error: unknown) => error as {code: number; stderr: string});
		expect(failed).toMatchObject({code: 2});
		expect((failed as {stderr: string}).stderr).toBe('pagewalk: pagewalk completion takes one shell: bash, zsh or fish, not \'tcsh\'.\n');
	});
});
