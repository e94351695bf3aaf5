/**
 * Server strings in the audit report and in dump's notes: the faulty
 * server's `hostile-strings` fault sends an id (twice, and as the next
 * cursor) and object keys holding ESC, a bidi override, U+2028, a tag
 * character, a C1 control and a zero-width joiner. `audit --json` escapes
 * them by the one table NDJSON uses; the text report and stderr show them inert.
 */
import {describe, expect, test} from 'vitest';
import {unsafePattern} from '../../source/text/unsafe-chars.js';
import {hostileText} from '../support/faulty-server.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {canaryEnv, dumpInProcess} from '../support/run-dump.js';
import {auditInProcess} from './run-audit.js';

const faulty = useFaultyServer();

/** Unsafe code points left raw in `text`, other than line breaks and tabs (JSON's own whitespace). */
function rawUnsafe(text: string): string[] {
	return [...text.matchAll(unsafePattern())].map(match => match[0]).filter(char => char !== '\n' && char !== '\t');
}

describe('hostile ids and keys', () => {
	test('audit --json: only escapes, and the same values come back', async () => {
		const result = await auditInProcess(['accounts', `--base-url=${faulty().base('hostile-strings')}`, '--json'], canaryEnv);
		expect(result.code).toBe(1);
		expect(rawUnsafe(result.stdout)).toEqual([]);
		expect(rawUnsafe(result.stderr)).toEqual([]);
		expect(result.stdout).toContain('\\u001b[2J\\u202eevil\\u2028x\\udb40\\udc41y\\u0085z\\u200d!');
		const report = JSON.parse(result.stdout) as {walks: Array<{pageFills: Array<{nextCursor: string | null; lastShownId: string | null}>; checks: Array<{id: string; evidence: Array<{message: string}>}>}>};
		const [walk] = report.walks;
		expect(walk!.pageFills[0]!.nextCursor).toBe(hostileText);
		expect(walk!.pageFills[0]!.lastShownId).toBe(hostileText);
		expect(walk!.checks.find(check => check.id === 'unique-ids')!.evidence[0]!.message).toContain(hostileText);
	});

	test('audit text: the id is shown inert', async () => {
		const result = await auditInProcess(['accounts', `--base-url=${faulty().base('hostile-strings')}`], canaryEnv);
		expect(result.code).toBe(1);
		expect(rawUnsafe(result.stdout)).toEqual([]);
		expect(result.stdout).toContain('h\\x1b[2J\\u{202e}evil\\u{2028}x\\u{e0041}y\\x85z\\u{200d}!');
	});

	test('dump: the csv note naming late fields shows hostile keys inert; NDJSON escapes them', async () => {
		const csv = await dumpInProcess(['accounts', `--base-url=${faulty().base('hostile-strings')}`, '--all', '--format', 'csv'], canaryEnv);
		expect(csv.code).toBe(0);
		expect(rawUnsafe(csv.stderr)).toEqual([]);
		expect(csv.stderr).toMatch(/2 fields first seen after the CSV header was written were left out \(\["kh\\u001b\[2J\\u\{202e\}evil\\u\{2028\}x/);
		const ndjson = await dumpInProcess(['accounts', `--base-url=${faulty().base('hostile-strings')}`, '--all'], canaryEnv);
		expect(rawUnsafe(ndjson.stdout)).toEqual([]);
		expect(ndjson.stdout.split('\n').filter(Boolean).map(line => Object.keys(JSON.parse(line) as object))).toEqual([
			['id', 'name'], ['id', 'name'], ['id', 'name', `k${hostileText}`, hostileText],
		]);
	});
});
