/** Each --json output, from the built CLI, against its documented schema (docs/json-outputs.md). */
import {execFile, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {createInterface} from 'node:readline';
import {promisify} from 'node:util';
import {describe, expect, it} from 'vitest';
import {unsupportedKeywords, validate, type Schema} from '../audit/json-schema.js';
import {scenarioNames} from '../../source/sandbox/scenarios/scenario-names.js';

const run = promisify(execFile);
const cli = path.resolve('dist/cli.js');
const schemaOf = (name: string) => JSON.parse(readFileSync(path.resolve('docs/schemas', `${name}.schema.json`), 'utf8')) as Schema;

describe('--json outputs match their schemas', () => {
	it('the schemas use only keywords the validator checks', () => {
		expect(unsupportedKeywords(schemaOf('serve'))).toEqual([]);
		expect(unsupportedKeywords(schemaOf('profiles'))).toEqual([]);
	});

	it.each([[[]], [['--latency', '80±20/0.5', '--rate-limit', '5/s', '--scenario', 'duplicate']]])('serve --json %j', async (flags) => {
		const child = spawn(process.execPath, [cli, 'serve', '--json', '--port', '0', '--records', '5', ...flags], {stdio: ['ignore', 'pipe', 'ignore']});
		const line = await new Promise<string>((resolve) => {
			createInterface({input: child.stdout!}).once('line', resolve);
		});
		const closed = new Promise(resolve => {
			child.on('close', resolve);
		});
		child.kill('SIGTERM');
		await closed;
		expect(validate(schemaOf('serve'), JSON.parse(line))).toEqual([]);
	});

	it('the serve schema names every scenario the sandbox has', () => {
		const settings = schemaOf('serve').properties!['settings']!;
		expect(settings.properties!['scenario']!.enum).toEqual([...scenarioNames]);
	});

	it('profiles --json, with each kind of source', async () => {
		const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-json-'));
		try {
			const config = path.join(directory, 'config.json');
			writeFileSync(config, JSON.stringify({default: 'a', profiles: {
				a: {base_url: 'https://a.example', account: {env: 'A_TOKEN'}, commerce: {command: ['op', 'read', 'x']}},
				b: {account: {key_file: '~/k.json'}},
			}}));
			const {stdout} = await run(process.execPath, [cli, 'profiles', '--json'], {env: {...process.env, PAGEWALK_CONFIG: config, A_TOKEN: 'secret'}});
			const document = JSON.parse(stdout) as unknown;
			expect(validate(schemaOf('profiles'), document)).toEqual([]);
			expect(stdout).not.toContain('secret');
		} finally {
			rmSync(directory, {recursive: true, force: true});
		}
	});
});
