/**
 * Every hint the CLI prints that names a command or a flag is run. The CLI
 * is driven into each situation (the --demo sandbox, a sandbox or a broken
 * server on 127.0.0.1, in this process; the entry's own slips as a
 * subprocess), every hint config/hints.ts built meanwhile is found in what
 * the user saw, and the line it stands for is run as the command it names:
 * none may be refused (exit status 2), and where the situation allows, it
 * must succeed.
 *
 * Then two checks that keep it so: every hint site in source/ (a call of the
 * hints module naming its site) was reached by some situation here, and no
 * message in source/ names a command or a flag by hand (a `pagewalk dump`
 * or a `--flag` after a message's start, outside help texts): a new hint
 * either comes through the module, and then needs a situation here, or
 * fails this file.
 */
import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {PassThrough} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {render} from 'ink-testing-library';
import {createElement} from 'react';
import ts from 'typescript';
import {afterAll, beforeAll, describe, expect, test, vi} from 'vitest';
import {Capture} from '../support/test-io.js';
import {again, builtHints, type BuiltHint} from '../../source/config/hints.js';
import {commands, type CommandFlags} from '../../source/config/flags.js';
import {parseFlags} from '../../source/config/parse-flags.js';
import {isScenario} from '../../source/sandbox/scenarios/scenario-names.js';
import {dumpParsed, runDump} from '../../source/commands/dump/dump.js';
import {runAudit} from '../../source/commands/audit/audit.js';
import {runToken} from '../../source/commands/token/token.js';
import {runCompletion} from '../../source/commands/completion/completion.js';
import {listProfiles} from '../../source/commands/profiles/profiles.js';
import {banner} from '../../source/commands/serve/serve.js';
import {openConfig} from '../../source/commands/setup/demo.js';
import {curlBuilder} from '../../source/commands/browse/copy-save.js';
import {exportPort} from '../../source/commands/browse/export-lists.js';
import {exportStoppedNote} from '../../source/browser/actions/save-path.js';
import {defaultConcurrency, laneCount} from '../../source/http/every-account/account-lists.js';
import {createClient} from '../../source/http/http-client.js';
import {RenderFailure} from '../../source/components/render-failure.js';
import {describeError} from '../../source/text/report-error.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {useFaultyServer} from '../support/use-faulty-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'pagewalk-hints-'));
/** No credential, no config file: what each situation needs, it says. */
const bareEnv: Record<string, string> = {HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent', NO_COLOR: '1'};

type Ran = {code: number; out: string};

/** A command's run in this process, as the CLI reports it: stdout and stderr as one text, a thrown error as its sentence and status. */
async function inProcess(run: (io: {stdout: Capture; stderr: Capture; env: Record<string, string | undefined>}) => Promise<number>, env: Record<string, string | undefined> = bareEnv): Promise<Ran> {
	const stdout = new Capture();
	const stderr = new Capture();
	let code: number;
	try {
		code = await run({stdout, stderr, env});
	} catch (error: unknown) {
		const {message, exitCode} = describeError(error);
		stderr.write(`pagewalk: ${message}\n`);
		code = exitCode;
	}

	return {code, out: `${stdout.text}${stderr.text}`};
}

const dump = async (argv: string[], env?: Record<string, string | undefined>) => inProcess(async io => runDump(argv, io), env);
/** `pagewalk [endpoint]` on a pipe: the browser's parse, then its one page. */
const piped = async (argv: string[], env?: Record<string, string | undefined>) => inProcess(async io => {
	const parsed = parseFlags(argv, commands.browse);
	return typeof parsed === 'object' ? dumpParsed(parsed, io, {bare: true}) : 0;
}, env);
const audit = async (argv: string[], env?: Record<string, string | undefined>) => inProcess(async io => runAudit(argv, io), env);
const token = async (argv: string[], env?: Record<string, string | undefined>) => inProcess(async io => runToken(argv, io), env);
const completion = async (argv: string[]) => inProcess(async io => runCompletion(argv, io));
const profiles = async (argv: string[], env: Record<string, string | undefined>) => inProcess(async io => listProfiles(argv, io), env);

/** The entry itself (its slips happen before any command loads), from source, with the hints it built recorded. */
async function entry(argv: string[]): Promise<{ran: Ran; hints: BuiltHint[]}> {
	const record = path.join(scratch, `entry-${Math.random().toString(36).slice(2)}.json`);
	const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', './test/cli/support/record-hints.ts', 'source/cli.tsx', ...argv], {
		cwd: root,
		env: {...process.env, ...bareEnv, HINTS_RECORD: record},
	}).then(({stdout, stderr}) => ({code: 0, out: `${stdout}${stderr}`}), (error: {code: number; stdout: string; stderr: string}) => ({code: error.code, out: `${error.stdout}${error.stderr}`}));
	return {ran: result, hints: JSON.parse(readFileSync(record, 'utf8')) as BuiltHint[]};
}

