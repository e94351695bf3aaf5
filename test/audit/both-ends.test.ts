/**
 * `audit --both-ends` walks a whole list from both ends (http/both-ends.ts):
 * every check still reported, with the same results, objects and end as one
 * chain; a faulty page in the other order lets that chain go, so the report
 * is one chain's; interrupted, the report is still whole. Without the flag an
 * audit is one chain, even where a dump would walk from both ends: every
 * page in order is checked. Against a server whose two orders disagree, the
 * walk finishes as one chain and ends-agree fails, naming the disagreement.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import type {FaultName} from '../support/faulty-server.js';
import {canaryEnv} from '../support/run-dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {auditInProcess, auditJson, sandboxTarget} from './run-audit.js';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({records: 230, keyFiles: false});
});
afterAll(async () => {
	await sandbox.close();
});

type Report = Awaited<ReturnType<typeof auditJson>>['report'];

/** The checks every audit reports (ends-agree is reported of a walk from both ends only, and compared apart). */
const summary = (report: Report) => report.walks.map(walk => ({
	objects: walk.objects,
	end: walk.end,
	checks: walk.checks.filter(check => check.id !== 'ends-agree').map(check => [check.id, check.status, check.failures]),
}));

const endsAgree = (report: Report) => report.walks[0]!.checks.find(check => check.id === 'ends-agree');

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
					expect(endsAgree(both.report)?.status).toBe('passed');
					expect(endsAgree(one.report)).toBeUndefined();
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
			// Let go before the ends met: nothing to compare.
			expect(endsAgree(both.report)?.status).toBe('skipped');
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

describe('a server whose two orders disagree', () => {
	const faulty = useFaultyServer();
	const target = (fault: FaultName, settings: Record<string, number>) => (fault.endsWith('-commerce')
		? ['checkouts', '--commerce-url', faulty().base(fault, settings)]
		: ['accounts', '--base-url', faulty().base(fault, settings)]);

	for (const [fault, settings, evidence] of [
		['asc-lacks-one-commerce', {size: 200, missing: 195}, /^the two ends took 199 objects, where every page reports a total of 200$/],
		['cursor-varies-commerce', {size: 200, every: 5}, /^the list in order (asc|desc) is not the list in order (asc|desc) reversed where the two ends met: after item-\d+, order \w+ has item-\d+ where order \w+ had item-\d+$|^the two ends took 19\d objects, where every page reports a total of 200$/],
	] as const) {
		it(`${fault}: ends-agree fails, naming the disagreement; every object is audited, as one chain audits them`, async () => {
			const argv = [...target(fault, settings), '--limit', '10'];
			const both = await auditJson([...argv, '--both-ends'], canaryEnv);
			const one = await auditJson([...argv, '--one-chain'], canaryEnv);
			expect(one.code).toBe(0);
			expect(both.code).toBe(1);
			expect(both.report.result).toBe('failed');
			expect(endsAgree(both.report)).toMatchObject({status: 'failed', failures: 1});
			expect(endsAgree(both.report)!.evidence[0]!.message).toMatch(evidence);
			expect(summary(both.report)).toEqual(summary(one.report));
			expect(both.report.walks[0]!.objects).toBe(200);
		});
	}

	it('account, one page a half: every object audited; ends-agree fails, or the ends never met', async () => {
		const argv = [...target('asc-lacks-one', {size: 200}), '--limit', '100'];
		const both = await auditJson([...argv, '--both-ends'], canaryEnv);
		const one = await auditJson([...argv, '--one-chain'], canaryEnv);
		expect(summary(both.report)).toEqual(summary(one.report));
		expect(both.report.walks[0]!.objects).toBe(200);
		const check = endsAgree(both.report)!;
		expect(['failed', 'skipped']).toContain(check.status);
		expect(both.code).toBe(check.status === 'failed' ? 1 : 0);
	});

	it('the text report names the check and the disagreement', async () => {
		const result = await auditInProcess([...target('asc-lacks-one-commerce', {size: 200, missing: 195}), '--limit', '10', '--both-ends'], canaryEnv);
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/✗ the two ends agree where they meet \(asc is the exact reverse of desc\): 1 failure\n {8}page \d+: the two ends took 199 objects, where every page reports a total of 200\n/);
		expect(result.stdout).toMatch(/Result: a contract check failed: ends-agree/);
	});

	it('a list whose orders agree: ends-agree passes', async () => {
		const both = await auditJson([...target('list-commerce', {size: 200}), '--limit', '10', '--both-ends'], canaryEnv);
		expect(both.code).toBe(0);
		expect(endsAgree(both.report)?.status).toBe('passed');
	});
});
