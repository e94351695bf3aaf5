import {generateKeyPairSync} from 'node:crypto';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {Writable} from 'node:stream';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {openConfig} from '../../source/commands/demo.js';
import {loadProfiles, readProfileCredential} from '../../source/commands/profile-config.js';
import {listProfiles} from '../../source/commands/profiles.js';
import {UsageError} from '../../source/text/errors.js';
import {firstPageUrl, type WalkFlagValues} from '../../source/config/options.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {validate} from '../audit/json-schema.js';
import {auditInProcess, auditJson, prepareCli, runCli, schema} from '../audit/run-audit.js';
import {compareProfileCredential} from '../../source/commands/profile-config.js';
import type {Credential} from '../../source/config/credentials.js';

/** The credential as its header carries it: `Bearer <token>` for the account API, the key for the commerce API. */
function headerValue(credential: Credential): string {
	if (credential.kind === 'cdp-key') {
		return `key ${credential.key.name}`;
	}

	return credential.kind === 'bearer' ? `Bearer ${credential.secret.reveal()}` : credential.secret.reveal();
}

class Capture extends Writable {
	text = '';
	override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
		this.text += chunk.toString();
		callback();
	}
}

/** A credential command: a node one-liner, run without a shell. */
function node(script: string): string[] {
	return [process.execPath, '-e', script];
}

function prints(text: string): string[] {
	return node(`process.stdout.write(${JSON.stringify(text)})`);
}

const failing = node('process.exit(1)');
const canaryEnv = 'CANARY-env-value-7d2b91';
const canaryOutput = 'CANARY-command-output-c41f08';
const canaryArgument = 'CANARY-argument-e93a55';

let directory: string;

beforeAll(() => {
	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-profiles-'));
});

afterAll(() => {
	rmSync(directory, {recursive: true, force: true});
});

let files = 0;
/** Writes a config file and returns the environment that points at it. */
function configFile(config: unknown): {PAGEWALK_CONFIG: string} {
	const file = path.join(directory, `config-${++files}.json`);
	writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, '\t'));
	return {PAGEWALK_CONFIG: file};
}

async function open(input: string[], flags: WalkFlagValues, env: Record<string, string | undefined>) {
	return openConfig({input, flags, env, profiles: {commandTimeoutMs: 20_000}});
}

async function usage(input: string[], flags: WalkFlagValues, env: Record<string, string | undefined>): Promise<string> {
	const promise = open(input, flags, env);
	await expect(promise).rejects.toBeInstanceOf(UsageError);
	return promise.then(() => '', (error: unknown) => (error as Error).message);
}

