import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {pageSpans} from '../../source/json/json-spans.js';
import {createWriter} from '../../source/output/index.js';
import {safeJson} from '../../source/output/safe-json.js';

const plain = {tty: false, color: false};

describe('writers', () => {
	test('ndjson: one line per object; C1, bidi and invisible marks escaped, same value', () => {
		const object = {id: 'a', name: '\u009B31m\u202Eabc\u200B', esc: '\u001B[2J'};
		const text = createWriter('ndjson', plain).page([object]);
		expect(text).toBe('{"id":"a","name":"\\u009b31m\\u202eabc\\u200b","esc":"\\u001b[2J"}\n');
		expect(JSON.parse(text)).toEqual(object);
		expect(safeJson({id: 'plain', n: 1})).toBe('{"id":"plain","n":1}');
	});

	test('json: one array across pages, closed by end(), empty walk is []', () => {
		const writer = createWriter('json', plain);
		const text = writer.page([{id: 'a'}]) + writer.page([]) + writer.page([{id: 'b'}, {id: 'c'}]) + writer.end();
		expect(JSON.parse(text)).toEqual([{id: 'a'}, {id: 'b'}, {id: 'c'}]);
		const empty = createWriter('json', plain);
		expect(JSON.parse(empty.page([]) + empty.end())).toEqual([]);
	});

	test('csv: header from the first page, quoting, nested paths, arrays as JSON, later fields noted', () => {
		const writer = createWriter('csv', plain);
		const text = writer.page([
			{id: 'a', name: 'Say "hi", ok', balance: {amount: '1.0', currency: 'BTC'}, tags: ['x', 'y'], empty: {}, none: null},
		]) + writer.page([{id: 'b', name: 'line\nbreak', extra: 1}]);
		expect(text).toBe([
			'id,name,balance.amount,balance.currency,tags,empty,none',
			'a,"Say ""hi"", ok",1.0,BTC,"[""x"",""y""]",{},',
			'b,"line\nbreak",,,,,',
			'',
		].join('\r\n'));
		expect(writer.notes()).toEqual(['1 field first seen after the CSV header was written was left out (extra); use --format ndjson to keep every field.']);
	});

	test('csv on a terminal makes cells inert', () => {
		const text = createWriter('csv', {tty: true, color: false}).page([{id: 'a', name: '\u001B[2J'}]);
		expect(text).toContain('\\x1b[2J');
	});

	test('table: inert, truncated cells; bold header only with color', () => {
		const long = 'x'.repeat(60);
		const plainText = createWriter('table', plain).page([{id: 'a', name: '\u001B]52;c;AAAA\u0007', long}]);
		expect(plainText).not.toContain('\u001B');
		expect(plainText).toContain('\\x1b]52;c;AAAA\\x07');
		expect(plainText).toContain('…');
		const colored = createWriter('table', {tty: true, color: true, columns: 200}).page([{id: 'a'}]);
		expect(colored.startsWith('\u001B[1mid')).toBe(true);
	});

	test('table: laid out by the browser\'s rules, id kept whole, long cells capped at 48 cells', () => {
		const id = '5c771d99-7de1-4729-9b06-f2325a971cd1';
		const text = createWriter('table', plain).page([{id, description: 'd'.repeat(60), n: 7}]);
		expect(text.split('\n')).toEqual([
			`id${' '.repeat(34)}  description${' '.repeat(37)}  n`,
			`${id}  ${'d'.repeat(47)}…  7`,
			'',
		]);
		// On a terminal the columns that do not fit go from the right, as in the browser.
		const narrow = createWriter('table', {tty: true, color: false, columns: 50});
		expect(narrow.page([{id, description: 'd'.repeat(60), n: 7}]).split('\n')[1]).toBe(`${id}  ${'d'.repeat(11)}…`);
		expect(narrow.notes()).toEqual(['1 column did not fit the terminal width and was left out (n); use --format csv or ndjson to see every field.']);
	});

	test('table: a megabyte cell of wide text is cut to its column, never split', () => {
		const huge = '日本語👍🏽'.repeat(150_000);
		const text = createWriter('table', plain).page([{id: 'a', huge, after: 'z'}]);
		const row = text.split('\n')[1]!;
		// 48 cells: five times 8 cells, 日本語 (6) and the ellipsis; the emoji that would straddle the edge is left out, a space pads.
		expect(row).toBe(`a   ${'日本語👍🏽'.repeat(5)}日本語…   z`);
	});

	test('table on a narrow terminal leaves out columns that do not fit, and says so', () => {
		const writer = createWriter('table', {tty: true, color: false, columns: 20});
		const text = writer.page([{id: 'abcdef', name: 'some name', other: 'more'}]);
		expect(text.split('\n')[0]).toBe('id      name');
		expect(writer.notes()).toEqual(['1 column did not fit the terminal width and was left out (other); use --format csv or ndjson to see every field.']);
	});

	test.each(['csv', 'table'] as const)('%s: a --columns name no object had is named at the end, with the closest one seen', (format) => {
		const writer = createWriter(format, {tty: false, color: false, fields: ['id', 'nme', 'zzzzzzzz']});
		writer.page([{id: 'a', name: 'first'}]);
		writer.page([{id: 'b', name: 'second', late: 1}]);
		expect(writer.notes()).toEqual([
			'--columns names \'nme\', which no object had, so its column is empty (did you mean \'name\'?).',
			'--columns names \'zzzzzzzz\', which no object had, so its column is empty.',
		]);
		const later = createWriter(format, {tty: false, color: false, fields: ['id', 'late']});
		later.page([{id: 'a'}]);
		later.page([{id: 'b', late: 1}]);
		expect(later.notes()).toEqual([]);
	});

	test('ndjson and json write the exact texts when given, the values otherwise', () => {
		const texts = ['{"id":"a","n":9007199254740993}', '{"10":1,"id":"b"}'];
		const objects = texts.map(text => JSON.parse(text) as {id: string});
		expect(createWriter('ndjson', plain).page(objects, texts)).toBe(`${texts.join('\n')}\n`);
		const json = createWriter('json', plain);
		expect(json.page(objects.slice(0, 1), texts) + json.page(objects.slice(1), texts.slice(1)) + json.end()).toBe(`[\n${texts.join(',\n')}\n]\n`);
	});

	test('ndjson and json from the body\'s bytes: the same bytes as from the texts, on every page', () => {
		// Objects of any JSON, compact or pretty, with any characters: copied, rewritten, or both on one page.
		const object = fc.tuple(fc.string({unit: 'binary', maxLength: 6}), fc.dictionary(fc.string({unit: 'binary', maxLength: 4}), fc.jsonValue({maxDepth: 2}), {maxKeys: 3}))
			.map(([id, rest]) => ({...rest, id}));
		fc.assert(fc.property(fc.array(fc.array(object, {maxLength: 5}), {minLength: 1, maxLength: 3}), fc.constantFrom(0, 1), fc.nat(5), (pages, indent, cut) => {
			const fromTexts = {ndjson: createWriter('ndjson', plain), json: createWriter('json', plain)};
			const fromBytes = {ndjson: createWriter('ndjson', plain), json: createWriter('json', plain)};
			for (const [index, data] of pages.entries()) {
				const body = JSON.stringify({pagination: {next_uri: null}, data}, null, indent);
				const {texts, bytes} = pageSpans(body, data.length, Buffer.from(body));
				expect(bytes).toBeDefined();
				// --max-items writes the first objects of the last page only.
				const objects = index === pages.length - 1 ? data.slice(0, cut) : data;
				for (const format of ['ndjson', 'json'] as const) {
					const text = fromTexts[format].page(objects, texts);
					expect(Buffer.from(fromBytes[format].pageBytes!(objects, texts!, bytes!)).equals(Buffer.from(text))).toBe(true);
				}
			}

			expect(fromBytes.json.end()).toBe(fromTexts.json.end());
		}), {numRuns: 200});
	});

	test('ndjson over a compact page: the lines are the body itself, its commas turned into newlines, with no copy', () => {
		const body = '{"pagination":{"next_uri":null},"data":[{"id":"a","n":1.0},{"id":"é"},{"id":"c"}]}';
		const {texts, bytes} = pageSpans(body, 3, Buffer.from(body));
		const objects = [{id: 'a'}, {id: 'é'}, {id: 'c'}];
		const lines = createWriter('ndjson', plain).pageBytes!(objects, texts!, bytes!);
		expect(Buffer.from(lines).toString()).toBe('{"id":"a","n":1.0}\n{"id":"é"}\n{"id":"c"}\n');
		// The very bytes of the body, changed in place.
		expect(lines.buffer).toBe(bytes!.body.buffer);
		expect(lines.byteOffset).toBe(bytes!.body.byteOffset + bytes!.offsets[0]!);
		expect(Buffer.from(bytes!.body).toString()).toBe('{"pagination":{"next_uri":null},"data":[{"id":"a","n":1.0}\n{"id":"é"}\n{"id":"c"}\n}');
		// Spaced or escaped objects are not their bytes as sent: written from their texts instead.
		const spaced = '{"data":[{"id":"a"}, {"id":"b\u202e"}]}'.replace('\\u202e', '\u202e');
		const other = pageSpans(spaced, 2, Buffer.from(spaced));
		const written = createWriter('ndjson', plain).pageBytes!([{id: 'a'}, {id: 'b'}], other.texts!, other.bytes!);
		expect(Buffer.from(written).toString()).toBe('{"id":"a"}\n{"id":"b\\u202e"}\n');
		expect(Buffer.from(other.bytes!.body).toString()).toBe(spaced);
	});

	test('csv: formula-like text cells and column names get a leading quote; JSON numbers stay numbers', () => {
		const texts = ['{"id":"=HYPERLINK(1)","a":"+1","b":"-1","c":"@x","d":"\\tx","e":"\\rx","n":-5,"f":1.50,"ok":"a=b","=k":1}'];
		const objects = texts.map(text => JSON.parse(text) as {id: string});
		expect(createWriter('csv', plain).page(objects, texts).split('\r\n').slice(0, 2)).toEqual([
			'id,a,b,c,d,e,n,f,ok,\'=k',
			'\'=HYPERLINK(1),\'+1,\'-1,\'@x,\'\tx,"\'\rx",-5,1.50,a=b,1',
		]);
		expect(createWriter('csv', {...plain, formulaGuard: false}).page(objects, texts).split('\r\n')[1]).toBe('=HYPERLINK(1),+1,-1,@x,"\tx","\rx",-5,1.50,a=b,1');
	});

	test('csv: colliding paths keep every value (bracketed literal keys, #2 for a repeated key)', () => {
		const texts = ['{"id":"a","a.b":1,"a":{"b":2,"c[0]":3},"#":4,"":5,"x":1,"x":2,"x":3}'];
		const text = createWriter('csv', plain).page([{id: 'a'}], texts);
		expect(text.split('\r\n')[0]).toBe('id,"[""a.b""]",a.b,"a[""c[0]""]","[""#""]","[""""]",x,x#2,x#3');
		expect(text.split('\r\n')[1]).toBe('a,1,2,3,4,5,1,2,3');
	});

	test('csv and table flatten deep and wide objects in linear work', () => {
		const deep = `{"id":"d",${'"a":{'.repeat(50_000)}"z":1${'}'.repeat(50_000)}}`;
		const csv = createWriter('csv', plain).page([{id: 'd'}], [deep]);
		expect(csv.split('\r\n')[0]).toBe(`id,${Array.from({length: 32}, () => 'a').join('.')}`);
		expect(csv.split('\r\n')[1]).toMatch(/^d,"{""a"":{""a"":/);
		const wide = `{"id":"w",${Array.from({length: 100_000}, (_, index) => `"k${index}":${index}`).join(',')}}`;
		expect(createWriter('csv', plain).page([{id: 'w'}], [wide]).split('\r\n')[1]!.startsWith('w,0,1,2,')).toBe(true);
	});
});