/** Read by its command's parser: a hint whose words claim only that a command takes a flag, and serve, which runs until Ctrl-C. */
async function parseHint(hint: BuiltHint): Promise<Ran> {
	return inProcess(async () => {
		const parsed = parseFlags(hint.argv, commands[hint.command] as CommandFlags);
		// A scenario named must be one serve has.
		return typeof parsed === 'object' && 'scenario' in parsed.flags && typeof parsed.flags.scenario === 'string' && !isScenario(parsed.flags.scenario) ? 2 : 0;
	});
}

/** The hints whose words say only that a command takes the flag ("pagewalk dump takes it"), not what to run. */
const claimsOnly = new Set(['parse-taken-by']);

/** How a hint's line is run: in process where the command can be, else read by its command's parser. */
async function runHint(hint: BuiltHint, env: Record<string, string | undefined>): Promise<Ran> {
	if (claimsOnly.has(hint.site)) {
		return parseHint(hint);
	}

	switch (hint.command) {
		case 'dump': {
			return dump(hint.argv, env);
		}

		case 'browse': {
			return piped(hint.argv, env);
		}

		case 'audit': {
			return audit(hint.argv, env);
		}

		case 'token': {
			return token(hint.argv, env);
		}

		case 'completion': {
			return completion(hint.argv);
		}

		case 'profiles': {
			return profiles(hint.argv, env);
		}

		case 'serve': {
			return parseHint(hint);
		}
	}
}

/** Every site reached, and by which situation. */
const reached = new Map<string, string>();

type Expect = {
	/** The status the situation itself ends with. */
	code?: number;
	/** The sites it must reach. */
	sites: string[];
	/** The status each hint's line must end with (default: anything but 2, a refusal). */
	hintCode?: number | Partial<Record<string, number>>;
	/** The environment the hints run in (default: the situation's). */
	env?: Record<string, string | undefined>;
};

/**
 * Runs `situation`, finds each hint built meanwhile in its output, and runs
 * each hint's line: never refused, and with the status asked for.
 */
async function check(name: string, situation: () => Promise<Ran | {ran: Ran; hints: BuiltHint[]}>, expected: Expect & {situationEnv?: Record<string, string | undefined>}): Promise<BuiltHint[]> {
	builtHints.length = 0;
	const result = await situation();
	const {ran, hints} = 'ran' in result ? result : {ran: result, hints: [...builtHints]};
	builtHints.length = 0;
	if (expected.code !== undefined) {
		expect(ran.code, ran.out).toBe(expected.code);
	}

	expect(hints.map(hint => hint.site).sort(), ran.out).toEqual(expect.arrayContaining(expected.sites));
	for (const hint of hints) {
		expect(ran.out, `${hint.site}: printed as built`).toContain(hint.shown);
		reached.set(hint.site, name);
		// eslint-disable-next-line no-await-in-loop -- one hint at a time: each may start the demo sandbox
		const followed = await runHint(hint, expected.env ?? expected.situationEnv ?? bareEnv);
		builtHints.length = 0;
		const wanted = typeof expected.hintCode === 'object' ? expected.hintCode[hint.site] : expected.hintCode;
		const line = `${commands[hint.command].name} ${hint.argv.join(' ')} (from ${hint.site} in "${name}")`;
		expect(followed.code, `${line} was refused:\n${followed.out}`).not.toBe(2);
		if (wanted !== undefined) {
			expect(followed.code, `${line}:\n${followed.out}`).toBe(wanted);
		}
	}

	return hints;
}

