/**
 * What the docs claim about the sandbox, checked against the sandbox itself:
 * the demo's page sizes quoted in the README are the ones it serves.
 */
import {readFileSync} from 'node:fs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {authHeaders, get} from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
	// The demo's sandbox: the defaults, the restricted credential.
	sandbox = await startSandbox({});
});
afterAll(async () => {
	await sandbox.close();
});

describe('docs/sandbox.md on the sandbox', () => {
	it('quotes the demo\'s first page sizes (desc, limit 25, restricted) as the sandbox serves them', async () => {
		const readme = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8').replaceAll(/\s+/g, ' ');
		const quoted = /Default demo pages in `desc` at limit 25 hold ([\d, *]+), … objects/.exec(readme);
		expect(quoted, 'docs/sandbox.md no longer quotes the demo page sizes; update this test with it').not.toBeNull();
		const claimed = quoted![1]!.replaceAll('*', '').split(',').map(size => Number(size.trim())).filter(size => !Number.isNaN(size));
		const sizes: number[] = [];
		let url: string | null = `${sandbox.accountUrl}/v2/accounts?limit=25`;
		while (url !== null && sizes.length < claimed.length) {
			// eslint-disable-next-line no-await-in-loop -- each page's link is in the one before
			const reply = await get(url, authHeaders(sandbox, 'account', 'restricted'));
			sizes.push((reply.body.data as unknown[]).length);
			url = reply.body.pagination.next_uri === null ? null : new URL(reply.body.pagination.next_uri as string, sandbox.accountUrl).href;
		}

		expect(sizes).toEqual(claimed);
	});
});
