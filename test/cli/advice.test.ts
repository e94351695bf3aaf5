/**
 * Advice that follows from the cause: asking again is offered only where it
 * may help, and a check skipped because no page was read says so.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {auditInProcess} from '../audit/run-audit.js';
import {dumpInProcess} from '../support/run-dump.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 10});
});
afterAll(async () => {
	await sandbox.close();
});

describe('dump, when nothing was written', () => {
	it('after a 401 or a 404: the message\'s own fix, no "run the same command again"', async () => {
		const refused = await dumpInProcess(['accounts', '--base-url', sandbox.accountUrl], {COINBASE_ACCESS_TOKEN: 'not-a-sandbox-token'});
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/rejected the credential \(401 invalid_token/);
		expect(refused.stderr).toMatch(/\npagewalk: no objects were written\.\n$/);
		const missing = await dumpInProcess(['/v2/accounts/nope/deposits', '--base-url', sandbox.accountUrl], {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full});
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/has no such list \(404 not_found/);
		expect(missing.stderr).not.toMatch(/run the same command again/);
	});

	it('after a dead server: asking again may help, and is offered', async () => {
		const dead = await dumpInProcess(['accounts', '--base-url', 'http://127.0.0.1:1', '--retries', '0'], {COINBASE_ACCESS_TOKEN: 'token'});
		expect(dead.code).toBe(1);
		expect(dead.stderr).toMatch(/no objects were written; run the same command again to retry\.\n$/);
	});
});

describe('audit against a dead server', () => {
	it('says its checks were skipped because no page was read, not that they are for the other API', async () => {
		const {stdout} = await auditInProcess(['accounts', '--base-url', 'http://127.0.0.1:1', '--retries', '0'], {COINBASE_ACCESS_TOKEN: 'token'});
		const skipped = stdout.split('\n').filter(line => line.includes('skipped'));
		expect(skipped.length).toBeGreaterThan(0);
		expect(skipped.every(line => line.endsWith('skipped, no page was read'))).toBe(true);
		expect(stdout).not.toContain('commerce API only');
	});
});
