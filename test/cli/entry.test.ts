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

	it('--version prints the package version', async () => {
		const {code, stdout} = await pagewalk('--version');
		expect(code).toBe(0);
		expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
	});

	it('each subcommand has its own --help', async () => {
		for (const command of ['dump', 'audit', 'serve']) {
			const {code, stdout} = await pagewalk(command, '--help');
			expect(code).toBe(0);
			expect(stdout).toContain(`$ pagewalk ${command}`);
		}
	});
});
