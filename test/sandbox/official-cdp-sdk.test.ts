/**
 * The sandbox against JWTs minted by the official Node CDP SDK
 * (`@coinbase/cdp-sdk`'s `generateJwt`, a dev dependency: a client nobody
 * here wrote). It signs `uris: ["GET host/path"]` with `iat`, reads EC keys
 * only as PKCS#8 and Ed25519 keys as base64; the sandbox hands out both EC
 * forms, and must take what the SDK signs for the right request and refuse,
 * with a reason, what it signs for another.
 */
import {generateKeyPairSync} from 'node:crypto';
import {generateJwt} from '@coinbase/cdp-sdk/auth';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox, type SandboxKey} from '../../source/sandbox/index.js';
import {get, type Reply} from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 30});
});
afterAll(async () => {
	await sandbox.close();
});

/** The key file the SDK can read: PKCS#8 for ES256, base64 for EdDSA. */
function sdkSecret(key: SandboxKey): string {
	return key.files.find((file) => file.form !== 'sec1')!.keyFile.privateKey;
}

async function mint(apiKeyId: string, apiKeySecret: string, path: string, host = new URL(sandbox.accountUrl).host): Promise<string> {
	return generateJwt({apiKeyId, apiKeySecret, requestMethod: 'GET', requestHost: host, requestPath: path});
}

async function send(jwt: string, path = '/v2/accounts', on: Sandbox = sandbox): Promise<Reply> {
	return get(`${on.accountUrl}${path}?limit=5`, {authorization: `Bearer ${jwt}`, 'cb-version': '2024-05-01'});
}

function claimsOf(jwt: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function refusal(reply: Reply): string {
	expect(reply.status).toBe(401);
	const message = (reply.body as {errors: Array<{message: string}>}).errors[0]!.message;
	expect(message).not.toMatch(/undefined|null|NaN|\[object/);
	return message;
}

describe.each(['ES256', 'EdDSA'] as const)('%s key, JWT from @coinbase/cdp-sdk generateJwt', (algorithm) => {
	const key = () => sandbox.keys.find((candidate) => candidate.algorithm === algorithm && candidate.viewer === 'full')!;

	it('is in the SDK\'s form (uris, iat) and is accepted for the request it names', async () => {
		const jwt = await mint(key().name, sdkSecret(key()), '/v2/accounts');
		const claims = claimsOf(jwt);
		expect(claims['uris']).toEqual([`GET ${new URL(sandbox.accountUrl).host}/v2/accounts`]);
		expect(typeof claims['iat']).toBe('number');
		expect(claims['uri']).toBeUndefined();
		const reply = await send(jwt);
		expect(reply.status).toBe(200);
		expect((reply.body as {data: unknown[]}).data.length).toBeGreaterThan(0);
	});

	it('is refused for another path, naming both', async () => {
		const jwt = await mint(key().name, sdkSecret(key()), '/v2/accounts/some-id/transactions');
		const host = new URL(sandbox.accountUrl).host;
		expect(refusal(await send(jwt))).toBe(`uri check failed: the JWT is for "GET ${host}/v2/accounts/some-id/transactions", but this request is "GET ${host}/v2/accounts".`);
	});

	it('is refused when replayed', async () => {
		const jwt = await mint(key().name, sdkSecret(key()), '/v2/accounts');
		expect((await send(jwt)).status).toBe(200);
		expect(refusal(await send(jwt))).toBe('nonce check failed: this nonce was already used; sign a fresh JWT for every request.');
	});

	it('is refused once expired (a sandbox whose clock is 10 minutes ahead)', async () => {
		const later = await startSandbox({records: 5, keyFiles: false, now: () => Date.now() + 600_000});
		try {
			const jwt = await mint(key().name, sdkSecret(key()), '/v2/accounts', new URL(later.accountUrl).host);
			const reply = await send(jwt, '/v2/accounts', later);
			expect(refusal(reply)).toMatch(/^exp check failed: the JWT expired \d+ s ago; sign a fresh JWT for every request, and check the clock\.$/);
			expect((reply.body as {errors: Array<{id: string}>}).errors[0]!.id).toBe('expired_token');
		} finally {
			await later.close();
		}
	});
});

describe('keys the sandbox never issued', () => {
	it('an unknown key name is refused by its kid', async () => {
		const stranger = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'pkcs8'}));
		const jwt = await mint('organizations/elsewhere/apiKeys/stranger', stranger, '/v2/accounts');
		expect(refusal(await send(jwt))).toBe('kid check failed: no key is named "organizations/elsewhere/apiKeys/stranger".');
	});

	it('another private key under an issued name is refused by its signature', async () => {
		const name = sandbox.keys.find((key) => key.algorithm === 'ES256')!.name;
		const impostor = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'pkcs8'}));
		const jwt = await mint(name, impostor, '/v2/accounts');
		expect(refusal(await send(jwt))).toBe(`signature check failed: the JWT is not signed by the private key of "${name}".`);
	});
});
