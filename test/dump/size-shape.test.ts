/**
 * Size and shape: objects nested 50,000 levels deep, one cell of 4 MiB of
 * non-ASCII text and emoji, 300,000 objects on one page, an object with
 * 100,000 fields. Every dump format and the audit finish (no stack overflow,
 * no hang), and a pathological object costs only its own cells: its
 * neighbours on the page are written as usual. Hang guards only, no timing.
 */
import {describe, expect, test} from 'vitest';
import {deepLevels, hugeCellUnit, manyObjects, wideFields, type FaultName} from '../support/faulty-server.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {canaryEnv, dumpInProcess} from '../support/run-dump.js';
import {auditInProcess} from '../audit/run-audit.js';

const faulty = useFaultyServer();

// These pages break contract rules by their size and shape on purpose: --quiet keeps stderr to what these tests read.
const dumpOf = async (fault: FaultName, format: string) => dumpInProcess(['accounts', `--base-url=${faulty().base(fault)}`, '--format', format, '--timeout', '60', '--quiet'], canaryEnv);

function csvRows(stdout: string): string[] {
	return stdout.split('\r\n').filter(line => line !== '');
}

describe('objects nested 50,000 levels deep', () => {
	const deepObject = `{"id":"deep-object","name":"nested","v":${'{"a":'.repeat(deepLevels)}1${'}'.repeat(deepLevels)}}`;
	const deepArray = `{"id":"deep-array","name":"nested","v":${'['.repeat(deepLevels)}${']'.repeat(deepLevels)}}`;
	const texts = ['{"id":"before","name":"first"}', deepObject, deepArray, '{"id":"after","name":"last"}'];

	test('ndjson: every object exactly as sent, the deep ones too', async () => {
		const result = await dumpOf('deep', 'ndjson');
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${texts.join('\n')}\n`);
	});

	test('json: one valid document', async () => {
		const result = await dumpOf('deep', 'json');
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`[\n${texts.join(',\n')}\n]\n`);
		expect((JSON.parse(result.stdout) as Array<{id: string}>).map(object => object.id)).toEqual(['before', 'deep-object', 'deep-array', 'after']);
	});

	test('csv: past 32 levels the rest is one cell of exact text; the neighbours are plain rows', async () => {
		const result = await dumpOf('deep', 'csv');
		expect(result.code).toBe(0);
		const rows = csvRows(result.stdout);
		expect(rows).toHaveLength(5);
		// Columns: id, name, v.a.a… (32 levels, then the rest as text), and v (the array).
		expect(rows[0]).toBe(`id,name,v${'.a'.repeat(31)},v`);
		expect(rows[1]).toBe('before,first,,');
		expect(rows[2]!.startsWith('deep-object,nested,"{""a"":{""a"":')).toBe(true);
		expect(rows[2]!.endsWith('}}",')).toBe(true);
		expect(rows[3]).toBe(`deep-array,nested,,${'['.repeat(deepLevels)}${']'.repeat(deepLevels)}`);
		expect(rows[4]).toBe('after,last,,');
	});

	test('table: four rows under a header', async () => {
		const result = await dumpOf('deep', 'table');
		expect(result.code).toBe(0);
		const lines = result.stdout.split('\n').filter(Boolean);
		expect(lines).toHaveLength(5);
		expect(lines.map(line => line.split(' ')[0])).toEqual(['id', 'before', 'deep-object', 'deep-array', 'after']);
	});

	test('audit: checks the page and reports', async () => {
		const result = await auditInProcess(['accounts', `--base-url=${faulty().base('deep')}`, '--timeout', '60', '--json'], canaryEnv);
		expect(result.stderr).toBe('');
		const report = JSON.parse(result.stdout) as {walks: Array<{objects: number}>};
		expect(report.walks[0]!.objects).toBe(4);
	});
});

describe('one cell of 4 MiB of non-ASCII text and emoji', () => {
	test('ndjson keeps it whole; table cuts it to a column', async () => {
		const ndjson = await dumpOf('huge-cell', 'ndjson');
		expect(ndjson.code).toBe(0);
		const objects = ndjson.stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as {id: string; note: string});
		expect(objects.map(object => object.id)).toEqual(['small-1', 'huge', 'small-2']);
		expect(objects[1]!.note.startsWith(hugeCellUnit.repeat(100))).toBe(true);
		expect(Buffer.byteLength(objects[1]!.note)).toBeGreaterThanOrEqual(4 * 1024 * 1024);

		const table = await dumpOf('huge-cell', 'table');
		expect(table.code).toBe(0);
		const lines = table.stdout.split('\n').filter(Boolean);
		expect(lines).toHaveLength(4);
		expect(lines[2]!.length).toBeLessThan(200);
		expect(lines[2]).toMatch(/^huge +é漢字🎉.*…$/u);

		const csv = await dumpOf('huge-cell', 'csv');
		expect(csv.code).toBe(0);
		expect(csvRows(csv.stdout)[2]).toBe(`huge,${objects[1]!.note}`);
	});
});

describe('300,000 objects on one page', () => {
	for (const format of ['ndjson', 'json', 'csv', 'table']) {
		test(`${format}: every object, once`, async () => {
			const result = await dumpOf('many-objects', format);
			expect(result.code).toBe(0);
			expect(result.stderr).toBe('');
			if (format === 'json') {
				expect((JSON.parse(result.stdout) as unknown[]).length).toBe(manyObjects);
			} else {
				const lines = result.stdout.split(/\r?\n/).filter(Boolean);
				expect(lines).toHaveLength(manyObjects + (format === 'ndjson' ? 0 : 1));
				expect(lines.at(-1)).toMatch(format === 'ndjson' ? /^\{"id":"o299999","n":299999\}$/ : /^o299999\b/);
			}
		});
	}

	test('audit: every object counted', async () => {
		const result = await auditInProcess(['accounts', `--base-url=${faulty().base('many-objects')}`, '--timeout', '60', '--json'], canaryEnv);
		const report = JSON.parse(result.stdout) as {walks: Array<{objects: number}>};
		expect(report.walks[0]!.objects).toBe(manyObjects);
	});
});

describe('an object with 100,000 fields', () => {
	test('csv: one column per field; table on a terminal of 120 columns shows what fits and names the rest', async () => {
		const csv = await dumpOf('wide', 'csv');
		expect(csv.code).toBe(0);
		const [header, wide, narrow] = csvRows(csv.stdout);
		expect(header!.split(',')).toHaveLength(wideFields + 1);
		expect(wide!.split(',').at(-1)).toBe(String(wideFields - 1));
		expect(narrow).toBe(`narrow,x${','.repeat(wideFields - 1)}`);

		const table = await dumpOf('wide', 'table');
		expect(table.code).toBe(0);
		expect(table.stdout.split('\n').filter(Boolean)).toHaveLength(3);
	});

	test('table on a narrow terminal: the layout stays linear in the fields', async () => {
		// stdout a terminal of 120 columns.
		const {code, stdout, stderr} = await dumpInProcess(['accounts', `--base-url=${faulty().base('wide')}`, '--format', 'table', '--timeout', '60'], canaryEnv, {stdoutTty: true});
		expect(code).toBe(0);
		const lines = stdout.split('\n').filter(Boolean);
		expect(lines).toHaveLength(3);
		expect(lines[0]!.length).toBeLessThanOrEqual(120);
		expect(stderr).toMatch(/99,99\d columns did not fit|\d+ columns did not fit the terminal width/);
	});
});
