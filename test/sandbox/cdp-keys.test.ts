/**
 * The sandbox's CDP keys over real HTTP: JWTs from config/jwt-sign for both key
 * types are accepted on every page; each broken JWT is a 401 naming the check
 * that failed; key files are private and go away; the rate limit answers 429.
 */
import {createPublicKey, generateKeyPairSync, sign} from 'node:crypto';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {CdpKey, parseKeyFile, readKeyFile} from '../../source/config/cdp-key.js';
import {signRequestJwt} from '../../source/config/jwt-sign.js';
import {startSandbox, type Sandbox, type SandboxKey} from '../../source/sandbox/index.js';
import {issueKeys, SandboxKeyFileError, writeKeyFiles} from '../../source/sandbox/auth/cdp-keys.js';
import {authHeaders, get, walk, type Reply} from './helpers.js';

let sandbox: Sandbox;
// The sandbox's clock: real time, unless a test stops it (withClockStopped).
let stopped: number | undefined;
beforeAll(async () => {
	sandbox = await startSandbox({records: 120, now: () => stopped ?? Date.now()});
});
afterAll(async () => {
	await sandbox.close();
});

const version = {'cb-version': '2024-05-01'};

function clientKey(key: SandboxKey): CdpKey {
	return readKeyFile(key.path!).key;
}

async function signedGet(key: CdpKey, url: string, options: {now?: number; nonce?: string} = {}): Promise<Reply> {
	return get(url, {authorization: `Bearer ${signRequestJwt(key, {method: 'GET', url, ...options})}`, ...version});
}

/** Signs any header and payload: for JWTs our signer would never make. */
function forge(key: CdpKey, header: Record<string, unknown>, payload: Record<string, unknown>): string {
	const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
	const signature = key.algorithm === 'ES256'
		? sign('sha256', Buffer.from(input), {key: key.reveal(), dsaEncoding: 'ieee-p1363'})
		: sign(null, Buffer.from(input), key.reveal());
	return `${input}.${signature.toString('base64url')}`;
}

function claims(key: CdpKey, url: string, now = Math.floor(Date.now() / 1000)) {
	const {host, pathname} = new URL(url);
	return {
		header: {alg: key.algorithm, kid: key.name, typ: 'JWT', nonce: Math.random().toString(16).slice(2).padEnd(32, '0')},
		payload: {sub: key.name, iss: 'cdp', nbf: now, exp: now + 120, uri: `GET ${host}${pathname}`},
	};
}

/**
 * Runs `run` with the sandbox's clock stopped at a whole second (given to
 * `run` in seconds): a JWT signed for that time is checked against the same
 * time, however long its request takes on a loaded machine.
 */
async function withClockStopped<T>(run: (now: number) => Promise<T>): Promise<T> {
	const now = Math.floor(Date.now() / 1000);
	stopped = now * 1000;
	try {
		return await run(now);
	} finally {
		stopped = undefined;
	}
}

async function rejected(reply: Reply): Promise<{id: string; message: string}> {
	expect(reply.status).toBe(401);
	expect(reply.body.errors).toHaveLength(1);
	return reply.body.errors[0];
}

