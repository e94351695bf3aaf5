/**
 * The state folder (PAGEWALK_STATE_DIR) as `pagewalk serve` keeps its key
 * files there, through the built CLI: a folder that cannot be made, or a
 * symbolic link where pagewalk's own folders go, is one sentence naming the
 * folder and the problem, exit 2, at once (never an internal error, never
 * silence for as long as it runs), and nothing is written through a link.
 * `dump --demo` keeps nothing there and walks as usual.
 */
import {execFile, spawn} from 'node:child_process';
import {once} from 'node:events';
import {createInterface} from 'node:readline';
import {existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cliPath} from '../support/run-dump.js';

let directory: string;

beforeAll(() => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing; run npm run build first (npm test does it).');
	}

	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-state-folder-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

/** The built CLI with a deadline: a serve that neither fails nor prints is killed, and the test fails. */
async function run(argv: string[], stateDir: string): Promise<{code: number | null; killed: boolean; stdout: string; stderr: string}> {
	return new Promise(resolve => {
		execFile(process.execPath, [cliPath, ...argv], {env: {PATH: process.env['PATH'], PAGEWALK_STATE_DIR: stateDir, NO_COLOR: '1'}, timeout: 15_000}, (error, stdout, stderr) => {
			resolve({code: error ? (error.code as number | null) ?? null : 0, killed: error?.killed ?? false, stdout, stderr});
		});
	});
}

/** A place for links to point to: nothing may ever be written there. */
function target(): string {
	const place = mkdtempSync(path.join(directory, 'target-'));
	return place;
}

type Case = {make(): string; says: RegExp};

const cases: Record<string, Case> = {
	'under a device (/dev/null/x)': {make: () => '/dev/null/x', says: /^pagewalk: The state folder '\/dev\/null\/x' cannot be made \('\/dev\/null' is not a folder\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/},
	'where the file system takes no folder (/proc/x)': {make: () => '/proc/x', says: /^pagewalk: The state folder '\/proc\/x' cannot be made \(making '\/proc\/x': the file system there takes no new folders\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/},
	'where making a folder is refused (/sys/x)': {make: () => '/sys/x', says: /^pagewalk: The state folder '\/sys\/x' cannot be made \(making '\/sys\/x': (permission denied|the file system is read-only)\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/},
	'with a file in the way': {
		make() {
			const file = path.join(directory, 'a-file');
			writeFileSync(file, '');
			return path.join(file, 'state');
		},
		says: /^pagewalk: The state folder '.*\/a-file\/state' cannot be made \('.*\/a-file' is not a folder\); set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/,
	},
	'a symbolic link for sandbox-keys': {
		make() {
			const state = mkdtempSync(path.join(directory, 'state-'));
			symlinkSync(target(), path.join(state, 'sandbox-keys'));
			return state;
		},
		says: /^pagewalk: pagewalk's own folder '.*\/sandbox-keys' is a symbolic link, so pagewalk keeps no files there; remove what is there, or set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/,
	},
	'a symbolic link for seed-1': {
		make() {
			const state = mkdtempSync(path.join(directory, 'state-'));
			mkdirSync(path.join(state, 'sandbox-keys'));
			symlinkSync(target(), path.join(state, 'sandbox-keys', 'seed-1'));
			return state;
		},
		says: /^pagewalk: pagewalk's own folder '.*\/sandbox-keys\/seed-1' is a symbolic link, so pagewalk keeps no files there; remove what is there, or set PAGEWALK_STATE_DIR to a folder pagewalk can write\.\n$/,
	},
};

describe('pagewalk serve and a state folder it cannot use', () => {
	it.each(Object.keys(cases))('%s: one sentence naming the folder, exit 2, nothing written through a link', async (name) => {
		const {code, killed, stdout, stderr} = await run(['serve', '--port', '0', '--json'], cases[name]!.make());
		expect(killed, `serve was still running: ${stderr}`).toBe(false);
		expect(stdout).toBe('');
		expect(stderr).toMatch(cases[name]!.says);
		expect(code).toBe(2);
		for (const place of readdirSync(directory).filter(entry => entry.startsWith('target-'))) {
			expect(readdirSync(path.join(directory, place))).toEqual([]);
		}
	});

	it('a state folder that is missing is made, each level private, and its key files kept there', async () => {
		const state = path.join(mkdtempSync(path.join(directory, 'fresh-')), 'a', 'b');
		const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--json'], {env: {PATH: process.env['PATH'], PAGEWALK_STATE_DIR: state}, stdio: ['ignore', 'pipe', 'inherit']});
		const exited = new Promise<number | null>(resolve => {
			child.on('close', resolve);
		});
		try {
			const [line] = await once(createInterface({input: child.stdout}), 'line') as [string];
			const {keys} = JSON.parse(line) as {keys: Array<{path: string}>};
			expect(path.dirname(keys[0]!.path)).toBe(path.join(state, 'sandbox-keys', 'seed-1'));
			for (const level of [path.dirname(state), state, path.join(state, 'sandbox-keys'), path.join(state, 'sandbox-keys', 'seed-1')]) {
				expect(lstatSync(level).isDirectory()).toBe(true);
				expect(lstatSync(level).mode & 0o777).toBe(0o700);
			}
		} finally {
			child.kill('SIGTERM');
		}

		expect(await exited).toBe(0);
	});
});

describe('dump --demo keeps nothing in the state folder', () => {
	it.each(Object.keys(cases))('%s: walks as usual', async (name) => {
		const {code, stdout, stderr} = await run(['dump', '--demo', '--max-pages', '1', '--limit', '2'], cases[name]!.make());
		// Only the note that the walk stopped at its bound.
		expect(stderr).toMatch(/^pagewalk: more pages follow: [^\n]*\n$/);
		expect(stdout.trimEnd().split('\n')).toHaveLength(2);
		expect(code).toBe(0);
	});
});
