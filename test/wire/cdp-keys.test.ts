/**
 * CDP keys end to end, over the real wire: pagewalk's own client (dump in
 * process) walks the sandbox through a recording proxy, so every JWT it sent
 * can be read back. The sandbox verifies each one as the real API does, and
 * `jose`, a second and independent implementation, verifies them again here.
 */
import {generateKeyPairSync} from 'node:crypto';
import {chmodSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {decodeProtectedHeader, jwtVerify} from 'jose';
import {afterAll, beforeAll, beforeEach, describe, expect, test} from 'vitest';
import {debugLines} from '../../source/browser/view/debug-lines.js';
import {initialState, pageStackReducer} from '../../source/browser/stack/page-stack.js';
import {openConfig} from '../../source/commands/setup/demo.js';
import {readKeyFile} from '../../source/config/cdp-key.js';
import {createClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import type {RetryNotice} from '../../source/contract/types.js';
import {createCompareClient} from '../../source/commands/setup/second-credential.js';
import {startSandbox, type Sandbox, type SandboxKey} from '../../source/sandbox/index.js';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {startRecordingProxy, type RecordingProxy} from '../support/recording-proxy.js';
import {canary, dumpInProcess, writeCanaryKeyFile} from '../support/run-dump.js';
import {loadFailure} from '../../source/browser/stack/stack-steps.js';

let sandbox: Sandbox;
let proxy: RecordingProxy;
let faulty: FaultyServer;

beforeAll(async () => {
	sandbox = await startSandbox({records: 120});
	proxy = await startRecordingProxy(sandbox.accountUrl);
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await Promise.all([proxy.close(), faulty.close()]);
	await sandbox.close();
});

beforeEach(() => {
	proxy.reset();
	faulty.reset();
});

const quiet = {NO_COLOR: '1'};

function keyOf(algorithm: 'ES256' | 'EdDSA', viewer: 'full' | 'restricted' = 'full'): SandboxKey {
	return sandbox.keys.find(key => key.algorithm === algorithm && key.viewer === viewer)!;
}

function jwtOf(authorization: string | undefined): string {
	expect(authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
	return authorization!.slice('Bearer '.length);
}

/** Verifies a JWT with jose against the key's public half and returns its header and payload. */
async function verifiedByJose(jwt: string, key: SandboxKey) {
	const publicKey = readKeyFile(key.path!).key.publicKey();
	const {payload, protectedHeader} = await jwtVerify(jwt, publicKey, {algorithms: [key.algorithm], issuer: 'cdp', subject: key.name, clockTolerance: 5});
	return {header: protectedHeader, payload};
}

function tempFile(name: string, text: string, mode = 0o600): string {
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'pagewalk-keytest-')), name);
	writeFileSync(file, text, {mode});
	chmodSync(file, mode);
	return file;
}

