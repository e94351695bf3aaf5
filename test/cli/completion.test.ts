/**
 * `pagewalk completion`: the scripts, loaded in their own shells, complete
 * what the flag table holds. A `pagewalk` on PATH (a shim for the built CLI)
 * answers the profile names, as an installed one would.
 */
import {execFile, execFileSync, spawnSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {flagsOf, flagValueLists} from '../../source/commands/completion/completion.js';
import {apiNames, demoAuths, demoCredentials, orders} from '../../source/config/flag-values.js';
import {commands} from '../../source/config/flags.js';
import {formats} from '../../source/output/writer.js';
import {scenarioNames} from '../../source/sandbox/scenarios/scenario-names.js';
import {keepServer, pollUntil, requireTmux, tmuxPath} from '../e2e/support/tmux.js';

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
	// Key files to Tab through: a folder, a file in it, a folder in it.
	mkdirSync(path.join(directory, 'keys', 'sub'), {recursive: true});
	writeFileSync(path.join(directory, 'keys', 'a.json'), '{}');
	writeFileSync(path.join(directory, 'keys', 'sub', 'b.json'), '{}');
	// The script once, as `pagewalk completion bash` prints it: each call below sources it without starting node.
	writeFileSync(path.join(directory, 'completion.bash'), execFileSync(process.execPath, [cli, 'completion', 'bash'], {encoding: 'utf8'}));
});

afterAll(() => {
	spawnSync(tmuxPath, ['-L', socket, 'kill-server']);
	rmSync(directory, {recursive: true, force: true});
});

/**
 * What bash's completion function offers for the words typed (the last one
 * is being completed), run in the folder holding keys/. Give the words as
 * bash splits them: `--format=cs` is `--format`, `=`, `cs`.
 */
async function bash(...typed: string[]): Promise<string[]> {
	const words = typed.map(word => `'${word}'`).join(' ');
	const script = `source ./completion.bash && COMP_WORDS=(${words}) && COMP_CWORD=${typed.length - 1} && { _pagewalk; printf '%s\\n' "\${COMPREPLY[@]}"; }`;
	const {stdout} = await run('bash', ['-c', script], {env, cwd: directory});
	return stdout.split('\n').filter(Boolean);
}

const socket = `pagewalk-completion-${process.pid}`;
let sessions = 0;

/**
 * Tab in a real shell: bash (readline) or zsh (zle) at a prompt in tmux, in
 * the folder holding keys/, the script sourced as the install line says.
 * Types `typed`, presses Tab once per entry of `then` (typing that text
 * after it), and returns the screen once `done` holds.
 */
