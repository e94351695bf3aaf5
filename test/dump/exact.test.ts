/**
 * `pagewalk dump` over a body whose objects JSON.parse + JSON.stringify would
 * change (the faulty server's `exact` fault): every format writes the
 * values as sent.
 */
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {startFaultyServer, type FaultyServer} from '../support/faulty-server.js';
import {canaryEnv, dumpInProcess} from '../support/run-dump.js';

let faulty: FaultyServer;

beforeAll(async () => {
	faulty = await startFaultyServer();
});

afterAll(async () => {
	await faulty?.close();
});

const flag = '\u{1F3F4}\\udb40\\udc67\\udb40\\udc62\\udb40\\udc73\\udb40\\udc63\\udb40\\udc74\\udb40\\udc7f';
const lines = [
	'{"id":"big","n":9007199254740993,"d":0.1000000000000000055511151231257827,"f":1.0,"e":1e400,"neg":-0.0}',
	'{"10":"ten","id":"keys","dup":1,"dup":2,"a.b":"literal","a":{"b":"nested"}}',
	`{"id":"text","name":"葛\u{E0100}飾","flag":"${flag}","esc":"\\u001b[2J","bidi":"\\u202eabc","c1":"\\u0085x","formula":"=1+1","minus":-5}`,
];

describe('dump writes objects exactly as sent', () => {
	test('ndjson: each object\'s own text, minified, unsafe characters escaped', async () => {
		const result = await dumpInProcess(['accounts', `--base-url=${faulty.base('exact')}`], canaryEnv);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${lines.join('\n')}\n`);
		expect(result.stdout).not.toContain('\uFFFD');
	});

	test('json: one valid document holding the same texts', async () => {
		const result = await dumpInProcess(['accounts', '--format', 'json', `--base-url=${faulty.base('exact')}`], canaryEnv);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`[\n${lines.join(',\n')}\n]\n`);
		expect((JSON.parse(result.stdout) as Array<{id: string}>).map(object => object.id)).toEqual(['big', 'keys', 'text']);
	});

	test('csv: numbers as sent, colliding paths kept apart, formulas guarded', async () => {
		const result = await dumpInProcess(['accounts', '--format', 'csv', `--base-url=${faulty.base('exact')}`], canaryEnv);
		expect(result.code).toBe(0);
		const [header, big, keys, text] = result.stdout.split('\r\n');
		expect(header).toBe('id,n,d,f,e,neg,10,dup,dup#2,"[""a.b""]",a.b,name,flag,esc,bidi,c1,formula,minus');
		expect(big).toBe('big,9007199254740993,0.1000000000000000055511151231257827,1.0,1e400,-0.0,,,,,,,,,,,,');
		expect(keys).toBe('keys,,,,,,ten,1,2,literal,nested,,,,,,,');
		expect(text).toBe('text,,,,,,,,,,,葛\u{E0100}飾,\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F},\u001B[2J,\u202Eabc,\u0085x,\'=1+1,-5');
	});

	test('table: numbers as sent', async () => {
		const result = await dumpInProcess(['accounts', '--format', 'table', `--base-url=${faulty.base('exact')}`], canaryEnv);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('9007199254740993');
		expect(result.stdout).toContain('1e400');
		expect(result.stdout).toMatch(/big +9007199254740993 +0\.1000000000000000055511151231257827 +1\.0 +1e400 +-0\.0/);
	});

	test('a body with two `data` keys: the last one, as JSON.parse reads it, in every format', async () => {
		const ndjson = await dumpInProcess(['accounts', `--base-url=${faulty.base('duplicate-data')}`], canaryEnv);
		expect(ndjson.stdout).toBe('{"id":"last-a"}\n{"id":"last-b"}\n{"id":"last-c"}\n');
		const csv = await dumpInProcess(['accounts', `--base-url=${faulty.base('duplicate-data')}`, '--format', 'csv'], canaryEnv);
		expect(csv.stdout).toBe('id\r\nlast-a\r\nlast-b\r\nlast-c\r\n');
	});

	test('ndjson and json over compact ASCII-only pages: the bytes as sent', async () => {
		const expected = [
			'{"id":"a1","s":"caf\\u00e9 \\u001b[0m","n":1.0}',
			'{"id":"a2","x":[1,{"y":null}],"10":"ten"}',
			'{"id":"a3"}',
			'{"id":"a4","big":9007199254740993}',
		];
		const ndjson = await dumpInProcess(['accounts', '--all', `--base-url=${faulty.base('bytes-ascii')}`], canaryEnv);
		expect(ndjson.code).toBe(0);
		expect(ndjson.stdout).toBe(`${expected.join('\n')}\n`);
		const json = await dumpInProcess(['accounts', '--all', '--format', 'json', `--base-url=${faulty.base('bytes-ascii')}`], canaryEnv);
		expect(json.stdout).toBe(`[\n${expected.join(',\n')}\n]\n`);
	});

	test('ndjson and json over compact UTF-8 pages (gzip, a BOM): characters of 2, 3 and 4 bytes as sent, unsafe ones and spaces rewritten', async () => {
		const expected = [
			'{"id":"u1","name":"Caf\u00e9 \u00dc"}',
			'{"id":"u2","name":"\u65c5\u884c\u306e\u8caf\u91d1 \u2614"}',
			'{"id":"u3","bidi":"\\u202eevil"}',
			'{"id":"u4","spaced":true}',
			'{"id":"u5","home":"\u{1F3E0}","n":1.50}',
			'{"id":"u6","flag":"\u{1F3F4}\\udb40\\udc67\\udb40\\udc62\\udb40\\udc7f"}',
			'{"id":"u7","tail":"\u00e9"}',
		];
		const ndjson = await dumpInProcess(['accounts', '--all', `--base-url=${faulty.base('bytes-utf8')}`], canaryEnv);
		expect(ndjson.code).toBe(0);
		expect(ndjson.stdout).toBe(`${expected.join('\n')}\n`);
		expect(ndjson.stdout).not.toContain('\uFFFD');
		const json = await dumpInProcess(['accounts', '--all', '--format', 'json', `--base-url=${faulty.base('bytes-utf8')}`], canaryEnv);
		expect(json.stdout).toBe(`[\n${expected.join(',\n')}\n]\n`);
		// --max-items cuts inside a page: the first objects, nothing after them.
		const cut = await dumpInProcess(['accounts', '--all', '--max-items', '5', `--base-url=${faulty.base('bytes-utf8')}`], canaryEnv);
		expect(cut.stdout).toBe(`${expected.slice(0, 5).join('\n')}\n`);
	});

	test('numbers such as -0, 1E+2 and 1e-7 are written as sent', async () => {
		const text = '{"id":"n","a":-0,"b":1E+2,"c":1e-7,"d":0.0,"e":-1.5E-300,"f":123456789012345678901234567890}';
		const ndjson = await dumpInProcess(['accounts', `--base-url=${faulty.base('odd-numbers')}`], canaryEnv);
		expect(ndjson.stdout).toBe(`${text}\n`);
		const csv = await dumpInProcess(['accounts', `--base-url=${faulty.base('odd-numbers')}`, '--format', 'csv'], canaryEnv);
		expect(csv.stdout).toBe('id,a,b,c,d,e,f\r\nn,-0,1E+2,1e-7,0.0,-1.5E-300,123456789012345678901234567890\r\n');
	});
});
