import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {JsonSyntaxError, pageSpans, scanPage} from '../../source/json/json-spans.js';
import {escapeUnsafeJson, isUnsafeCodePoint, unsafePattern} from '../../source/text/unsafe-chars.js';

const pageTexts = (body: string, count: number) => pageSpans(body, count).texts;

const one = (object: string) => scanPage(`{"pagination": {"next_uri": null}, "data": [ ${object} ]}`).objectTexts[0];

describe('json-spans: each object exactly as sent', () => {
	test('numbers keep their tokens: past 2^53, long decimals, 1.0, 1e400, -0.0', () => {
		expect(one('{"id": "a", "n": 9007199254740993}')).toBe('{"id":"a","n":9007199254740993}');
		expect(one('{"d": 0.1000000000000000055511151231257827}')).toBe('{"d":0.1000000000000000055511151231257827}');
		expect(one('{"f": 1.0, "e": 1e400, "z": -0.0, "E": 2E-7}')).toBe('{"f":1.0,"e":1e400,"z":-0.0,"E":2E-7}');
	});

	test('key order and duplicate keys are kept', () => {
		expect(one('{"10": "ten", "id": "a"}')).toBe('{"10":"ten","id":"a"}');
		expect(one('{"id": "a", "dup": 1, "dup": 2}')).toBe('{"id":"a","dup":1,"dup":2}');
	});

	test('a variation selector stays a character; tag characters become a whole escaped pair', () => {
		expect(one('{"name": "葛\u{E0100}飾"}')).toBe('{"name":"葛\u{E0100}飾"}');
		const flag = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
		const text = one(`{"flag": "${flag}"}`)!;
		expect(text).toBe('{"flag":"\u{1F3F4}\\udb40\\udc67\\udb40\\udc62\\udb40\\udc73\\udb40\\udc63\\udb40\\udc74\\udb40\\udc7f"}');
		expect(JSON.parse(text)).toEqual({flag});
		expect(text).not.toContain('\uFFFD');
	});

	test('literal ESC-introducers, C1, bidi and invisible marks are re-escaped; escapes as written stay', () => {
		expect(one('{"s": "a\u202Eb\u0085c\u200Bd\u009B"}')).toBe('{"s":"a\\u202eb\\u0085c\\u200bd\\u009b"}');
		expect(one('{"s": "\\u001b[2J \\u001B \\/ \\ud800 \\u00e9"}')).toBe('{"s":"\\u001b[2J \\u001B \\/ \\ud800 \\u00e9"}');
		expect(one('{"k\u2066": 1}')).toBe('{"k\\u2066":1}');
	});

	test('whitespace goes, also inside nested values; pagination is cut out too', () => {
		const spans = scanPage('{ "data" :\n[\n\t{ "id" : "a" , "x" : [ 1 , { "y" : true } , null ] }\r\n] , "pagination" : { "a" : [ ] } }');
		expect(spans.objectTexts).toEqual(['{"id":"a","x":[1,{"y":true},null]}']);
		expect(spans.paginationText).toBe('{"a":[]}');
	});

	test('a later data key replaces an earlier one, as in JSON.parse; a key may be escaped', () => {
		expect(scanPage('{"data":[{"id":"a"}],"d\\u0061ta":[{"id":"b"}]}').objectTexts).toEqual(['{"id":"b"}']);
		expect(scanPage('{"data":[{"id":"a"}],"data":null}').objectTexts).toEqual([]);
	});

	test('invalid JSON is an error with its offset', () => {
		for (const [bad, offset] of [['', 0], ['{"data":[1,]}', 11], ['{"a":01}', 6], ['[1] x', 4], ['"\\x"', 1], ['{"a" 1}', 5], ['"a\u0001"', 2], ['{"a":tru}', 5]] as const) {
			expect(() => scanPage(bad)).toThrow(JsonSyntaxError);
			try {
				scanPage(bad);
			} catch (error: unknown) {
				expect((error as JsonSyntaxError).offset).toBe(offset);
			}
		}

		expect(pageTexts('{"data":[', 0)).toBeUndefined();
		expect(pageTexts('{"data":[{"id":"a"}]}', 2)).toBeUndefined();
	});

	test('nesting 100,000 deep and an object of 100,000 fields: no stack overflow', () => {
		const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
		expect(scanPage(`{"data":[${deep}]}`).objectTexts[0]).toBe(deep);
		const wide = `{${Array.from({length: 100_000}, (_, index) => `"k${index}": ${index}`).join(', ')}}`;
		expect(scanPage(`{"data":[${wide}]}`).objectTexts[0]).toBe(wide.replaceAll(' ', ''));
	});
});

