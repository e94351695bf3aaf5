import {afterEach, describe, expect, it} from 'vitest';
import type {ScenarioName} from '../../source/sandbox/scenarios/scenario-names.js';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {keys, renderApp} from './support/render-app.js';

/**
 * The contract's per-page checks run on every page the browser shows: each
 * faulty sandbox scenario breaks one rule on page 2, and the status area names
 * it there (and only there); the short-page explanation is kept for pages that
 * keep the contract.
 */

let open: Array<{close(): Promise<void>}> = [];

afterEach(async () => {
	await Promise.all(open.map(async item => item.close()));
	open = [];
});

async function scenarioApp(scenario: ScenarioName, viewer: 'full' | 'restricted' = 'full') {
	const sandbox: Sandbox = await startSandbox({port: 0, scenario});
	open.push(sandbox);
	const commerce = scenario === 'yielded-mismatch';
	const app = await renderApp({
		baseUrl: commerce ? sandbox.commerceUrl : sandbox.accountUrl,
		token: commerce ? sandbox.credentials.commerce[viewer] : sandbox.credentials.account[viewer],
		api: commerce ? 'commerce' : 'account',
		endpoint: commerce ? 'checkouts' : 'accounts',
		limit: 10,
		size: {columns: 220, rows: 40},
	});
	open.push(app);
	return app;
}

const lastLine = (frame: string) => frame.split('\n').at(-1)!.trim();

const expected: Array<[ScenarioName, RegExp, RegExp]> = [
	// [scenario, the status line on page 2, a line of the debug view]
	// Integrity first: the repeated object, before the page holding one too many.
	['duplicate', /^contract: id \S+ on page 2 was already on page 1 \(\+1 more, d lists them\)$/, /data holds 11 objects, more than the limit of 10/],
	['wrong-limit', /^contract: sent limit=10 but pagination\.limit is 11 \(d for details\)$/, /sent limit=10 but pagination\.limit is 11/],
	['unordered', /^contract: \S+ \(created_at [^)]+\) on page 2 follows \S+ \(created_at [^)]+\) in desc order/, /in desc order/],
	['yielded-mismatch', /^contract: yielded is 11 but data holds 10 objects/, /yielded is 11 but data holds 10 objects/],
	['missing-param', /^contract: limit=10 was sent but next_uri has no limit/, /limit=10 was sent but next_uri has no limit/],
];

describe('contract breaks are named on the page that breaks them', () => {
	for (const [scenario, status, debug] of expected) {
		it(`${scenario}: page 1 is clean, page 2 names the break in the status area and the debug view`, async () => {
			const app = await scenarioApp(scenario);
			let frame = await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
			expect(frame).not.toContain('contract:');
			await app.press('l');
			frame = await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
			expect(lastLine(frame)).toMatch(status);
			await app.press('d');
			frame = await app.waitFor(f => f.includes('debug: request'));
			for (let step = 0; step < 3 && !(debug.test(frame) && frame.includes('on this page')); step++) {
				// eslint-disable-next-line no-await-in-loop -- scrolling the panel until the findings show
				await app.press(keys.pageDown);
				const before = frame;
				// eslint-disable-next-line no-await-in-loop -- each step waits for its own frame, in order
				frame = await app.waitFor(f => f !== before);
			}

			expect(frame).toMatch(debug);
			expect(frame).toMatch(/contract: \d+ findings? on this page/);
		});
	}

	it('the short-page explanation is given only on pages that keep the contract', async () => {
		const app = await scenarioApp('wrong-limit', 'restricted');
		let frame = await app.waitFor(f => f.includes('page 1 ') && !f.includes('loading'));
		const first = lastLine(frame);
		// Page 1 keeps the contract: short for the credential's access, said so.
		expect(first.includes('fewer than limit: permissions or access level') || !/\d+\/10 short/.test(frame)).toBe(true);
		await app.press('l');
		frame = await app.waitFor(f => f.includes('page 2 ') && !f.includes('loading'));
		expect(frame).not.toContain('permissions or access level');
		expect(lastLine(frame)).toMatch(/^contract: sent limit=10 but pagination\.limit is 11/);
	});
});
