import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';
import {hash32} from '../../source/sandbox/data/random.js';
import {testIo} from '../support/test-io.js';
import {validate} from './json-schema.js';
import {auditInProcess, auditJson, sandboxTarget, schema} from './run-audit.js';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({port: 0, records: 237, seed: 7});
});

afterAll(async () => {
	await sandbox?.close();
});

const lists = [['accounts', 'account'], ['checkouts', 'commerce']] as const;

describe('audit on the clean sandbox', () => {
	test.each([
		...lists.flatMap(([endpoint]) => (['desc', 'asc'] as const).flatMap((order) => (['full', 'restricted'] as const).map((viewer) => [endpoint, order, viewer] as const))),
	])('%s in %s with the %s credential: every check passes', async (endpoint, order, viewer) => {
		const target = sandboxTarget(sandbox, viewer);
		const {code, report} = await auditJson([endpoint, ...target.flags, '--limit', '10', '--order', order], target.env);
		expect(validate(schema, report)).toEqual([]);
		expect(report.exitCode).toBe(0);
		expect(code).toBe(0);
		const [walk] = report.walks;
		expect(walk!.objects).toBe(sandbox.store.count(endpoint, viewer));
		expect(walk!.end).toMatchObject({kind: 'end', complete: true});
		const statuses = Object.fromEntries(walk!.checks.map((check) => [check.id, check.status]));
		const commerce = endpoint === 'checkouts' ? 'passed' : 'skipped';
		expect(statuses).toEqual({
			'unique-ids': 'passed',
			order: 'passed',
			'over-limit': 'passed',
			'echo-limit': 'passed',
			'echo-order': 'passed',
			'echo-cursors': 'passed',
			'next-uri-params': 'passed',
			yielded: commerce,
			'cursor-range': commerce,
			total: commerce,
		});
		if (viewer === 'restricted') {
			// Short pages: the restricted credential's walk has short or empty pages that continue.
			expect(walk!.pageFills.some((fill) => fill.kind !== 'full' && fill.continues)).toBe(true);
			expect(walk!.pageFills.some((fill) => fill.scannedPast)).toBe(true);
		} else {
			expect(walk!.pageFills.filter((fill) => fill.continues).every((fill) => fill.kind === 'full')).toBe(true);
		}
	});

	test('default limit and order, and limit=0 read as the default 25', async () => {
		const target = sandboxTarget(sandbox);
		for (const extra of [[], ['--limit', '0']]) {
			// eslint-disable-next-line no-await-in-loop -- each audit is its own process; run one at a time on a loaded machine
			const {report} = await auditJson(['accounts', ...target.flags, ...extra], target.env);
			expect(report.result).toBe('passed');
			expect(report.walks[0]!.pageFills[0]!.limit).toBe(25);
		}
	});

	test('the human-readable report', async () => {
		const target = sandboxTarget(sandbox, 'restricted');
		const result = await auditInProcess(['checkouts', ...target.flags, '--limit', '20'], target.env);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(/^pagewalk audit of http:\/\/127\.0\.0\.1:\d+\/checkouts\?limit=20 \(commerce API\)/);
		expect(result.stdout).toMatch(/short pages \d+ \(\d+(\.\d)?%\) · empty pages \d+/);
		expect(result.stdout).toContain('fill chart (one cell per page');
		expect(result.stdout).toContain('Result: all checks passed (exit 0).');
		expect(result.stdout).not.toContain(sandbox.credentials.commerce.restricted);
	});

	test('--both-orders sees the same objects each way', async () => {
		const target = sandboxTarget(sandbox, 'restricted');
		const {report} = await auditJson(['accounts', ...target.flags, '--limit', '15', '--both-orders'], target.env);
		expect(report.walks.map((walk) => walk.label)).toEqual(['desc', 'asc']);
		expect(report.comparisons).toHaveLength(1);
		expect(report.comparisons[0]).toMatchObject({onlyA: [], onlyB: [], pages: []});
		expect(report.result).toBe('passed');
	});
});