describe('issued keys', () => {
	it('are ES256 and EdDSA for each account credential, in both key-file shapes', () => {
		expect(sandbox.keys.map(({algorithm, viewer}) => `${viewer} ${algorithm}`).sort()).toEqual(['full ES256', 'full EdDSA', 'restricted ES256', 'restricted EdDSA']);
		for (const key of sandbox.keys) {
			const parsed = parseKeyFile(JSON.stringify(key.keyFile), 'sandbox');
			expect(parsed.name).toBe(key.name);
			expect(parsed.algorithm).toBe(key.algorithm);
			expect('name' in key.keyFile ? 'name' : 'id').toBe(key.algorithm === 'ES256' ? 'name' : 'id');
		}
	});

	it('are derived from the seed: the same keys on every start with a seed, others with another seed', async () => {
		const again = await startSandbox({records: 1, keyFiles: false});
		const other = await startSandbox({records: 1, seed: 2, keyFiles: false});
		try {
			expect(again.keys.map((key) => key.keyFile)).toEqual(sandbox.keys.map((key) => key.keyFile));
			expect(other.keys.map((key) => key.keyFile.privateKey)).not.toContain(sandbox.keys[0]!.keyFile.privateKey);
			// A JWT signed with a key read from the first sandbox's file is good for the second one of the same seed.
			const url = `${again.accountUrl}/v2/accounts?limit=1`;
			expect((await signedGet(clientKey(sandbox.keys[0]!), url)).status).toBe(200);
		} finally {
			await Promise.all([again.close(), other.close()]);
		}
	});

	it('each ES256 key also comes as PKCS#8, the same key, and says which file is which', () => {
		for (const key of sandbox.keys) {
			const forms = key.files.map((file) => file.form);
			expect(forms).toEqual(key.algorithm === 'ES256' ? ['sec1', 'pkcs8'] : ['base64']);
			expect(key.files[0]!.path).toBe(key.path);
			for (const file of key.files) {
				expect(readFileSync(file.path!, 'utf8')).toContain(file.form === 'sec1' ? 'BEGIN EC PRIVATE KEY' : file.form === 'pkcs8' ? 'BEGIN PRIVATE KEY' : '"id"');
				const parsed = parseKeyFile(JSON.stringify(file.keyFile), 'sandbox');
				expect(parsed.name).toBe(key.name);
				expect(createPublicKey(parsed.reveal()).export({format: 'jwk'})).toEqual(createPublicKey(clientKey(key).reveal()).export({format: 'jwk'}));
			}
		}
	});

	it('kept in a directory the caller names (serve\'s state directory), replaced whole on the next start', async () => {
		const directory = path.join(mkdtempSync(path.join(tmpdir(), 'pagewalk-keys-test-')), 'seed-1');
		const first = await startSandbox({records: 1, keyDirectory: directory});
		await first.close();
		const paths = first.keys.flatMap((key) => key.files.map((file) => file.path!));
		expect(paths).toHaveLength(6);
		expect(paths.every((file) => path.dirname(file) === directory && (statSync(file).mode & 0o777) === 0o600)).toBe(true);
		expect(statSync(directory).mode & 0o777).toBe(0o700);
		const second = await startSandbox({records: 1, keyDirectory: directory});
		try {
			expect(second.keys.flatMap((key) => key.files.map((file) => file.path!))).toEqual(paths);
			expect((await signedGet(readKeyFile(paths[0]!).key, `${second.accountUrl}/v2/accounts?limit=1`)).status).toBe(200);
		} finally {
			await second.close();
			rmSync(path.dirname(directory), {recursive: true, force: true});
		}
	});

	it('are written mode 0600 into a private directory (0700) that is removed at close', async () => {
		const other = await startSandbox({records: 1});
		const directory = path.dirname(other.keys[0]!.path!);
		expect(statSync(directory).mode & 0o777).toBe(0o700);
		for (const key of other.keys) {
			expect(path.dirname(key.path!)).toBe(directory);
			expect(statSync(key.path!).mode & 0o777).toBe(0o600);
			expect(readKeyFile(key.path!).warning).toBeUndefined();
		}

		await other.close();
		expect(existsSync(directory)).toBe(false);
	});

	it('can be left unwritten', async () => {
		const other = await startSandbox({records: 1, keyFiles: false});
		expect(other.keys.every((key) => key.path === undefined)).toBe(true);
		await other.close();
	});
});

describe('JWTs signed by config/jwt-sign', () => {
	for (const algorithm of ['ES256', 'EdDSA'] as const) {
		it(`${algorithm}: every page of a walk in both orders is accepted with its own JWT, and the restricted key sees what the restricted token sees`, async () => {
			for (const viewer of ['full', 'restricted'] as const) {
				const key = clientKey(sandbox.keys.find((candidate) => candidate.algorithm === algorithm && candidate.viewer === viewer)!);
				for (const order of ['desc', 'asc']) {
					let url: string | null = `${sandbox.accountUrl}/v2/accounts?limit=25&order=${order}`;
					const ids: string[] = [];
					while (url !== null) {
						// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
						const reply = await signedGet(key, url);
						expect(reply.status, JSON.stringify(reply.body)).toBe(200);
						ids.push(...reply.body.data.map((object: {id: string}) => object.id));
						const next: string | null = reply.body.pagination.next_uri;
						url = next === null ? null : new URL(next, sandbox.accountUrl).href;
					}

					// eslint-disable-next-line no-await-in-loop -- the orders are walked one after the other
					const expected = (await walk(sandbox, 'account', {viewer, query: `limit=25&order=${order}`})).flatMap((page) => page.ids);
					expect(ids).toEqual(expected);
				}
			}
		});
	}

	it('static tokens still work beside keys, and a JWT in the access_token query is not taken', async () => {
		expect((await get(`${sandbox.accountUrl}/v2/accounts`, authHeaders(sandbox, 'account'))).status).toBe(200);
		const key = clientKey(sandbox.keys[0]!);
		const url = `${sandbox.accountUrl}/v2/accounts`;
		const reply = await get(`${url}?access_token=${signRequestJwt(key, {method: 'GET', url})}`, version);
		expect(await rejected(reply)).toEqual({id: 'invalid_token', message: 'The access token is invalid'});
	});
});

