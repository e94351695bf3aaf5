/**
 * A server that echoes pieces of the credential (cut at either end or both,
 * a JWT's parts, JSON-escaped, percent-encoded; the echo-runs faults) gets
 * no run of 8 of its characters printed: not by dump on stderr, not in
 * audit's JSON report, for an access token, a commerce API key and a CDP key
 * (whose every JWT the server saw, and whose private key, count too).
 */
import {afterAll, beforeAll, beforeEach, describe, expect, test} from 'vitest';
import {auditInProcess} from '../audit/run-audit.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {canary, canaryEnv, dumpInProcess, writeCanaryKeyFile} from '../support/run-dump.js';
import {leakedRun} from '../support/secret-runs.js';

let faulty: FaultyServer;

beforeAll(async () => {
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty.close();
});

beforeEach(() => {
	faulty.reset();
});

/** Every credential value the server received: the token or key, or each JWT. */
function sentSecrets(): string[] {
	return faulty.received.flatMap(request => [request.authorization?.replace(/^Bearer /, ''), request.apiKey]).filter((value): value is string => value !== undefined);
}

const targets = {
	token: {fault: 'echo-runs', endpoint: 'accounts', flag: '--base-url'},
	'commerce API key': {fault: 'echo-runs-commerce', endpoint: 'checkouts', flag: '--commerce-url'},
	'CDP key': {fault: 'echo-runs', endpoint: 'accounts', flag: '--base-url'},
} as const;

describe('echoed runs of the credential', () => {
	for (const [name, target] of Object.entries(targets)) {
		test(`${name}: dump's stderr and audit --json hold no run of 8 of it`, async () => {
			const key = name === 'CDP key' ? writeCanaryKeyFile() : undefined;
			const argv = [target.endpoint, `${target.flag}=${faulty.base(target.fault)}`, ...(key ? ['--key-file', key.path] : [])];
			const dump = await dumpInProcess([...argv, '--all', '--one-chain', '--quiet']);
			const audit = await auditInProcess([...argv, '--json'], canaryEnv);
			const secrets = [canary, ...sentSecrets(), ...(key?.keyLines ?? [])];
			expect(secrets.length).toBeGreaterThan(key ? 5 : 1);

			expect(dump.code).toBe(1);
			expect(dump.stderr).toMatch(/rejected the credential \(401 \w+: Not valid: \[redacted\] \| \[redacted\]/);
			expect(dump.stderr).toContain('the server warns: echo_0: You sent [redacted]');
			expect(leakedRun(dump.stderr + dump.stdout, secrets)).toBeUndefined();

			// Still one valid JSON document, which quotes the server's words with the runs redacted.
			const report = JSON.parse(audit.stdout) as unknown;
			expect(audit.stdout).toContain('[redacted]');
			expect(leakedRun(audit.stdout, secrets)).toBeUndefined();
			expect(leakedRun(JSON.stringify(report), secrets)).toBeUndefined();
			expect(leakedRun(audit.stderr, secrets)).toBeUndefined();
		});
	}
});
