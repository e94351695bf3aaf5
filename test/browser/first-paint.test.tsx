/**
 * The first paint (components/first-paint.ts) writes the screen that Ink's
 * first frame then draws over it. Both come from the same state and screen
 * model; this checks that they look the same, cell by cell (character and
 * style), for real first pages from the sandbox and for text that is hard to
 * measure, at several sizes, with and without colour. A difference would
 * show as a flicker, or as a leftover of the paint beside Ink's frame.
 */
import {readFileSync} from 'node:fs';
import {render} from 'ink-testing-library';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {App} from '../../source/app.js';
import type {BrowserOptions} from '../../source/browser/state/browser-state.js';
import {firstFrameLines} from '../../source/components/first-paint.js';
import {resolveConfig} from '../../source/config/options.js';
import type {ListObject, Page} from '../../source/contract/types.js';
import {createClient} from '../../source/http/http-client.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {makePage, url} from './pages.js';
import {withChalkLevel} from './support/chalk-level.js';

type Cell = {char: string; style: string};

/** A line with SGR codes as cells: each character with the styles in force (bold, dim, inverse, colours). */
function cells(line: string): Cell[] {
	const out: Cell[] = [];
	const style = {bold: false, dim: false, inverse: false, fg: '', bg: ''};
	// eslint-disable-next-line no-control-regex -- SGR sequences are what is read here
	const parts = line.split(/(\u001B\[[0-9;]*m)/);
	for (const part of parts) {
		// eslint-disable-next-line no-control-regex -- as above
		const sgr = /^\u001B\[([0-9;]*)m$/.exec(part);
		if (sgr) {
			for (const code of (sgr[1] || '0').split(';').map(Number)) {
				if (code === 0) {
					Object.assign(style, {bold: false, dim: false, inverse: false, fg: '', bg: ''});
				} else if (code === 1) {
					style.bold = true;
				} else if (code === 2) {
					style.dim = true;
				} else if (code === 22) {
					style.bold = false;
					style.dim = false;
				} else if (code === 7) {
					style.inverse = true;
				} else if (code === 27) {
					style.inverse = false;
				} else if (code === 39) {
					style.fg = '';
				} else if (code === 49) {
					style.bg = '';
				} else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) {
					style.fg = String(code);
				} else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) {
					style.bg = String(code);
				} else {
					throw new Error(`SGR ${code} is not read by this test`);
				}
			}

			continue;
		}

		for (const char of part) {
			out.push({char, style: `${style.bold ? 'b' : ''}${style.dim ? 'd' : ''}${style.inverse ? 'i' : ''}${style.fg}/${style.bg}`});
		}
	}

	// A blank that shows nothing (no inverse, no background) is the same as no cell at all.
	while (out.length > 0 && out.at(-1)!.char === ' ' && !out.at(-1)!.style.includes('i') && out.at(-1)!.style.endsWith('/')) {
		out.pop();
	}

	return out.map(cell => (cell.char === ' ' && !cell.style.includes('i') && cell.style.endsWith('/') ? {char: ' ', style: ''} : cell));
}

function screen(lines: readonly string[]): string[] {
	return lines.map(line => cells(line).map(cell => (cell.style === '' ? cell.char : `${cell.char}[${cell.style}]`)).join(''));
}

/** Ink's first frame of the app started with `options`, at `size`. */
function inkFirstFrame(options: BrowserOptions, size: {columns: number; rows: number}, colour: boolean): string[] {
	const instance = render(<App {...options} loadPage={async () => new Promise<Page>(() => undefined)} size={size} colour={colour ? 1 : 0} />);
	const frame = instance.frames[0] ?? '';
	instance.unmount();
	return frame.split('\n');
}

function optionsFor(page: Page, overrides: Partial<BrowserOptions> = {}): BrowserOptions {
	return {
		startUrl: page.requestUrl,
		api: page.api,
		endpoint: page.api === 'account' ? '/v2/accounts' : '/checkouts',
		settings: {order: 'desc', limit: 25},
		compareLabels: null,
		firstPage: page,
		...overrides,
	};
}

const sizes = [
	{columns: 32, rows: 8},
	{columns: 60, rows: 20},
	{columns: 100, rows: 30},
	{columns: 203, rows: 12},
];

function expectSame(options: BrowserOptions, label: string) {
	for (const size of sizes) {
		for (const colour of [true, false]) {
			const painted = firstFrameLines(options, {size, colour});
			expect(painted, `${label} at ${size.columns}x${size.rows}`).toBeDefined();
			expect(screen(painted!), `${label} at ${size.columns}x${size.rows}, colour ${colour}`).toEqual(screen(inkFirstFrame(options, size, colour)));
		}
	}
}