let sandbox: Sandbox;
const faulty = useFaultyServer();

beforeAll(async () => {
	sandbox = await startSandbox({records: 30});
});

afterAll(async () => {
	await sandbox.close();
});

describe('the parser\'s hints', () => {
	test('a slip of a flag\'s name: the line with the flag meant runs', async () => {
		await check('--limt', async () => dump(['accounts', '--demo', '--limt', '2']), {code: 2, sites: ['parse-flag-slip', 'parse-see-help'], hintCode: {'parse-flag-slip': 0, 'parse-see-help': 0}});
		await check('-limit', async () => dump(['accounts', '--demo', '-limit', '2']), {code: 2, sites: ['parse-one-dash'], hintCode: {'parse-one-dash': 0}});
		await check('--hlep', async () => dump(['--hlep']), {code: 2, sites: ['parse-flag-slip'], hintCode: 0});
	});

	test('a value starting with \'-\': the = form, for a flag whose values may (an id); none for --limit, whose values never do', async () => {
		// The sandbox answers 400 for an id it does not have: sent, not refused.
		await check('--starting-after -abc', async () => dump(['accounts', '--demo', '--starting-after', '-abc']), {code: 2, sites: ['parse-dash-value'], hintCode: {'parse-dash-value': 1}});
		const limit = await dump(['accounts', '--demo', '--limit', '-1']);
		expect(limit.out).toBe('pagewalk: --limit needs a value (no value of --limit starts with \'-\'); see pagewalk dump --help.\n');
	});

	test('an argument that starts with \'-\' goes after `--` in a line a hint makes, so the line reads as the user\'s did', () => {
		builtHints.length = 0;
		const suggestion = again('test-dashed', {command: 'dump', input: ['-x'], flags: {demo: true}}, {command: 'audit'});
		const [built] = builtHints.splice(0);
		expect(suggestion.phrase).toBe('pagewalk audit --demo -- -x');
		expect(parseFlags(built!.argv, commands.audit)).toEqual({input: ['-x'], flags: {demo: true}});
	});

	test('a flag of another command: the commands named take it', async () => {
		const hints = await check('pagewalk --demo --all', async () => piped(['--demo', '--all']), {code: 2, sites: ['parse-taken-by']});
		expect(hints.filter(hint => hint.site === 'parse-taken-by').map(hint => hint.command)).toEqual(['dump']);
	});
});

describe('the entry\'s hints', () => {
	test('a slip of a command\'s name: the command meant, with the rest of the line when it takes it', async () => {
		const {ran} = await entry(['dupm', 'accounts', '--demo', '--limit', '1']);
		expect(ran.out).toBe('pagewalk: Unknown command \'dupm\' (did you mean pagewalk dump accounts --demo --limit=1?); see pagewalk --help.\n');
		await check('pagewalk dupm', async () => entry(['dupm', 'accounts', '--demo', '--limit', '1']), {code: 2, sites: ['cli-command-slip', 'cli-see-help'], hintCode: 0});
		await check('pagewalk help dmup', async () => entry(['help', 'dmup']), {code: 2, sites: ['cli-help-slip', 'cli-help-see-help'], hintCode: 0});
	});
});

