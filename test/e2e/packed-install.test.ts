/**
 * The package as users install it: `npm pack` of a copy of this tree (its
 * prepack builds into the copy, never into the dist/ other tests run), then
 * `npm install -g` of the tarball into a temporary prefix. No install-script
 * warning, no dependency (the bundle holds them), small, and the installed
 * bin works: --version, dump --demo, and the browser in tmux; and every file
 * a help text points to is in the package.
 */
import {execFile} from 'node:child_process';
import {cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {commands} from '../../source/config/flags.js';
import {helpFiles} from '../docs/claims.js';
import {requireTmux, TmuxServer} from './support/tmux.js';

const run = promisify(execFile);
const root = path.resolve('.');
let work: string;
let bin: string;
let installLog: string;
let prefix: string;

function sizeOf(target: string): number {
	const stat = statSync(target);
	return stat.isDirectory() ? readdirSync(target).reduce((sum, entry) => sum + sizeOf(path.join(target, entry)), 0) : stat.size;
}

beforeAll(async () => {
	work = mkdtempSync(path.join(tmpdir(), 'pagewalk-pack-'));
	const tree = path.join(work, 'tree');
	for (const entry of ['package.json', 'package-lock.json', 'README.md', 'docs', 'source', 'scripts', 'patches', 'tsconfig.json']) {
		cpSync(path.join(root, entry), path.join(tree, entry), {recursive: true});
	}

	symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
	const npmEnv = {...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false'};
	const packed = await run('npm', ['pack', '--pack-destination', work], {cwd: tree, env: npmEnv});
	const tarball = path.join(work, packed.stdout.trim().split('\n').at(-1)!);
	prefix = path.join(work, 'prefix');
	const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--offline', tarball], {cwd: work, env: npmEnv});
	installLog = installed.stdout + installed.stderr;
	bin = path.join(prefix, 'bin', 'pagewalk');
});

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

describe('npm pack, then npm install -g of the tarball', () => {
	it('installs with no install-script warning, no dependency, and under 8 MiB', () => {
		expect(installLog).not.toMatch(/install-scripts|prepare/);
		expect(installLog).toMatch(/added 1 package/);
		expect(sizeOf(prefix)).toBeLessThan(8 * 1024 * 1024);
	});

	it('the installed bin prints its version and dumps the demo', async () => {
		expect((await run(bin, ['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
		const {stdout} = await run(bin, ['dump', '--demo', '--limit', '3']);
		expect(stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id)).toHaveLength(3);
	});

	it('every file a help text names is in the installed package (the docs ship with it)', async () => {
		const installed = path.join(prefix, 'lib', 'node_modules', 'pagewalk');
		const named = new Set<string>();
		for (const command of Object.values(commands)) {
			const argv = [...command.name.split(' ').slice(1), '--help'];
			// eslint-disable-next-line no-await-in-loop -- a few short runs, one after another
			const {stdout} = await run(bin, argv);
			for (const [file] of stdout.matchAll(helpFiles)) {
				named.add(file);
			}
		}

		expect([...named]).toContain('docs/completion.md');
		expect([...named].filter(file => !existsSync(path.join(installed, file)))).toEqual([]);
	});

	it('the installed bin opens the browser, and q quits', async () => {
		requireTmux();
		const server = new TmuxServer('packed', {columns: 100, rows: 24});
		try {
			server.start('packed', {program: bin});
			await server.waitForScreen(text => text.includes('page 1'));
			await server.keys('q');
			await server.waitForScreen(text => text.includes('AFTER rc=0'));
		} finally {
			server.kill();
		}
	});
});
