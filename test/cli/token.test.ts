/**
 * `pagewalk token` against the real sandbox: the JWT it prints for a CDP key
 * is accepted for the request it names and no other; a token credential is
 * printed as it is; the secret goes to stdout only.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeJwtClaims} from '../../source/config/jwt-sign.js';
import {runToken} from '../../source/commands/token/token.js';
import {PagewalkError} from '../../source/text/errors.js';
import {describeError} from '../../source/text/report-error.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {testIo} from '../support/test-io.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 10});
});
afterAll(async () => {
	await sandbox.close();
});

async function token(argv: string[], env: Record<string, string | undefined> = {}) {
	const io = testIo({env: {HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent', ...env}});
	const code = await runToken(argv, io);
	return {code, stdout: io.stdout.text, stderr: io.stderr.text};
}

async function status(url: string, bearer: string): Promise<number> {
	const response = await fetch(url, {headers: {authorization: `Bearer ${bearer}`}});
	await response.text();
	return response.status;
}

describe('pagewalk token', () => {
	it.each(['ES256', 'EdDSA'] as const)('%s key file: a JWT for GET host/path, good for that request once, refused for another path', async (algorithm) => {
		const key = sandbox.keys.find((candidate) => candidate.algorithm === algorithm && candidate.viewer === 'full')!;
		const {code, stdout, stderr} = await token(['accounts', '--key-file', key.path!, '--base-url', sandbox.accountUrl]);
		expect(code).toBe(0);
		expect(stderr).toBe('');
		const jwt = stdout.trim();
		expect(stdout).toBe(`${jwt}\n`);
		expect(decodeJwtClaims(jwt)?.payload['uri']).toBe(`GET ${new URL(sandbox.accountUrl).host}/v2/accounts`);
		expect(await status(`${sandbox.accountUrl}/v2/accounts/x/transactions`, jwt)).toBe(401);
		const fresh = (await token(['/v2/accounts', '--key-file', key.path!, '--base-url', sandbox.accountUrl])).stdout.trim();
		expect(await status(`${sandbox.accountUrl}/v2/accounts?limit=2`, fresh)).toBe(200);
	});

	it('the JWT it prints is redacted from every message of the run, whole or cut (an error, a warning)', async () => {
		const key = sandbox.keys.find((candidate) => candidate.algorithm === 'ES256' && candidate.viewer === 'full')!;
		const jwt = (await token(['accounts', '--key-file', key.path!, '--base-url', sandbox.accountUrl])).stdout.trim();
		const {message} = describeError(new PagewalkError(`the server said ${jwt.slice(0, -6)} and ${jwt.split('.')[2]!.slice(4)}`));
		expect(message).toBe('the server said [redacted] and [redacted]');
	});

	it('an access token from the environment is printed as it is', async () => {
		const {code, stdout} = await token(['--base-url', sandbox.accountUrl], {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full});
		expect(code).toBe(0);
		expect(stdout).toBe(`${sandbox.credentials.account.full}\n`);
	});

	it('--help names the command and takes no --demo (its sandbox would be gone when the JWT is used)', async () => {
		expect((await token(['--help'])).stdout).toContain('pagewalk token [endpoint]');
		await expect(token(['--demo'])).rejects.toThrow(/--demo/);
	});
});
