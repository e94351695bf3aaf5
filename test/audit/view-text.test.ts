import {describe, expect, test} from 'vitest';
import {compareView, cursorEvidenceLines, fillStripLine, shortPageNote} from '../../source/audit/view-text.js';
import {object, page} from './pages.js';

const objects = (from: number, count: number) => Array.from({length: count}, (_, index) => object(from + index));

const walked = [
	page({objects: objects(0, 10), sent: {limit: 10}, next: object(9).id}),
	page({objects: objects(10, 3), sent: {limit: 10}, next: object(19).id}),
	page({objects: [], sent: {limit: 10}, next: object(29).id}),
	page({objects: objects(30, 10), sent: {limit: 10}, next: object(39).id}),
];

describe('text for the browser', () => {
	test('the fill strip line fits its width and keeps the newest pages', () => {
		expect(fillStripLine(walked, 80)).toBe('fill █▃·█ · 1 short · 1 empty');
		const narrow = fillStripLine(walked, 28);
		expect(narrow).toBe('fill …·█ · 1 short · 1 empty');
		expect([...narrow]).toHaveLength(28);
		expect(fillStripLine([], 40)).toBe('fill  · 0 short · 0 empty');
	});

	test('the short-page note', () => {
		expect(shortPageNote(walked[0]!)).toBeNull();
		expect(shortPageNote(walked[1]!)).toBe('3 of 10: fewer than limit: permissions or access level; the list continues.');
		expect(shortPageNote(walked[2]!)).toBe('No objects: fewer than limit: permissions or access level; the list continues.');
	});

	test('the cursor evidence for the debug panel, inert', () => {
		expect(cursorEvidenceLines(walked[1]!)).toEqual([
			'cursor evidence:',
			`  next_uri starting_after  ${object(19).id}`,
			`  last object shown        ${object(12).id}`,
			`  next_uri starts after ${object(19).id} but the last object shown is ${object(12).id}: the server scanned past objects this credential cannot see.`,
		]);
		const hostile = page({objects: [{id: 'a\u001B[2Jb'}], sent: {limit: 10}, next: 'z'});
		expect(cursorEvidenceLines(hostile).join('\n')).not.toContain('\u001B');
		expect(cursorEvidenceLines(page({objects: [], next: null}))).toEqual(['cursor evidence: no next_uri, so this page is the end of the list']);
	});

	test('the compare view lists the ids each credential sees', () => {
		const full = page({objects: objects(10, 5), sent: {limit: 5}, next: object(14).id});
		const restricted = page({objects: [object(11), object(14)], sent: {limit: 5}, next: object(14).id});
		const view = compareView(full, restricted, {a: 'COINBASE_ACCESS_TOKEN', b: 'OTHER_TOKEN'});
		expect(view.summary).toBe('2 seen by both, 3 only by COINBASE_ACCESS_TOKEN, 0 only by OTHER_TOKEN.');
		expect(view.lines).toEqual([
			`✓ ·  ${object(10).id}  only COINBASE_ACCESS_TOKEN`,
			`✓ ✓  ${object(11).id}`,
			`✓ ·  ${object(12).id}  only COINBASE_ACCESS_TOKEN`,
			`✓ ·  ${object(13).id}  only COINBASE_ACCESS_TOKEN`,
			`✓ ✓  ${object(14).id}`,
		]);
	});
});

describe('the compare client for the browser', () => {
	test('fetches the page on screen with the second credential', async () => {
		const {startSandbox} = await import('../../source/sandbox/index.js');
		const {resolveConfig} = await import('../../source/config/options.js');
		const {createClient} = await import('../../source/http/http-client.js');
		const {compareCredential, createCompareClient} = await import('../../source/commands/setup/second-credential.js');
		const sandbox = await startSandbox({port: 0, records: 60});
		try {
			const env = {COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full, OTHER: sandbox.credentials.account.restricted};
			const config = await resolveConfig({input: ['accounts'], flags: {baseUrl: sandbox.accountUrl, limit: '20'}, env});
			const primary = createClient(config);
			const second = createCompareClient(config, compareCredential('OTHER', env)!);
			try {
				const a = await primary.fetchPage(primary.firstUrl);
				const b = await second.fetchPage(a.requestUrl);
				const view = compareView(a, b, {a: 'COINBASE_ACCESS_TOKEN', b: 'OTHER'});
				const hidden = new Set(sandbox.store.hiddenIds('accounts'));
				expect(view.rows.filter((row) => !row.b).map((row) => row.id)).toEqual(a.objects.map((object) => object.id).filter((id) => hidden.has(id)));
				expect(view.rows.every((row) => row.a)).toBe(true);
				expect(JSON.stringify(b.requestHeaders)).not.toContain(sandbox.credentials.account.restricted);
			} finally {
				await primary.close();
				await second.close();
			}
		} finally {
			await sandbox.close();
		}
	});
});
