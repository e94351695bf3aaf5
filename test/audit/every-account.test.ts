/**
 * `audit transactions` and `audit addresses` (commands/audit/audit-lists.ts
 * over http/every-account/account-lists.ts) against the sandbox and the
 * faulty server's `account-lists`: each list's section is, byte for byte
 * but for its time, the report `audit /v2/accounts/ID/transactions --json`
 * prints, and the accounts list's the report of `audit accounts`; the same
 * report at any concurrency; the restricted credential's short pages per
 * account; lists that fail reported and exit 3; findings exit 1; the text
 * bounded at 80 columns whatever the number of lists; the flags it refuses.
 */
import {describe, expect, it} from 'vitest';
import {auditWalk} from '../../source/audit/audit-walk.js';
import {buildListsReport, listSection, renderListsText, type ListsAuditReport} from '../../source/audit/lists-report.js';
import {renderJson, type AuditReport} from '../../source/audit/report.js';
import {Interrupted} from '../../source/commands/process/stop-signals.js';
import {runAudit} from '../../source/commands/audit/audit.js';
import {startSandbox} from '../../source/sandbox/index.js';
import {exitCodes} from '../../source/text/errors.js';
import {displayWidth, loadTextWidth} from '../../source/text/text-width.js';
import {startRecordingProxy} from '../support/recording-proxy.js';
import {runWithIo, testIo} from '../support/test-io.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {validate} from './json-schema.js';
import {cleanWalk, generate} from './pages.js';
import {auditInProcess, schema} from './run-audit.js';
import {useAccountsSandbox} from '../support/use-accounts-sandbox.js';

const {sandbox, env} = useAccountsSandbox();

/** A report's JSON with each walk's time (the one thing two walks of the same list may differ in) set to 0. */
const timeless = (json: string) => json.replaceAll(/"ms": ?\d+/g, '"ms": 0');

async function listsJson(argv: string[], environment: Record<string, string>): Promise<{code: number; stdout: string; stderr: string; report: ListsAuditReport}> {
	const result = await auditInProcess([...argv, '--json'], environment);
	return {...result, report: JSON.parse(result.stdout) as ListsAuditReport};
}

/** Each list's section against the audit of that list alone, and the accounts list's against `audit accounts`: the same JSON, byte for byte but for ms. */
async function expectSingleAudits(report: ListsAuditReport, each: 'transactions' | 'addresses', flags: string[], environment: Record<string, string>): Promise<void> {
	const accounts = await auditInProcess(['accounts', ...flags, '--json'], environment);
	const {accountLists, ...top} = report;
	const accountsReport = JSON.parse(accounts.stdout) as AuditReport;
	expect(timeless(renderJson({...top, result: accountsReport.result, exitCode: accountsReport.exitCode}))).toBe(timeless(accounts.stdout));
	for (const list of accountLists.lists) {
		// eslint-disable-next-line no-await-in-loop -- one list after the other, as a user would
		const single = await auditInProcess([`/v2/accounts/${list.account}/${each}`, ...flags, '--json'], environment);
		expect(single.code, list.account).toBe(list.report.exitCode);
		expect(timeless(renderJson(list.report)), list.account).toBe(timeless(single.stdout));
	}
}