describe('dump\'s hints', () => {
	test('more pages: the same command with --all, or from after the last id; on a pipe, pagewalk dump walks them', async () => {
		await check('dump, one page', async () => dump(['accounts', '--demo', '--limit', '2']), {code: 0, sites: ['dump-walk-all', 'dump-next-page'], hintCode: 0});
		const [walkAll] = await check('piped', async () => piped(['accounts', '--demo', '--limit', '2']), {code: 0, sites: ['dump-walk-all', 'dump-next-page'], hintCode: 0});
		expect(walkAll!.shown).toBe('pagewalk dump accounts --demo --limit=2 --all');
		// --max-pages would stop the walk again; a walk from before an id goes on after the last one, without it.
		const first = JSON.parse((await dump(['accounts', '--demo', '--limit', '3', '--demo-credential', 'full'])).out.split('\n')[2]!) as {id: string};
		await check('dump --ending-before --max-pages', async () => dump(['accounts', '--demo', '--limit', '3', '--demo-credential', 'full', '--ending-before', first.id, '--max-pages', '2']), {code: 0, sites: ['dump-walk-all', 'dump-next-page'], hintCode: 0});
	});

	test('a carried header that may hold a secret is shown as the mark; the line run is the user\'s', async () => {
		const [walkAll] = await check('piped --header', async () => piped(['accounts', '--demo', '--limit', '2', '--header', 'X-Session-Token: secret-value-4321']), {code: 0, sites: ['dump-walk-all'], hintCode: 0});
		expect(walkAll!.shown).toBe('pagewalk dump accounts --demo --limit=2 --header=\'X-Session-Token: [redacted]\' --all');
		expect(walkAll!.argv).toContain('--header=X-Session-Token: secret-value-4321');
	});

	test('a bound reached: the same command from after the last id continues', async () => {
		await check('--max-items', async () => dump(['accounts', '--demo', '--limit', '2', '--max-items', '3', '--all']), {code: 0, sites: ['dump-continue'], hintCode: 0});
		const first = JSON.parse((await dump(['accounts', '--demo', '--limit', '3', '--demo-credential', 'full'])).out.split('\n')[2]!) as {id: string};
		await check('--ending-before --max-items', async () => dump(['accounts', '--demo', '--demo-credential', 'full', '--ending-before', first.id, '--max-items', '1', '--all']), {code: 0, sites: ['dump-continue'], hintCode: 0});
	});

	test('every account\'s list with some lists failed: the first failed account\'s list alone, as one list', async () => {
		const base = `--base-url=${faulty().base('account-lists', {size: 6})}`;
		const env = {...bareEnv, COINBASE_ACCESS_TOKEN: 'test-token-1234'};
		const [alone] = await check('account-lists', async () => dump(['transactions', base, '--all', '--concurrency', '2'], env), {code: 4, sites: ['dump-list-failed'], situationEnv: env});
		expect(alone!.argv).toContain('--all');
		expect(alone!.argv.some(word => word.startsWith('--concurrency'))).toBe(false);
		// An account id that a path, a shell and a terminal read specially: its list alone, at the path the walk asked (percent-encoded).
		const odd = `--base-url=${faulty().base('account-lists', {size: 6, odd: 1})}`;
		const [oddAlone] = await check('account-lists odd', async () => dump(['transactions', odd, '--all'], env), {code: 4, sites: ['dump-list-failed'], situationEnv: env, hintCode: 1});
		expect(oddAlone!.argv[0]).toBe(`/v2/accounts/${encodeURIComponent('item-0002/\u001B[31m?#\'')}/transactions`);
	});

	test('the browser\'s export (E) stopped short: the dump line it says goes on with it', async () => {
		const flags = {baseUrl: sandbox.accountUrl, limit: '10'};
		const env = {...bareEnv, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full};
		const config = await openConfig({input: ['accounts'], flags, command: 'browse', env});
		const client = createClient(config, {lanes: laneCount(defaultConcurrency)});
		const port = exportPort({config, client, line: {command: 'browse', input: ['accounts'], flags}, env, cwd: scratch});
		try {
			const stop = new AbortController();
			await check('browse E, Ctrl-C', async () => {
				const result = await port.exportLists({each: 'transactions', name: 'export-stopped.ndjson', mode: 'new'}, {signal: stop.signal, onProgress() {
					stop.abort();
				}, onRetry() {}});
				return {code: 0, out: result.kind === 'stopped' ? exportStoppedNote({name: 'export-stopped.ndjson', ...result}) : JSON.stringify(result)};
			}, {sites: ['browse-export-resume'], hintCode: 0, situationEnv: env});
		} finally {
			await port.settled();
			await client.close();
			await config.close();
		}
	});

	test('transactions given to another command than dump or audit: the same line as a dump, and as an audit', async () => {
		await check('browse transactions', async () => piped(['transactions', '--demo']), {code: 2, sites: ['every-account-dump', 'every-account-audit'], hintCode: 0});
	});

	test('a walk that failed midway: the same command from after the last id resumes (not refused)', async () => {
		const base = `--commerce-url=${faulty().base('fail-midway')}`;
		const env = {...bareEnv, COINBASE_COMMERCE_API_KEY: 'test-key-1234'};
		await check('fail-midway', async () => dump(['checkouts', base, '--all', '--limit', '5'], env), {code: 1, sites: ['dump-resume'], situationEnv: env});
	});

	test('contract findings: the audit of the same walk', async () => {
		await check('duplicate', async () => dump(['accounts', '--demo', '--scenario', 'duplicate', '--limit', '5', '--max-pages', '3', '--all']), {code: 0, sites: ['dump-audit', 'dump-continue'], hintCode: {'dump-continue': 0, 'dump-audit': 1}});
	});
});

