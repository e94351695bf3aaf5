import {execFileSync} from 'node:child_process';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {parseKeyParts} from '../../source/config/cdp-key.js';
import type {Credential} from '../../source/config/credentials.js';
import {curlAuthOf, curlCommand} from '../../source/commands/browse/curl-command.js';
import {shellQuote} from '../../source/text/shell-quote.js';
import {Secret} from '../../source/text/secret.js';
import {leakedRun} from '../support/secret-runs.js';
import {generateKeyPairSync} from 'node:crypto';

const token = 'tok-VALUE-never-in-output';
const bearer: Credential = {kind: 'bearer', secret: new Secret(token), from: 'COINBASE_ACCESS_TOKEN'};
const apiKey: Credential = {kind: 'api-key', secret: new Secret(token), from: 'COINBASE_COMMERCE_API_KEY'};
const pem = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'sec1'}));
const cdpKey: Credential = {kind: 'cdp-key', key: parseKeyParts({name: 'organizations/o/apiKeys/k', privateKey: pem}), from: '--key-file \'k.json\''};
const accountHeaders = {accept: 'application/json', 'user-agent': 'pagewalk/1', 'CB-VERSION': '2018-03-22'};

/**
 * The words a POSIX shell makes of `command` (the last line; comment lines
 * before it), with `env` set: `curl` replaced by printf, so nothing is sent.
 */
function shellWords(command: string, env: Record<string, string> = {}): string[] {
	const line = command.split('\n').at(-1)!;
	expect(line.startsWith('curl ')).toBe(true);
	const output = execFileSync('sh', ['-c', `printf '%s\\0' ${line.slice('curl '.length)}`], {env: {PATH: process.env.PATH, ...env}, encoding: 'utf8'});
	return output.split('\0').slice(0, -1);
}