describe('every account\'s list: each section is the audit of that list alone', () => {
	it('transactions, the full credential: every list, in the accounts list\'s order, each its single audit; the schema holds', async () => {
		const {code, stderr, report} = await listsJson(['transactions', '--limit', '10'], env());
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(validate(schema, report)).toEqual([]);
		expect(report.accountLists.lists.map(list => list.account)).toEqual(sandbox().store.ids('accounts'));
		expect(report.accountLists.summary).toMatchObject({lists: 40, passed: 40, withFindings: 0, incomplete: 0, failed: [], findings: [], stopped: null});
		const transactions = sandbox().store.ids('accounts').reduce((sum, id) => sum + sandbox().store.transactionIds(id)!.length, 0);
		expect(report.accountLists.summary.objects).toBe(transactions);
		await expectSingleAudits(report, 'transactions', ['--limit', '10'], env());
	});

	it('the restricted credential: the accounts it sees, and each list\'s short pages (objects it cannot see), per account', async () => {
		const {code, report} = await listsJson(['transactions', '--limit', '10'], env('restricted'));
		expect(code).toBe(0);
		expect(validate(schema, report)).toEqual([]);
		expect(report.accountLists.lists.map(list => list.account)).toEqual(sandbox().store.ids('accounts', {viewer: 'restricted'}));
		const {summary} = report.accountLists;
		expect(summary.shortBeforeEnd).toBeGreaterThan(0);
		expect(summary.scannedPast).toBeGreaterThan(0);
		// The summary is the sum of the lists' own reports.
		const walks = report.accountLists.lists.map(list => list.report.walks[0]!);
		expect(summary.shortPages).toBe(walks.reduce((sum, walk) => sum + walk.shortPages.count, 0));
		expect(summary.scannedPast).toBe(walks.reduce((sum, walk) => sum + walk.pageFills.filter(fill => fill.scannedPast).length, 0));
		await expectSingleAudits(report, 'transactions', ['--limit', '10'], env('restricted'));
		// The text names the lists with the most short pages before their end, with how many went past hidden objects.
		const text = await auditInProcess(['transactions', '--limit', '10'], env('restricted'));
		const most = [...report.accountLists.lists].sort((a, b) => beforeEnd(b) - beforeEnd(a))[0]!;
		expect(text.stdout).toContain('Short pages before a list\'s end');
		expect(text.stdout).toMatch(new RegExp(`\\n  ${most.account} +${most.report.walks[0]!.pages} +\\d+ +${beforeEnd(most)} +\\d+\\n`));
		expect(text.stdout).toContain(`${summary.scannedPast} pages continued past objects this credential cannot see`);
	});

	it('addresses, --order asc, from both ends: each list as its single audit with the same flags (where the chains meet follows the pace: compared by what they took)', async () => {
		const flags = ['--order', 'asc', '--limit', '5'];
		const {code, report} = await listsJson(['addresses', ...flags, '--both-ends', '--concurrency', '3'], env());
		expect(code).toBe(0);
		expect(validate(schema, report)).toEqual([]);
		// The accounts list from its first page (its ids are the walk's order); each account's list from both ends.
		const accounts = await auditInProcess(['accounts', ...flags, '--json'], env());
		expect(timeless(JSON.stringify(report.walks))).toBe(timeless(JSON.stringify((JSON.parse(accounts.stdout) as AuditReport).walks)));
		for (const list of report.accountLists.lists) {
			// eslint-disable-next-line no-await-in-loop -- one list after the other
			const single = await auditInProcess([`/v2/accounts/${list.account}/addresses`, ...flags, '--both-ends', '--json'], env());
			// From both ends, where the chains meet (which pages are read, whether the last is the forward chain's) follows the server's pace: what the walk took, that it ended, and that no check failed are the same.
			const held = (report: AuditReport) => report.walks.map(({objects, end, checks}) => ({objects, complete: end.complete, failed: checks.filter(check => check.status === 'failed')}));
			expect(held(list.report), list.account).toEqual(held(JSON.parse(single.stdout) as AuditReport));
			expect(list.report.walks[0]!.checks.map(check => check.id)).toContain('ends-agree');
		}
	});

	it('--max-pages bounds each list\'s walk, as each walk of one audit: the lists stopped there named, exit 3', async () => {
		const {code, report} = await listsJson(['transactions', '--limit', '5', '--max-pages', '3'], env());
		expect(code).toBe(3);
		expect(validate(schema, report)).toEqual([]);
		const bounded = report.accountLists.lists.filter(list => list.report.walks[0]!.end.kind === 'max-pages');
		expect(bounded.length).toBeGreaterThan(0);
		expect(report.accountLists.summary).toMatchObject({incomplete: bounded.length, failed: []});
		const single = await auditInProcess([`/v2/accounts/${bounded[0]!.account}/transactions`, '--limit', '5', '--max-pages', '3', '--json'], env());
		expect(single.code).toBe(3);
		expect(timeless(renderJson(bounded[0]!.report))).toBe(timeless(single.stdout));
		const text = await auditInProcess(['transactions', '--limit', '5', '--max-pages', '3'], env());
		expect(text.stdout.replaceAll('\n  ', ' ')).toContain(`${bounded.length} lists stopped at a bound before the end: ${bounded[0]!.account}`);
	});

	it('the same report at any concurrency', async () => {
		const reports = [];
		for (const concurrency of ['1', '8', '64']) {
			// eslint-disable-next-line no-await-in-loop -- one walk at a time
			const result = await auditInProcess(['transactions', '--limit', '7', '--concurrency', concurrency, '--json'], env('restricted'));
			expect(result.code).toBe(0);
			reports.push(timeless(result.stdout));
		}

		expect(reports[1]).toBe(reports[0]);
		expect(reports[2]).toBe(reports[0]);
	});
});