describe('credential and endpoint hints', () => {
	test('no credential: the same command with --demo, without what --demo refuses', async () => {
		await check('commerce', async () => dump(['checkouts', '--limit', '2']), {code: 2, sites: ['credential-try-demo'], hintCode: 0});
		await check('--base-url', async () => dump(['accounts', '--base-url', 'http://127.0.0.1:9', '--limit', '2']), {code: 2, sites: ['credential-try-demo'], hintCode: 0});
		await check('full URL', async () => piped(['http://127.0.0.1:9/v2/accounts?limit=2', '--base-url', 'http://127.0.0.1:9']), {code: 2, sites: ['credential-try-demo'], hintCode: 0});
		// The audit's status says the walk stopped at its bound before the list's end (docs/exit-codes.md).
		await check('audit', async () => audit(['accounts', '--max-pages', '1']), {code: 2, sites: ['credential-try-demo']});
	});

	test('token takes no --demo, so its credential sentence offers none', async () => {
		const ran = await token(['accounts']);
		expect(ran.code).toBe(2);
		expect(ran.out).not.toContain('--demo');
		expect(ran.out).toContain('--key-file PATH');
	});

	test('a slip of an endpoint\'s name: the list meant, not a path on whichever API', async () => {
		await check('checkout', async () => dump(['checkout', '--demo', '--limit', '2']), {code: 2, sites: ['endpoint-slip'], hintCode: 0});
		const hints = await check('acounts', async () => piped(['acounts', '--demo', '--limit', '2']), {code: 2, sites: ['endpoint-slip'], hintCode: 0});
		expect(hints[0]!.shown).toBe('pagewalk accounts --demo --limit=2');
	});

	test('--scenario and --latency without --demo: serve takes them', async () => {
		await check('--scenario', async () => dump(['accounts', '--scenario', 'duplicate']), {code: 2, sites: ['scenario-serve']});
		await check('--latency', async () => dump(['accounts', '--latency', '5']), {code: 2, sites: ['latency-serve']});
	});
});

