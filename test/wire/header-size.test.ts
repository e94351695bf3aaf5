/**
 * Request headers too large for a server: said before they are sent, naming
 * what is too big and why (a CDP key's name goes into every JWT twice), and
 * the sandbox, sent them anyway, answers 431 in words, not "not valid HTTP".
 */
import {generateKeyPairSync} from 'node:crypto';
import {request} from 'node:http';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {resolveConfig} from '../../source/config/options.js';
import {createClient} from '../../source/http/http-client.js';
import {PagewalkError} from '../../source/text/errors.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({records: 20});
});

afterAll(async () => {
	await sandbox.close();
});

const pem = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'sec1'}));

async function firstPageError(flags: Record<string, unknown>, env: Record<string, string>): Promise<PagewalkError> {
	const config = await resolveConfig({input: ['accounts'], flags: {baseUrl: sandbox.accountUrl, retries: '0', ...flags}, env});
	const client = createClient(config);
	try {
		await client.fetchPage(client.firstUrl);
	} catch (error: unknown) {
		expect(error).toBeInstanceOf(PagewalkError);
		return error as PagewalkError;
	} finally {
		await client.close();
	}

	throw new Error('expected the request to be refused');
}

describe('request headers larger than a server reads', () => {
	test('a CDP key with a huge name: the JWT is named as too big, and why', async () => {
		const error = await firstPageError({}, {COINBASE_API_KEY_NAME: `organizations/o/apiKeys/${'k'.repeat(12_000)}`, COINBASE_API_PRIVATE_KEY: pem});
		expect(error.message).toMatch(/^The request's headers come to \d+\.\d KiB, more than servers read \(16\.0 KiB; many proxies 8 KiB\): the JWT in Authorization is \d+\.\d KiB because the CDP key's name is 12,024 characters long \(a JWT holds it twice, as kid and sub; a key's name from the portal is about 100\); check the key's name in COINBASE_API_KEY_NAME\/COINBASE_API_PRIVATE_KEY\.$/);
		expect(error.retryable).toBe(false);
		expect(error.message).not.toContain('not valid HTTP');
	});

	test('a huge --header: that header is named', async () => {
		const error = await firstPageError({header: [`X-Trace: ${'t'.repeat(20_000)}`]}, {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full});
		expect(error.message).toMatch(/: the X-Trace header is 19\.5 KiB; shorten that --header\.$/);
	});

	test('the sandbox, sent them anyway, answers 431 saying so in the API\'s error shape', async () => {
		const answer = await new Promise<{status: number; body: string}>((resolve, reject) => {
			const sent = request(`${sandbox.accountUrl}/v2/accounts`, {headers: {'x-big': 'b'.repeat(20_000)}}, response => {
				let body = '';
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => {
					body += chunk;
				});
				response.on('end', () => {
					resolve({status: response.statusCode ?? 0, body});
				});
			});
			sent.on('error', reject);
			sent.end();
		});
		expect(answer.status).toBe(431);
		expect(JSON.parse(answer.body)).toEqual({errors: [{id: 'request_header_fields_too_large', message: 'The request\'s headers are larger than this server reads (16 KiB).'}]});
	});
});