describe('two credentials', () => {
	test.each(lists)('%s: full against restricted reports exactly the ids the sandbox hides, per page and in total', async (endpoint) => {
		const target = sandboxTarget(sandbox, 'full');
		const api = endpoint === 'accounts' ? 'account' : 'commerce';
		const env = {...target.env, RESTRICTED: sandbox.credentials[api].restricted};
		const {report, stdout} = await auditJson([endpoint, ...target.flags, '--limit', '10', '--compare-env', 'RESTRICTED'], env);
		expect(validate(schema, report)).toEqual([]);
		expect(report.result).toBe('passed');
		const [comparison] = report.comparisons;
		const primary = api === 'account' ? 'COINBASE_ACCESS_TOKEN' : 'COINBASE_COMMERCE_API_KEY';
		expect(comparison).toMatchObject({a: `desc, ${primary}`, b: 'desc, RESTRICTED', alignedBy: 'cursor', onlyB: []});
		const hidden = sandbox.store.hiddenIds(endpoint);
		expect(hidden.length).toBeGreaterThan(0);
		expect(comparison!.onlyA).toEqual(hidden);
		expect(comparison!.pages.flatMap((page) => page.onlyA)).toEqual(hidden);
		// Per page: what the full credential saw on page n and the restricted one did not.
		const fullIds = sandbox.store.ids(endpoint);
		for (const page of comparison!.pages) {
			const window = fullIds.slice((page.pageA! - 1) * 10, page.pageA! * 10);
			expect(page.onlyA).toEqual(window.filter((id) => hidden.includes(id)));
		}

		for (const secret of Object.values(sandbox.credentials[api])) {
			expect(stdout).not.toContain(secret);
		}
	});

	test('--compare-env names a variable that must be set', async () => {
		const target = sandboxTarget(sandbox);
		const unset = await auditInProcess(['accounts', ...target.flags, '--compare-env', 'NOPE'], target.env);
		expect(unset).toMatchObject({code: 2, stdout: ''});
		expect(unset.stderr).toBe('pagewalk: --compare-env NOPE: set NOPE to the second token or API key to compare with.\n');
		const bad = await auditInProcess(['accounts', ...target.flags, '--compare-env', 'A B'], target.env);
		expect(bad.code).toBe(2);
	});

	test('a bound ends the walk incomplete (exit 3) and says so', async () => {
		const target = sandboxTarget(sandbox);
		const {code, report} = await auditJson(['accounts', ...target.flags, '--limit', '10', '--max-pages', '3'], target.env);
		expect(code).toBe(3);
		expect(report.walks[0]!.end).toMatchObject({kind: 'max-pages', complete: false});
		expect(report.walks[0]!.pages).toBe(3);
	});
});

describe('audit while the list changes', () => {
	test.each(['accounts', 'checkouts'] as const)('%s: inserts and removes during the walk break no check', async (endpoint) => {
		// After every answer, before the next request: two new objects at the newest end of
		// the list walked and two live ones removed, anywhere (seeded). By answer, not by the
		// clock (the sandbox's churn): a walk on a loaded machine meets as many changes per
		// page as on an idle one, and the ascending walk always catches up with the inserts.
		let answers = 0;
		const change = () => {
			answers += 1;
			for (let step = 0; step < 2; step++) {
				churning.store.insert(endpoint);
				const live = churning.store.ids(endpoint);
				churning.store.remove(endpoint, live[hash32(answers, step) % live.length]!);
			}
		};

		const churning: Sandbox = await startSandbox({port: 0, records: 300, seed: 3, verbose: change});
		try {
			const target = sandboxTarget(churning);
			for (const order of ['desc', 'asc']) {
				// eslint-disable-next-line no-await-in-loop -- the two walks share one changing sandbox
				const {report} = await auditJson([endpoint, ...target.flags, '--limit', '5', '--order', order], target.env);
				expect(report.walks[0]!.checks.filter((check) => check.status === 'failed')).toEqual([]);
				expect(report.walks[0]!.end.complete).toBe(true);
				expect(report.exitCode).toBe(0);
			}

			// The walks met changes on every page: far more than a list's worth.
			expect(answers).toBeGreaterThan(100);
		} finally {
			await churning.close();
		}
	});
});

describe('progress', () => {
	test('drawn on stderr only when stderr is a terminal', async () => {
		const {runAudit} = await import('../../source/commands/audit/audit.js');
		const target = sandboxTarget(sandbox);
		const io = testIo({env: target.env, stderr: {tty: true}});
		const code = await runAudit(['accounts', ...target.flags, '--limit', '10'], io);
		const {text: stdout} = io.stdout;
		const {text: stderr} = io.stderr;
		expect(code).toBe(0);
		expect(stderr).toMatch(/page \d+ · [\d,]+ objects/);
		expect(stdout).not.toMatch(/page \d+ · [\d,]+ objects/);
	});
});