describe('resolution order', () => {
	const profiles = {
		default: 'home',
		profiles: {
			home: {
				base_url: 'http://127.0.0.1:9/home',
				commerce_url: 'http://127.0.0.2:9/',
				api_version: '2020-01-01',
				account: {env: 'HOME_TOKEN'},
				// Never run below: only the API in use has its credential read.
				commerce: {command: failing},
			},
			shop: {
				account: {command: failing},
				// Not a word such as "commerce": every run of 8 characters of a credential is redacted, in this process's later output too.
				commerce: {command: prints('  cmrc-key-from-cmd\n')},
			},
		},
	};

	test('a config file that starts with a UTF-8 byte order mark is read as if it had none', async () => {
		const env = {...configFile(`\uFEFF${JSON.stringify(profiles, null, '\t')}`), HOME_TOKEN: 'home-token'};
		const config = await open([], {profile: 'home'}, env);
		expect(config.profile).toBe('home');
		expect(firstPageUrl(config)).toBe('http://127.0.0.1:9/home/v2/accounts');
		expect(headerValue(config.credential)).toBe('Bearer home-token');
	});

	test('a profile gives the bases, the version and the credential; the shell\'s variables step aside', async () => {
		const env = {...configFile(profiles), HOME_TOKEN: 'home-token', COINBASE_ACCESS_TOKEN: 'shell-token', PAGEWALK_BASE_URL: 'https://shell.example'};
		const config = await open([], {profile: 'home'}, env);
		expect(config.profile).toBe('home');
		expect(firstPageUrl(config)).toBe('http://127.0.0.1:9/home/v2/accounts');
		expect(headerValue(config.credential)).toBe('Bearer home-token');
		expect(config.headers['CB-VERSION']).toBe('2020-01-01');
	});

	test('flags beat the profile', async () => {
		const env = {...configFile(profiles), HOME_TOKEN: 'home-token'};
		const config = await open([], {profile: 'home', baseUrl: 'http://127.0.0.3:7', apiVersion: '2019-05-05'}, env);
		expect(firstPageUrl(config)).toBe('http://127.0.0.3:7/v2/accounts');
		expect(config.headers['CB-VERSION']).toBe('2019-05-05');
		expect(headerValue(config.credential)).toBe('Bearer home-token');
	});

	test('PAGEWALK_PROFILE picks a profile; --profile beats it', async () => {
		const env = {...configFile(profiles), HOME_TOKEN: 'home-token', PAGEWALK_PROFILE: 'shop'};
		expect(headerValue((await open(['checkouts'], {}, env)).credential)).toBe('cmrc-key-from-cmd');
		expect((await open([], {profile: 'home'}, env)).profile).toBe('home');
	});

	test('the default profile applies when nothing else is given, and steps aside for a credential variable', async () => {
		const file = configFile(profiles);
		const byDefault = await open([], {}, {...file, HOME_TOKEN: 'home-token'});
		expect(byDefault.profile).toBe('home');
		expect(firstPageUrl(byDefault)).toBe('http://127.0.0.1:9/home/v2/accounts');
		const ambient = await open([], {}, {...file, HOME_TOKEN: 'home-token', COINBASE_ACCESS_TOKEN: 'shell-token'});
		expect(ambient.profile).toBeUndefined();
		expect(headerValue(ambient.credential)).toBe('Bearer shell-token');
		expect(firstPageUrl(ambient)).toBe('https://api.coinbase.com/v2/accounts');
	});

	test('no profile and no config file: the environment, then the defaults, as before', async () => {
		const config = await open([], {}, {HOME: path.join(directory, 'nobody'), COINBASE_ACCESS_TOKEN: 'shell-token', PAGEWALK_BASE_URL: 'https://shell.example'});
		expect(config.profile).toBeUndefined();
		expect(firstPageUrl(config)).toBe('https://shell.example/v2/accounts');
	});

	test('the config file is found under XDG_CONFIG_HOME, then HOME', async () => {
		const xdg = path.join(directory, 'xdg');
		const home = path.join(directory, 'home');
		mkdirSync(path.join(xdg, 'pagewalk'), {recursive: true});
		mkdirSync(path.join(home, '.config', 'pagewalk'), {recursive: true});
		writeFileSync(path.join(xdg, 'pagewalk', 'config.json'), JSON.stringify({profiles: {x: {account: {env: 'T'}}}}));
		writeFileSync(path.join(home, '.config', 'pagewalk', 'config.json'), JSON.stringify({profiles: {h: {account: {env: 'T'}}}}));
		const names = (env: Record<string, string>) => loadProfiles(env, {platform: 'linux'}).config?.profiles.map((profile) => profile.name);
		expect(names({XDG_CONFIG_HOME: xdg, HOME: home})).toEqual(['x']);
		expect(names({HOME: home})).toEqual(['h']);
		expect(names({HOME: path.join(directory, 'nobody')})).toBeUndefined();
		expect(headerValue((await open([], {profile: 'x'}, {XDG_CONFIG_HOME: xdg, T: 'tok-xdg'})).credential)).toBe('Bearer tok-xdg');
	});

	test('only the credential of the API in use is read: the other command never runs', async () => {
		const env = {...configFile(profiles), HOME_TOKEN: 'home-token'};
		// home's commerce command fails; walking accounts never runs it.
		await expect(open([], {profile: 'home'}, env)).resolves.toMatchObject({api: 'account'});
		expect(await usage(['checkouts'], {profile: 'home'}, env)).toMatch(/^The credential command 'node' of profile 'home' \('.*' line \d+\) exited with status 1/);
	});

	test('a wrong flag is reported before any credential command runs', async () => {
		const env = configFile(profiles);
		expect(await usage(['checkouts'], {profile: 'home', limit: '500'}, env)).toMatch(/^--limit/);
	});

	test('each problem is one sentence, exit 2', async () => {
		const file = configFile(profiles);
		expect(await usage([], {profile: 'nope'}, file)).toMatch(/^--profile 'nope' is not a profile in '.*'; it defines home, shop\.$/);
		expect(await usage([], {profile: 'home'}, file)).toMatch(/^The profile 'home' \('.*' line \d+\) takes its account credential from HOME_TOKEN, which is not set/);
		expect(await usage([], {profile: 'home', demo: true}, file)).toMatch(/cannot be combined with --profile/);
		expect(await usage([], {}, {PAGEWALK_CONFIG: path.join(directory, 'missing.json')})).toMatch(/^PAGEWALK_CONFIG names '.*missing\.json', which does not exist/);
		const partial = configFile({profiles: {p: {account: {env: 'T'}}}});
		expect(await usage(['checkouts'], {profile: 'p'}, {...partial, T: 't'})).toMatch(/^The profile 'p' .* gives no commerce credential; add "commerce"/);
		const malformed = configFile('{\n\t"profiles": {\n\t\t"p": {"acount": {"env": "T"}}\n\t}\n}\n');
		expect(await usage([], {}, malformed)).toMatch(/^In the config file '.*', line 3 has an unknown key "acount"/);
		const multiline = configFile({profiles: {p: {account: {command: prints('one\ntwo')}}}});
		expect(await usage([], {profile: 'p'}, multiline)).toMatch(/holds a line break or control character/);
	});

	test('a command that prints a CDP key file gives a key, checked and named by the profile', async () => {
		const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'});
		const pem = privateKey.export({type: 'pkcs8', format: 'pem'}).toString();
		const env = configFile({profiles: {
			k: {account: {command: prints(JSON.stringify({name: 'organizations/o/apiKeys/k', privateKey: pem}))}},
			bad: {account: {command: prints(JSON.stringify({name: 'n', privateKey: 'not a key'}))}},
			odd: {account: {command: prints('{"privateKey": 1}')}},
		}});
		const {config} = loadProfiles(env);
		const [k, bad, odd] = config!.profiles;
		await expect(readProfileCredential(config!, k!, 'account', env)).resolves.toEqual({kind: 'key-parts', name: 'organizations/o/apiKeys/k', privateKey: pem});
		await expect(readProfileCredential(config!, bad!, 'account', env)).rejects.toThrow(/the output of the credential command of the profile 'bad'/);
		await expect(readProfileCredential(config!, odd!, 'account', env)).rejects.toThrow(/starts like a key file but is not a JSON object with "name"/);
		// For the commerce API the same text is a token.
		expect((await readProfileCredential(config!, {...k!, credentials: {commerce: k!.credentials.account!}}, 'commerce', env)).kind).toBe('token');
	});

	test('a key file path is handed on with ~ expanded', async () => {
		const env = {...configFile({profiles: {k: {account: {key_file: '~/keys/cdp.json'}}}}), HOME: '/home/u'};
		const {config} = loadProfiles(env);
		await expect(readProfileCredential(config!, config!.profiles[0]!, 'account', env)).resolves.toEqual({kind: 'key-file', path: '/home/u/keys/cdp.json'});
	});
});