describe('each broken JWT is a 401 naming the check', () => {
	const url = () => `${sandbox.accountUrl}/v2/accounts?limit=5`;
	const key = () => clientKey(sandbox.keys.find((candidate) => candidate.algorithm === 'ES256' && candidate.viewer === 'full')!);
	const edKey = () => clientKey(sandbox.keys.find((candidate) => candidate.algorithm === 'EdDSA' && candidate.viewer === 'full')!);
	const now = () => Math.floor(Date.now() / 1000);
	const send = async (jwt: string) => get(url(), {authorization: `Bearer ${jwt}`, ...version});

	it('expired', async () => {
		const error = await withClockStopped(async stoppedAt => rejected(await signedGet(edKey(), url(), {now: stoppedAt - 600})));
		expect(error.id).toBe('expired_token');
		expect(error.message).toMatch(/^exp check failed: the JWT expired 480 s ago; sign a fresh JWT for every request, and check the clock\.$/);
	});

	it('not yet valid', async () => {
		const error = await withClockStopped(async stoppedAt => rejected(await signedGet(key(), url(), {now: stoppedAt + 300})));
		expect(error.id).toBe('invalid_token');
		expect(error.message).toMatch(/^nbf check failed: the JWT is not yet valid for another 300 s; check the clock\.$/);
	});

	it('wrong key: signed by another private key under a known name', async () => {
		const impostor = new CdpKey(key().name, 'ES256', generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey);
		const error = await rejected(await signedGet(impostor, url()));
		expect(error.message).toBe(`signature check failed: the JWT is not signed by the private key of "${key().name}".`);
		const edImpostor = new CdpKey(edKey().name, 'EdDSA', generateKeyPairSync('ed25519').privateKey);
		expect((await rejected(await signedGet(edImpostor, url()))).message).toMatch(/^signature check failed/);
	});

	it('a query in uri (the classic page-2 mistake)', async () => {
		const {header, payload} = claims(key(), url());
		const {host} = new URL(url());
		const error = await rejected(await send(forge(key(), header, {...payload, uri: `GET ${host}/v2/accounts?limit=5`})));
		expect(error.message).toBe(`uri check failed: uri must not carry the query string; sign "GET ${host}/v2/accounts".`);
	});

	it('a uri for another path or host', async () => {
		const {header, payload} = claims(key(), url());
		const {host} = new URL(url());
		const error = await rejected(await send(forge(key(), header, {...payload, uri: 'GET api.coinbase.com/v2/accounts'})));
		expect(error.message).toBe(`uri check failed: the JWT is for "GET api.coinbase.com/v2/accounts", but this request is "GET ${host}/v2/accounts".`);
	});

	it('a replayed nonce, whether the same JWT or a new one', async () => {
		const jwt = signRequestJwt(key(), {method: 'GET', url: url()});
		expect((await send(jwt)).status).toBe(200);
		const again = await rejected(await send(jwt));
		expect(again.message).toBe('nonce check failed: this nonce was already used; sign a fresh JWT for every request.');
		const nonce = 'f'.repeat(32);
		expect((await signedGet(edKey(), url(), {nonce})).status).toBe(200);
		expect((await rejected(await signedGet(edKey(), url(), {nonce, now: now() + 1}))).message).toMatch(/^nonce check failed/);
	});

	it('wrong iss', async () => {
		const {header, payload} = claims(key(), url());
		const error = await rejected(await send(forge(key(), header, {...payload, iss: 'coinbase-cloud'})));
		expect(error.message).toBe('iss check failed: iss must be "cdp"; got "coinbase-cloud".');
	});

	it('kid not equal to sub', async () => {
		const {header, payload} = claims(key(), url());
		const error = await rejected(await send(forge(key(), header, {...payload, sub: 'someone-else'})));
		expect(error.message).toBe(`sub check failed: sub must equal kid "${key().name}"; got "someone-else".`);
	});

	it('unknown kid', async () => {
		const stranger = new CdpKey('organizations/x/apiKeys/unknown', 'EdDSA', generateKeyPairSync('ed25519').privateKey);
		const error = await rejected(await signedGet(stranger, url()));
		expect(error.message).toBe('kid check failed: no key is named "organizations/x/apiKeys/unknown".');
	});

	it('a lifetime over 120 s', async () => {
		const {header, payload} = claims(key(), url());
		const error = await rejected(await send(forge(key(), header, {...payload, exp: payload.nbf + 300})));
		expect(error.message).toBe('lifetime check failed: exp is 300 s after nbf; it must be after nbf and at most 120 s.');
	});

	it('uris (the Node CDP SDK\'s form) and iat are accepted; any uri of the list may match', async () => {
		const {header, payload} = claims(key(), url());
		const {uri, ...rest} = payload;
		expect((await send(forge(key(), header, {...rest, uris: [uri], iat: payload.nbf}))).status).toBe(200);
		const again = claims(key(), url());
		expect((await send(forge(key(), again.header, {...rest, uris: ['GET other.example/v2/x', uri]}))).status).toBe(200);
	});

	it('uris refusals name what was wrong, never a JavaScript value', async () => {
		const {host} = new URL(url());
		const cases: Array<[Record<string, unknown>, string]> = [
			[{uris: ['GET api.coinbase.com/v2/accounts']}, `uri check failed: the JWT is for "GET api.coinbase.com/v2/accounts", but this request is "GET ${host}/v2/accounts".`],
			[{uris: ['GET a/1', 'GET b/2']}, `uri check failed: the JWT is for 2 requests ("GET a/1", "GET b/2"), but this request is "GET ${host}/v2/accounts".`],
			[{uris: [`GET ${host}/v2/accounts?limit=5`]}, `uri check failed: uris must not carry the query string; sign "GET ${host}/v2/accounts".`],
			[{uris: []}, `uri check failed: uris must be a list of one or more "METHOD host/path" strings; got "[]"; sign "GET ${host}/v2/accounts".`],
			[{uris: null}, `uri check failed: uris must be a list of one or more "METHOD host/path" strings; the JWT has no uris; sign "GET ${host}/v2/accounts".`],
			[{}, `uri check failed: the JWT has neither uri nor uris; sign "GET ${host}/v2/accounts".`],
			[{uri: 5}, `uri check failed: uri must be a "METHOD host/path" string; got "5"; sign "GET ${host}/v2/accounts".`],
			[{uri: `GET ${host}/v2/accounts`, uris: [`GET ${host}/v2/accounts`]}, `uri check failed: the JWT carries both uri and uris; sign one of them; sign "GET ${host}/v2/accounts".`],
		];
		for (const [claimsOfUri, message] of cases) {
			const {header, payload} = claims(key(), url());
			const {uri: _uri, ...rest} = payload;
			// eslint-disable-next-line no-await-in-loop -- one request at a time, each with its own nonce
			const error = await rejected(await send(forge(key(), header, {...rest, ...claimsOfUri})));
			expect(error.message).toBe(message);
			expect(error.message).not.toMatch(/undefined|null|NaN|\[object/);
		}
	});

	it('missing sub, iss or alg are named as missing, not as undefined', async () => {
		const {header, payload} = claims(key(), url());
		const {sub: _sub, ...noSub} = payload;
		expect((await rejected(await send(forge(key(), header, noSub)))).message).toBe(`sub check failed: sub must equal kid "${key().name}"; the JWT has no sub.`);
		const {iss: _iss, ...noIss} = claims(key(), url()).payload;
		expect((await rejected(await send(forge(key(), claims(key(), url()).header, noIss)))).message).toBe('iss check failed: iss must be "cdp"; the JWT has no iss.');
		const {alg: _alg, ...noAlg} = claims(key(), url()).header;
		expect((await rejected(await send(forge(key(), noAlg, payload)))).message).toBe('alg check failed: alg must be ES256 or EdDSA; the JWT has no alg.');
	});

	it('an iat in the future, or not a number, is refused', async () => {
		const {header, payload} = claims(key(), url());
		expect((await rejected(await send(forge(key(), header, {...payload, iat: payload.nbf + 600})))).message).toMatch(/^iat check failed: the JWT says it was issued (599|600|601) s from now; check the clock\.$/);
		const other = claims(key(), url());
		expect((await rejected(await send(forge(key(), other.header, {...other.payload, iat: 'now'})))).message).toBe('iat check failed: iat, when sent, must be a number of seconds since the epoch.');
	});

	it('alg that does not match the key, and a malformed token', async () => {
		const {header, payload} = claims(key(), url());
		expect((await rejected(await send(forge(key(), {...header, alg: 'EdDSA'}, payload)))).message).toMatch(/^alg check failed: key ".+" signs with ES256, but the JWT says EdDSA\.$/);
		expect((await rejected(await send('eyJhbGciOiJub25lIn0.e30.'))).id).toBe('invalid_token');
		expect((await rejected(await send('bm90IGpzb24.e30.c2ln'))).message).toBe('The JWT is malformed: its header is not base64url of a JSON object.');
	});
});

describe('rate limit', () => {
	it('answers 429 with Retry-After per credential once over the limit, until the window ends (injected clock)', async () => {
		let clock = Date.UTC(2026, 0, 1, 12);
		const limited = await startSandbox({records: 10, keyFiles: false, rateLimit: {count: 3, perMs: 3_600_000}, now: () => clock});
		try {
			const key = parseKeyFile(JSON.stringify(limited.keys[0]!.keyFile), 'sandbox');
			const other = parseKeyFile(JSON.stringify(limited.keys[1]!.keyFile), 'sandbox');
			const url = `${limited.accountUrl}/v2/accounts`;
			const at = () => ({now: Math.floor(clock / 1000)});
			for (let index = 0; index < 3; index++) {
				// eslint-disable-next-line no-await-in-loop -- the rate limit counts requests as they come
				expect((await signedGet(key, url, at())).status).toBe(200);
			}

			clock += 600_000;
			const over = await signedGet(key, url, at());
			expect(over.status).toBe(429);
			expect(over.headers.get('retry-after')).toBe('3000');
			expect(over.body).toEqual({errors: [{id: 'rate_limit_exceeded', message: 'Too many requests'}]});
			// Another key, and the static token, are counted apart.
			expect((await signedGet(other, url, at())).status).toBe(200);
			expect((await get(url, authHeaders(limited, 'account'))).status).toBe(200);

			clock += 3_000_000;
			expect((await signedGet(key, url, at())).status).toBe(200);
		} finally {
			await limited.close();
		}
	});

	it('is off by default', async () => {
		const key = clientKey(sandbox.keys[1]!);
		const url = `${sandbox.accountUrl}/v2/accounts?limit=1`;
		const statuses = await Promise.all(Array.from({length: 30}, async () => (await signedGet(key, url)).status));
		expect(new Set(statuses)).toEqual(new Set([200]));
	});
});

describe('key files that cannot be written where they go', () => {
	it('a folder in the place of a key file: one sentence, and no temporary file left beside it', () => {
		const folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-key-files-'));
		try {
			const {keys} = issueKeys(7);
			const first = keys[0]!;
			// Where the first key's file goes, a folder (with something in it, so rename cannot replace it).
			writeKeyFiles(keys, folder);
			const target = first.files[0]!.path!;
			rmSync(target);
			mkdirSync(path.join(target, 'inside'), {recursive: true});
			expect(() => writeKeyFiles(keys, folder)).toThrow(SandboxKeyFileError);
			expect(() => writeKeyFiles(keys, folder)).toThrow(/^The key files cannot be written in '.*' \((EISDIR|ENOTEMPTY|EEXIST)\); remove what is in their way or pick another state folder\.$/);
			expect(readdirSync(folder).filter(name => name.endsWith('.tmp'))).toEqual([]);
		} finally {
			rmSync(folder, {recursive: true, force: true});
		}
	});
});
