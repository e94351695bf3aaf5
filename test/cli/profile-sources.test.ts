/**
 * A profile's credential is named after its source in the profile (its
 * variable, key file or program) in the three places a user reads it: the
 * 401's advice, the debug view's credential line, and the curl copy; never
 * as the COINBASE_* variable it used to be passed through.
 */
import {generateKeyPairSync} from 'node:crypto';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {curlBuilder} from '../../source/commands/browse/copy-save.js';
import {openConfig} from '../../source/commands/setup/demo.js';
import {debugLines} from '../../source/browser/view/debug-lines.js';
import {initialState, pageStackReducer} from '../../source/browser/stack/page-stack.js';
import {createClient} from '../../source/http/http-client.js';
import {describeCredential} from '../../source/config/credentials.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {dumpInProcess} from '../support/run-dump.js';

let sandbox: Sandbox;
let directory: string;
beforeAll(async () => {
	sandbox = await startSandbox({records: 10});
	directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-profile-sources-'));
});
afterAll(async () => {
	await sandbox.close();
	rmSync(directory, {recursive: true, force: true});
});

/** A key the sandbox never issued, in a key file: its JWTs are refused with a 401. */
function strangerKeyFile(): string {
	const file = path.join(directory, 'stranger.json');
	const privateKey = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'sec1'}));
	writeFileSync(file, JSON.stringify({name: 'organizations/x/apiKeys/stranger', privateKey}), {mode: 0o600});
	return file;
}

type Case = {account: Record<string, unknown>; env: Record<string, string>; from: string; advice: RegExp; curl: RegExp};

const escaped = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The profile's account source of each kind, with a credential the sandbox takes (good) or refuses. */
function sourceOf(kind: string, good: boolean): Case {
	// No run of 8 characters in common with the paths and words around it (the key files' "sandbox-"): every such run of a credential is redacted.
	const token = good ? sandbox.credentials.account.full : 'nx-tok-5b0e9d2c41a7';
	switch (kind) {
		case 'env': {
			return {
				account: {env: 'SBX_TOKEN'},
				env: {SBX_TOKEN: token},
				from: 'bearer token from SBX_TOKEN (named by profile \'sbx\')',
				advice: /; set SBX_TOKEN \(named by profile 'sbx'\) to a valid access token\./,
				curl: /-H "Authorization: Bearer \$SBX_TOKEN"/,
			};
		}

		case 'key_file': {
			const key = good ? sandbox.keys.find(candidate => candidate.algorithm === 'ES256' && candidate.viewer === 'full')!.path! : strangerKeyFile();
			return {
				account: {key_file: key},
				env: {},
				from: `CDP key ES256 from the key file '${key}' of profile 'sbx'`,
				advice: new RegExp(`check that the CDP key from the key file '${escaped(key)}' of profile 'sbx' is active`),
				curl: new RegExp(`^# needs a JWT signed with the CDP key from the key file '${escaped(key)}' of profile 'sbx' for uri`),
			};
		}

		default: {
			return {
				account: {command: [process.execPath, '-e', `process.stdout.write(${JSON.stringify(token)})`]},
				env: {},
				from: `bearer token from the command of profile 'sbx' (${process.execPath})`,
				advice: new RegExp(`; make the command of profile 'sbx' \\(${escaped(process.execPath)}\\) print a valid access token\\.`),
				curl: /^# set PAGEWALK_TOKEN to the token of profile sbx first/,
			};
		}
	}
}

describe.each(['env', 'key_file', 'command'])('a %s profile', (kind) => {
	const setUp = (good: boolean) => {
		const found = sourceOf(kind, good);
		const file = path.join(directory, `${kind}-${good}.json`);
		writeFileSync(file, JSON.stringify({profiles: {sbx: {base_url: sandbox.accountUrl, account: found.account}}}));
		return {found, env: {PAGEWALK_CONFIG: file, HOME: directory, ...found.env}};
	};

	test('the 401 names the profile\'s source and advises on it, not COINBASE_*', async () => {
		const {found, env} = setUp(false);
		const {code, stderr} = await dumpInProcess(['accounts', '--profile', 'sbx'], env);
		expect(code).toBe(1);
		expect(stderr).toMatch(found.advice);
		expect(stderr).not.toMatch(/COINBASE_/);
	});

	test('the debug view\'s credential line and the curl copy name it too', async () => {
		const {found, env} = setUp(true);
		const config = await openConfig({input: ['accounts'], flags: {profile: 'sbx'}, env});
		expect(describeCredential(config.credential)).toBe(found.from);
		const client = createClient(config);
		try {
			const page = await client.fetchPage(client.firstUrl);
			const state = pageStackReducer(initialState({startUrl: client.firstUrl, settings: {order: 'desc', limit: 25}}), {type: 'loaded', requestId: 1, page});
			expect(debugLines(state)).toContain(`credential: ${found.from}`);
		} finally {
			await client.close();
		}

		const curl = curlBuilder(config, env)(`${sandbox.accountUrl}/v2/accounts`);
		expect(curl).toMatch(found.curl);
		expect(curl).not.toMatch(/COINBASE_/);
	});
});