describe('the curl copy and the sandbox\'s banner: pagewalk token signs what they need', () => {
	test('a CDP key from --key-file: the token line carries it, and its JWT is accepted', async () => {
		const key = sandbox.keys.find(candidate => candidate.algorithm === 'ES256' && candidate.viewer === 'full')!;
		const flags = {keyFile: key.path!, baseUrl: sandbox.accountUrl};
		const config = await openConfig({input: ['accounts'], flags, command: 'browse', env: bareEnv});
		const url = `${sandbox.accountUrl}/v2/accounts?limit=2`;
		const [hint] = await check('u', async () => ({code: 0, out: curlBuilder(config, bareEnv, {command: 'browse', input: ['accounts'], flags})(url)}), {sites: ['curl-token'], hintCode: 0});
		const jwt = await (async () => {
			const stdout = new PassThrough();
			let text = '';
			stdout.on('data', (chunk: Buffer) => {
				text += chunk.toString();
			});
			await runToken(hint!.argv, {stdout, stderr: new PassThrough(), env: bareEnv});
			return text.trim();
		})();
		const response = await fetch(url, {headers: {authorization: `Bearer ${jwt}`, 'cb-version': '2018-03-22'}});
		await response.text();
		expect(response.status).toBe(200);
	});

	test('under --demo: no token line (the key is in no file), pagewalk serve instead', async () => {
		const config = await openConfig({input: ['accounts'], flags: {demo: true}, command: 'browse', env: bareEnv});
		try {
			const [hint] = await check('u --demo', async () => ({code: 0, out: curlBuilder(config, bareEnv, {command: 'browse', input: ['accounts'], flags: {demo: true}})(`${config.base.origin}/v2/accounts`)}), {sites: ['curl-demo-serve']});
			expect(hint!.command).toBe('serve');
		} finally {
			await config.close();
		}
	});

	test('serve\'s banner: the token line names a key file it wrote, and runs', async () => {
		await check('banner', async () => ({code: 0, out: banner(sandbox, 1, '127.0.0.1')}), {sites: ['serve-token'], hintCode: 0});
	});
});

describe('profiles, completion and the browser\'s failure banner', () => {
	test('a config file to fix, or none: see pagewalk profiles --help', async () => {
		const broken = path.join(scratch, 'broken.json');
		writeFileSync(broken, '{"profiles": 3}');
		await check('broken config', async () => dump(['--profile', 'work'], {...bareEnv, PAGEWALK_CONFIG: broken}), {code: 2, sites: ['profiles-file-see-help'], hintCode: 0});
		await check('no config', async () => dump(['--profile', 'work'], {...bareEnv, XDG_CONFIG_HOME: scratch}), {code: 2, sites: ['profiles-none-see-help'], hintCode: 0});
		await check('profiles, no file', async () => profiles([], {...bareEnv, XDG_CONFIG_HOME: scratch}), {code: 0, sites: ['profiles-no-file'], hintCode: 0});
		await check('profiles, no home', async () => profiles([], {NO_COLOR: '1'}), {code: 0, sites: ['profiles-no-home'], hintCode: 0});
	});

	test('the completion scripts name the lines they run', async () => {
		await check('bash', async () => completion(['bash']), {code: 0, sites: ['completion-bash', 'completion-bash-profiles'], hintCode: 0});
		await check('zsh', async () => completion(['zsh']), {code: 0, sites: ['completion-zsh'], hintCode: 0});
		await check('fish', async () => completion(['fish']), {code: 0, sites: ['completion-fish', 'completion-fish-profiles'], hintCode: 0});
	});

	test('a page the browser cannot draw: the dump of the same list', async () => {
		vi.spyOn(console, 'error').mockImplementation(() => {});
		function Broken(): never {
			throw new Error('no drawing this');
		}

		await check('render failure', async () => {
			const instance = render(createElement(RenderFailure, {line: {command: 'browse', input: ['accounts'], flags: {demo: true, limit: '2', noMouse: true}}, children: createElement(Broken)}));
			const frame = instance.lastFrame() ?? '';
			instance.unmount();
			return {code: 0, out: frame.replaceAll(/\s*\n\s*/g, ' ')};
		}, {sites: ['render-failure-dump'], hintCode: 0});
		vi.restoreAllMocks();
	});
});

/** Every TypeScript file under source/. */
function sourceFiles(directory = path.join(root, 'source')): string[] {
	return readdirSync(directory, {withFileTypes: true}).flatMap(entry => {
		const full = path.join(directory, entry.name);
		if (entry.isDirectory()) {
			return sourceFiles(full);
		}

		return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
	});
}

