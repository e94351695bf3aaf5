/**
 * Credential resolution, pure: which source wins, what a conflict or a
 * missing piece says, and where a profile's credential plugs in. The key
 * file reader is injected, so no file is read here (the wire tests read real ones).
 */
import {createHash, generateKeyPairSync} from 'node:crypto';
import {inspect} from 'node:util';
import {describe, expect, test} from 'vitest';
import {CdpKey} from '../../source/config/cdp-key.js';
import {describeCredential, resolveCredential, tokenCredential, type ReadKeyFile} from '../../source/config/credentials.js';
import {UsageError} from '../../source/text/errors.js';

const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'});
const pem = String(privateKey.export({format: 'pem', type: 'sec1'}));
const fileKey = new CdpKey('organizations/o/apiKeys/from-file', 'ES256', privateKey);
const read: ReadKeyFile = path => ({key: fileKey, warning: path.includes('open') ? `Warning: permissions 0644 for '${path}' are too open` : undefined});

function resolve(env: Record<string, string>, keyFile?: string, profile?: () => ReturnType<typeof resolveCredential> | undefined) {
	return resolveCredential({api: 'account', keyFile, env, readKeyFile: read, profile});
}

describe('the account API', () => {
	test('each source alone, named in `from`', () => {
		expect(resolve({COINBASE_ACCESS_TOKEN: ' Bearer tok '}).credential).toMatchObject({kind: 'bearer', from: 'COINBASE_ACCESS_TOKEN'});
		expect((resolve({COINBASE_ACCESS_TOKEN: ' Bearer tok '}).credential as {secret: {reveal(): string}}).secret.reveal()).toBe('tok');
		expect(resolve({COINBASE_API_KEY_FILE: 'k.json'}).credential).toMatchObject({kind: 'cdp-key', key: fileKey, from: 'COINBASE_API_KEY_FILE \'k.json\''});
		const parts = resolve({COINBASE_API_KEY_NAME: 'named', COINBASE_API_PRIVATE_KEY: pem.replaceAll('\n', '\\n')}).credential;
		expect(parts).toMatchObject({kind: 'cdp-key', from: 'COINBASE_API_KEY_NAME/COINBASE_API_PRIVATE_KEY'});
		expect(describeCredential(parts)).toBe('CDP key ES256 from COINBASE_API_KEY_NAME/COINBASE_API_PRIVATE_KEY');
		expect(describeCredential(resolve({}, 'k.json').credential)).toBe('CDP key ES256 from --key-file \'k.json\'');
	});

	test('--key-file beats a profile, a profile beats the environment', () => {
		const profile = () => ({credential: tokenCredential('account', 'from-profile', 'profile work'), warnings: []});
		expect(resolve({COINBASE_ACCESS_TOKEN: 't'}, 'k.json', profile).credential.from).toBe('--key-file \'k.json\'');
		expect(resolve({COINBASE_ACCESS_TOKEN: 't', COINBASE_API_KEY_FILE: 'x'}, undefined, profile).credential.from).toBe('profile work');
		expect(resolve({COINBASE_ACCESS_TOKEN: 't'}, undefined, () => undefined).credential.from).toBe('COINBASE_ACCESS_TOKEN');
	});

	test('two environment sources: one sentence naming both (or all three)', () => {
		expect(() => resolve({COINBASE_API_KEY_FILE: 'k', COINBASE_API_KEY_NAME: 'n', COINBASE_API_PRIVATE_KEY: pem, COINBASE_ACCESS_TOKEN: 't'})).toThrow(
			new UsageError('Both COINBASE_API_KEY_FILE, COINBASE_API_KEY_NAME/COINBASE_API_PRIVATE_KEY and COINBASE_ACCESS_TOKEN are set, so pagewalk cannot tell which credential to use; unset all but one (or give --key-file, which wins).'),
		);
		// Empty variables are unset.
		expect(resolve({COINBASE_API_KEY_FILE: 'k', COINBASE_ACCESS_TOKEN: ' '}).credential.kind).toBe('cdp-key');
	});

	test('the key file\'s warning is handed back, once', () => {
		expect(resolve({}, 'open.json').warnings).toEqual(['Warning: permissions 0644 for \'open.json\' are too open']);
		expect(resolve({}, 'k.json').warnings).toEqual([]);
	});

	test('nothing set, half a key, a bad private key: one sentence each, the key never quoted', () => {
		expect(() => resolve({})).toThrow(/^Set a credential for the account API \(or try --demo\)/);
		expect(() => resolve({COINBASE_API_PRIVATE_KEY: pem})).toThrow('COINBASE_API_PRIVATE_KEY is set but COINBASE_API_KEY_NAME is not; set both, or neither.');
		const body = pem.split('\n')[1]!;
		let message = '';
		try {
			resolve({COINBASE_API_KEY_NAME: 'n', COINBASE_API_PRIVATE_KEY: `-----BEGIN EC PRIVATE KEY-----\n${body.slice(3)}\n-----END EC PRIVATE KEY-----`});
		} catch (error: unknown) {
			message = (error as Error).message;
		}

		expect(message).toBe('COINBASE_API_PRIVATE_KEY is not a readable PEM private key; copy it again from the key portal, whole.');
	});

	test('a credential prints as a redaction mark', () => {
		const {credential} = resolve({COINBASE_API_KEY_NAME: 'n', COINBASE_API_PRIVATE_KEY: pem});
		const shown = `${inspect(credential, {depth: 5})} ${JSON.stringify(credential)}`;
		expect(shown).toContain('[redacted]');
		expect(shown).not.toContain(pem.split('\n')[1]!.slice(0, 20));
	});
});