describe('several-page walks signed per request', () => {
	for (const algorithm of ['ES256', 'EdDSA'] as const) {
		for (const order of ['desc', 'asc'] as const) {
			test(`${algorithm}, ${order}: every request carries its own JWT, accepted by the sandbox and by jose; uri never has the query`, async () => {
				const key = keyOf(algorithm);
				const argv = ['accounts', '--all', '--limit', '25', '--order', order, `--base-url=${proxy.origin}`];
				const signed = await dumpInProcess([...argv, '--key-file', key.path!], quiet);
				expect(signed.code, signed.stderr).toBe(0);
				expect(signed.stderr).toBe('');
				const requests = proxy.recorded;
				expect(requests.length).toBeGreaterThanOrEqual(5);
				expect(requests.every(request => request.status === 200)).toBe(true);
				const nonces = new Set<string>();
				for (const request of requests) {
					const jwt = jwtOf(request.authorization);
					// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
					const {header, payload} = await verifiedByJose(jwt, key);
					expect(header).toMatchObject({alg: algorithm, kid: key.name, typ: 'JWT'});
					expect(String(header['nonce'])).toMatch(/^[\da-f]{32,}$/);
					nonces.add(String(header['nonce']));
					const {host, pathname} = new URL(request.path, proxy.origin);
					expect(payload['uri']).toBe(`GET ${host}${pathname}`);
					expect(payload['uri']).not.toContain('?');
					expect(payload.exp! - payload.nbf!).toBe(120);
				}

				expect(nonces.size).toBe(requests.length);
				expect(new Set(requests.map(request => request.authorization)).size).toBe(requests.length);
				// Later pages are asked with a query (the cursor), which the JWT leaves out; --all walks from
				// both ends, so the other order's first page is asked too, with order but no cursor.
				expect(requests.filter(request => !request.path.includes('starting_after=')).length).toBeLessThanOrEqual(2);
				expect(requests.some(request => request.path.includes('starting_after='))).toBe(true);

				// The same walk with the full token gives the same bytes: the key sees what its credential sees.
				proxy.reset();
				const bearer = await dumpInProcess(argv, {...quiet, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full});
				expect(bearer.code).toBe(0);
				expect(signed.stdout).toBe(bearer.stdout);
			});
		}
	}

	test('the key name and private key from the environment sign as the key file does', async () => {
		const key = keyOf('EdDSA', 'restricted');
		const env = {...quiet, COINBASE_API_KEY_NAME: key.name, COINBASE_API_PRIVATE_KEY: key.keyFile.privateKey};
		const result = await dumpInProcess(['accounts', '--all', '--limit', '10', `--base-url=${proxy.origin}`], env);
		expect(result.code, result.stderr).toBe(0);
		const restricted = await dumpInProcess(['accounts', '--all', '--limit', '10', `--base-url=${sandbox.accountUrl}`], {...quiet, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.restricted});
		expect(result.stdout).toBe(restricted.stdout);
		for (const request of proxy.recorded) {
			expect(request.status).toBe(200);
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			await verifiedByJose(jwtOf(request.authorization), key);
		}
	});

	test('a retry gets a fresh JWT: two Authorization values, both valid', async () => {
		const key = keyOf('ES256');
		const result = await dumpInProcess(['accounts', `--base-url=${faulty.base('gateway-timeout-once')}`], {...quiet, COINBASE_API_KEY_FILE: key.path!});
		expect(result.code, result.stderr).toBe(0);
		const sent = faulty.received.map(request => request.authorization);
		expect(sent).toHaveLength(2);
		expect(sent[0]).not.toBe(sent[1]);
		for (const authorization of sent) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const {payload} = await verifiedByJose(jwtOf(authorization), key);
			expect(payload['uri']).toBe(`GET ${new URL(faulty.origin).host}/f/gateway-timeout-once/v2/accounts`);
		}
	});

	test('429 from the per-key rate limit: the client waits Retry-After and asks again with a fresh JWT', async () => {
		// No budget headers (as the real API): the client meets the 429 itself.
		const limited = await startSandbox({records: 30, keyFiles: true, rateLimit: {count: 2, perMs: 1000, headers: false}});
		try {
			const key = limited.keys.find(candidate => candidate.algorithm === 'ES256' && candidate.viewer === 'full')!;
			const config = resolveConfig({input: ['accounts'], flags: {baseUrl: limited.accountUrl, limit: '10', keyFile: key.path!}, env: {}});
			const client = createClient(config);
			const notices: RetryNotice[] = [];
			let url: string | null = client.firstUrl;
			let objects = 0;
			while (url !== null) {
				// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
				const page = await client.fetchPage(url, {onRetry: notice => notices.push(notice)});
				objects += page.objects.length;
				url = page.nextUrl;
			}

			await client.close();
			expect(objects).toBe(30);
			expect(notices.length).toBeGreaterThan(0);
			expect(notices[0]).toMatchObject({attempt: 1, reason: '429 rate_limit_exceeded'});
			expect(notices[0]!.waitMs).toBeGreaterThanOrEqual(1000);
		} finally {
			await limited.close();
		}
	});
});

