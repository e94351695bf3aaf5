/**
 * The one catalogue of the contract's rules (source/contract/rules.ts) and its
 * three consumers: the browser's per-page findings, dump's findings and
 * audit's checks. Each consumer shows exactly the catalogue's rules less
 * those it excludes, with a reason; each rule has a scenario (the sandbox's
 * or the faulty server's, over HTTP) that trips it in every consumer that
 * shows it, and one that does not; the docs list the same rules.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ContractChecks} from '../../source/audit/checks.js';
import {pageFindings} from '../../source/browser/stack/page-findings.js';
import {resolveConfig} from '../../source/config/options.js';
import {consumerScopes, contractRules, rulesShownBy, type Consumer, type RuleId} from '../../source/contract/rules.js';
import type {Order, Page} from '../../source/contract/types.js';
import {createClient} from '../../source/http/http-client.js';
import {walk} from '../../source/http/walker.js';
import {WalkFindings} from '../../source/output/walk-findings.js';
import {startSandbox, type Sandbox, type ScenarioName} from '../../source/sandbox/index.js';
import {auditJson} from '../audit/run-audit.js';
import type {FaultName} from '../support/faulty-server.js';
import {canaryEnv, dumpInProcess} from '../support/run-dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const consumers: Consumer[] = ['browser', 'dump', 'audit'];
const ids = (rules: ReadonlyArray<{id: RuleId}>) => rules.map(rule => rule.id);

type Source = {sandbox: ScenarioName | 'clean'; endpoint: 'accounts' | 'checkouts'; order?: Order} | {fault: FaultName; order?: Order};

/** A scenario that trips each rule, and one that keeps it. */
const scenarios: Record<RuleId, {trips: Source; keeps: Source}> = {
	'unique-ids': {trips: {sandbox: 'duplicate', endpoint: 'accounts'}, keeps: {sandbox: 'clean', endpoint: 'accounts'}},
	order: {trips: {sandbox: 'unordered', endpoint: 'accounts', order: 'asc'}, keeps: {sandbox: 'clean', endpoint: 'accounts', order: 'asc'}},
	'over-limit': {trips: {sandbox: 'duplicate', endpoint: 'checkouts'}, keeps: {sandbox: 'clean', endpoint: 'checkouts'}},
	'echo-limit': {trips: {sandbox: 'wrong-limit', endpoint: 'accounts'}, keeps: {sandbox: 'clean', endpoint: 'accounts'}},
	'echo-order': {trips: {fault: 'ignores-order', order: 'asc'}, keeps: {fault: 'list', order: 'asc'}},
	'echo-cursors': {trips: {fault: 'cursor-not-echoed'}, keeps: {fault: 'list'}},
	'next-uri-params': {trips: {sandbox: 'missing-param', endpoint: 'accounts'}, keeps: {sandbox: 'clean', endpoint: 'accounts'}},
	yielded: {trips: {sandbox: 'yielded-mismatch', endpoint: 'checkouts'}, keeps: {sandbox: 'clean', endpoint: 'checkouts'}},
	'cursor-range': {trips: {fault: 'range-reversed'}, keeps: {fault: 'list-commerce'}},
	total: {trips: {fault: 'total-moves'}, keeps: {fault: 'list-commerce'}},
	'ends-agree': {trips: {fault: 'asc-lacks-one-commerce'}, keeps: {fault: 'list-commerce'}},
};

const faulty = useFaultyServer();
const sandboxes = new Map<ScenarioName | 'clean', Sandbox>();
beforeAll(async () => {
	const names = new Set(Object.values(scenarios).flatMap(({trips, keeps}) => [trips, keeps]).flatMap(source => ('sandbox' in source ? [source.sandbox] : [])));
	await Promise.all([...names].map(async name => {
		sandboxes.set(name, await startSandbox({records: 100, keyFiles: false, ...(name === 'clean' ? {} : {scenario: name})}));
	}));
});
afterAll(async () => {
	await Promise.all([...sandboxes.values()].map(async sandbox => sandbox.close()));
});

/** Where a source's list is: its endpoint, the flags that point at it, and the credentials. */
function target(source: Source): {endpoint: 'accounts' | 'checkouts'; flags: {baseUrl?: string; commerceUrl?: string; limit?: number; order?: Order}; env: Record<string, string>} {
	const order = source.order === undefined ? {} : {order: source.order};
	if ('fault' in source) {
		const commerce = source.fault.endsWith('-commerce') || source.fault === 'range-reversed' || source.fault === 'total-moves';
		const base = faulty().base(source.fault, source.fault.startsWith('asc-lacks-one') ? {size: 200, missing: 195} : undefined);
		return {endpoint: commerce ? 'checkouts' : 'accounts', flags: {...(commerce ? {commerceUrl: base} : {baseUrl: base}), limit: 10, ...order}, env: canaryEnv};
	}

	const sandbox = sandboxes.get(source.sandbox)!;
	return {
		endpoint: source.endpoint,
		flags: {baseUrl: sandbox.accountUrl, commerceUrl: sandbox.commerceUrl, ...order},
		env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full, COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce.full},
	};
}