function beforeEnd(list: ListsAuditReport['accountLists']['lists'][number]): number {
	return list.report.walks[0]!.pageFills.filter(fill => fill.kind !== 'full' && fill.continues).length;
}

describe('lists that fail, and findings', () => {
	const faulty = useFaultyServer();

	it('403, 404 and a 503 past the retries: each reported with its account and reason, the others audited, exit 3', async () => {
		const base = faulty().base('account-lists', {size: 6});
		const environment = {PAGEWALK_BASE_URL: base, COINBASE_ACCESS_TOKEN: 'token', NO_COLOR: '1'};
		const {code, stderr, report} = await listsJson(['transactions', '--limit', '10', '--retries', '1', '--concurrency', '3'], environment);
		expect(code).toBe(exitCodes.incomplete);
		expect(validate(schema, report)).toEqual([]);
		expect(report).toMatchObject({result: 'incomplete', exitCode: 3});
		const reasons = [
			'The account API refused access (403 invalid_scope: Forbidden: the credential may not read this account); use a credential in COINBASE_ACCESS_TOKEN with permission to read this list.',
			'The account API has no such list (404 not_found: There is no account item-0003).',
			'The account API failed (503 service_unavailable: Try again later) after 1 retry; try again later.',
		];
		expect(report.accountLists.summary).toMatchObject({lists: 6, passed: 3, incomplete: 3, stopped: null, failed: reasons.map((reason, index) => ({account: `item-000${index + 2}`, reason}))});
		expect(report.accountLists.lists.map(list => list.failure)).toEqual([null, ...reasons, null, null]);
		expect(stderr).toBe(reasons.map((reason, index) => `pagewalk: account item-000${index + 2}: ${reason}\n`).join(''));
		// Each list, the failed ones too, as its audit alone reports it (exit 3 for those: the walk could not finish).
		for (const list of report.accountLists.lists) {
			// eslint-disable-next-line no-await-in-loop -- one list after the other
			const single = await auditInProcess([`/v2/accounts/${list.account}/transactions`, '--limit', '10', '--retries', '1', '--json'], environment);
			expect(timeless(renderJson(list.report)), list.account).toBe(timeless(single.stdout));
			expect(single.code).toBe(list.failure === null ? 0 : 3);
		}

		const text = await auditInProcess(['transactions', '--limit', '10', '--retries', '1'], environment);
		expect(text.code).toBe(3);
		expect(text.stdout).toContain('Lists that failed (the walk went on without them)\n  account item-0002: The account API refused access (403 invalid_scope:');
		expect(text.stdout).toContain('  lists 6 · passed 3 · with findings 0 · not read to the end 3 · failed 3\n');
		expect(text.stdout).toMatch(/\n\nResult: some lists were not read to their end, so not fully checked \(exit 3\)\.\n$/);
	});

	it('a failure every list would meet (the credential refused) stops the walk: said in the report and on stderr, exit 3', async () => {
		const {code, stderr, report} = await listsJson(['transactions'], {...env(), COINBASE_ACCESS_TOKEN: 'not-a-token'});
		expect(code).toBe(3);
		expect(validate(schema, report)).toEqual([]);
		expect(report.accountLists.summary.lists).toBe(0);
		expect(report.accountLists.summary.stopped).toMatch(/^The account API rejected the credential \(401/);
		expect(report.walks[0]!.end.kind).toBe('error');
		expect(stderr).toBe(`pagewalk: ${report.accountLists.summary.stopped!}\n`);
	});

	it('a failure every list would meet, met by a list (the rate limit beyond --max-wait): the lists audited before it, the reason, exit 3', async () => {
		const limited = await startSandbox({records: 12, keyFiles: false, rateLimit: {count: 6, perMs: 600_000, headers: false}});
		try {
			const environment = {PAGEWALK_BASE_URL: limited.accountUrl, COINBASE_ACCESS_TOKEN: limited.credentials.account.full, NO_COLOR: '1'};
			const {code, stderr, report} = await listsJson(['transactions', '--limit', '100', '--max-wait', '1', '--concurrency', '1'], environment);
			expect(code).toBe(3);
			expect(validate(schema, report)).toEqual([]);
			const {summary} = report.accountLists;
			// The accounts list is read as its ids are needed: its end was not read before the stop.
			expect(report.walks[0]!.end).toEqual({kind: 'error', detail: `the walk of every account's lists stopped before the end of this list was read: ${summary.stopped!}`, complete: false, lastPageShort: false});
			expect(report.walks[0]!.requests).toBe(report.walks[0]!.pages);
			expect(summary.lists).toBeGreaterThan(0);
			expect(summary.lists).toBeLessThan(12);
			expect(summary.passed).toBe(summary.lists);
			expect(summary.stopped).toMatch(/429/);
			expect(report.result).toBe('incomplete');
			expect(stderr).toBe(`pagewalk: ${summary.stopped!}\n`);
		} finally {
			await limited.close();
		}
	});

	it('a contract check failed in some lists: the findings by rule and by list, exit 1', async () => {
		const scenario = await startSandbox({records: 12, keyFiles: false, scenario: 'unordered'});
		try {
			const environment = {PAGEWALK_BASE_URL: scenario.accountUrl, COINBASE_ACCESS_TOKEN: scenario.credentials.account.full, NO_COLOR: '1'};
			const {code, report} = await listsJson(['transactions', '--limit', '5'], environment);
			expect(code).toBe(1);
			expect(validate(schema, report)).toEqual([]);
			const withFindings = report.accountLists.lists.filter(list => list.report.result === 'failed');
			expect(withFindings.length).toBeGreaterThan(0);
			expect(report.accountLists.summary).toMatchObject({withFindings: withFindings.length, findings: [{check: 'order', lists: withFindings.length}]});
			const text = await auditInProcess(['transactions', '--limit', '5'], environment);
			expect(text.code).toBe(1);
			expect(text.stdout).toContain(`  findings: order in ${withFindings.length} lists\n`);
			expect(text.stdout).toContain(`Account ${withFindings[0]!.account} (desc)\n`);
			// The line wrapped at 80 columns, its rows after the first two cells in.
			expect(text.stdout.replaceAll('\n  ', ' ')).toMatch(/\n\nResult: a contract check failed: order in \d+ lists; order in the accounts list \(exit 1\)\.\n$/);
		} finally {
			await scenario.close();
		}
	});
});

describe('the whole walk\'s result', () => {
	it('every list passed, but the walk stopped before the last: incomplete, exit 3; a finding anywhere: exit 1', async () => {
		const accounts = await auditWalk(generate(cleanWalk(3, 25)), {label: 'desc', order: 'desc'});
		const passed = listSection({account: 'a', endpoint: 'http://127.0.0.1:9/v2/accounts/a/transactions', failure: null, walk: await auditWalk(generate(cleanWalk(12, 10)), {label: 'desc', order: 'desc'})}, 'account');
		const stopped = buildListsReport({endpoint: 'http://127.0.0.1:9/v2/accounts', api: 'account', each: 'transactions', accounts, lists: [passed], stopped: 'The account API is rate limiting.'});
		expect(stopped).toMatchObject({result: 'incomplete', exitCode: 3});
		expect(renderListsText(stopped)).toContain('  the walk stopped before every list was audited: The account API is rate\n    limiting.\n');
		expect(buildListsReport({endpoint: 'http://127.0.0.1:9/v2/accounts', api: 'account', each: 'transactions', accounts, lists: [passed], stopped: null})).toMatchObject({result: 'passed', exitCode: 0});
		const pages = cleanWalk(12, 10);
		(pages[0]!.pagination as {order: string}).order = 'asc';
		const finding = listSection({account: 'b', endpoint: 'http://127.0.0.1:9/v2/accounts/b/transactions', failure: null, walk: await auditWalk(generate(pages), {label: 'desc', order: 'desc'})}, 'account');
		expect(buildListsReport({endpoint: 'http://127.0.0.1:9/v2/accounts', api: 'account', each: 'transactions', accounts, lists: [passed, finding], stopped: 'The account API is rate limiting.'})).toMatchObject({result: 'failed', exitCode: 1});
	});
});

describe('the text report is bounded', () => {
	it('1,000 lists: the lists without findings in a few lines, at most 80 columns each', async () => {
		await loadTextWidth();
		const accounts = await auditWalk(generate(cleanWalk(1000, 25)), {label: 'desc', order: 'desc'});
		const lists = [];
		for (let index = 0; index < 1000; index += 1) {
			const pages = cleanWalk(30, 10);
			if (index % 3 === 0) {
				// A short page the list went on after, as a restricted credential sees.
				pages[0]!.objects = pages[0]!.objects.slice(0, 4);
			}

			if (index % 100 === 7) {
				// A finding: the limit echoed wrong.
				(pages[1]!.pagination as {limit: number}).limit = 99;
			}

			// eslint-disable-next-line no-await-in-loop -- pure, over pages in memory
			const walk = await auditWalk(generate(pages), {label: 'desc', order: 'desc'});
			lists.push(listSection({account: `account-${String(index).padStart(4, '0')}`, endpoint: `http://127.0.0.1:9/v2/accounts/account-${index}/transactions`, failure: index === 500 ? 'The account API has no such list (404 not_found: There is no account).' : null, walk}, 'account'));
		}

		const report = buildListsReport({endpoint: 'http://127.0.0.1:9/v2/accounts', api: 'account', each: 'transactions', accounts, lists, stopped: null});
		expect(validate(schema, JSON.parse(renderJson(report)))).toEqual([]);
		expect(report).toMatchObject({result: 'failed', exitCode: 1});
		expect(report.accountLists.summary).toMatchObject({lists: 1000, withFindings: 10, findings: [{check: 'echo-limit', lists: 10}]});
		const text = renderListsText(report);
		const lines = text.trimEnd().split('\n');
		expect(lines.length).toBeLessThan(200);
		expect(lines.filter(line => displayWidth(line) > 80)).toEqual([]);
		expect(text).toContain('… and 321 more lists with short pages before the end\n');
		expect(text).toContain('989 lists passed every check and were read to the end.\n');
		expect(text).toContain('Lists that failed (the walk went on without them)\n  account account-0500: The account API has no such list (404 not_found: There\n    is no account).\n');
	});
});

describe('flags an audit of every account refuses, before anything is sent', () => {
	it.each([
		[['transactions', '--both-orders'], 'pagewalk: --both-orders compares two walks of one list page by page, so it applies to one account\'s list (/v2/accounts/ID/transactions), not to every account\'s.\n'],
		[['addresses', '--compare-env', 'OTHER'], 'pagewalk: --compare-env compares two walks of one list page by page, so it applies to one account\'s list (/v2/accounts/ID/addresses), not to every account\'s.\n'],
		[['transactions', '--compare-profile', 'other'], 'pagewalk: --compare-profile compares two walks of one list page by page, so it applies to one account\'s list (/v2/accounts/ID/transactions), not to every account\'s.\n'],
		[['transactions', '--concurrency', '65'], 'pagewalk: --concurrency must be a whole number from 1 to 64, not \'65\'.\n'],
		[['accounts', '--concurrency', '4'], 'pagewalk: --concurrency applies to transactions and addresses, which walk a list of every account; one list is walked page after page.\n'],
	])('%j', async (argv, stderr) => {
		const result = await auditInProcess(argv, {...env(), OTHER: sandbox().credentials.account.restricted});
		expect(result).toEqual({code: exitCodes.usage, stdout: '', stderr});
	});
});

describe('interrupted', () => {
	it('SIGINT mid-walk: the lists audited until then, marked as interrupted, exit 130', async () => {
		const proxy = await startRecordingProxy(sandbox().accountUrl);
		const ids = sandbox().store.ids('accounts');
		const held = proxy.hold(path => path.startsWith(`/v2/accounts/${ids[10]!}/transactions`));
		const interrupt = new AbortController();
		try {
			const running = runWithIo(async io => runAudit(['transactions', '--base-url', proxy.origin, '--json', '--concurrency', '2'], io, {signal: interrupt.signal}), testIo({env: env()}));
			await expect.poll(() => held.arrived.length, {timeout: 30_000}).toBeGreaterThan(0);
			interrupt.abort(new Interrupted('SIGINT'));
			held.release();
			const result = await running;
			expect(result.code).toBe(130);
			const report = JSON.parse(result.stdout) as ListsAuditReport;
			expect(validate(schema, report)).toEqual([]);
			expect(report).toMatchObject({result: 'interrupted', interrupted: 'SIGINT', exitCode: 130});
			expect(report.accountLists.lists.map(list => list.account)).toEqual(ids.slice(0, report.accountLists.lists.length));
			expect(report.accountLists.lists.length).toBeLessThanOrEqual(10);
		} finally {
			await proxy.close();
		}
	});
});