describe('curlAuthOf: the credential as a reference, never a value', () => {
	it('names the environment variable a token or API key came from', () => {
		expect(curlAuthOf(bearer, {demo: false})).toEqual({kind: 'variable', name: 'COINBASE_ACCESS_TOKEN'});
		expect(curlAuthOf(apiKey, {demo: false})).toEqual({kind: 'variable', name: 'COINBASE_COMMERCE_API_KEY'});
	});

	it('a CDP key needs a JWT; --demo and profiles get a stand-in variable with a note', () => {
		expect(curlAuthOf(cdpKey, {demo: false})).toEqual({kind: 'jwt', from: '--key-file \'k.json\''});
		const demo = curlAuthOf({...bearer, from: 'demo restricted token'}, {demo: true});
		expect(demo).toMatchObject({kind: 'variable', name: 'PAGEWALK_TOKEN'});
		expect(demo.kind === 'variable' && demo.note).toMatch(/--demo: the sandbox's demo restricted token is in no environment variable/);
		const profile = curlAuthOf(apiKey, {demo: false, profile: 'work'});
		expect(profile).toMatchObject({kind: 'variable', name: 'PAGEWALK_API_KEY'});
		expect(profile.kind === 'variable' && profile.note).toContain('profile work');
	});
});

describe('curlCommand', () => {
	it('no run of 8 of a credential in its comment lines or headers either', () => {
		const auth = {kind: 'variable', name: 'PAGEWALK_TOKEN', note: `set PAGEWALK_TOKEN to the token from ${token.slice(0, -4)} first.`} as const;
		const command = curlCommand('https://api.example.com/v2/accounts', {api: 'account', auth, headers: {'X-Trace': `t-${token.slice(3)}`}});
		expect(command).toContain('# set PAGEWALK_TOKEN to the token from [redacted] first.');
		expect(command).toContain('-H \'X-Trace: t-[redacted]\'');
		expect(leakedRun(command, [token])).toBeUndefined();
	});

	it('account API with a token: Authorization: Bearer $VARIABLE, the version header, the URL quoted', () => {
		const url = 'https://api.example.com/v2/accounts?limit=25&order=desc';
		const command = curlCommand(url, {api: 'account', auth: curlAuthOf(bearer, {demo: false}), headers: accountHeaders});
		expect(command).toBe(`curl -sS -g -H "Authorization: Bearer $COINBASE_ACCESS_TOKEN" -H 'CB-VERSION: 2018-03-22' '${url}'`);
		expect(command).not.toContain(token);
		expect(shellWords(command, {COINBASE_ACCESS_TOKEN: 'xyz'})).toEqual(['-sS', '-g', '-H', 'Authorization: Bearer xyz', '-H', 'CB-VERSION: 2018-03-22', url]);
	});

	it('commerce API with an API key: X-CC-Api-Key: $VARIABLE and X-CC-Version', () => {
		const command = curlCommand('https://api.commerce.example.com/checkouts', {api: 'commerce', auth: curlAuthOf(apiKey, {demo: false}), headers: {'X-CC-Version': '2018-03-22'}});
		expect(command).toBe('curl -sS -g -H "X-CC-Api-Key: $COINBASE_COMMERCE_API_KEY" -H \'X-CC-Version: 2018-03-22\' \'https://api.commerce.example.com/checkouts\'');
	});

	it('a CDP key: $JWT and one comment line naming the uri to sign (no query)', () => {
		const command = curlCommand('http://127.0.0.1:4010/v2/accounts?starting_after=abc&limit=5', {api: 'account', auth: curlAuthOf(cdpKey, {demo: false}), headers: accountHeaders});
		const lines = command.split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^# needs a JWT signed with the CDP key from --key-file 'k.json' for uri "GET 127.0.0.1:4010\/v2\/accounts" \(valid 2 minutes/);
		expect(lines[1]).toContain('-H "Authorization: Bearer $JWT"');
		expect(command).not.toContain(pem.split('\n')[1]!);
	});

	it('--demo says the sandbox credential has no variable', () => {
		const command = curlCommand('http://127.0.0.1:1/v2/accounts', {api: 'account', auth: curlAuthOf({...bearer, from: 'demo full token'}, {demo: true}), headers: {}});
		expect(command.split('\n')[0]).toMatch(/^# --demo: the sandbox's demo full token is in no environment variable/);
		expect(command).toContain('$PAGEWALK_TOKEN');
	});

	it('leaves out headers whose name may hold a secret, saying so; quotes the others', () => {
		const command = curlCommand('http://h/x', {api: 'account', auth: {kind: 'variable', name: 'T'}, headers: {'X-Session-Token': 'secret-value', 'X-Note': 'it\'s $HOME'}});
		expect(command).not.toContain('secret-value');
		expect(command).toContain('# header X-Session-Token left out');
		expect(shellWords(command, {T: 't', HOME: '/root'})).toContain('X-Note: it\'s $HOME');
	});

	it('a hostile URL never breaks out of its quotes: the shell reads back the exact URL', () => {
		for (const path of ['a\'b', '$(touch /tmp/pwned)', '`id`', 'x";echo 1;"', String.raw`\'`, '$HOME', 'a b', '[1-2]{x,y}']) {
			const url = new URL(`http://127.0.0.1:9/v2/${path}?starting_after=${path}`).href;
			const words = shellWords(curlCommand(url, {api: 'account', auth: {kind: 'variable', name: 'T'}, headers: {}}), {T: 't'});
			expect(words.at(-1)).toBe(url);
		}
	});

	it('any string survives shellQuote unchanged (property)', () => {
		fc.assert(
			fc.property(fc.string({unit: 'grapheme-ascii', maxLength: 40}).filter(text => !text.includes('\0')), text => {
				const output = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(text)}`], {encoding: 'utf8'});
				expect(output).toBe(text);
			}),
			{numRuns: 40},
		);
	});

	it('a comment line cannot be ended by a line break in a name', () => {
		const command = curlCommand('http://h/x', {api: 'account', auth: {kind: 'jwt', from: 'x\ncurl evil'}, headers: {}});
		expect(command.split('\n')).toHaveLength(2);
	});
});
