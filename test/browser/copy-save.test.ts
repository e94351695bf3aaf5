import {chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {curlBuilder, profileVariable, savePages} from '../../source/commands/browse/copy-save.js';
import {openConfig} from '../../source/commands/setup/demo.js';
import type {Page} from '../../source/contract/types.js';

/** A page as the client makes one, as far as the writer reads it: objects and their exact texts. */
function page(ids: string[]): Page {
	return {
		objects: ids.map(id => ({id, n: 1})),
		// The server's own spelling (1.0, key order): what must reach the file.
		objectTexts: ids.map(id => `{"n":1.0,"id":"${id}"}`),
	} as unknown as Page;
}

async function * pages(...list: Page[]): AsyncGenerator<Page> {
	for (const item of list) {
		yield item;
	}
}

async function * failingAfter(first: Page): AsyncGenerator<Page> {
	yield first;
	throw new Error('page 2 could not be fetched again: the server answered 500.');
}

let folder: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-save-'));
});

afterEach(() => {
	rmSync(folder, {recursive: true, force: true});
});

describe('savePages', () => {
	it('writes NDJSON from the exact texts, page after page, relative to the cwd', async () => {
		const result = await savePages('out.ndjson', pages(page(['a', 'b']), page(['c'])), {overwrite: false, cwd: folder});
		expect(result).toEqual({kind: 'written', objects: 3, pages: 2});
		expect(readFileSync(path.join(folder, 'out.ndjson'), 'utf8')).toBe('{"n":1.0,"id":"a"}\n{"n":1.0,"id":"b"}\n{"n":1.0,"id":"c"}\n');
	});

	it('expands ~ to HOME', async () => {
		await savePages('~/x.ndjson', pages(page(['a'])), {overwrite: false, cwd: '/', home: folder});
		expect(existsSync(path.join(folder, 'x.ndjson'))).toBe(true);
	});

	it('an existing file is not touched and not read from the pages: exists; overwrite replaces it', async () => {
		const file = path.join(folder, 'out.ndjson');
		writeFileSync(file, 'keep me\n');
		let asked = false;
		async function * watched(): AsyncGenerator<Page> {
			asked = true;
			yield page(['a']);
		}

		expect(await savePages(file, watched(), {overwrite: false, cwd: folder})).toEqual({kind: 'exists'});
		expect(asked).toBe(false);
		expect(readFileSync(file, 'utf8')).toBe('keep me\n');
		expect(await savePages(file, pages(page(['z'])), {overwrite: true, cwd: folder})).toEqual({kind: 'written', objects: 1, pages: 1});
		expect(readFileSync(file, 'utf8')).toBe('{"n":1.0,"id":"z"}\n');
		// No temporary file left beside it.
		expect(readdirSync(folder)).toEqual(['out.ndjson']);
	});

	it('a missing folder, a folder as the name, no permission: one sentence each, nothing created', async () => {
		expect(await savePages('nope/out.ndjson', pages(page(['a'])), {overwrite: false, cwd: folder})).toEqual({
			kind: 'failed',
			message: 'Cannot write nope/out.ndjson: its folder does not exist; create it, or press w and type another name.',
		});
		const result = await savePages('.', pages(page(['a'])), {overwrite: true, cwd: folder});
		expect(result.kind).toBe('failed');
		expect(readdirSync(folder)).toEqual([]);
		// Root writes anywhere: the permission case needs an ordinary user.
		if (process.getuid?.() !== 0) {
			chmodSync(folder, 0o500);
			try {
				expect(await savePages('out.ndjson', pages(page(['a'])), {overwrite: false, cwd: folder})).toEqual({
					kind: 'failed',
					message: 'Cannot write out.ndjson: permission denied; choose a folder you can write to.',
				});
			} finally {
				chmodSync(folder, 0o700);
			}
		}
	});

	it('a folder that is there but takes no new files is said so, not "does not exist"; a device is never written over', async () => {
		// /proc answers "no such file" (ENOENT) to a new file in it: the folder is there.
		if (existsSync('/proc/self')) {
			expect(await savePages('/proc/x.ndjson', pages(page(['a'])), {overwrite: false, cwd: folder})).toEqual({
				kind: 'failed',
				message: 'Cannot write /proc/x.ndjson: its folder /proc is there but takes no new files (the system answers "no such file"); choose another folder.',
			});
		}

		// Asked "overwrite?" before, and yes renamed a new file over the device.
		expect(await savePages('/dev/null', pages(page(['a'])), {overwrite: false, cwd: folder})).toEqual({
			kind: 'failed',
			message: 'Cannot write /dev/null: it is a device, not a file to write over; press w and type a file name.',
		});
		// A name ending in / is a folder, never a file of its name without the slash.
		expect(await savePages('pages/', pages(page(['a'])), {overwrite: false, cwd: folder})).toEqual({
			kind: 'failed',
			message: 'Cannot write pages/: a name ending in / is a folder; press w and type a file name after it.',
		});
		expect(readdirSync(folder)).toEqual([]);
	});

	it('a folder as the name is said at once, never asked about as a file to overwrite', async () => {
		mkdirSync(path.join(folder, 'afolder'), {recursive: true});
		const result = await savePages('afolder', pages(page(['a'])), {overwrite: false, cwd: folder});
		expect(result).toMatchObject({kind: 'failed'});
		expect((result as {message: string}).message).toMatch(/it is a folder; press w and type a file name\./);
	});

	it('a file replaced keeps its mode (0600 stays 0600); a new file follows the umask', async () => {
		const file = path.join(folder, 'private.ndjson');
		writeFileSync(file, 'old\n', {mode: 0o600});
		chmodSync(file, 0o600);
		expect(await savePages(file, pages(page(['z'])), {overwrite: true, cwd: folder})).toEqual({kind: 'written', objects: 1, pages: 1});
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const fresh = path.join(folder, 'fresh.ndjson');
		await savePages(fresh, pages(page(['y'])), {overwrite: false, cwd: folder});
		const umask = process.umask();
		expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~umask);
	});

	it('a page that cannot be had stops the write: what was written is removed, an old file kept', async () => {
		const result = await savePages('walk.ndjson', failingAfter(page(['a'])), {overwrite: false, cwd: folder});
		expect(result).toEqual({kind: 'failed', message: 'Stopped writing walk.ndjson, nothing kept: page 2 could not be fetched again: the server answered 500.'});
		expect(readdirSync(folder)).toEqual([]);
		writeFileSync(path.join(folder, 'walk.ndjson'), 'old\n');
		expect((await savePages('walk.ndjson', failingAfter(page(['a'])), {overwrite: true, cwd: folder})).kind).toBe('failed');
		expect(readFileSync(path.join(folder, 'walk.ndjson'), 'utf8')).toBe('old\n');
		expect(readdirSync(folder)).toEqual(['walk.ndjson']);
	});
});

describe('the curl command of a profile', () => {
	it('names the variable the profile reads its token from; a command source gets a stand-in with a note', async () => {
		const file = path.join(folder, 'config.json');
		writeFileSync(file, JSON.stringify({profiles: {home: {base_url: 'http://127.0.0.1:9', account: {env: 'HOME_TOKEN'}, commerce: {command: ['echo', 'k']}}}}));
		const env = {PAGEWALK_CONFIG: file, HOME_TOKEN: 'home-token-value'};
		expect(profileVariable('home', 'account', env)).toBe('HOME_TOKEN');
		expect(profileVariable('home', 'commerce', env)).toBeUndefined();
		expect(profileVariable('nope', 'account', env)).toBeUndefined();
		expect(profileVariable('home', 'account', {PAGEWALK_CONFIG: path.join(folder, 'missing.json')})).toBeUndefined();
		const config = await openConfig({input: ['accounts'], flags: {profile: 'home'}, env});
		const command = curlBuilder(config, env)('http://127.0.0.1:9/v2/accounts');
		expect(command).toContain('-H "Authorization: Bearer $HOME_TOKEN"');
		expect(command).not.toContain('home-token-value');
	});
});
