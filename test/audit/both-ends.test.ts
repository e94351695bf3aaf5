/**
 * `audit --both-ends` walks a whole list from both ends (http/both-ends.ts):
 * every check still reported, with the same results, objects and end as one
 * chain; a faulty page in the other order lets that chain go, so the report
 * is one chain's; interrupted, the report is still whole. Without the flag an
 * audit is one chain, even where a dump would walk from both ends: every
 * page in order is checked.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {auditJson, sandboxTarget} from './run-audit.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 230, keyFiles: false});
});
afterAll(async () => {
	await sandbox.close();
});

const summary = (report: Awaited<ReturnType<typeof auditJson>>['report']) => report.walks.map(walk => ({
	objects: walk.objects,
	end: walk.end,
	checks: walk.checks.map(check => [check.id, check.status, check.failures]),
}));

describe('audit from both ends', () => {
	for (const endpoint of ['accounts', 'checkouts']) {
		for (const viewer of ['full', 'restricted'] as const) {
			for (const order of [[], ['--order', 'asc']]) {
				it(`${endpoint}, ${viewer}, ${order.join(' ') || 'default order'}: the same checks, objects and end as one chain, in fewer pages in a row`, async () => {
					const {flags, env} = sandboxTarget(sandbox, viewer);
					const both = await auditJson([endpoint, ...flags, '--limit', '10', '--both-ends', ...order], env);
					const one = await auditJson([endpoint, ...flags, '--limit', '10', '--one-chain', ...order], env);
					expect(both.code).toBe(0);
					expect(summary(both.report)).toEqual(summary(one.report));
					expect(both.report.walks[0]!.objects).toBe(sandbox.store.count(endpoint as 'accounts', viewer));
					if (viewer === 'full') {
						expect(both.report.walks[0]!.pages).toBeLessThanOrEqual(one.report.walks[0]!.pages + 1);
					}
				});
			}
		}
	}
});

describe('a faulty page in the other order', () => {
	it('lets that chain go: the report is one chain\'s', async () => {
		const faulty = await startSandbox({records: 100, keyFiles: false, scenario: 'duplicate'});
		try {
			const {flags, env} = sandboxTarget(faulty);
			const both = await auditJson(['accounts', ...flags, '--limit', '10', '--both-ends'], env);
			const one = await auditJson(['accounts', ...flags, '--limit', '10', '--one-chain'], env);
			expect(both.code).toBe(1);
			expect(summary(both.report)).toEqual(summary(one.report));
			expect(both.report.walks[0]!.pages).toBe(one.report.walks[0]!.pages);
		} finally {
			await faulty.close();
		}
	});
});

describe('without --both-ends', () => {
	it('a server slow enough for a dump to walk from both ends is audited as one chain: page 2\'s fault is found', async () => {
		// Two pages: from both ends the chains would meet after one page each, and page 2 in this order would never be read.
		const slow = await startSandbox({records: 130, keyFiles: false, scenario: 'unordered', latency: {ms: 30, jitterMs: 0, perObjectMs: 0}});
		try {
			const {flags, env} = sandboxTarget(slow, 'full');
			const audited = await auditJson(['checkouts', ...flags, '--limit', '100'], env);
			const one = await auditJson(['checkouts', ...flags, '--limit', '100', '--one-chain'], env);
			expect(audited.code).toBe(1);
			expect(summary(audited.report)).toEqual(summary(one.report));
			expect(audited.report.walks[0]!.checks.find(check => check.id === 'order')?.status).toBe('failed');
		} finally {
			await slow.close();
		}
	});
});
