import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {Buffer} from 'node:buffer';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {curlBuilder, savePages} from '../../source/commands/browse/copy-save.js';
import type {WalkConfig} from '../../source/config/options.js';
import type {Page} from '../../source/contract/types.js';
import {dumpInProcess} from '../support/run-dump.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

/**
 * y, Y, u, w, W and the wheel in the browser against the sandbox: what
 * reaches the terminal (OSC 52) and the file system is checked byte for byte
 * against what the sandbox serves and what `dump` writes.
 */

const fixture = sandboxBrowser();
const sandbox = () => fixture.sandbox();
const browse = async (options?: Parameters<typeof fixture.browse>[0]) => fixture.browse(options);
let folder: string;

beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-save-app-'));
});

afterEach(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** The props the browse command passes: curl from the config, writes relative to `folder`. */
const copySave = (config: WalkConfig) => ({
	curlFor: curlBuilder(config),
	save: async (name: string, pages: AsyncIterable<Page>, options: {overwrite: boolean}) => savePages(name, pages, {...options, cwd: folder}),
});

/** Every OSC 52 payload written to the terminal so far, decoded. */
function clipboard(frames: readonly string[]): string[] {
	// eslint-disable-next-line no-control-regex -- the OSC 52 sequence is what is matched
	return frames.flatMap(frame => [...frame.matchAll(/\u001B\]52;c;([A-Za-z\d+/=]*)\u0007/g)].map(match => Buffer.from(match[1]!, 'base64').toString('utf8')));
}

function token() {
	return sandbox().credentials.account.restricted;
}

/** `pagewalk dump` of the same list with the same credential: the bytes w and W must write. */
async function dumped(...argv: string[]): Promise<string> {
	const result = await dumpInProcess(['accounts', '--base-url', sandbox().accountUrl, ...argv], {COINBASE_ACCESS_TOKEN: token(), NO_COLOR: '1'});
	expect(result.code).toBe(0);
	return result.stdout;
}

describe('copy: y Y u through OSC 52', () => {
	it('y copies the selected id as is, Y its JSON exactly as the server wrote it; the note says so', async () => {
		const app = await browse({appProps: copySave});
		await app.waitFor(f => f.includes('page 1 '));
		const firstLine = (await dumped()).split('\n')[0]!;
		const first = JSON.parse(firstLine) as {id: string};
		await app.press('y');
		const frame = await app.waitFor(f => f.includes('copied id'));
		expect(frame).toContain(`copied id ${first.id.slice(0, 15)}… (needs a terminal that allows OSC 52)`);
		expect(clipboard(app.instance.stdout.frames)).toEqual([first.id]);
		await app.press('Y');
		const second = await app.waitFor(f => f.includes('copied JSON of'));
		expect(clipboard(app.instance.stdout.frames).at(-1)).toBe(firstLine);
		// The OSC 52 caveat is said once, with the first copy.
		expect(second).not.toContain('OSC 52');
		// The next key clears the note.
		await app.press('j');
		await app.waitFor(f => !f.includes('copied') && f.includes('row 2/'));
	});

	it('a copy\'s note leaves why the page is short on the line, after it', async () => {
		const app = await browse({appProps: copySave, size: {columns: 220, rows: 16}});
		const before = await app.waitFor(f => f.includes('page 1 ') && f.includes('fewer than limit'));
		const short = before.split('\n').at(-1)!;
		await app.press('y');
		const frame = await app.waitFor(f => f.includes('copied id'));
		expect(frame.split('\n').at(-1)).toMatch(/^copied id .+ · /);
		expect(frame.split('\n').at(-1)!.endsWith(short.trim())).toBe(true);
	});

	it('y and Y work from the detail view, which stays open', async () => {
		const app = await browse({appProps: copySave});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('j', keys.enter);
		await app.waitFor(f => f.startsWith('object 2 of'));
		await app.press('y');
		const frame = await app.waitFor(f => f.includes('copied id'));
		expect(frame.startsWith('object 2 of')).toBe(true);
		const second = JSON.parse((await dumped()).split('\n')[1]!) as {id: string};
		expect(clipboard(app.instance.stdout.frames)).toEqual([second.id]);
	});

	it('u copies the request as curl with the credential as $COINBASE_ACCESS_TOKEN, never its value; the command fetches the same page', async () => {
		const app = await browse({appProps: copySave});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('l');
		await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		await app.press('u');
		await app.waitFor(f => f.includes('copied curl command of page 2 (needs a terminal that allows OSC 52)'));
		const command = clipboard(app.instance.stdout.frames).at(-1)!;
		expect(command).toContain('-H "Authorization: Bearer $COINBASE_ACCESS_TOKEN"');
		expect(command).toContain('starting_after=');
		expect(app.instance.stdout.frames.join('')).not.toContain(token());
		expect(command).not.toContain(token());
		// The real thing: the shell runs it against the sandbox with the variable set.
		// Asynchronously: the sandbox answers from this very process.
		const {stdout: body} = await promisify(execFile)('sh', ['-c', command], {env: {PATH: process.env.PATH, COINBASE_ACCESS_TOKEN: token()}, encoding: 'utf8', timeout: 10_000});
		const page2 = (await dumped('--all', '--max-pages', '2')).trimEnd().split('\n').slice(-5);
		const served = (JSON.parse(body) as {data: Array<{id: string}>}).data.map(object => object.id);
		expect(served.slice(-5)).toEqual(page2.map(line => (JSON.parse(line) as {id: string}).id));
	});
});

