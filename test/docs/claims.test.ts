/**
 * What README.md and docs/*.md promise, checked against the program: each
 * claim is a phrase of a doc, its figures captured, and a check that asks
 * the program (the built CLI, the source's own tables and constants, the
 * tree) for the same figure. A doc line changed without the program fails
 * here, and so does a program changed without its doc line. Then the checks
 * over whole docs: every relative link resolves, every flag named is a flag
 * of some command, every key named in browser.md is bound, every file a help
 * text names ships in the package, the exit-code tables hold the codes the
 * code has. Last, every counted figure of README.md and architecture.md
 * (`81 ways`, `15 ms`) is one of the claims, or allowed below with a reason.
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {createInterface} from 'node:readline';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bindings, keyLabel} from '../../source/browser/keys/keymap.js';
import {defaultSearchPages} from '../../source/browser/search/search-pages.js';
import {maximumWidth} from '../../source/cells/table-layout.js';
import {firstPaintWaitMs} from '../../source/commands/browse/browse-terminal.js';
import {defaultConcurrency, maximumConcurrency} from '../../source/http/every-account/account-lists.js';
import {namedAtMost, reportColumns, shownInFull} from '../../source/audit/lists-report.js';
import {signalExitCodes} from '../../source/commands/process/stop-signals.js';
import {commands, kebabName} from '../../source/config/flags.js';
import {quickServerMs} from '../../source/http/both-ends.js';
import {JsonReader, jsonEnd} from '../../source/json/json-tokenizer.js';
import {exitCodes} from '../../source/text/errors.js';
import {faultNames, type FaultName} from '../support/faulty-server.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {runCli, usePrivateCli, type Result} from '../support/run-dump.js';
import {sandboxBrowser} from '../browser/support/sandbox-browser.js';
import {countedFigure, docFiles, docText, figure, helpFiles, rawDoc, root} from './claims.js';

type Claim = {
	/** The doc, from the repository's root. */
	file: string;
	/** The phrase as the doc says it (line breaks as spaces), its figures and names captured. */
	says: RegExp;
	/** Asks the program the same: throws (an expect) when it answers otherwise. */
	check(captured: string[]): void | Promise<void>;
};

