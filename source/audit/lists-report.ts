/**
 * The report of an audit of every account's list (`audit transactions`,
 * `audit addresses`): one report for the whole walk. Its top is the audit
 * report of the accounts list (report.ts: that walk, its checks, the
 * result and exit status of the whole walk); `accountLists` adds a summary
 * and, per account in the accounts list's order, the report that
 * `audit /v2/accounts/ID/transactions` prints of that list alone. The text
 * is bounded whatever the number of accounts: the lists with findings or a
 * failure are shown, at most a few in full, and the others summed up in a
 * line; every list is in the JSON.
 */
import type {EachList} from '../config/endpoint.js';
import {commands} from '../config/flags.js';
import {flag} from '../config/hints.js';
import type {Api} from '../contract/types.js';
import {formatCount} from '../text/format-count.js';
import {inert} from '../text/inert.js';
import {wrapLines} from '../text/wrap.js';
import type {WalkAudit} from './audit-walk.js';
import {checkDefinitions, type CheckId} from './checks.js';
import {auditResult, buildReport, renderCheck, renderWalk, type AuditReport, type AuditResult, type WalkReport} from './report.js';

/** One account's list as audited: the first URL its walk asked for, and its failure (403, 404, a 5xx past the retries) in one sentence. */
export type ListAudit = {account: string; endpoint: string; failure: string | null; walk: WalkAudit};

/** One account's list in the report: `report` is that list's own audit report, as an audit of the list alone prints it. */
export type ListSection = {account: string; failure: string | null; report: AuditReport};

export type ListsSummary = {
	/** Lists audited (each read to its end, to a bound, or to its failure), and how each came out. */
	lists: number;
	passed: number;
	withFindings: number;
	/** Not read to their end: failed, or stopped at a bound. */
	incomplete: number;
	/** The lists that failed, each with its account and why. */
	failed: Array<{account: string; reason: string}>;
	/** Each check that failed in some list, and in how many lists (the catalogue's order). */
	findings: Array<{check: CheckId; lists: number}>;
	pages: number;
	objects: number;
	requests: number;
	/** Short and empty pages of every list, as each list's report counts them. */
	shortPages: number;
	emptyPages: number;
	/** Short or empty pages a list went on after (a next_uri): not its end, so fewer than the limit were shown, as permissions leave. */
	shortBeforeEnd: number;
	/** Pages whose next_uri continued from an id not shown: the server scanned past objects this credential cannot see. */
	scannedPast: number;
	/** A failure every list would meet (the credential refused, the rate limit, the server gone) that ended the walk; null when it did not. */
	stopped: string | null;
};

export type AccountListsSection = {each: EachList; summary: ListsSummary; lists: ListSection[]};

/** The whole walk's report: the accounts list's, with every account's list. */
export type ListsAuditReport = AuditReport & {accountLists: AccountListsSection};

/** A list's section: the audit report of that list alone. */
export function listSection(list: ListAudit, api: Api): ListSection {
	return {account: list.account, failure: list.failure, report: buildReport({endpoint: list.endpoint, api, walks: [list.walk], comparisons: []})};
}

function summaryOf(lists: readonly ListSection[], stopped: string | null): ListsSummary {
	const findings = new Map<CheckId, number>();
	const summary: ListsSummary = {lists: lists.length, passed: 0, withFindings: 0, incomplete: 0, failed: [], findings: [], pages: 0, objects: 0, requests: 0, shortPages: 0, emptyPages: 0, shortBeforeEnd: 0, scannedPast: 0, stopped};
	for (const {account, failure, report} of lists) {
		summary.passed += report.result === 'passed' ? 1 : 0;
		summary.withFindings += report.result === 'failed' ? 1 : 0;
		summary.incomplete += report.walks.some(walk => !walk.end.complete) ? 1 : 0;
		if (failure !== null) {
			summary.failed.push({account, reason: failure});
		}

		for (const id of new Set(report.walks.flatMap(walk => walk.checks.filter(check => check.status === 'failed').map(check => check.id)))) {
			findings.set(id, (findings.get(id) ?? 0) + 1);
		}

		for (const walk of report.walks) {
			summary.pages += walk.pages;
			summary.objects += walk.objects;
			summary.requests += walk.requests;
			summary.shortPages += walk.shortPages.count;
			summary.emptyPages += walk.emptyPages.count;
			summary.shortBeforeEnd += walk.pageFills.filter(fill => fill.kind !== 'full' && fill.continues).length;
			summary.scannedPast += walk.pageFills.filter(fill => fill.scannedPast).length;
		}
	}

	const order = checkDefinitions.map(definition => definition.id);
	summary.findings = [...findings].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([check, count]) => ({check, lists: count}));
	return summary;
}

/**
 * The whole walk's report. Its result and exit status are an audit's
 * (report.ts auditResult) over every walk, the accounts list's and each
 * list's: a failed check anywhere is 1; else a walk not read to its end (a
 * list that failed, a bound, the walk stopped) is 3.
 */
