/**
 * dump runs the browser's per-page contract checks and says what it finds on
 * stderr: each kind once, then a count; --quiet silences them; the exit
 * status tells findings only with --fail-on-findings. Against the sandbox's
 * faulty scenarios over real HTTP.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {dumpInProcess} from '../support/run-dump.js';

let duplicate: Sandbox;
let clean: Sandbox;
beforeAll(async () => {
	[duplicate, clean] = await Promise.all([startSandbox({records: 200, scenario: 'duplicate'}), startSandbox({records: 200})]);
});
afterAll(async () => {
	await Promise.all([duplicate.close(), clean.close()]);
});

const env = (sandbox: Sandbox) => ({COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full});
const args = (sandbox: Sandbox, ...more: string[]) => ['accounts', '--all', '--base-url', sandbox.accountUrl, ...more];

describe('dump --all against serve --scenario duplicate', () => {
	it('writes every object as sent and says on stderr that an id came back, once per kind, with a count at the end; exit 0', async () => {
		const {code, stdout, stderr} = await dumpInProcess(args(duplicate), env(duplicate));
		expect(code).toBe(0);
		const ids = stdout.trimEnd().split('\n').map(line => (JSON.parse(line) as {id: string}).id);
		expect(new Set(ids).size).toBe(ids.length - 1);
		const lines = stderr.trimEnd().split('\n');
		const repeated = lines.filter(line => line.startsWith('pagewalk: contract: ') && line.includes('was already on page'));
		expect(repeated).toHaveLength(1);
		expect(repeated[0]).toMatch(/^pagewalk: contract: page 2: id \S+ .*was already on page 1/);
		expect(lines.at(-1)).toMatch(/^pagewalk: contract findings in \d+ pages: .*unique-ids 1.* \(each kind told once above; pagewalk audit accounts --base-url=\S+ reports the whole walk\)\.$/);
	});

	it('--quiet: nothing about findings; --fail-on-findings: exit 1', async () => {
		const quiet = await dumpInProcess(args(duplicate, '--quiet'), env(duplicate));
		expect(quiet.code).toBe(0);
		expect(quiet.stderr).not.toMatch(/contract/);
		const failing = await dumpInProcess(args(duplicate, '--fail-on-findings', '--quiet'), env(duplicate));
		expect(failing.code).toBe(1);
		expect(failing.stdout).toBe(quiet.stdout);
	});

	it('--quiet with --fail-on-findings: exit 1 and the one closing count that says why (it was exit 1 and nothing said)', async () => {
		const failing = await dumpInProcess(args(duplicate, '--fail-on-findings', '--quiet'), env(duplicate));
		expect(failing.code).toBe(1);
		const lines = failing.stderr.trimEnd().split('\n');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/^pagewalk: contract findings in \d+ pages: .*unique-ids 1.* \(--quiet left each one out; pagewalk audit accounts --base-url=http:\/\/127\.0\.0\.1:\d+ reports the whole walk\)\.$/);
	});

	it('a clean list: no finding, no line, exit 0 even with --fail-on-findings', async () => {
		const {code, stderr} = await dumpInProcess(args(clean, '--fail-on-findings'), env(clean));
		expect(code).toBe(0);
		expect(stderr).toBe('');
	});
});