// JSON texts built token by token, pretty and minified side by side, so
// number tokens JSON.stringify would never write (1.0, 1e400, 20 digits)
// and strings written with escapes are covered too.
type Texts = [pretty: string, minified: string];
const ws = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
const stringToken = fc.tuple(fc.string({unit: 'binary', maxLength: 8}), fc.boolean()).map(([text, escapeAll]) => (escapeAll
	? `"${[...text].map(char => [...char].map(unit => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`
	: JSON.stringify(text)));
const scalar = fc.oneof(
	stringToken,
	fc.stringMatching(/^-?(0|[1-9]\d{0,24})(\.\d{1,24})?([eE][+-]?\d{1,3})?$/),
	fc.constantFrom('true', 'false', 'null'),
).map((token): Texts => [token, token]);
const {value} = fc.letrec<{value: Texts}>(tie => ({
	value: fc.oneof(
		{depthSize: 'small'},
		scalar,
		fc.array(fc.tuple(ws, tie('value'), ws), {maxLength: 4}).map(([...items]): Texts => [
			`[${items.map(([before, item, after]) => before + item[0] + after).join(',')}]`,
			`[${items.map(([, item]) => item[1]).join(',')}]`,
		]),
		fc.array(fc.tuple(ws, stringToken, ws, ws, tie('value'), ws), {maxLength: 4}).map((entries): Texts => [
			`{${entries.map(([a, key, b, c, item, d]) => `${a}${key}${b}:${c}${item[0]}${d}`).join(',')}}`,
			`{${entries.map(([, key, , , item]) => `${key}:${item[1]}`).join(',')}}`,
		]),
	),
}));

describe('json-spans: an element that is one string', () => {
	// Found by the property below (seed 1802676070): a bare string in `data`
	// holding an unsafe character came out unescaped, since the reader had
	// already counted it when its capture began.
	test('has its unsafe characters escaped, as inside an object or an array', () => {
		const body = '{"pagination":{},"data":["\u115F",{"a":"\u115F"},["\u115F"],"plain"]}';
		expect(scanPage(body).objectTexts).toEqual(['"\\u115f"', '{"a":"\\u115f"}', '["\\u115f"]', '"plain"']);
		expect(pageSpans(body, 4).texts).toEqual(['"\\u115f"', '{"a":"\\u115f"}', '["\\u115f"]', '"plain"']);
	});
});