export function buildListsReport(input: {
	endpoint: string;
	api: Api;
	each: EachList;
	accounts: WalkAudit;
	lists: ListSection[];
	stopped: string | null;
	interrupted?: {signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP'; exitCode: 129 | 130 | 143};
}): ListsAuditReport {
	const top = buildReport({endpoint: input.endpoint, api: input.api, walks: [input.accounts], comparisons: [], ...(input.interrupted ? {interrupted: input.interrupted} : {})});
	if (!input.interrupted) {
		const walks = [...top.walks, ...input.lists.flatMap(list => list.report.walks)];
		const {result, exitCode} = auditResult(walks);
		const stopped = result === 'passed' && input.stopped !== null;
		top.result = stopped ? 'incomplete' : result;
		top.exitCode = stopped ? 3 : exitCode;
	}

	return {...top, accountLists: {each: input.each, summary: summaryOf(input.lists, input.stopped), lists: input.lists}};
}

/** Lists with findings shown in the text (their failed checks), and lists named (failed, or in the table of short pages); the rest are counted. */
export const shownInFull = 10;
export const namedAtMost = 10;
/** The width the text report is wrapped to. */
export const reportColumns = 80;

const plural = (count: number, one: string, many = `${one}s`) => `${formatCount(count)} ${count === 1 ? one : many}`;

/** The lines, each wrapped to `width` cells, its rows after the first hanging two cells further in. */
function wrapped(lines: readonly string[], width: number): string[] {
	return lines.flatMap(line => {
		const indent = /^ */.exec(line)![0].length;
		if (line.length <= width && !/[^\u0020-\u007E]/.test(line)) {
			return [line];
		}

		const [first = '', ...rest] = wrapLines(line.slice(indent), width - indent - 2);
		return [`${' '.repeat(indent)}${first}`, ...rest.map(row => `${' '.repeat(indent + 2)}${row}`)];
	});
}

/** `a, b, c and 4 more`: at most `most` of `names`, the rest counted. */
function named(names: readonly string[], most = 5): string {
	const shown = names.slice(0, most).join(', ');
	return names.length > most ? `${shown} and ${formatCount(names.length - most)} more` : shown;
}

function summaryLines(summary: ListsSummary): string[] {
	const {lists, passed, withFindings, incomplete, failed} = summary;
	const lines = [
		'Summary',
		`  lists ${formatCount(lists)} · passed ${formatCount(passed)} · with findings ${formatCount(withFindings)} · not read to the end ${formatCount(incomplete)} · failed ${formatCount(failed.length)}`,
		`  pages ${formatCount(summary.pages)} · objects ${formatCount(summary.objects)} · requests ${formatCount(summary.requests)}`,
		`  short pages ${formatCount(summary.shortPages)} · empty pages ${formatCount(summary.emptyPages)} · of them before a list's end ${formatCount(summary.shortBeforeEnd)}`,
		`  ${plural(summary.scannedPast, 'page')} continued past objects this credential cannot see`,
	];
	if (summary.findings.length > 0) {
		lines.push(`  findings: ${summary.findings.map(({check, lists}) => `${check} in ${plural(lists, 'list')}`).join(' · ')}`);
	}

	if (summary.stopped !== null) {
		lines.push(`  the walk stopped before every list was audited: ${inert(summary.stopped)}`);
	}

	return lines;
}

function failedLines(failed: ListsSummary['failed']): string[] {
	if (failed.length === 0) {
		return [];
	}

	const lines = ['Lists that failed (the walk went on without them)'];
	for (const {account, reason} of failed.slice(0, namedAtMost)) {
		lines.push(`  account ${inert(account)}: ${inert(reason)}`);
	}

	if (failed.length > namedAtMost) {
		lines.push(`  … and ${plural(failed.length - namedAtMost, 'more list')} (every one in ${flag(['audit'], 'json')})`);
	}

	return [...lines, ''];
}

/** A list with findings: its counts and short pages, then its failed checks with their evidence (every check in the JSON). */
function findingSection({account, report}: ListSection, api: Api): string[] {
	const lines: string[] = [];
	for (const walk of report.walks) {
		const {short, beforeEnd, hidden} = shortCounts(walk);
		lines.push(
			`Account ${inert(account)} (${walk.label})`,
			`  pages ${formatCount(walk.pages)} · objects ${formatCount(walk.objects)} · short pages ${formatCount(short)} (${formatCount(beforeEnd)} before the end, ${formatCount(hidden)} past hidden objects)`,
			`  end: ${inert(walk.end.detail)}`,
			...walk.checks.filter(check => check.status === 'failed').flatMap(check => renderCheck(check, api, walk.pages)),
			'',
		);
	}

	return lines;
}

/** The lists with findings: the first few with their failed checks, the rest named. */
function findingLines(lists: readonly ListSection[], api: Api): string[] {
	const withFindings = lists.filter(list => list.report.result === 'failed');
	if (withFindings.length === 0) {
		return [];
	}

	const lines = withFindings.slice(0, shownInFull).flatMap(list => findingSection(list, api));
	const rest = withFindings.slice(shownInFull);
	if (rest.length > 0) {
		lines.push(`… and ${plural(rest.length, 'more list')} with findings: ${named(rest.map(list => inert(list.account)))} (every one in ${flag(['audit'], 'json')})`, '');
	}

	return lines;
}

/** A list's short pages: short or empty, of those the ones the list went on after, and pages continued past objects not shown. */
function shortCounts(walk: WalkReport): {short: number; beforeEnd: number; hidden: number} {
	return {
		short: walk.shortPages.count + walk.emptyPages.count,
		beforeEnd: walk.pageFills.filter(fill => fill.kind !== 'full' && fill.continues).length,
		hidden: walk.pageFills.filter(fill => fill.scannedPast).length,
	};
}

/**
 * The other lists: a table of those with short pages before their end
 * (fewer than the limit with more to come: permissions or access level),
 * most first, then a line for the rest.
 */
function otherLines(lists: readonly ListSection[]): string[] {
	const others = lists.filter(list => list.report.result !== 'failed' && list.failure === null);
	const short = others
		.map(list => ({list, walk: list.report.walks[0]!, counts: shortCounts(list.report.walks[0]!)}))
		.filter(({counts}) => counts.beforeEnd > 0)
		.sort((a, b) => b.counts.beforeEnd - a.counts.beforeEnd);
	const lines: string[] = [];
	if (short.length > 0) {
		const width = Math.max(36, ...short.slice(0, namedAtMost).map(({list}) => inert(list.account).length));
		lines.push(
			`Short pages before a list's end, of the other lists (${short.length > namedAtMost ? `the ${formatCount(namedAtMost)} with most` : 'each'}; every list in ${flag(['audit'], 'json')})`,
			`  ${'account'.padEnd(width)}  pages  short  before end  past hidden`,
		);
		for (const {list, walk, counts} of short.slice(0, namedAtMost)) {
			const cells = [[walk.pages, 5], [counts.short, 5], [counts.beforeEnd, 10], [counts.hidden, 11]] as const;
			lines.push(`  ${inert(list.account).padEnd(width)}${cells.map(([count, cell]) => `  ${formatCount(count).padStart(cell)}`).join('')}`);
		}

		if (short.length > namedAtMost) {
			lines.push(`  … and ${plural(short.length - namedAtMost, 'more list')} with short pages before the end`);
		}

		lines.push('');
	}

	const bounded = others.filter(list => list.report.result === 'incomplete');
	if (bounded.length > 0) {
		lines.push(`${plural(bounded.length, 'list')} stopped at a bound before the end: ${named(bounded.map(list => inert(list.account)))}.`);
	}

	const passed = others.filter(list => list.report.result === 'passed').length;
	lines.push(`${plural(passed, 'list')} passed every check and ${passed === 1 ? 'was' : 'were'} read to the end.`, '');
	return lines;
}

const verdicts: Record<AuditResult, string> = {
	passed: 'all checks passed in every list',
	failed: 'a contract check failed',
	incomplete: 'some lists were not read to their end, so not fully checked',
	interrupted: 'interrupted before the audit finished; this report covers only the lists read until then',
};

function verdictLine(report: ListsAuditReport): string {
	const {summary} = report.accountLists;
	const inAccounts = report.walks.flatMap(walk => walk.checks.filter(check => check.status === 'failed').map(check => check.id));
	const where = [
		...(summary.withFindings > 0 ? [`${summary.findings.map(finding => finding.check).join(', ')} in ${plural(summary.withFindings, 'list')}`] : []),
		...(inAccounts.length > 0 ? [`${inAccounts.join(', ')} in the accounts list`] : []),
	].join('; ');
	const verdict = report.interrupted
		? `${verdicts.interrupted.replace('interrupted', `interrupted by ${report.interrupted}`)}${where === '' ? '' : `; in it a contract check failed: ${where}`}`
		: `${verdicts[report.result]}${report.result === 'failed' ? `: ${where}` : ''}`;
	return `Result: ${verdict} (exit ${report.exitCode}).`;
}

/**
 * The text report: the summary, the lists that failed, the accounts list's
 * walk, the lists with findings (the first few in full), the short pages of
 * the others (those with most), one line for the rest, the result; wrapped
 * to 80 columns. Every server string made inert here or by renderWalk.
 */
export function renderListsText(report: ListsAuditReport): string {
	const {summary, lists, each} = report.accountLists;
	const lines = [
		`${commands.audit.name} of every account's ${each} (${report.api} API)${report.interrupted ? ` — interrupted by ${report.interrupted}, partial report` : ''}`,
		`accounts list: ${inert(report.endpoint)}`,
		'',
		...summaryLines(summary),
		'',
		...failedLines(summary.failed),
	];
	for (const walk of report.walks) {
		lines.push(...renderWalk(walk, report.api, `The accounts list (${walk.label})`), '');
	}

	lines.push(...findingLines(lists, report.api), ...otherLines(lists), verdictLine(report));
	return `${wrapped(lines, reportColumns).join('\n')}\n`;
}