/** The same target as command-line arguments. */
function argvOf(source: Source): string[] {
	const {endpoint, flags} = target(source);
	return [endpoint, ...Object.entries(flags).flatMap(([name, value]) => [`--${name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`)}`, String(value)])];
}

/** Every page of the source's list, walked over HTTP as one chain. */
async function pagesOf(source: Source): Promise<Page[]> {
	const {endpoint, flags, env} = target(source);
	const config = await resolveConfig({input: [endpoint], flags, env});
	const client = createClient(config);
	const pages: Page[] = [];
	try {
		for await (const page of walk(client, config)) {
			pages.push(page);
		}
	} finally {
		await client.close();
	}

	return pages;
}

/** The rules each consumer reports of a walk's pages (failed or noted, for the audit). */
function reported(pages: Page[]): Record<Consumer, Set<RuleId>> {
	const browser = new Set<RuleId>();
	for (const [index, page] of pages.entries()) {
		const below = pages.slice(0, index).map((earlier, at) => ({number: at + 1, page: earlier}));
		for (const finding of pageFindings(page, below, index > 0)) {
			browser.add(finding.check);
		}
	}

	const dump = new WalkFindings();
	const audit = new ContractChecks();
	for (const page of pages) {
		dump.add(page);
		audit.add(page);
	}

	return {
		browser,
		dump: new Set(dump.counts.keys()),
		audit: new Set(audit.results().filter(check => check.status === 'failed' || check.status === 'noted').map(check => check.id)),
	};
}

/** From both ends: the rules dump and audit report (the browser walks one chain). */
async function reportedBothEnds(source: Source): Promise<Record<Consumer, Set<RuleId>>> {
	const {env} = target(source);
	const argv = argvOf(source);
	const dumped = await dumpInProcess([...argv, '--all', '--both-ends'], env);
	const summary = /contract findings in \d+ pages?: (.*) \(each kind/.exec(dumped.stderr)?.[1] ?? '';
	const audited = await auditJson([...argv, '--both-ends'], env);
	return {
		browser: new Set(),
		dump: new Set(summary.split(', ').filter(Boolean).map(kind => kind.split(' ')[0] as RuleId)),
		audit: new Set(audited.report.walks[0]!.checks.filter(check => check.status === 'failed' || check.status === 'noted').map(check => check.id)),
	};
}

describe('the catalogue', () => {
	it('names each rule once, each with its clause of docs/contract.md, a title and a check where it is of a page', () => {
		const contract = readFileSync(path.join(root, 'docs/contract.md'), 'utf8');
		expect(new Set(ids(contractRules)).size).toBe(contractRules.length);
		for (const rule of contractRules) {
			expect(contract).toContain(`### ${rule.clause}\n`);
			// The clause's section names the rule by its id.
			const section = contract.split(`### ${rule.clause}\n`)[1]!.split('\n### ')[0]!;
			expect(section, rule.id).toContain(`\`${rule.id}\``);
			expect(rule.scope === 'page' ? typeof rule.check : typeof rule.decidedBy).toBe(rule.scope === 'page' ? 'function' : 'string');
		}
	});

	it('every rule a consumer does not show is excluded by name, with a reason; no other is', () => {
		for (const consumer of consumers) {
			for (const rule of contractRules) {
				const reason = rule.excluded?.[consumer];
				const shown = consumerScopes[consumer].includes(rule.scope) && reason === undefined;
				expect(shown || (reason !== undefined && reason.length > 20), `${rule.id} in ${consumer}`).toBe(true);
			}
		}
	});

	it('the audit\'s checks are the catalogue\'s rules it shows, in its order, and its report schema names each', () => {
		const schema = readFileSync(path.join(root, 'source/audit/report-schema.json'), 'utf8');
		const checks = new ContractChecks({bothEnds: true}).results().map(check => check.id);
		expect(checks).toEqual(ids(rulesShownBy('audit')));
		const enumerated = /"id": \{\s*"type": "string",\s*"enum": \[([^\]]*)\]/.exec(schema)![1]!;
		expect(JSON.parse(`[${enumerated}]`)).toEqual(checks);
	});

	it('docs/audit.md and docs/dump.md list the rules each shows', () => {
		const named = (file: string, heading: string) => {
			const text = readFileSync(path.join(root, file), 'utf8');
			const section = text.slice(text.indexOf(heading)).split('\n## ')[0]!;
			return new Set([...section.matchAll(/^[|-] (?:`[a-z][\w-]*`(?:, )?)+/gm)].flatMap(match => [...match[0].matchAll(/`([\w-]+)`/g)].map(id => id[1])));
		};

		expect(named('docs/audit.md', '| check |')).toEqual(new Set(ids(rulesShownBy('audit'))));
		expect(named('docs/dump.md', '## Contract findings')).toEqual(new Set(ids(rulesShownBy('dump'))));
	});
});

describe('each rule, tripped and kept, in every consumer', () => {
	const seen: Record<Consumer, Set<RuleId>> = {browser: new Set(), dump: new Set(), audit: new Set()};

	for (const rule of contractRules) {
		it(`${rule.id}: tripped where each consumer that shows it reports it, kept where none does`, async () => {
			const {trips, keeps} = scenarios[rule.id];
			const bothEnds = rule.id === 'ends-agree';
			const tripped = bothEnds ? await reportedBothEnds(trips) : reported(await pagesOf(trips));
			const kept = bothEnds ? await reportedBothEnds(keeps) : reported(await pagesOf(keeps));
			for (const consumer of consumers) {
				const shown = ids(rulesShownBy(consumer)).includes(rule.id);
				expect(tripped[consumer].has(rule.id), `${consumer} tripped`).toBe(shown);
				expect(kept[consumer].has(rule.id), `${consumer} kept`).toBe(false);
				for (const id of tripped[consumer]) {
					seen[consumer].add(id);
				}
			}
		});
	}

	it('what each consumer reported, over every scenario, is the catalogue less its exclusions', () => {
		for (const consumer of consumers) {
			expect([...seen[consumer]].sort(), consumer).toEqual(ids(rulesShownBy(consumer)).sort());
		}
	});
});

it('a scenario for every rule of the catalogue, and none for a rule it lacks', () => {
	expect(Object.keys(scenarios).sort()).toEqual(ids(contractRules).sort());
});
