/**
 * The audit report: one plain object (what `--json` prints, described by
 * report-schema.json) and its human-readable rendering. Every server string
 * in the text goes through inert(); the JSON escapes the same characters.
 */
import {inert} from '../text/inert.js';
import {escapeUnsafeJson} from '../text/unsafe-chars.js';
import type {Api} from '../contract/types.js';
import type {WalkAudit} from './audit-walk.js';
import type {CheckResult} from './checks.js';
import type {Comparison, PageDifference} from './compare.js';
import {fillChart, summarizeFill} from './fill.js';
import {flag} from '../config/hints.js';
import {commands} from '../config/flags.js';

export const reportSchemaId = 'pagewalk-audit/1';

export type AuditResult = 'passed' | 'failed' | 'incomplete' | 'interrupted';

export type WalkReport = {
	label: string;
	order: 'asc' | 'desc';
	pages: number;
	objects: number;
	requests: number;
	retries: number;
	ms: number;
	shortPages: {count: number; share: number};
	emptyPages: {count: number; share: number};
	fill: {min: number; median: number; pagesPerCell: number; chart: string[]};
	pageFills: Array<{
		page: number;
		shown: number;
		limit: number;
		yielded: number | null;
		kind: 'full' | 'short' | 'empty';
		continues: boolean;
		nextCursor: string | null;
		lastShownId: string | null;
		scannedPast: boolean;
	}>;
	end: WalkAudit['end'];
	checks: CheckResult[];
};

export type AuditReport = {
	schema: typeof reportSchemaId;
	endpoint: string;
	api: Api;
	result: AuditResult;
	/** 129, 130, 143: interrupted by SIGHUP, SIGINT or SIGTERM. */
	exitCode: 0 | 1 | 3 | 129 | 130 | 143;
	/** Present when a signal stopped the audit: the report covers what was read until then. */
	interrupted?: 'SIGINT' | 'SIGTERM' | 'SIGHUP';
	walks: WalkReport[];
	comparisons: Comparison[];
};

/**
 * Exit status: a failed check is a finding whatever else happened (1); else a
 * walk that did not reach the end of the list (an error or a bound) is 3.
 */
export function auditResult(walks: ReadonlyArray<Pick<WalkAudit, 'checks' | 'end'>>): {result: AuditResult; exitCode: 0 | 1 | 3} {
	if (walks.some((walk) => walk.checks.some((check) => check.status === 'failed'))) {
		return {result: 'failed', exitCode: 1};
	}

	if (walks.some((walk) => !walk.end.complete)) {
		return {result: 'incomplete', exitCode: 3};
	}

	return {result: 'passed', exitCode: 0};
}

function share(count: number, of: number): number {
	return of === 0 ? 0 : Math.round((count / of) * 10_000) / 10_000;
}

export function walkReport(walk: WalkAudit): WalkReport {
	const summary = summarizeFill(walk.fills);
	const chart = fillChart(walk.fills);
	return {
		label: walk.label,
		order: walk.order,
		pages: walk.pages,
		objects: walk.objects,
		requests: walk.requests,
		retries: walk.retries,
		ms: walk.ms,
		shortPages: {count: summary.short, share: share(summary.short, summary.pages)},
		emptyPages: {count: summary.empty, share: share(summary.empty, summary.pages)},
		fill: {min: share(summary.min, 1), median: share(summary.median, 1), pagesPerCell: chart.pagesPerCell, chart: chart.lines},
		pageFills: walk.fills.map((fill) => ({
			page: fill.page,
			shown: fill.shown,
			limit: fill.limit,
			yielded: fill.yielded,
			kind: fill.kind,
			continues: fill.continues,
			nextCursor: fill.evidence.nextCursor,
			lastShownId: fill.evidence.lastShownId,
			scannedPast: fill.evidence.scannedPast,
		})),
		end: walk.end,
		checks: walk.checks,
	};
}