let sandbox: Sandbox;
// Styles are compared, not left out on both sides.
withChalkLevel(1);
beforeAll(async () => {
	sandbox = await startSandbox({port: 0, records: 60});
});
afterAll(async () => {
	await sandbox.close();
});

async function firstPage(api: 'account' | 'commerce', token: string, flags: Record<string, string> = {}): Promise<Page> {
	const config = await resolveConfig({
		input: [api === 'account' ? 'accounts' : 'checkouts'],
		flags: {[api === 'account' ? 'baseUrl' : 'commerceUrl']: api === 'account' ? sandbox.accountUrl : sandbox.commerceUrl, retries: '0', ...flags},
		env: {[api === 'account' ? 'COINBASE_ACCESS_TOKEN' : 'COINBASE_COMMERCE_API_KEY']: token},
	});
	const client = createClient(config);
	try {
		return await client.fetchPage(client.firstUrl, {});
	} finally {
		await client.close();
	}
}

describe('the first paint looks as Ink\'s first frame', () => {
	it('for the sandbox\'s first pages: full and short, both orders, both APIs, the end of a list', async () => {
		const {account, commerce} = sandbox.credentials;
		expectSame(optionsFor(await firstPage('account', account.full)), 'full account page');
		expectSame(optionsFor(await firstPage('account', account.restricted)), 'short account page');
		expectSame(optionsFor(await firstPage('account', account.full, {order: 'asc', limit: '7'}), {settings: {order: 'asc', limit: 7}}), 'asc, limit 7');
		expectSame(optionsFor(await firstPage('account', account.full, {limit: '100'}), {settings: {order: 'desc', limit: 100}}), 'the whole list on one page');
		expectSame(optionsFor(await firstPage('commerce', commerce.full)), 'commerce page with total and yielded');
	});

	it('for text that is hard to measure, an empty page, and columns chosen at start', () => {
		const objects: ListObject[] = [
			{id: 'a1', name: '日本語の名前がとても長いウォレット', note: 'e\u0301te\u0301 😀👍🏽 🇫🇷', amount: '1.10'},
			{id: 'a2', name: 'tab\there, newline\nthere', note: '\u202Eright-to-left\u202C', amount: 12_345_678_901_234},
			{id: 'a3', name: 'x'.repeat(300), note: null, amount: -0},
		];
		const page = makePage({url: url(), objects, next: url('a3'), limit: 3});
		expectSame(optionsFor(page, {settings: {order: 'desc', limit: 3}}), 'hard text');
		expectSame(optionsFor(page, {settings: {order: 'desc', limit: 3}, columns: {initial: {order: ['note', 'name']}}}), 'chosen columns');
		expectSame(optionsFor(makePage({url: url(), objects: [], next: null})), 'empty page');
	});

	it('is not painted for a terminal too small to draw in, nor without a page', () => {
		const page = makePage({url: url(), ids: ['a', 'b'], next: null});
		expect(firstFrameLines(optionsFor(page), {size: {columns: 31, rows: 30}, colour: true})).toBeUndefined();
		expect(firstFrameLines(optionsFor(page), {size: {columns: 100, rows: 7}, colour: true})).toBeUndefined();
		expect(firstFrameLines({...optionsFor(page), firstPage: undefined}, {size: {columns: 100, rows: 30}, colour: true})).toBeUndefined();
	});
});

describe('one style table', () => {
	const source = (file: string) => readFileSync(new URL(`../../source/components/${file}`, import.meta.url), 'utf8');

	it('the components the first paint mirrors, and the paint itself, write no style of their own: they read styles.ts', () => {
		// A style written in place (a colour, bold, dim, inverse, a background) is a second copy the other side would have to repeat.
		const inline = /\b(?:color|backgroundColor|dimColor|bold|inverse)\s*[:=]|chalk\.(?!dim\(|bold\(|inverse\()\w+\(|'(?:bold|dim|inverse|yellow|cyan|gray|red|green|white)'/;
		for (const file of ['table-view.tsx', 'status-area.tsx', 'first-paint.ts']) {
			const lines = source(file).split('\n').filter(line => !/^\s*(?:\*|\/\/|\/\*)/.test(line));
			expect(lines.filter(line => inline.test(line)), file).toEqual([]);
		}
	});
});