describe('each rejection is one sentence with the right hint', () => {
	async function walkWith(server: Sandbox, argv: string[] = [], keyPath = server.keys.find(key => key.algorithm === 'ES256')!.path!) {
		return dumpInProcess(['accounts', '--all', '--limit', '10', `--base-url=${server.accountUrl}`, '--key-file', keyPath, ...argv], quiet);
	}

	test('expired (the API\'s clock ahead of ours) and not yet valid (behind): check the clock', async () => {
		for (const skewMs of [10 * 60_000, -10 * 60_000]) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const skewed = await startSandbox({records: 10, now: () => Date.now() + skewMs});
			try {
				// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
				const result = await walkWith(skewed);
				expect(result.code).toBe(1);
				const lines = result.stderr.trimEnd().split('\n');
				expect(lines[0]).toMatch(skewMs > 0 ? /\(401 expired_token: exp check failed/ : /\(401 invalid_token: nbf check failed/);
				expect(lines[0]).toMatch(/the JWT was refused as expired or not yet valid: check this machine's clock \(it must be within a few seconds of real time; it read \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ when the JWT was signed\)\.$/);
			} finally {
				// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
				await skewed.close();
			}
		}
	});

	test('a wrong key under a known name: the signature check, and advice naming the key file', async () => {
		const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'});
		const file = tempFile('wrong.json', JSON.stringify({name: keyOf('ES256').name, privateKey: privateKey.export({format: 'pem', type: 'pkcs8'})}));
		const result = await walkWith(sandbox, [], file);
		expect(result.code).toBe(1);
		expect(result.stderr.split('\n')[0]).toBe(`pagewalk: The account API rejected the credential (401 invalid_token: signature check failed: the JWT is not signed by the private key of "${keyOf('ES256').name}".); check that the CDP key from --key-file '${file}' is active and allowed to read this list (create one in the key portal if not).`);
	});

	test('a uri that does not match the request (a proxy changed the host): the uri hint with what was signed', async () => {
		proxy.mode = 'rewrite-host';
		const result = await dumpInProcess(['accounts', `--base-url=${proxy.origin}`, '--key-file', keyOf('EdDSA').path!], quiet);
		expect(result.code).toBe(1);
		expect(result.stderr.split('\n')[0]).toMatch(/\(401 invalid_token: uri check failed: .*\); the JWT's uri claim did not match the request \(pagewalk signs GET host\/path without the query, here "GET 127\.0\.0\.1:\d+\/v2\/accounts"\)\.$/);
	});

	test('a replayed nonce (a proxy sent the first JWT again): said so', async () => {
		proxy.mode = 'replay';
		const result = await dumpInProcess(['accounts', '--all', '--limit', '10', `--base-url=${proxy.origin}`, '--key-file', keyOf('ES256').path!], quiet);
		expect(result.code).toBe(1);
		expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(10);
		expect(result.stderr.split('\n')[0]).toMatch(/\(401 invalid_token: nonce check failed: .*\); the JWT's nonce was refused as already used: pagewalk signs a fresh JWT for every request, so something between it and the API sent a request twice\.$/);
	});
});

describe('sources, precedence and key file errors', () => {
	test('--key-file beats the environment, even two environment sources', async () => {
		const key = keyOf('ES256');
		const env = {...quiet, COINBASE_ACCESS_TOKEN: 'not-this', COINBASE_API_KEY_FILE: '/nope.json'};
		const result = await dumpInProcess(['accounts', `--base-url=${proxy.origin}`, '--key-file', key.path!], env);
		expect(result.code, result.stderr).toBe(0);
		await verifiedByJose(jwtOf(proxy.recorded[0]!.authorization), key);
	});

	test('two environment sources at once: one sentence naming both, exit 2, nothing sent', async () => {
		const key = keyOf('ES256');
		for (const [env, names] of [
			[{COINBASE_API_KEY_FILE: key.path!, COINBASE_ACCESS_TOKEN: 'tok'}, 'Both COINBASE_API_KEY_FILE and COINBASE_ACCESS_TOKEN are set'],
			[{COINBASE_API_KEY_NAME: key.name, COINBASE_API_PRIVATE_KEY: key.keyFile.privateKey, COINBASE_ACCESS_TOKEN: 'tok'}, 'Both COINBASE_API_KEY_NAME/COINBASE_API_PRIVATE_KEY and COINBASE_ACCESS_TOKEN are set'],
		] as const) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const result = await dumpInProcess(['accounts', `--base-url=${proxy.origin}`], {...quiet, ...env});
			expect(result.code).toBe(2);
			expect(result.stderr).toBe(`pagewalk: ${names}, so pagewalk cannot tell which credential to use; unset all but one (or give --key-file, which wins).\n`);
		}

		expect(proxy.recorded).toEqual([]);
	});

	test('half a key in the environment, a key file for the commerce API', async () => {
		const half = await dumpInProcess(['accounts', `--base-url=${proxy.origin}`], {...quiet, COINBASE_API_KEY_NAME: 'k'});
		expect(half).toMatchObject({code: 2, stderr: 'pagewalk: COINBASE_API_KEY_NAME is set but COINBASE_API_PRIVATE_KEY is not; set both, or neither.\n'});
		const commerce = await dumpInProcess(['checkouts', '--key-file', keyOf('ES256').path!], {...quiet, COINBASE_COMMERCE_API_KEY: 'x'});
		expect(commerce).toMatchObject({code: 2, stderr: 'pagewalk: --key-file is for the account API; the commerce API takes an API key in COINBASE_COMMERCE_API_KEY.\n'});
	});

	test('a missing, malformed or wrong-type key file: one sentence naming the file, exit 2, the key never echoed', async () => {
		const {privateKey} = generateKeyPairSync('rsa', {modulusLength: 1024});
		const rsaPem = String(privateKey.export({format: 'pem', type: 'pkcs8'}));
		const cases: Array<[string, RegExp]> = [
			['/nonexistent/key.json', /^pagewalk: The key file '\/nonexistent\/key\.json' does not exist; check --key-file or COINBASE_API_KEY_FILE\.\n$/],
			[tempFile('broken.json', `{"name": "k", "privateKey": "${rsaPem.slice(40, 90)}`), /^pagewalk: The key file '.*broken\.json' is not valid JSON; download the key file again from the key portal\.\n$/],
			[tempFile('rsa.json', JSON.stringify({name: 'k', privateKey: rsaPem})), /^pagewalk: The "privateKey" in the key file '.*rsa\.json' is an RSA key; pagewalk signs with ECDSA P-256 \(ES256\) or Ed25519 \(EdDSA\) keys; create one of those in the key portal\.\n$/],
		];
		for (const [file, message] of cases) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const result = await dumpInProcess(['accounts', `--base-url=${proxy.origin}`, '--key-file', file], quiet);
			expect(result.code).toBe(2);
			expect(result.stderr).toMatch(message);
			for (const line of rsaPem.split('\n').filter(text => text.length > 20 && !text.startsWith('-----'))) {
				expect(result.stderr).not.toContain(line.slice(0, 20));
			}
		}

		expect(proxy.recorded).toEqual([]);
	});

	test('a key file others can read: one warning line, once, and the walk goes on', async () => {
		const key = keyOf('ES256');
		const open = tempFile('open.json', JSON.stringify(key.keyFile), 0o644);
		const result = await dumpInProcess(['accounts', '--all', '--limit', '25', `--base-url=${proxy.origin}`, '--key-file', open], quiet);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe(`pagewalk: Warning: permissions 0644 for '${open}' are too open; a private key file must not be readable by others: chmod 600 ${open}\n`);
	});
});

describe('what the user sees of the credential', () => {
	test('the debug view shows the credential in use and the JWT\'s claims, never the JWT', async () => {
		const key = keyOf('ES256');
		const config = resolveConfig({input: ['accounts'], flags: {baseUrl: proxy.origin, limit: '5', keyFile: key.path!}, env: {}});
		const client = createClient(config);
		const page = await client.fetchPage(client.firstUrl);
		await client.close();
		const state = pageStackReducer(initialState({startUrl: client.firstUrl, settings: {order: 'desc', limit: 5}}), {type: 'loaded', requestId: 1, page});
		const text = debugLines(state).join('\n');
		const jwt = jwtOf(proxy.recorded[0]!.authorization);
		const {payload} = await verifiedByJose(jwt, key);
		expect(text).toContain('Authorization: [redacted]');
		expect(text).toContain(`credential: CDP key ES256 from --key-file '${key.path!}'`);
		expect(text).toContain(`JWT ES256 kid ${key.name}`);
		expect(text).toContain(`JWT uri GET ${new URL(proxy.origin).host}/v2/accounts`);
		expect(text).toContain(`JWT nbf ${payload.nbf!} (`);
		expect(text).toContain(`exp ${payload.exp!} (`);
		for (const part of jwt.split('.')) {
			expect(text).not.toContain(part);
		}

		const bearer = resolveConfig({input: ['accounts'], flags: {baseUrl: sandbox.accountUrl, limit: '5'}, env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full}});
		const bearerClient = createClient(bearer);
		const bearerPage = await bearerClient.fetchPage(bearerClient.firstUrl);
		await bearerClient.close();
		expect(bearerPage.credential).toBe('bearer token from COINBASE_ACCESS_TOKEN');
		expect(bearerPage.jwtClaims).toBeUndefined();
	});

	test('after a 401 the debug view shows the request that failed: headers redacted, the credential, the JWT\'s claims, the answer', async () => {
		const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'});
		const file = tempFile('refused.json', JSON.stringify({name: keyOf('ES256').name, privateKey: privateKey.export({format: 'pem', type: 'pkcs8'})}));
		const config = resolveConfig({input: ['accounts'], flags: {baseUrl: proxy.origin, limit: '5', keyFile: file, retries: '0'}, env: {}});
		const client = createClient(config);
		const error = await client.fetchPage(client.firstUrl).then(() => undefined, (error: unknown) => error);
		await client.close();
		const state = pageStackReducer(initialState({startUrl: client.firstUrl, settings: {order: 'desc', limit: 5}}), {type: 'failed', requestId: 1, ...loadFailure(error)});
		const text = debugLines(state).join('\n');
		const jwt = jwtOf(proxy.recorded[0]!.authorization);
		expect(text).toContain('the request that failed:');
		expect(text).toContain(`GET ${client.firstUrl}`);
		expect(text).toContain('Authorization: [redacted]');
		expect(text).toContain(`credential: CDP key ES256 from --key-file '${file}'`);
		expect(text).toContain(`JWT ES256 kid ${keyOf('ES256').name}`);
		expect(text).toContain(`JWT uri GET ${new URL(proxy.origin).host}/v2/accounts`);
		expect(text).toMatch(/status 401 · /);
		for (const part of jwt.split('.')) {
			expect(text).not.toContain(part);
		}
	});

	test('--demo signs with the sandbox\'s restricted ES256 key by default; the compare view with the full one; --demo-auth token sends the token', async () => {
		const demo = await openConfig({input: ['accounts'], flags: {demo: true, limit: '5'}, env: {}});
		try {
			expect(demo.credential).toMatchObject({kind: 'cdp-key', from: 'demo restricted key'});
			expect(demo.demoCredentials).toMatchObject({using: 'demo restricted key', other: {kind: 'cdp-key', from: 'demo full key'}});
			const client = createClient(demo);
			const page = await client.fetchPage(client.firstUrl);
			expect(page.credential).toBe('CDP key ES256 from demo restricted key');
			expect(page.jwtClaims?.uri).toBe(`GET ${new URL(client.firstUrl).host}/v2/accounts`);
			const compare = createCompareClient(demo, demo.demoCredentials!.other);
			const seen = await compare.fetchPage(page.requestUrl);
			expect(seen.credential).toBe('CDP key ES256 from demo full key');
			expect(seen.objects.length).toBeGreaterThanOrEqual(page.objects.length);
			await Promise.all([client.close(), compare.close()]);
		} finally {
			await demo.close();
		}

		const token = await openConfig({input: ['accounts'], flags: {demo: true, demoAuth: 'token'}, env: {}});
		expect(token.credential).toMatchObject({kind: 'bearer', from: 'demo restricted token'});
		await token.close();
		await expect(openConfig({input: ['checkouts'], flags: {demo: true, demoAuth: 'key'}, env: {}})).rejects.toThrow('--demo-auth key is for the account API; the commerce API takes an API key.');
		await expect(openConfig({input: [], flags: {demoAuth: 'key'}, env: {}})).rejects.toThrow('--demo-auth only applies with --demo.');
	});

	test('the canary private key: neither its text nor any JWT signed with it appears in any byte of output, even when a server echoes them', async () => {
		const key = writeCanaryKeyFile();
		const outputs: string[] = [];
		for (const fault of ['echo-in-error', 'echo-in-body', 'echo-in-link', 'unauthorized-account', 'good-account'] as const) {
			// eslint-disable-next-line no-await-in-loop -- each step waits for the one before, in order
			const result = await dumpInProcess(['accounts', '--all', `--base-url=${faulty.base(fault)}`, '--key-file', key.path], quiet);
			outputs.push(result.stdout + result.stderr);
		}

		// The canary key's own name is no secret, but every JWT carries it, base64url-encoded, in header and payload.
		const jwts = faulty.received.map(request => jwtOf(request.authorization));
		expect(jwts.length).toBeGreaterThanOrEqual(8);
		expect(decodeProtectedHeader(jwts[0]!).kid).toBe(key.name);
		const all = outputs.join('\n');
		expect(all).toContain('[redacted]');
		// Not even a prefix: every JWT starts with base64url of '{"alg"'.
		expect(all).not.toContain('eyJhbGci');
		for (const jwt of jwts) {
			expect(all).not.toContain(jwt);
			expect(all).not.toContain(jwt.split('.')[2]);
		}

		for (const line of key.keyLines) {
			expect(all).not.toContain(line);
		}

		expect(all).not.toContain('PRIVATE KEY');
		expect(faulty.received.filter(request => request.server === 'evil')).toEqual([]);
		expect(all).not.toContain(canary.repeat(2));
	});
});