describe('pagewalk profiles', () => {
	const config = {
		default: 'work',
		profiles: {
			work: {base_url: 'https://api.coinbase.com', account: {env: 'WORK_TOKEN'}, commerce: {command: [...prints(canaryOutput), canaryArgument]}},
			other: {account: {key_file: '~/keys/cdp.json'}},
		},
	};

	async function list(argv: string[], env: Record<string, string | undefined>): Promise<string> {
		const stdout = new Capture();
		expect(await listProfiles(argv, {stdout, stderr: new Capture(), env})).toBe(0);
		return stdout.text;
	}

	test('lists every profile with its sources, never a value, and runs nothing', async () => {
		const env = {...configFile(config), WORK_TOKEN: canaryEnv};
		const text = await list([], env);
		expect(text).toContain('* work (default; in use)');
		expect(text).toMatch(/account {7}environment variable WORK_TOKEN \(set\)/);
		expect(text).toMatch(/commerce {6}command node \(3 arguments, not run\)/);
		expect(text).toMatch(/other\n {4}base-url {6}https:\/\/api\.coinbase\.com \(default\)/);
		expect(text).toContain('key file ~/keys/cdp.json');
		for (const canary of [canaryEnv, canaryOutput, canaryArgument]) {
			expect(text).not.toContain(canary);
		}
	});

	test('--json too, with the same secrets left out', async () => {
		const env = {...configFile(config), WORK_TOKEN: canaryEnv, PAGEWALK_PROFILE: 'other'};
		const text = await list(['--json'], env);
		const document = JSON.parse(text) as {inUse: unknown; profiles: Array<{name: string; credentials: Record<string, unknown>}>};
		expect(document.inUse).toEqual({name: 'other', how: 'PAGEWALK_PROFILE'});
		expect(document.profiles[0]!.credentials).toEqual({
			account: {source: 'env', name: 'WORK_TOKEN', set: true},
			commerce: {source: 'command', program: 'node', arguments: 3},
		});
		for (const canary of [canaryEnv, canaryOutput, canaryArgument]) {
			expect(text).not.toContain(canary);
		}
	});

	test('no config file is no profiles, and says where it would be', async () => {
		expect(await list([], {HOME: '/nowhere'})).toBe('No profiles: there is no config file at /nowhere/.config/pagewalk/config.json (see pagewalk profiles --help for its format).\n');
	});

	test('a malformed file is its one sentence', async () => {
		const env = configFile('{"profiles": {\n"a": {"account": {"env": "X"}},\n}}');
		await expect(listProfiles([], {stdout: new Capture(), stderr: new Capture(), env})).rejects.toThrow(/line 3 is not valid JSON \(a comma before '}'/);
	});
});

describe('--compare-profile in the audit, against the sandbox', () => {
	let sandbox: Sandbox;
	let env: Record<string, string>;

	beforeAll(async () => {
		sandbox = await startSandbox({port: 0, records: 120, seed: 11});
		const bases = {base_url: sandbox.accountUrl, commerce_url: sandbox.commerceUrl};
		env = {
			...configFile({profiles: {
				full: {...bases, account: {env: 'FULL_TOKEN'}, commerce: {command: prints(sandbox.credentials.commerce.full)}},
				restricted: {...bases, account: {command: prints(sandbox.credentials.account.restricted)}, commerce: {env: 'RESTRICTED_KEY'}},
				elsewhere: {account: {env: 'FULL_TOKEN'}},
				'restricted-key': {...bases, account: {key_file: sandbox.keys.find(key => key.viewer === 'restricted' && key.algorithm === 'ES256')!.path}},
			}}),
			FULL_TOKEN: sandbox.credentials.account.full,
			RESTRICTED_KEY: sandbox.credentials.commerce.restricted,
			NO_COLOR: '1',
		};
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	test.each([['accounts', 'account'], ['checkouts', 'commerce']] as const)('%s: full against restricted, ids the restricted profile does not see', async (endpoint, api) => {
		const {report, stdout} = await auditJson([endpoint, '--profile', 'full', '--compare-profile', 'restricted', '--limit', '10'], env);
		expect(validate(schema, report)).toEqual([]);
		expect(report.result).toBe('passed');
		const [comparison] = report.comparisons;
		expect(comparison).toMatchObject({a: 'desc, profile full', b: 'desc, profile restricted', onlyB: []});
		expect(comparison!.onlyA).toEqual(sandbox.store.hiddenIds(endpoint));
		expect(comparison!.onlyA.length).toBeGreaterThan(0);
		for (const secret of Object.values(sandbox.credentials[api])) {
			expect(stdout).not.toContain(secret);
		}
	});

	test('a compare profile holding a CDP key file signs its own JWTs: the same ids hidden as its token', async () => {
		const {report, stdout} = await auditJson(['accounts', '--profile', 'full', '--compare-profile', 'restricted-key', '--limit', '10'], env);
		expect(report.result).toBe('passed');
		const [comparison] = report.comparisons;
		expect(comparison).toMatchObject({a: 'desc, profile full', b: 'desc, profile restricted-key', onlyB: []});
		expect(comparison!.onlyA).toEqual(sandbox.store.hiddenIds('accounts'));
		expect(stdout).not.toContain('eyJ');
	});

	test('a compare profile for another origin, an unknown one, or both compare flags: one sentence, exit 2', async () => {
		const elsewhere = await auditInProcess(['accounts', '--profile', 'full', '--compare-profile', 'elsewhere'], env);
		expect(elsewhere).toMatchObject({code: 2, stdout: ''});
		expect(elsewhere.stderr).toMatch(/^pagewalk: The profile 'elsewhere' \(.*\) is for https:\/\/api\.coinbase\.com, not http:\/\/127\.0\.0\.1:\d+ in use; a compare sends both credentials to the same API, so name a profile with the same base\.$/m);
		const unknown = await auditInProcess(['accounts', '--profile', 'full', '--compare-profile', 'nope'], env);
		expect(unknown.stderr).toMatch(/^pagewalk: --compare-profile 'nope' is not a profile in/);
		const both = await auditInProcess(['accounts', '--profile', 'full', '--compare-profile', 'restricted', '--compare-env', 'FULL_TOKEN'], env);
		expect(both).toMatchObject({code: 2, stderr: 'pagewalk: Give --compare-env or --compare-profile, not both: an audit compares two credentials.\n'});
		for (const result of [elsewhere, unknown, both]) {
			expect(result.stderr).not.toContain(sandbox.credentials.account.full);
		}
	});
});

describe('the built CLI', () => {
	beforeAll(() => {
		prepareCli();
	});

	test('pagewalk profiles, and a walk with a profile that is wrong: one line on stderr, exit 2, nothing on stdout', async () => {
		const missing = {PAGEWALK_CONFIG: path.join(directory, 'missing.json')};
		const listed = await runCli(['profiles'], missing);
		expect(listed).toMatchObject({code: 2, stdout: ''});
		expect(listed.stderr).toMatch(/^pagewalk: PAGEWALK_CONFIG names '.*missing\.json', which does not exist; create it or unset PAGEWALK_CONFIG\.\n$/);
		const malformed = configFile('{\n"profiles": {\n"p": {"account": {"command": "op read x"}}\n}\n}');
		for (const argv of [['profiles'], ['dump', '--profile', 'p'], ['--profile', 'p']]) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const result = await runCli(argv, malformed);
			expect(result).toMatchObject({code: 2, stdout: ''});
			expect(result.stderr).toMatch(/^pagewalk: In the config file '.*', line 3 needs "command" to be a non-empty list of strings[^\n]*\n$/);
		}

		const listedOk = await runCli(['profiles', '--json'], configFile({profiles: {p: {account: {env: 'T'}}}}));
		expect(listedOk.code).toBe(0);
		expect(JSON.parse(listedOk.stdout)).toMatchObject({profiles: [{name: 'p', credentials: {account: {source: 'env', name: 'T', set: false}}}]});
	});
});

describe('--compare-profile with --demo', () => {
	test('the audit refuses it before anything starts', async () => {
		const result = await auditInProcess(['--demo', '--compare-profile', 'x'], {});
		expect(result).toMatchObject({code: 2, stdout: ''});
		expect(result.stderr).toMatch(/^pagewalk: --compare-profile cannot be used with --demo/);
	});

	test('is refused: the sandbox knows only its own credentials', async () => {
		const config = await openConfig({input: [], flags: {demo: true}, env: {}});
		try {
			await expect(compareProfileCredential('x', config, {})).rejects.toThrow(/--compare-profile cannot be used with --demo/);
		} finally {
			await config.close();
		}
	});
});