export function buildReport(input: {endpoint: string; api: Api; walks: WalkAudit[]; comparisons: Comparison[]; interrupted?: {signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP'; exitCode: 129 | 130 | 143}}): AuditReport {
	const {result, exitCode} = input.interrupted ? {result: 'interrupted' as const, exitCode: input.interrupted.exitCode} : auditResult(input.walks);
	return {
		schema: reportSchemaId,
		endpoint: input.endpoint,
		api: input.api,
		result,
		exitCode,
		...(input.interrupted ? {interrupted: input.interrupted.signal} : {}),
		walks: input.walks.map((walk) => walkReport(walk)),
		comparisons: input.comparisons,
	};
}

/**
 * The report as one JSON document and a newline. Characters a terminal could
 * act on that JSON.stringify leaves raw (C1 controls, bidi, invisible marks,
 * tag characters, line separators) are written as \u escapes by the same
 * table as NDJSON (text/unsafe-chars.ts): still valid JSON, the same values.
 */
export function renderJson(report: AuditReport): string {
	return `${escapeUnsafeJson(JSON.stringify(report, null, '\t'))}\n`;
}

function percent(value: number): string {
	return `${(value * 100).toFixed(value === 0 || value === 1 ? 0 : 1)}%`;
}

function seconds(ms: number): string {
	return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

const marks: Record<CheckResult['status'], string> = {passed: '✓', failed: '✗', skipped: '–', noted: '!'};

/** A check's lines of the text report: its mark, title and rule, and its evidence by page. */
export function renderCheck(check: CheckResult, api: Api, pages: number): string[] {
	const head = `    ${marks[check.status]} ${check.title} (${check.rule})`;
	if (check.status === 'skipped') {
		// The first reason that holds: a walk that read no page checked nothing, whatever the API.
		const why = pages === 0 ? 'no page was read' : check.id === 'order' ? 'no created_at to compare' : check.id === 'ends-agree' ? 'the walk went on as one chain before the ends met' : api === 'commerce' ? 'nothing to check' : 'commerce API only';
		return [`${head}: skipped, ${why}`];
	}

	const lines = [check.status === 'failed' ? `${head}: ${check.failures} failure${check.failures === 1 ? '' : 's'}` : head];
	for (const evidence of check.evidence) {
		lines.push(`        page ${evidence.page}: ${inert(evidence.message)}`);
	}

	if (check.failures > check.evidence.length) {
		lines.push(`        … and ${check.failures - check.evidence.length} more`);
	}

	return lines;
}

function renderIds(ids: readonly string[], shown = 5): string {
	const head = ids.slice(0, shown).map((id) => inert(id)).join(', ');
	return ids.length > shown ? `${head} (+${ids.length - shown} more)` : head;
}

function renderPageDifference(row: PageDifference, labels: {a: string; b: string}): string {
	const where = row.pageA === row.pageB ? `page ${row.pageA}` : `page ${row.pageA ?? '–'}/${row.pageB ?? '–'}`;
	const parts: string[] = [];
	if (row.onlyA.length > 0) {
		parts.push(`only ${labels.a}: ${renderIds(row.onlyA)}`);
	}

	if (row.onlyB.length > 0) {
		parts.push(`only ${labels.b}: ${renderIds(row.onlyB)}`);
	}

	return `    ${where}: ${parts.join('; ')}`;
}

/** How many differing pages a text report lists before summing up the rest. */
const pageRowsShown = 20;

function renderComparison(comparison: Comparison): string[] {
	const labels = {a: comparison.a, b: comparison.b};
	const lines = [
		`Compare ${comparison.a} with ${comparison.b}`,
		`  objects ${comparison.objectsA} vs ${comparison.objectsB} · only ${comparison.a} ${comparison.onlyA.length} · only ${comparison.b} ${comparison.onlyB.length}`,
	];
	if (comparison.onlyA.length === 0 && comparison.onlyB.length === 0) {
		lines.push('  both saw the same objects.');
		return lines;
	}

	lines.push(`  pages paired by ${comparison.alignedBy}; differences:`);
	for (const row of comparison.pages.slice(0, pageRowsShown)) {
		lines.push(renderPageDifference(row, labels));
	}

	if (comparison.pages.length > pageRowsShown) {
		lines.push(`    … and ${comparison.pages.length - pageRowsShown} more pages with differences (see ${flag(['audit'], 'json')})`);
	}

	return lines;
}

/** A walk's section of the text report, under `title` (the walk's label unless given: an account's list is named by its account). */
export function renderWalk(walk: WalkReport, api: Api, title = `Walk ${walk.label}`): string[] {
	const lines = [
		title,
		`  pages ${walk.pages} · objects ${walk.objects} · requests ${walk.requests} · retries ${walk.retries} · ${seconds(walk.ms)}`,
		`  short pages ${walk.shortPages.count} (${percent(walk.shortPages.share)}) · empty pages ${walk.emptyPages.count} (${percent(walk.emptyPages.share)})`,
		`  fill min ${percent(walk.fill.min)} · median ${percent(walk.fill.median)} (over pages the list continued after)`,
	];
	if (walk.fill.chart.length > 0) {
		const legend = walk.fill.pagesPerCell > 1 ? `one cell per ${walk.fill.pagesPerCell} pages, lowest fill shown` : 'one cell per page';
		lines.push(`  fill chart (${legend}; █ full, ▁–▇ short, · empty):`);
		for (const line of walk.fill.chart) {
			lines.push(`    ${line}`);
		}
	}

	const scanned = walk.pageFills.filter((fill) => fill.scannedPast).length;
	if (scanned > 0) {
		lines.push(`  ${scanned} page${scanned === 1 ? '' : 's'} continued from an id not shown: the server scanned past objects this credential cannot see.`);
	}

	lines.push(`  end: ${inert(walk.end.detail)}`, '  checks:');
	for (const check of walk.checks) {
		lines.push(...renderCheck(check, api, walk.pages));
	}

	return lines;
}

const verdicts: Record<AuditResult, string> = {
	passed: 'all checks passed',
	failed: 'a contract check failed',
	incomplete: 'the walk could not finish, so the list was not fully checked',
	interrupted: 'interrupted before the audit finished; this report covers only what was read until then',
};

export function renderText(report: AuditReport): string {
	const lines = [`${commands.audit.name} of ${inert(report.endpoint)} (${report.api} API)${report.interrupted ? ` — interrupted by ${report.interrupted}, partial report` : ''}`, ''];
	for (const walk of report.walks) {
		lines.push(...renderWalk(walk, report.api), '');
	}

	for (const comparison of report.comparisons) {
		lines.push(...renderComparison(comparison), '');
	}

	if (report.comparisons.length > 0 && report.walks.some((walk) => !walk.end.complete)) {
		lines.push('Note: not every walk reached the end of the list, so a difference may only show where a walk stopped.', '');
	}

	const failed = report.walks.flatMap((walk) => walk.checks.filter((check) => check.status === 'failed').map((check) => `${check.id} (${walk.label})`));
	const which = failed.length > 0 ? `: ${failed.join(', ')}` : '';
	const verdict = report.interrupted
		? `${verdicts.interrupted.replace('interrupted', `interrupted by ${report.interrupted}`)}${failed.length > 0 ? `; in it a contract check failed${which}` : ''}`
		: `${verdicts[report.result]}${which}`;
	lines.push(`Result: ${verdict} (exit ${report.exitCode}).`);
	return `${lines.join('\n')}\n`;
}
