/**
 * Every command's --help names every flag the command takes: the flag table
 * (config/flags.ts) is the one list, and a flag added there without a word in
 * the help fails here.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {flagsOf} from '../../source/commands/completion/completion.js';
import {commands} from '../../source/config/flags.js';

const run = promisify(execFile);
const cli = path.resolve('dist/cli.js');

describe('--help of each command lists every flag it takes', () => {
	it.each(Object.entries(commands))('%s', async (name, command) => {
		const argv = name === 'browse' ? ['--help'] : [name, '--help'];
		const {stdout} = await run(process.execPath, [cli, ...argv], {env: {...process.env, NO_COLOR: '1'}});
		const missing = flagsOf(command.flags).map(flag => `--${flag.name}`).filter(flag => flag !== '--help' && flag !== '--version' && !new RegExp(`${flag}(?![\\w-])`).test(stdout));
		expect(missing, `${command.name} --help does not name ${missing.join(', ')}`).toEqual([]);
	});
});