describe('save: w and W', () => {
	it('w writes the page on screen exactly as dump writes it, and says so', async () => {
		const app = await browse({appProps: copySave});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('w');
		await app.waitFor(f => f.includes('write the page as NDJSON to file:'));
		await app.press(...'page1.ndjson');
		await app.press(keys.enter);
		const frame = await app.waitFor(f => f.includes('wrote '));
		const expected = await dumped();
		expect(readFileSync(path.join(folder, 'page1.ndjson'), 'utf8')).toBe(expected);
		expect(frame).toContain(`wrote ${expected.trimEnd().split('\n').length} objects to page1.ndjson`);
	});

	it('an existing file asks; n keeps it, y overwrites it', async () => {
		const file = path.join(folder, 'out.ndjson');
		writeFileSync(file, 'old\n');
		const app = await browse({appProps: copySave});
		await app.waitFor(f => f.includes('page 1 '));
		await app.press('w', ...'out.ndjson', keys.enter);
		await app.waitFor(f => f.includes('overwrite out.ndjson? y/n'));
		await app.press('n');
		await app.waitFor(f => f.includes('kept out.ndjson as it was; nothing written'));
		expect(readFileSync(file, 'utf8')).toBe('old\n');
		// Any key but y keeps the file: Esc too.
		await app.press('w', ...'out.ndjson', keys.enter);
		await app.waitFor(f => f.includes('overwrite out.ndjson? y/n'));
		await app.press(keys.escape);
		await app.waitFor(f => f.includes('kept out.ndjson'));
		await app.press('w', ...'out.ndjson', keys.enter);
		await app.waitFor(f => f.includes('overwrite out.ndjson? y/n'));
		await app.press('y');
		await app.waitFor(f => f.includes('wrote '));
		expect(readFileSync(file, 'utf8')).toBe(await dumped());
	});

	it('an error is one sentence, and the page stays on screen; Esc in the prompt writes nothing', async () => {
		const app = await browse({appProps: copySave});
		const before = await app.waitFor(f => f.includes('page 1 '));
		const firstRow = /^› .*$/m.exec(before)![0];
		await app.press('w', ...'missing/out.ndjson', keys.enter);
		const frame = await app.waitFor(f => f.includes('Cannot write'));
		// The sentence wraps onto a second line rather than being cut.
		expect(frame.replaceAll('\n', ' ')).toContain('Cannot write missing/out.ndjson: its folder does not exist; create it, or press w and type another name.');
		expect(frame).toContain(firstRow);
		await app.press('w', ...'x', keys.escape);
		await app.waitFor(f => !f.includes('write the page') && !f.includes('Cannot write'));
		await app.press('w');
		await app.waitFor(f => f.includes('write the page as NDJSON to file: (Enter: accounts-page-1.ndjson)'));
		await app.press(keys.enter);
		await app.waitFor(f => /wrote .*accounts-page-1\.ndjson/.test(f));
		expect(readFileSync(path.join(folder, 'accounts-page-1.ndjson'), 'utf8')).toBe(await dumped('--limit', '25', '--max-pages', '1'));
	});

	it('W writes every page visited, in order, an evicted one fetched again', async () => {
		const app = await browse({appProps: config => ({...copySave(config), maxCachedPages: 1})});
		await app.waitFor(f => f.includes('page 1 '));
		for (const page of [2, 3]) {
			// eslint-disable-next-line no-await-in-loop -- one page after another
			await app.press('l');
			// eslint-disable-next-line no-await-in-loop -- one page after another
			await app.waitFor(f => f.includes(`page ${page} `) && !f.includes('loading'));
		}

		await app.press('W');
		await app.waitFor(f => f.includes('write the walk (3 pages) as NDJSON to file:'));
		await app.press(...'walk.ndjson', keys.enter);
		const frame = await app.waitFor(f => f.includes('wrote '));
		const expected = await dumped('--all', '--max-pages', '3');
		expect(readFileSync(path.join(folder, 'walk.ndjson'), 'utf8')).toBe(expected);
		// One page is kept below the top: pages 1 and 2 are fetched again (the sandbox does not churn by default).
		expect(frame).toContain(`wrote ${expected.trimEnd().split('\n').length} objects from 3 pages to walk.ndjson, 2 fetched again (the list may have changed since)`);
	});
});

describe('the mouse wheel', () => {
	it('scrolls three rows a notch and types no key', async () => {
		const app = await browse();
		await app.waitFor(f => f.includes('page 1 ') && f.includes('row 1/'));
		await app.press('\u001B[<65;10;5M');
		let frame = await app.waitFor(f => f.includes('row 4/'));
		await app.press('\u001B[<65;10;5M', '\u001B[<64;10;5M', '\u001B[<64;10;5M');
		frame = await app.waitFor(f => f.includes('row 1/'));
		// `[` would have asked for the previous page, `<` scrolled the columns: neither happened.
		expect(frame).not.toContain('already on the first page');
		expect(frame).toContain('page 1 ');
		// A click and a release do nothing either; in a prompt, the wheel types nothing.
		await app.press('\u001B[<0;10;5M', '\u001B[<0;10;5m', '/', '\u001B[<65;10;5M');
		frame = await app.waitFor(f => f.includes('/ filter rows:'));
		expect(frame).toMatch(/^\/ filter rows:\s*$/m);
	});
});
