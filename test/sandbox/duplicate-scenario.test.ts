/**
 * The `duplicate` preset repeats on page 2 the last object of page 1 the
 * caller saw, and never one hidden from it: a faulty server still keeps
 * permissions (a restricted walk would otherwise meet an object no walk of
 * its credential shows).
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {walk, type Api} from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 130, keyFiles: false, scenario: 'duplicate'});
});
afterAll(async () => {
	await sandbox.close();
});

describe.each(['account', 'commerce'] as Api[])('%s API', (api) => {
	const name = api === 'account' ? ('accounts' as const) : ('checkouts' as const);
	for (const viewer of ['full', 'restricted'] as const) {
		for (const order of ['desc', 'asc'] as const) {
			it.each([1, 2, 3, 5, 7, 10, 25])(`${viewer}, ${order}, limit %i: page 2 repeats page 1's last object seen, never a hidden one`, async (limit) => {
				const pages = await walk(sandbox, api, {viewer, query: `order=${order}&limit=${limit}`, maxPages: 2});
				const hidden = new Set(viewer === 'restricted' ? sandbox.store.hiddenIds(name) : []);
				const [first, second] = pages;
				expect(second!.ids.some(id => hidden.has(id))).toBe(false);
				const lastSeen = first!.ids.at(-1);
				// Page 1 showed nothing: nothing to repeat. Else its last object comes again first.
				expect(second!.ids[0] === lastSeen || lastSeen === undefined).toBe(true);
			});
		}
	}
});