const builders = new Set(['again', 'commandLine', 'helpLine', 'fixedLine', 'takenBy']);
const hintsModule = path.join(root, 'source/config/hints.ts');
/** The tables themselves: the command names hints are made from. */
const tableModule = path.join(root, 'source/config/flags.ts');
const commandWords = Object.keys(commands).filter(name => name !== 'browse');
const namesCommand = new RegExp(String.raw`\bpagewalk (?:(?:${[...commandWords, 'help'].join('|')})\b|--)`);
const namesFlag = /(?<![\w-])--[a-z]/g;

/** Help texts (a command's `help`, the walk flags' help, the keymap's descriptions) name their own command's flags, as they should. */
function isHelpText(node: ts.Node): boolean {
	for (let at: ts.Node | undefined = node; at; at = at.parent) {
		if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) && /help$/i.test(at.name.text)) {
			return true;
		}

		if (ts.isPropertyAssignment(at) && ts.isIdentifier(at.name) && ['readme', 'description'].includes(at.name.text)) {
			return true;
		}
	}

	return false;
}

type Scan = {sites: Array<{site: string; where: string}>; unnamed: string[]; handWritten: string[]; sandboxFlags: Array<{flag: string; where: string}>};

function scanSource(): Scan {
	const scan: Scan = {sites: [], unnamed: [], handWritten: [], sandboxFlags: []};
	for (const file of sourceFiles()) {
		const relative = path.relative(root, file);
		const text = readFileSync(file, 'utf8');
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
		const where = (node: ts.Node) => `${relative}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
		const visit = (node: ts.Node): void => {
			if (file !== hintsModule && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && builders.has(node.expression.text)) {
				const [first] = node.arguments;
				if (first && ts.isStringLiteral(first)) {
					scan.sites.push({site: first.text, where: where(node)});
				} else {
					scan.unnamed.push(where(node));
				}
			}

			let literal: string | undefined;
			let atStart = false;
			if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) {
				literal = node.text;
				atStart = true;
			} else if (ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) {
				literal = node.text;
			}

			if (literal !== undefined && file !== hintsModule && file !== tableModule && !ts.isImportDeclaration(node.parent) && !isHelpText(node)) {
				const flags = [...literal.matchAll(namesFlag)].filter(match => !(atStart && match.index === 0));
				if (relative.startsWith('source/sandbox/')) {
					// The sandbox may import only the contract (test/architecture): its words for serve's flags are checked against serve's table here.
					scan.sandboxFlags.push(...flags.map(match => ({flag: /--[a-z-]+/.exec(literal.slice(match.index))![0], where: where(node)})));
				} else if (namesCommand.test(literal) || flags.length > 0) {
					scan.handWritten.push(`${where(node)}: ${JSON.stringify(literal.slice(0, 120))}`);
				}
			}

			ts.forEachChild(node, visit);
		};

		visit(source);
	}

	return scan;
}

describe('every hint comes from the tables, and every one is run here', () => {
	const scan = scanSource();

	test('each call of the hints module names its site, once', () => {
		expect(scan.unnamed, 'a hint built without a site name (a string literal) cannot be told reached').toEqual([]);
		const seen = new Map<string, string>();
		for (const {site, where} of scan.sites) {
			expect(seen.get(site), `${site} at ${where} is also at ${seen.get(site)!}`).toBeUndefined();
			seen.set(site, where);
		}
	});

	test('no message names a command or a flag by hand', () => {
		expect(scan.handWritten).toEqual([]);
		const serveFlags = new Set(Object.keys(commands.serve.flags).map(name => `--${name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`));
		for (const {flag, where} of scan.sandboxFlags) {
			expect(serveFlags.has(flag), `${where} names ${flag}, which pagewalk serve does not take`).toBe(true);
		}
	});

	test('every hint site was reached, and its hint run, by a situation above', () => {
		const missed = scan.sites.filter(({site}) => !reached.has(site)).map(({site, where}) => `${site} (${where})`);
		expect(missed).toEqual([]);
	});

	test('every hint built above comes from a site in source/', () => {
		for (const name of reached.keys()) {
			expect(scan.sites.map(({site}) => site), `${name} was built but no call in source/ names it`).toContain(name);
		}
	});
});
