/**
 * The module hook the terminal tests hold the browser's chunk back with
 * (support/hold-browser.mjs), on a stand-in for the bundle: the import of a
 * `run-browser-*.js` chunk waits for the release file while the main thread
 * runs on, `fail` in it makes the import fail, and the hook is registered
 * with module.registerHooks where this Node has it (module.register, its
 * predecessor, only where not), with no warning printed.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import module from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, describe, expect, it} from 'vitest';
import {patience} from '../support/patience.js';
import {HeldBrowser, holdBrowser} from './support/tmux.js';

const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-hold-'));
afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

// As the bundle does (esbuild's chunk names): an entry that imports the browser's chunk when asked.
writeFileSync(path.join(directory, 'run-browser-ABC123.js'), 'export const up = \'browser up\';\n');
writeFileSync(path.join(directory, 'entry.js'), `
console.log('api', globalThis.pagewalkTestHoldApi);
let loaded = false;
const ticks = setInterval(() => console.log('main thread free'), 20);
import("./run-browser-ABC123.js").then(module => {
	loaded = true;
	console.log(module.up);
}, error => {
	console.log('failed:', error.message);
}).finally(() => clearInterval(ticks));
`);
writeFileSync(path.join(directory, 'package.json'), '{"type": "module"}\n');

/** Runs the stand-in held; `release` is called once its output has `when`; resolves with its output once it ends. */
async function run(name: string, when: string, content: '' | 'fail'): Promise<{stdout: string; stderr: string; code: number | null}> {
	const held = new HeldBrowser(directory, name);
	const child = spawn(process.execPath, ['--import', holdBrowser, path.join(directory, 'entry.js')], {env: {...process.env, PAGEWALK_TEST_RELEASE: held.file}, timeout: patience});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		const released = stdout.includes(when);
		stdout += chunk.toString();
		if (!released && stdout.includes(when)) {
			held.release(content);
		}
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number | null>(resolve => {
		child.on('close', resolve);
	});
	return {stdout, stderr, code};
}

describe('the module hook that holds the browser back (support/hold-browser.mjs)', () => {
	it('holds the chunk\'s import until the release, the main thread free meanwhile; registerHooks where Node has it; no warning', async () => {
		const {stdout, stderr, code} = await run('up', 'main thread free', '');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const lines = stdout.trimEnd().split('\n');
		expect(lines[0]).toBe(`api ${'registerHooks' in module ? 'registerHooks' : 'register'}`);
		// The release came only after the main thread had run while the import waited.
		expect(lines.indexOf('main thread free')).toBeGreaterThan(0);
		expect(lines.at(-1)).toBe('browser up');
	});

	it('a release that says fail makes the import fail', async () => {
		const {stdout, stderr, code} = await run('fail', 'main thread free', 'fail');
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(stdout.trimEnd().split('\n').at(-1)).toBe('failed: the browser chunk is broken (test/e2e/support/hold-browser-hooks.mjs)');
	});
});