describe('json-spans: property', () => {
	test('any JSON texts in data come out with the same value, byte-identical where nothing needed escaping', () => {
		const unsafe = unsafePattern();
		fc.assert(fc.property(fc.array(value, {maxLength: 5}), value, ws, (items, pagination, space) => {
			const body = `{${space}"pagination":${space}${pagination[0]},"data":[${items.map(item => space + item[0] + space).join(',')}]}`;
			const spans = scanPage(body);
			expect(spans.objectTexts).toHaveLength(items.length);
			for (const [index, text] of spans.objectTexts.entries()) {
				const expected = items[index]![1];
				expect(JSON.parse(text)).toEqual(JSON.parse(expected));
				unsafe.lastIndex = 0;
				if (!unsafe.test(expected)) {
					expect(text).toBe(expected);
				}

				// Nothing unsafe is left literally: only ASCII escapes stand for it.
				for (const char of text) {
					expect(isUnsafeCodePoint(char.codePointAt(0)!)).toBe(false);
				}
			}

			unsafe.lastIndex = 0;
			if (!unsafe.test(pagination[1])) {
				expect(spans.paginationText).toBe(pagination[1]);
			}
		}), {numRuns: 300});
	});

	test('fc.jsonValue pretty-printed: each object comes out as its minified text, escaped as the writers escape', () => {
		fc.assert(fc.property(fc.array(fc.jsonValue(), {maxLength: 6}), fc.jsonValue(), fc.integer({min: 0, max: 4}), (data, pagination, indent) => {
			const body = JSON.stringify({pagination, data}, null, indent);
			const spans = scanPage(body);
			expect(spans.objectTexts).toEqual(data.map(item => escapeUnsafeJson(JSON.stringify(item))));
			expect(spans.paginationText).toBe(escapeUnsafeJson(JSON.stringify(pagination)));
		}), {numRuns: 300});
	});

	test('pageSpans (the fast path for bodies JSON.parse accepted) gives the scanner\'s texts', () => {
		fc.assert(fc.property(fc.array(value, {maxLength: 5}), value, ws, fc.boolean(), (items, pagination, space, dataFirst) => {
			const data = `"data":${space}[${items.map(item => space + item[0] + space).join(',')}]`;
			const rest = `"pagination":${space}${pagination[0]}`;
			const body = `{${space}${dataFirst ? `${data},${rest}` : `${rest},${space}${data}`}${space}}`;
			expect(pageTexts(body, items.length)).toEqual(scanPage(body).objectTexts);
		}), {numRuns: 300});
		fc.assert(fc.property(fc.array(fc.jsonValue(), {maxLength: 6}), fc.jsonValue(), fc.integer({min: 0, max: 4}), (data, pagination, indent) => {
			const body = JSON.stringify({pagination, data}, null, indent);
			expect(pageTexts(body, data.length)).toEqual(scanPage(body).objectTexts);
		}), {numRuns: 300});
		// The astral edges of the table, lone surrogates, and a plain emoji.
		for (const text of ['\u{E0000}', '\u{E007F}', '\u{E0080}', '\u{E0100}', '\uD800', '\uDC00x', 'a\uDBFF', '\u{1F600}', '\u00AD', '\u200D']) {
			const body = `{"data":[{"id":"${text}"}],"pagination":{}}`;
			expect(pageTexts(body, 1)).toEqual(scanPage(body).objectTexts);
		}

		const quoted = '{"data":[{"id":"a\\\\","q":"\\"]}\\\\"},{"id":"b\u202e"},{"id":"c", "x" :[1, 2]}],"data":[{"id":"z"}]}';
		expect(pageTexts(quoted, 1)).toEqual(['{"id":"z"}']);
		const one = '{"data":[{"id":"a\\\\","q":"\\"]}\\\\"},{"id":"b\u202e"},{"id":"c", "x" :[1, 2]}]}';
		expect(pageTexts(one, 3)).toEqual(['{"id":"a\\\\","q":"\\"]}\\\\"}', '{"id":"b\\u202e"}', '{"id":"c","x":[1,2]}']);
	});

	test('pageSpans with the body\'s bytes: an object\'s bytes are its text wherever it needed no change', () => {
		const check = (body: string, count: number) => {
			const bytes = Buffer.from(body);
			const {texts, bytes: objectBytes} = pageSpans(body, count, bytes);
			expect(texts).toEqual(scanPage(body).objectTexts);
			expect(objectBytes?.body).toBe(bytes);
			for (const [index, text] of texts!.entries()) {
				const start = objectBytes!.offsets[index * 2]!;
				if (start >= 0) {
					expect(bytes.subarray(start, objectBytes!.offsets[(index * 2) + 1]).toString()).toBe(text);
				}
			}

			return objectBytes?.offsets;
		};

		fc.assert(fc.property(fc.array(value, {maxLength: 5}), value, ws, fc.boolean(), (items, pagination, space, dataFirst) => {
			const data = `"data":${space}[${items.map(item => space + item[0] + space).join(',')}]`;
			const rest = `"pagination":${space}${pagination[0]}`;
			check(`{${space}${dataFirst ? `${data},${rest}` : `${rest},${space}${data}`}${space}}`, items.length);
		}), {numRuns: 300});
		fc.assert(fc.property(fc.array(fc.jsonValue(), {maxLength: 6}), fc.jsonValue(), fc.integer({min: 0, max: 4}), (data, pagination, indent) => {
			check(JSON.stringify({pagination, data}, null, indent), data.length);
		}), {numRuns: 300});
		// Characters of two, three and four bytes before, inside and between objects.
		const offsets = check('{"pagination":{"x":"\u00e9\u845b\u{1F3E0}"},"data":[{"id":"a"},{"id":"\u00c9\u00dc","n":1.0},{"id":"\u2614\u202e"},{"id":"\u{1F3E0}"} ,\n{"id":"z"},{"id": "s"}]}', 6);
		// Copied where sent as written; the literal bidi override and the space are not.
		expect([...offsets!].filter((_, index) => index % 2 === 0).map(start => start >= 0)).toEqual([true, true, false, true, true, false]);
		// Bytes that are not the body's: no offsets, never wrong ones.
		expect(pageSpans('{"data":[{"id":"\u00e9"}]}', 1, Buffer.from('{"data":[{"id":"e"}]}')).bytes).toBeUndefined();
		// Without bytes, no offsets.
		expect(pageSpans('{"data":[{"id":"a"}]}', 1).bytes).toBeUndefined();
	});

	test('agrees with JSON.parse on what is valid', () => {
		// Valid texts, the same cut short or with a character changed, and noise.
		const texts = fc.oneof(
			value.map(([pretty]) => pretty),
			fc.tuple(value, fc.nat(), fc.string({unit: 'binary', maxLength: 1})).map(([[pretty], at, char]) => pretty.slice(0, at % (pretty.length + 1)) + char + pretty.slice((at % (pretty.length + 1)) + 1)),
			fc.string({unit: 'binary', maxLength: 12}),
		);
		fc.assert(fc.property(texts, text => {
			let parsed = true;
			try {
				JSON.parse(text);
			} catch {
				parsed = false;
			}

			let scanned = true;
			try {
				scanPage(text);
			} catch {
				scanned = false;
			}

			expect(scanned).toBe(parsed);
		}), {numRuns: 500});
	});
});
