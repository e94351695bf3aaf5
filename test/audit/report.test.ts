import {readFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {auditWalk} from '../../source/audit/audit-walk.js';
import {compareWalks} from '../../source/audit/compare.js';
import {buildReport, renderJson, renderText} from '../../source/audit/report.js';
import type {Page, WalkEnd} from '../../source/contract/types.js';
import {type Schema, unsupportedKeywords, validate} from './json-schema.js';
import {cleanWalk, generate, object, page} from './pages.js';

const schema = JSON.parse(readFileSync(new URL('../../source/audit/report-schema.json', import.meta.url), 'utf8')) as Schema;

describe('audit report', () => {
	test('the schema uses only keywords the test validator checks', () => {
		expect(unsupportedKeywords(schema)).toEqual([]);
	});

	test('a clean walk: counts, fill, end and every check', async () => {
		const walk = await auditWalk(generate(cleanWalk(53, 10, {api: 'commerce'})), {label: 'desc', order: 'desc', keepIds: true});
		expect(walk).toMatchObject({pages: 6, objects: 53, requests: 6, retries: 0});
		expect(walk.end).toMatchObject({kind: 'end', complete: true, lastPageShort: true});
		const report = buildReport({endpoint: 'http://127.0.0.1:9/checkouts?limit=10', api: 'commerce', walks: [walk], comparisons: []});
		expect(report).toMatchObject({result: 'passed', exitCode: 0});
		expect(report.walks[0]!.shortPages).toEqual({count: 1, share: 0.1667});
		expect(validate(schema, JSON.parse(renderJson(report)))).toEqual([]);
		const text = renderText(report);
		expect(text).toContain('pages 6 · objects 53 · requests 6 · retries 0');
		expect(text).toContain('short pages 1 (16.7%) · empty pages 0 (0%)');
		expect(text).toContain('p1  █████▃');
		expect(text).toContain('the last page was short, which marks the end, not a violation');
		expect(text).toContain('✓ every object id is unique across the walk');
		expect(text).toContain('Result: all checks passed (exit 0).');
	});

	test('a failed check and a comparison: exit 1, evidence by page, valid JSON', async () => {
		const pages = cleanWalk(30, 10);
		(pages[1]!.pagination as {limit: number}).limit = 99;
		const full = await auditWalk(generate(pages), {label: 'full', order: 'desc', keepIds: true});
		const restrictedPages = cleanWalk(30, 10);
		restrictedPages[1]!.objects = [];
		const restricted = await auditWalk(generate(restrictedPages), {label: 'restricted', order: 'desc', keepIds: true});
		const comparison = compareWalks(full.ids!, restricted.ids!, {a: 'full', b: 'restricted'});
		const report = buildReport({endpoint: 'http://127.0.0.1:9/v2/accounts', api: 'account', walks: [full, restricted], comparisons: [comparison]});
		expect(report).toMatchObject({result: 'failed', exitCode: 1});
		expect(validate(schema, JSON.parse(renderJson(report)))).toEqual([]);
		const text = renderText(report);
		expect(text).toContain('✗ pagination.limit reports the limit sent (pagination reports what was sent): 1 failure');
		expect(text).toContain('page 2: sent limit=10 but pagination.limit is 99');
		expect(text).toContain('only full 10 · only restricted 0');
		expect(text).toContain(`page 2: only full: ${object(10).id}, ${object(11).id}`);
		expect(text).toContain('Result: a contract check failed: echo-limit (full) (exit 1).');
		expect(text).toContain('1 page continued from an id not shown');
	});

	test('a bound or an error makes the walk incomplete: exit 3', async () => {
		const bounded = await auditWalk(generate(cleanWalk(30, 10).slice(0, 2), {kind: 'max-pages', limit: 2}), {label: 'desc', order: 'desc', keepIds: true});
		expect(bounded.end).toMatchObject({kind: 'max-pages', complete: false});
		expect(buildReport({endpoint: 'x', api: 'account', walks: [bounded], comparisons: []}).exitCode).toBe(3);
		const whole = await auditWalk(generate(cleanWalk(30, 10)), {label: 'other', order: 'desc', keepIds: true});
		const compared = buildReport({endpoint: 'x', api: 'account', walks: [bounded, whole], comparisons: [compareWalks(bounded.ids!, whole.ids!, {a: 'desc', b: 'other'})]});
		expect(renderText(compared)).toContain('Note: not every walk reached the end of the list');
		async function* failing(): AsyncGenerator<Page, WalkEnd> {
			yield cleanWalk(30, 10)[0]!;
			throw new Error('socket hang up');
		}

		const broken = await auditWalk(failing(), {label: 'desc', order: 'desc'});
		expect(broken).toMatchObject({pages: 1, requests: 2, end: {kind: 'error', complete: false}});
		expect(broken.end.detail).toMatch(/^the walk could not finish: /);
		const report = buildReport({endpoint: 'x', api: 'account', walks: [broken], comparisons: []});
		expect(report.exitCode).toBe(3);
		expect(validate(schema, JSON.parse(renderJson(report)))).toEqual([]);
	});

	test('server strings are made inert in text and escaped in JSON', async () => {
		const evil = {id: 'x\u001B]52;c;aGk=\u0007\u009B\u202E', created_at: '2020-01-01T00:00:00Z'};
		const pages = [page({objects: [evil, evil], sent: {limit: 10}})];
		const walk = await auditWalk(generate(pages), {label: 'desc', order: 'desc'});
		const report = buildReport({endpoint: 'x', api: 'account', walks: [walk], comparisons: []});
		const text = renderText(report);
		const json = renderJson(report);
		for (const output of [text, json]) {
			// eslint-disable-next-line no-control-regex -- control characters are what this checks are absent
			expect(output).not.toMatch(/[\u0007\u001B\u009B\u202E]/);
		}

		expect(text).toContain('x\\x1b]52;c;aGk=\\x07\\x9b\\u{202e} appears twice on page 1');
		expect(JSON.parse(json).walks[0].checks[0].evidence[0].message).toContain(evil.id);
	});

	test('the validator catches what the schema forbids', () => {
		expect(validate(schema, {schema: 'pagewalk-audit/1'})).toContain('$: missing walks');
		expect(validate(schema, {schema: 'pagewalk-audit/1', endpoint: 'x', api: 'other', result: 'passed', exitCode: 2, walks: [], comparisons: [], extra: 1})).toEqual([
			'$.api: "other" is not one of ["account","commerce"]',
			'$.exitCode: 2 is not one of [0,1,3,129,130,143]',
			'$: unexpected property extra',
		]);
	});
});