async function interactive(shell: 'bash' | 'zsh', typed: string, then: string[], done: (screen: string) => boolean): Promise<string> {
	requireTmux();
	const session = `s${++sessions}`;
	const tmux = (...args: string[]) => execFileSync(tmuxPath, ['-L', socket, ...args], {encoding: 'utf8'});
	const start = shell === 'bash' ? 'bash --norc --noprofile -i' : 'zsh -f -i';
	const setup = shell === 'bash' ? 'source <(pagewalk completion bash)' : 'autoload -U compinit && compinit -u -D && source <(pagewalk completion zsh)';
	execFileSync(tmuxPath, ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', '150', '-y', '20', '-c', directory, `env -i HOME='${directory}' TERM=xterm PATH='${env['PATH']}' PAGEWALK_CONFIG='${env['PAGEWALK_CONFIG']}' PS1='$ ' ${start}`, ...keepServer]);
	let screen = '';
	const wait = async (check: (text: string) => boolean) => pollUntil(() => check(screen = tmux('capture-pane', '-p', '-t', session)), () => `${shell}: the screen never showed what was expected:\n${screen}`);
	try {
		await wait(text => text.includes('$'));
		tmux('send-keys', '-t', session, '-l', `${setup}; clear`);
		tmux('send-keys', '-t', session, 'Enter');
		await wait(text => text.trim() === '$');
		tmux('send-keys', '-t', session, '-l', typed);
		for (const text of then) {
			tmux('send-keys', '-t', session, 'Tab');
			if (text !== '') {
				// eslint-disable-next-line no-await-in-loop -- each Tab answered before the next key
				await wait(line => !line.trim().endsWith(typed));
				tmux('send-keys', '-t', session, '-l', text);
			}
		}

		await wait(done);
		return screen;
	} finally {
		tmux('kill-session', '-t', session);
	}
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

	it('completes --flag=value forms: the values after =, as bash splits the word and as a whole word', async () => {
		expect(await bash('pagewalk', 'dump', '--format', '=')).toEqual(['ndjson', 'json', 'csv', 'table']);
		expect(await bash('pagewalk', 'dump', '--format', '=', 'c')).toEqual(['csv']);
		expect(await bash('pagewalk', 'dump', '--format=c')).toEqual(['--format=csv']);
		expect(await bash('pagewalk', '--order', '=', 'a')).toEqual(['asc']);
		expect(await bash('pagewalk', '--api=')).toEqual(['--api=account', '--api=commerce']);
		expect(await bash('pagewalk', 'serve', '--scenario', '=', 'wr')).toEqual(['wrong-limit']);
		expect(await bash('pagewalk', '--demo-credential', '=', '')).toEqual(['full', 'restricted']);
		expect(await bash('pagewalk', '--profile', '=', 'w')).toEqual(['work']);
		expect(await bash('pagewalk', '--key-file', '=', 'keys/')).toEqual(['keys/a.json', 'keys/sub']);
		// A flag whose value is free text offers nothing after = either.
		expect(await bash('pagewalk', '--limit', '=', '')).toEqual([]);
	});

	it('offers every value of every enumerated flag, in both forms', async () => {
		for (const [flag, values] of Object.entries(flagValueLists)) {
			// eslint-disable-next-line no-await-in-loop -- one shell at a time
			expect(await bash('pagewalk', `--${flag}`, '')).toEqual([...values]);
			// eslint-disable-next-line no-await-in-loop -- the same shell, the = form
			expect(await bash('pagewalk', `--${flag}`, '=', '')).toEqual([...values]);
		}
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

describe('the values offered are the lists the flags are checked against', () => {
	it('one list each', () => {
		expect(flagValueLists).toEqual({format: formats, api: apiNames, order: orders, scenario: scenarioNames, 'demo-credential': demoCredentials, 'demo-auth': demoAuths});
		for (const [flag, list] of Object.entries({format: formats, api: apiNames, order: orders, scenario: scenarioNames, 'demo-credential': demoCredentials, 'demo-auth': demoAuths})) {
			expect(flagValueLists[flag], flag).toBe(list);
		}
	});
});

describe('Tab at a real prompt (tmux)', () => {
	it('bash: --key-file walks into folders, --format= offers the formats', async () => {
		expect(await interactive('bash', 'pagewalk --key-file ke', [''], screen => screen.includes('--key-file keys/'))).toContain('$ pagewalk --key-file keys/\n');
		expect(await interactive('bash', 'pagewalk --key-file ke', ['s', ''], screen => screen.includes('keys/sub/'))).toContain('$ pagewalk --key-file keys/sub/\n');
		expect(await interactive('bash', 'pagewalk dump --format=c', [''], screen => screen.includes('--format=csv'))).toContain('$ pagewalk dump --format=csv');
	});

	it('zsh: --key-file walks into folders (also --key-file=), --format= offers the formats, flags complete', async () => {
		expect(await interactive('zsh', 'pagewalk --key-file ke', [''], screen => screen.includes('--key-file keys/'))).toContain('$ pagewalk --key-file keys/');
		expect(await interactive('zsh', 'pagewalk --key-file=ke', ['s', ''], screen => screen.includes('keys/sub/'))).toContain('$ pagewalk --key-file=keys/sub/');
		expect(await interactive('zsh', 'pagewalk dump --format=c', [''], screen => screen.includes('--format=csv'))).toContain('$ pagewalk dump --format=csv');
		expect(await interactive('zsh', 'pagewalk dump --for', [''], screen => screen.includes('--format'))).toContain('$ pagewalk dump --format');
	});
});

describe('zsh and fish', () => {
	it('zsh loads the script and registers the completion', async () => {
		// The bash function runs under bashcompinit; a key file goes to zsh's own _files first.
		const {stdout, stderr} = await run('zsh', ['-c', 'source <(pagewalk completion zsh) && print -r -- $_comps[pagewalk]'], {env});
		expect(stderr).toBe('');
		expect(stdout).toContain('_pagewalk');
	});

	it('fish completes commands, flags and values', async () => {
		const complete = async (line: string) => (await run('fish', ['-c', `pagewalk completion fish | source; complete -C ${JSON.stringify(line)}`], {env, cwd: directory})).stdout.split('\n').filter(Boolean).map(entry => entry.split('\t')[0]);
		expect(await complete('pagewalk d')).toEqual(['dump']);
		expect(await complete('pagewalk dump --for')).toEqual(['--format']);
		expect(await complete('pagewalk dump --format ')).toEqual(expect.arrayContaining(['ndjson', 'json', 'csv', 'table']));
		expect(await complete('pagewalk --profile ')).toEqual(expect.arrayContaining(['work', 'staging']));
		expect(await complete('pagewalk dump --format=c')).toEqual(['--format=csv']);
		expect(await complete('pagewalk --key-file keys/')).toEqual(['keys/a.json', 'keys/sub/']);
	});
});

describe('pagewalk completion itself', () => {
	it('a shell it does not know is one sentence, exit 2', async () => {
		const failed = await run(process.execPath, [cli, 'completion', 'tcsh'], {env}).catch((error: unknown) => error as {code: number; stderr: string});
		expect(failed).toMatchObject({code: 2});
		expect((failed as {stderr: string}).stderr).toBe('pagewalk: pagewalk completion takes one shell: bash, zsh or fish, not \'tcsh\'.\n');
	});
});