describe('the commerce API', () => {
	test('its API key from the environment; a key file is refused', () => {
		expect(resolveCredential({api: 'commerce', env: {COINBASE_COMMERCE_API_KEY: 'k1', COINBASE_API_KEY_FILE: 'ignored'}}).credential).toMatchObject({kind: 'api-key', from: 'COINBASE_COMMERCE_API_KEY'});
		expect(() => resolveCredential({api: 'commerce', keyFile: 'k.json', env: {}})).toThrow('--key-file is for the account API');
	});
});

describe('JWT redaction', () => {
	test('the last JWTs are redacted whole and by their signature; the ring is bounded', async () => {
		const {rememberJwt, redact, recentJwtCount} = await import('../../source/text/secret.js');
		// Parts that share no run with one another's: every run of a JWT in the ring is redacted, so JWTs sharing a header would redact each other's.
		const part = (index: number, name: string) => createHash('sha256').update(`${name}${index}`).digest('base64url');
		const jwt = (index: number) => `${part(index, 'header')}.${part(index, 'payload')}.${part(index, 'signature')}`;
		for (let index = 0; index <= recentJwtCount; index++) {
			rememberJwt(jwt(index));
		}

		expect(redact(`echo ${jwt(recentJwtCount)} and ${jwt(recentJwtCount).split('.')[2]!}`)).toBe('echo [redacted] and [redacted]');
		// The oldest was pushed out: a walk of a million pages does not keep a million JWTs.
		expect(redact(jwt(0))).toBe(jwt(0));
	});
});

describe('in the walk config', () => {
	test('the key file (or a profile\'s credential) is read once per run, and not by demoPlan', async () => {
		const {demoPlan, resolveConfig} = await import('../../source/config/options.js');
		let reads = 0;
		const counting: ReadKeyFile = path => {
			reads += 1;
			return read(path);
		};

		expect(demoPlan({input: [], flags: {keyFile: 'k.json'}, env: {}, readKeyFile: counting})).toBeNull();
		expect(reads).toBe(0);
		const config = resolveConfig({input: [], flags: {keyFile: 'open.json'}, env: {}, readKeyFile: counting});
		expect(reads).toBe(1);
		expect(config.credential.from).toBe('--key-file \'open.json\'');
		expect(config.credentialWarnings).toHaveLength(1);
		let asked = 0;
		resolveConfig({input: [], flags: {}, env: {COINBASE_ACCESS_TOKEN: 't'}, profileCredential() {
			asked += 1;
			return undefined;
		}});
		expect(asked).toBe(1);
	});
});