const quiet = {NO_COLOR: '1'};
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const folders = (directory: string) => readdirSync(path.join(root, directory), {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name);
/** Folder names written as `name/` in a piece of a doc. */
const namedFolders = (text: string) => [...text.matchAll(/([\w-]+)\//g)].map(match => match[1]!);

async function cli(argv: string[], env: Record<string, string> = quiet, options: {readBytes?: number} = {}): Promise<Result> {
	return runCli(argv, {...env, PAGEWALK_STATE_DIR: stateDir}, options);
}

/** `pagewalk serve` on free ports: what it prints up to its last line, then Ctrl-C. */
async function serveOutput(): Promise<string> {
	const child = spawn(process.execPath, [builtCli, 'serve', '--port', '0', '--commerce-port', '0'], {
		env: {PATH: process.env['PATH'], PAGEWALK_STATE_DIR: stateDir, NO_COLOR: '1'},
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const closed = new Promise(resolve => {
		child.on('close', resolve);
	});
	const lines: string[] = [];
	for await (const line of createInterface({input: child.stdout})) {
		lines.push(line);
		if (line === 'Ctrl-C stops it.') {
			break;
		}
	}

	child.kill('SIGINT');
	await closed;
	return lines.join('\n');
}

/** The repository files Ink's patch changes, by the part of Ink the README names. */
const inkParts: Record<string, string> = {
	'output pass': 'node_modules/ink/build/output.js',
	'input parser': 'node_modules/ink/build/input-parser.js',
	'`useInput`': 'node_modules/ink/build/hooks/use-input.js',
	'`App`': 'node_modules/ink/build/components/App.js',
};

const faulty = useFaultyServer();

/** `dump --all` of one of the faulty server's lists of 200, ten a page, from both ends and as one chain. */
async function bothAndOne(fault: FaultName, settings: Record<string, number> = {}): Promise<{both: Result; one: Result}> {
	const target = fault.endsWith('-commerce') ? ['checkouts', '--commerce-url', faulty().base(fault, {size: 200, ...settings})] : ['accounts', '--base-url', faulty().base(fault, {size: 200, ...settings})];
	const argv = ['dump', ...target, '--all', '--limit', '10'];
	const [both, one] = await Promise.all([cli([...argv, '--both-ends'], {...quiet, COINBASE_ACCESS_TOKEN: 'token', COINBASE_COMMERCE_API_KEY: 'key'}), cli([...argv, '--one-chain'], {...quiet, COINBASE_ACCESS_TOKEN: 'token', COINBASE_COMMERCE_API_KEY: 'key'})]);
	expect(one.code, one.stderr).toBe(0);
	expect(one.stdout.trimEnd().split('\n')).toHaveLength(200);
	return {both, one};
}

const claims: Claim[] = [
	{
		file: 'README.md',
		says: /`npm install` applies `patches\/` \((one) patch to Ink (\d+\.\d+): (.+?)\) and builds `dist\/`/,
		check([count, version, what]) {
			const patches = readdirSync(path.join(root, 'patches'));
			expect(patches).toHaveLength(figure(count!));
			const installed = (JSON.parse(rawDoc('node_modules/ink/package.json')) as {version: string}).version;
			expect(installed.startsWith(`${version}.`)).toBe(true);
			const patched = [...rawDoc(`patches/${patches[0]!}`).matchAll(/^\+\+\+ b\/(\S+)$/gm)].map(match => match[1]!);
			expect(sorted(patched)).toEqual(sorted(Object.entries(inkParts).filter(([part]) => what!.includes(part)).map(([, file]) => file)));
		},
	},
	{
		file: 'README.md',
		says: /Node (\d+) or (\d+) \(the current LTS lines\) is recommended; Node (\d+\.\d+) or later still works, and CI runs the suite on all (three)/,
		check([first, second, oldest, count]) {
			expect(JSON.parse(rawDoc('package.json')).engines.node).toBe(`>=${oldest}`);
			const ci = sorted([...rawDoc('.ci/run').matchAll(/^\s*versions\+?=\((.*)\)$/gm)].flatMap(match => [...match[1]!.matchAll(/"(\d+):/g)].map(version => version[1]!)));
			expect(ci).toEqual(sorted([oldest!.split('.')[0]!, first!, second!]));
			expect(ci).toHaveLength(figure(count!));
		},
	},
	{
		file: 'README.md',
		says: /pagewalk dump accounts --max-items (\d+) # (\d+) objects, however many short pages that takes/,
		async check([asked, written]) {
			expect(asked).toBe(written);
			// The demo's restricted credential: short pages.
			const result = await cli(['dump', '--demo', '--max-items', asked!]);
			expect(result.code).toBe(0);
			expect(result.stdout.trimEnd().split('\n')).toHaveLength(figure(written!));
		},
	},
	{
		file: 'README.md',
		says: /pagewalk audit --demo # short and empty pages explained, every check passed \(the commerce-only ones skipped\)/,
		async check() {
			const result = await cli(['audit', '--demo', '--json']);
			expect(result.code).toBe(0);
			const report = JSON.parse(result.stdout) as {walks: Array<{shortPages: {count: number}; emptyPages: {count: number}; checks: Array<{title: string; status: string}>}>};
			const [walk] = report.walks;
			expect(walk!.shortPages.count).toBeGreaterThan(0);
			expect(walk!.emptyPages.count).toBeGreaterThan(0);
			expect(walk!.checks.filter(check => check.status !== 'passed').map(check => `${check.status}: ${check.title}`)).toEqual(
				walk!.checks.filter(check => check.title.startsWith('commerce')).map(check => `skipped: ${check.title}`));
		},
	},
	{
		file: 'README.md',
		says: /a server that answers in under (\d+) ms is walked as one chain/,
		check([ms]) {
			expect(quickServerMs).toBe(figure(ms!));
		},
	},
	{
		file: 'README.md',
		says: /every account's transactions, (\d+) lists at once, in one order/,
		check([count]) {
			expect(defaultConcurrency).toBe(figure(count!));
		},
	},
	{
		file: 'docs/dump.md',
		says: /`--concurrency N` lists at once \(default (\d+), at most (\d+)\)/,
		async check([fallback, most]) {
			expect([defaultConcurrency, maximumConcurrency]).toEqual([figure(fallback!), figure(most!)]);
			const help = await cli(['dump', '--help']);
			expect(help.stdout).toContain(`default ${fallback!}, at most ${most!}`);
		},
	},
	{
		file: 'docs/audit.md',
		says: /`--concurrency N` lists audited at once \(default (\d+), at most (\d+)\)/,
		async check([fallback, most]) {
			expect([defaultConcurrency, maximumConcurrency]).toEqual([figure(fallback!), figure(most!)]);
			const help = await cli(['audit', '--help']);
			expect(help.stdout).toContain(`default ${fallback!}, at most ${most!}`);
		},
	},
	{
		file: 'docs/audit.md',
		says: /wrapped at (\d+) columns: the lists that failed \(the first (\w+) named with their reason\), the accounts list's walk, the lists with findings \(the first (\w+) with their failed checks and evidence, the rest named\), a table of the (\w+) lists with the most short pages/,
		check([columns, failed, findings, table]) {
			expect([reportColumns, namedAtMost, shownInFull, namedAtMost]).toEqual([columns, failed, findings, table].map(text => figure(text!)));
		},
	},
	{
		file: 'README.md',
		says: /(Two) credential variables set at once is an error naming both/,
		async check([count]) {
			const variables = ['COINBASE_ACCESS_TOKEN', 'COINBASE_API_KEY_FILE'];
			expect(variables).toHaveLength(figure(count!));
			const result = await cli(['dump', 'accounts'], {...quiet, COINBASE_ACCESS_TOKEN: 'x', COINBASE_API_KEY_FILE: '/nonexistent.json'});
			expect(result.code).toBe(exitCodes.usage);
			for (const variable of variables) {
				expect(result.stderr).toContain(variable);
			}
		},
	},
	{
		// The key table is generated from the keymap (test/browser/readme-keys.test.ts); the bound is the search's.
		file: 'README.md',
		says: /at most `--max-pages`, else ([\d,]+) pages a search/,
		check([pages]) {
			expect(defaultSearchPages).toBe(figure(pages!));
		},
	},
	{
		file: 'README.md',
		says: /`pagewalk serve` prints (\w+) keys in (\w+) key files \(kept in `~\/\.local\/state\/pagewalk\/(sandbox-keys\/seed-1)\/`/,
		async check([keys, files, folder]) {
			const printed = await serveOutput();
			expect(printed.match(/^ {2}(?:full|restricted) +(?:ES256|EdDSA) +\S+$/gm)).toHaveLength(figure(keys!));
			const paths = [...printed.matchAll(/^ +key file +(\S+)$/gm)].map(match => match[1]!);
			expect(paths).toHaveLength(figure(files!));
			expect(paths.filter(file => path.dirname(file) !== path.join(stateDir, folder!))).toEqual([]);
		},
	},
	{
		file: 'docs/architecture.md',
		says: /the faulty server \(misbehaves (\d+) ways, one path each\)/,
		check([ways]) {
			// Four of its paths are good lists, to compare the faults with: the good- pair, and the
			// clean list in both orders (list, list-commerce) that the both-ends checks compare against.
			expect(faultNames.filter(name => !name.startsWith('good-') && !/^list(?:-commerce)?$/.test(name))).toHaveLength(figure(ways!));
		},
	},
	{
		file: 'docs/architecture.md',
		says: /test\/ vitest suites, a folder per source folder but (.+?) \(tested in (.+?)\); also (.+?) test\/support\//,
		check([except, testedIn, also]) {
			const source = folders('source');
			const tests = folders('test');
			const excepted = namedFolders(except!);
			// The folders of test/ with a line of their own in the tree above.
			const ownLines = [...rawDoc('docs/architecture.md').matchAll(/^test\/([\w-]+)\//gm)].map(match => match[1]!);
			expect(excepted.filter(folder => !source.includes(folder) || tests.includes(folder))).toEqual([]);
			expect(sorted(tests)).toEqual(sorted([...source.filter(folder => !excepted.includes(folder)), ...namedFolders(testedIn!), ...namedFolders(also!), ...ownLines]));
		},
	},
	{
		file: 'docs/architecture.md',
		says: /its message reads `(line \d+, column \d+: expected ':' after the key "b", found '2')`/,
		check([message]) {
			expect(() => {
				const reader = new JsonReader('{"a": 1,\n "b" 2}');
				while (reader.next() !== jsonEnd) {
					// To the fault.
				}
			}).toThrow(message);
		},
	},
	{
		file: 'docs/architecture.md',
		says: /iteratively \(a text ([\d,]+) levels deep is fine\)/,
		check([levels]) {
			const depth = figure(levels!);
			const reader = new JsonReader(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
			let deepest = 0;
			for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
				deepest = Math.max(deepest, reader.depth);
			}

			expect(deepest).toBe(depth);
		},
	},
	{
		file: 'docs/architecture.md',
		says: /A server slower than (\d+) ms: Ink starts loading anyway/,
		check([ms]) {
			expect(firstPaintWaitMs).toBe(figure(ms!));
		},
	},
	{
		file: 'docs/architecture.md',
		says: /`bash \.ci\/run` is what CI runs on a fresh clone, on Node (\d+), (\d+) and (\d+)/,
		check(versions) {
			const ci = [...rawDoc('.ci/run').matchAll(/^\s*versions\+?=\((.*)\)$/gm)].flatMap(match => [...match[1]!.matchAll(/"(\d+):/g)].map(version => version[1]!));
			expect(sorted(ci)).toEqual(sorted(versions));
		},
	},
	{
		file: 'docs/browser.md',
		says: /A column is shown with its whole name or not at all \(only a name over (\d+) cells, the widest a column gets, is cut\)/,
		check([cells]) {
			// The behaviour itself: test/browser/header-names.test.ts.
			expect(maximumWidth).toBe(figure(cells!));
		},
	},
	{
		file: 'docs/browser.md',
		says: /at (\d+) columns no header is cut \(`([\w.]+)` reads whole\); the status line counts the columns left out \(`(cols 1–\d+ of \d+)` there, on the demo's first page\)/,
		async check([columns, name, status]) {
			// The demo's browser: the sandbox's defaults, its restricted credential.
			const app = await demo.browse({size: {columns: figure(columns!), rows: 12}});
			const frame = await app.waitFor(text => text.includes('page 1 ') && !text.includes('loading'));
			const header = frame.split('\n')[0]!;
			expect(header).not.toContain('…');
			expect(header.split(/ +/)).toContain(name);
			expect(frame).toContain(status);
		},
	},
	{
		file: 'docs/dump.md',
		says: /From a server that keeps the contract \(its `asc` list is its `desc` list reversed\), stdout holds the same bytes as one chain would write/,
		async check() {
			for (const fault of ['list', 'list-commerce'] as const) {
				// eslint-disable-next-line no-await-in-loop -- one list at a time
				const {both, one} = await bothAndOne(fault);
				expect({code: both.code, stdout: both.stdout, stderr: both.stderr}).toEqual({code: 0, stdout: one.stdout, stderr: ''});
			}

			// dump --help promises it on the same condition, and names what is checked.
			const help = (await cli(['dump', '--help'])).stdout.replaceAll(/\s+/g, ' ');
			expect(help).toContain('from a server whose asc list is its desc list reversed it writes what one chain writes, which is checked where the two ends meet (and against total on the commerce API), not deep inside the other end\'s half');
		},
	},
	{
		file: 'docs/dump.md',
		says: /on the commerce API the objects taken must be the `total` every page reported\)/,
		async check() {
			// An object the other order lacks at its far end, far from where the ends meet: the count tells.
			const {both, one} = await bothAndOne('asc-lacks-one-commerce', {missing: 199});
			expect(both.code).toBe(0);
			expect(both.stdout).toBe(one.stdout);
			expect(both.stderr).toMatch(/the two ends took 199 objects, where every page reports a total of 200/);
		},
	},
	{
		file: 'docs/dump.md',
		says: /An object that order lacks there on the account API \(no `total` to count it\) and one it has in another's place on either API are written so, exit (\d+), with nothing said/,
		async check([status]) {
			// At the far end of the other order's list (its first page), far from where the ends meet.
			const cases = [['asc-lacks-one', {missing: 199}, 199], ['asc-replaces-one', {replace: 195}, 200], ['asc-replaces-one-commerce', {replace: 195}, 200]] as const;
			for (const [fault, settings, written] of cases) {
				// eslint-disable-next-line no-await-in-loop -- one list at a time
				const {both, one} = await bothAndOne(fault, settings);
				expect({code: both.code, stderr: both.stderr}).toEqual({code: figure(status!), stderr: ''});
				const lines = both.stdout.trimEnd().split('\n');
				expect(lines).toHaveLength(written);
				expect(both.stdout).not.toBe(one.stdout);
			}
		},
	},
	{
		file: 'docs/dump.md',
		says: /An interrupted dump \((SIGINT), (SIGTERM), (SIGHUP)\) or a failed one leaves a whole document .*?; a reader that goes away \(`\| head`\) ends it quietly, exit (0), as one chain/,
		async check([...named]) {
			const status = named.pop()!;
			expect(sorted(named)).toEqual(sorted(Object.keys(signalExitCodes)));
			// From both ends (the section's subject), to a reader that takes a little and goes.
			const result = await cli(['dump', '--demo', '--all', '--both-ends', '--limit', '5'], quiet, {readBytes: 1500});
			expect({code: result.code, stderr: result.stderr}).toEqual({code: figure(status), stderr: ''});
		},
	},
	{
		file: 'docs/exit-codes.md',
		says: /`source\/text\/errors\.ts` \(`exitCodes`: ([\d, ]+)\), `source\/commands\/process\/stop-signals\.ts` \(([\d, ]+)\)/,
		check([plain, signals]) {
			const list = (text: string) => text.split(',').map(code => figure(code.trim()));
			expect(list(plain!)).toEqual(Object.values(exitCodes));
			expect(list(signals!)).toEqual(Object.values(signalExitCodes).sort());
		},
	},
];

/**
 * Counted figures of README.md and architecture.md that no claim checks, each
 * with why. A figure not here and in no claim fails the last test: give it a
 * claim, or a reason here.
 */
const allowed: Array<{file: string; figure: string; why: string}> = [
	{file: 'README.md', figure: 'two chains', why: 'what --both-ends means (a chain from each end), not a measure'},
	{file: 'docs/architecture.md', figure: 'Two ways', why: 'counts the two bullets that follow it'},
];

const demo = sandboxBrowser();
let builtCli: string;
let stateDir: string;
beforeAll(() => {
	builtCli = usePrivateCli();
	stateDir = mkdtempSync(path.join(tmpdir(), 'pagewalk-claims-'));
});
afterAll(() => {
	rmSync(path.dirname(path.dirname(builtCli)), {recursive: true, force: true});
	rmSync(stateDir, {recursive: true, force: true});
});

describe('each claim of the docs, against the program', () => {
	for (const claim of claims) {
		it(`${claim.file}: ${claim.says.source.slice(0, 90)}`, async () => {
			const found = claim.says.exec(docText(claim.file));
			expect(found, `${claim.file} no longer says this; change the claim with the doc (test/docs/claims.test.ts)`).not.toBeNull();
			await claim.check(found!.slice(1));
		});
	}
});

describe('every doc, whole', () => {
	it('every relative link resolves to a file, and its #anchor to a heading or an <a id> of it', () => {
		const slug = (heading: string) => heading.trim().toLowerCase().replaceAll(/[^\p{L}\p{N}\s_-]/gu, '').replaceAll(/\s/g, '-');
		const anchors = (file: string) => {
			const text = rawDoc(file).replaceAll(/^```[\s\S]*?^```/gm, '');
			return new Set([...[...text.matchAll(/^#{1,6}\s+(.*)$/gm)].map(match => slug(match[1]!)), ...[...text.matchAll(/<a id="([^"]+)"/g)].map(match => match[1]!)]);
		};

		const broken: string[] = [];
		let links = 0;
		for (const file of docFiles()) {
			for (const [, target] of rawDoc(file).matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/.test(target!)) {
					continue;
				}

				links++;
				const [to, anchor] = target!.split('#');
				const resolved = to === '' ? file : path.normalize(path.join(path.dirname(file), to!));
				if (!existsSync(path.join(root, resolved))) {
					broken.push(`${file}: ${target} (no file ${resolved})`);
				} else if (anchor !== undefined && (!statSync(path.join(root, resolved)).isFile() || !anchors(resolved).has(anchor))) {
					broken.push(`${file}: ${target} (no #${anchor} in ${resolved})`);
				}
			}
		}

		expect(broken).toEqual([]);
		expect(links).toBeGreaterThan(20);
	});

	it('every --flag named is a flag of some command, else a flag of Node, V8 or a benchmark script', () => {
		const ours = new Set(['help', 'version', ...Object.values(commands).flatMap(command => Object.keys(command.flags).map(name => kebabName(name)))]);
		const v8 = spawnSync(process.execPath, ['--v8-options'], {encoding: 'utf8'}).stdout;
		const node = spawnSync(process.execPath, ['--help'], {encoding: 'utf8'}).stdout;
		const benchmarks = ['test/bench', 'scripts'].flatMap(directory => readdirSync(path.join(root, directory)).map(name => rawDoc(`${directory}/${name}`))).join('\n');
		const theirs = (flag: string) => {
			const name = flag.slice(2).replace(/^no-/, '');
			return process.allowedNodeEnvironmentFlags.has(flag) || node.includes(`${flag} `) || new RegExp(`^\\s+--${name}\\b`, 'm').test(v8)
				|| benchmarks.includes(`'${flag.slice(2)}'`) || new RegExp(`[{,]\\s*${flag.slice(2)}: \\{`).test(benchmarks);
		};

		// A flag half typed, to show what Tab completes; vitest's own flag, in a vitest command line.
		const notFlags = new Set(['docs/completion.md --fo', 'README.md --project', 'docs/architecture.md --project', 'docs/benchmarks.md --project']);
		const unknown: string[] = [];
		for (const file of docFiles()) {
			for (const [flag] of rawDoc(file).matchAll(/(?<![\w-])--[a-z][a-z\d-]*/g)) {
				if (!ours.has(flag.slice(2)) && !theirs(flag) && !notFlags.has(`${file} ${flag}`)) {
					unknown.push(`${file}: ${flag}`);
				}
			}
		}

		expect(sorted(unknown)).toEqual([]);
		expect([...notFlags].filter(entry => !rawDoc(entry.split(' ')[0]!).includes(entry.split(' ')[1]!))).toEqual([]);
	});

	it('every key named in docs/browser.md is bound in the keymap', () => {
		const bound = new Set(bindings().map(binding => keyLabel(binding.key)));
		// Backquoted single characters of browser.md that name no key of pagewalk's, each with why.
		const notKeys: Record<string, string> = {
			x: 'Alt+`x`: any key pressed with Alt',
			O: 'a byte after ESC in an escape sequence',
			P: 'a byte after ESC that starts a control string',
			X: 'a byte after ESC that starts a control string',
			'^': 'a byte after ESC that starts a control string',
			_: 'a byte after ESC that starts a control string',
			1: 'a cell value in the sort section',
			2: 'a cell value in the sort section',
			6: 'a byte of a mouse report',
			'·': 'the fill chart\'s mark of an empty page',
			'…': 'the mark of a cell, a name or a number cut short',
			'›': 'the gutter\'s mark of a pane row holding a match, without colour',
			'\'': 'a character the curl command\'s quoting deals with',
			$: 'a character the curl command\'s quoting deals with',
		};
		const keyName = /^(?:.|Esc|Enter|Backspace|Tab|Space|PgUp|PgDn|Home|End|Ctrl-[A-Z]|Shift-(?:←|→|↑|↓|Tab))$/u;
		const named = [...rawDoc('docs/browser.md').matchAll(/`([^`\n]+)`/g)].map(match => match[1]!).filter(text => keyName.test(text));
		expect(named.length).toBeGreaterThan(50);
		expect(sorted(named.filter(key => !bound.has(key) && !(key in notKeys)))).toEqual([]);
		expect(Object.keys(notKeys).filter(text => !named.includes(text))).toEqual([]);
	});

	it('every file a help text names is in the package\'s "files" (the installed package: test/e2e/packed-install.test.ts)', async () => {
		const files = (JSON.parse(rawDoc('package.json')) as {files: string[]}).files;
		const named = new Set<string>();
		for (const command of Object.values(commands)) {
			// eslint-disable-next-line no-await-in-loop -- a few short runs, one after another
			const result = await cli([...command.name.split(' ').slice(1), '--help']);
			expect(result.code).toBe(0);
			for (const [file] of result.stdout.matchAll(helpFiles)) {
				named.add(file);
			}
		}

		expect(named.size).toBeGreaterThan(0);
		expect([...named].filter(file => !existsSync(path.join(root, file)) || !files.some(entry => file === entry || file.startsWith(`${entry}/`)))).toEqual([]);
	});

	it('the exit-code tables hold exactly the codes the program has, each signal\'s code beside its name', () => {
		const codes = (file: string) => new Map([...rawDoc(file).matchAll(/^\| ([\d, ]+) \| ([^|]+)/gm)].flatMap(([, list, meaning]) => list!.split(',').map(code => [figure(code.trim()), meaning!] as const)));
		const all = codes('docs/exit-codes.md');
		expect([...all.keys()].sort((a, b) => a - b)).toEqual([...Object.values(exitCodes), ...Object.values(signalExitCodes)].sort((a, b) => a - b));
		for (const [signal, code] of Object.entries(signalExitCodes)) {
			expect(all.get(code)).toContain(signal);
		}

		for (const file of ['docs/dump.md', 'docs/audit.md']) {
			expect([...codes(file).keys()].filter(code => !all.has(code)), file).toEqual([]);
		}
	});
});

describe('counted figures of README.md and docs/architecture.md', () => {
	it('each is checked by a claim above, or allowed with a reason', () => {
		const unchecked: string[] = [];
		for (const file of ['README.md', 'docs/architecture.md']) {
			const text = docText(file);
			const covered = claims.filter(claim => claim.file === file).map(claim => claim.says.exec(text)).filter(found => found !== null).map(found => [found.index, found.index + found[0].length] as const);
			for (const found of text.matchAll(countedFigure)) {
				const inClaim = covered.some(([start, end]) => found.index >= start && found.index + found[0].length <= end);
				if (!inClaim && !allowed.some(entry => entry.file === file && entry.figure === found[0])) {
					unchecked.push(`${file}: "${found[0]}" in "…${text.slice(Math.max(0, found.index - 40), found.index + 40)}…"`);
				}
			}
		}

		expect(unchecked).toEqual([]);
		expect(allowed.filter(entry => !docText(entry.file).includes(entry.figure))).toEqual([]);
	});
});
