import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {scenarioBreaks, scenarioNames, scenarioSummaries, startSandbox, type Sandbox, type ScenarioName} from '../../source/sandbox/index.js';
import {auditJson, sandboxTarget} from './run-audit.js';

/**
 * Each faulty preset and the audit check it must fail; `over` when page 2 also holds one object more than the
 * limit (duplicate adds page 1's last object to a full page), so the page-size rule fails too.
 */
const faulty: Array<{scenario: ScenarioName; check: string; evidence: RegExp; commerceOnly?: boolean; over?: true}> = [
	{scenario: 'duplicate', check: 'unique-ids', evidence: /page 1/, over: true},
	{scenario: 'wrong-limit', check: 'echo-limit', evidence: /26|limit/},
	{scenario: 'unordered', check: 'order', evidence: /order|before|after/},
	{scenario: 'missing-param', check: 'next-uri-params', evidence: /limit=25 was sent but next_uri has no limit/},
	{scenario: 'yielded-mismatch', check: 'yielded', evidence: /yielded is 26 but data holds 25 objects/, commerceOnly: true},
];

/** The one evidence message each fault must produce with the default limit of 25; `ids` is the list in walk order. */
function exactEvidence(scenario: ScenarioName, ids: string[]): string {
	switch (scenario) {
		case 'duplicate': {
			return `id ${ids[24]} on page 2 was already on page 1`;
		}

		case 'wrong-limit': {
			return 'sent limit=25 but pagination.limit is 26';
		}

		case 'unordered': {
			// Page 2's second and third objects swap: the third now follows the second.
			return expect.stringMatching(new RegExp(`^${ids[26]} \\(created_at [^)]+\\) on page 2 follows ${ids[27]} \\(created_at [^)]+\\) in (asc|desc) order$`)) as unknown as string;
		}

		case 'yielded-mismatch': {
			return 'yielded is 26 but data holds 25 objects';
		}

		default: {
			return expect.stringMatching(/^limit=25 was sent but next_uri has no limit \(http:\/\/127\.0\.0\.1:\d+\/[\w/]+\?order=(asc|desc)&starting_after=[\da-f-]+\)$/) as unknown as string;
		}
	}
}

it('the checks each scenario is said to break (serve prints them) are the ones this file audits it for', () => {
	for (const name of scenarioNames) {
		const entry = faulty.find(({scenario}) => scenario === name);
		expect(scenarioBreaks[name], name).toEqual(entry === undefined ? [] : entry.over ? [entry.check, 'over-limit'] : [entry.check]);
		const said = /\(audit: ([^)]+)\)$/.exec(scenarioSummaries[name])?.[1]?.split(', ') ?? [];
		expect(said, name).toEqual(scenarioBreaks[name]);
	}
});

describe('scenario presets make exactly their audit checks fail, on page 2', () => {
	const sandboxes = new Map<ScenarioName, Sandbox>();

	beforeAll(async () => {
		await Promise.all(faulty.map(async ({scenario}) => {
			sandboxes.set(scenario, await startSandbox({port: 0, scenario}));
		}));
	});

	afterAll(async () => {
		await Promise.all([...sandboxes.values()].map(async sandbox => sandbox.close()));
	});

	for (const {scenario, check, evidence, commerceOnly, over} of faulty) {
		for (const endpoint of commerceOnly ? ['checkouts'] : ['accounts', 'checkouts']) {
			for (const order of ['desc', 'asc'] as const) {
				it(`${scenario}: ${endpoint} ${order} fails ${check}${over ? ' and over-limit' : ''} only`, async () => {
					const target = sandboxTarget(sandboxes.get(scenario)!);
					const {code, report} = await auditJson([endpoint, '--order', order, ...target.flags], target.env);
					expect(code).toBe(1);
					const [walk] = report.walks;
					const failed = walk!.checks.filter(result => result.status === 'failed');
					expect(failed.map(result => result.id)).toEqual(over ? [check, 'over-limit'] : [check]);
					expect(failed.map(result => result.id)).toEqual(scenarioBreaks[scenario]);
					if (over) {
						expect(failed[1]).toMatchObject({failures: 1, evidence: [{page: 2, message: 'data holds 26 objects, more than the limit of 25'}]});
					}

					expect(failed[0]!.evidence[0]!.page).toBe(2);
					expect(failed[0]!.evidence[0]!.message).toMatch(evidence);
					// Exactly one failure, and its evidence names the objects involved.
					expect(failed[0]!.failures).toBe(1);
					expect(failed[0]!.evidence).toEqual([{page: 2, message: exactEvidence(scenario, sandboxes.get(scenario)!.store.ids(endpoint as 'accounts' | 'checkouts', {order}))}]);
					// The walk itself still reaches the end of the list.
					expect(walk!.end.complete).toBe(true);
				});
			}
		}
	}

	it('yielded-mismatch leaves the account API clean (it has no yielded)', async () => {
		const sandbox = await startSandbox({port: 0, scenario: 'yielded-mismatch'});
		try {
			const target = sandboxTarget(sandbox);
			const {code} = await auditJson(['accounts', ...target.flags], target.env);
			expect(code).toBe(0);
		} finally {
			await sandbox.close();
		}
	});

	it('churn keeps every check passing while objects are inserted and removed', async () => {
		const sandbox = await startSandbox({port: 0, scenario: 'churn', records: 300});
		try {
			const target = sandboxTarget(sandbox);
			const {report} = await auditJson(['accounts', '--limit', '10', ...target.flags], target.env);
			const failed = report.walks[0]!.checks.filter(result => result.status === 'failed');
			expect(failed).toEqual([]);
		} finally {
			await sandbox.close();
		}
	});
});
