import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {parseJsonWithLines} from '../../source/json/json-lines.js';
import {compactJson, JsonReader, JsonSyntaxError, jsonArray, jsonClose, jsonEnd, jsonFalse, jsonKey, jsonNull, jsonNumber, jsonObject, jsonString, jsonTrue, skipValue, stringValue} from '../../source/json/json-tokenizer.js';
import {unsafePattern} from '../../source/text/unsafe-chars.js';

type Tree = unknown;

/**
 * The value of `text` built from the reader's tokens alone, each scalar read
 * from its span, and every span checked against the text it covers: a
 * container's span parses to the value built from its tokens, a number's span
 * is its token as written.
 */
function readAll(text: string): Tree {
	const reader = new JsonReader(text);
	const stack: Array<{value: Record<string, Tree> | Tree[]; start: number; key?: string}> = [];
	let root: Tree;
	const place = (value: Tree) => {
		const top = stack.at(-1);
		if (top === undefined) {
			root = value;
		} else if (Array.isArray(top.value)) {
			top.value.push(value);
		} else {
			// As JSON.parse does: an own property, even for __proto__; the last of a key given twice wins.
			Object.defineProperty(top.value, top.key!, {value, enumerable: true, writable: true, configurable: true});
		}
	};

	for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
		const span = text.slice(reader.start, reader.end);
		expect(reader.depth).toBe(kind === jsonClose ? stack.length - 1 : stack.length);
		switch (kind) {
			case jsonObject:
			case jsonArray: {
				const value = kind === jsonObject ? {} : [];
				place(value);
				stack.push({value, start: reader.start});
				break;
			}

			case jsonClose: {
				const {value, start} = stack.pop()!;
				expect(JSON.parse(text.slice(start, reader.end))).toEqual(value);
				expect(skipValue(text, start)).toBe(reader.end);
				break;
			}

			case jsonKey: {
				stack.at(-1)!.key = stringValue(text, reader.start, reader.end);
				break;
			}

			case jsonString: {
				expect(stringValue(text, reader.start, reader.end)).toBe(JSON.parse(span));
				place(JSON.parse(span));
				break;
			}

			case jsonNumber: {
				expect(span).toMatch(/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/);
				place(Number(span));
				break;
			}

			default: {
				expect(span).toBe(kind === jsonTrue ? 'true' : kind === jsonFalse ? 'false' : 'null');
				expect([jsonTrue, jsonFalse, jsonNull]).toContain(kind);
				place(kind === jsonTrue ? true : kind === jsonFalse ? false : null);
			}
		}
	}

	expect(stack).toHaveLength(0);
	return root;
}

// JSON texts built token by token, so number tokens JSON.stringify never
// writes (1.10, 1e400, integers past 2^53) and strings written with escapes
// are covered; each with the same value written compactly beside it.
type Texts = [spaced: string, compact: string];
const ws = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
const stringToken = fc.tuple(fc.string({unit: 'binary', maxLength: 8}), fc.constantFrom('plain', 'escaped', 'short')).map(([text, how]) => {
	if (how === 'escaped') {
		return `"${[...text].map(char => [...char].map(unit => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;
	}

	return how === 'short' ? JSON.stringify(text).replaceAll('\\u0008', '\\b').replaceAll('/', '\\/') : JSON.stringify(text);
});
const numberToken = fc.oneof(
	fc.stringMatching(/^-?(0|[1-9]\d{0,24})(\.\d{1,24})?([eE][+-]?\d{1,3})?$/),
	fc.bigInt({min: -(2n ** 80n), max: 2n ** 80n}).map(String),
	fc.constantFrom('9007199254740993', '1.10', '1e400', '-0', '-0.0', '1E-7', '0e0'),
);
const scalar = fc.oneof(stringToken, numberToken, fc.constantFrom('true', 'false', 'null')).map((token): Texts => [token, token]);
const {value} = fc.letrec<{value: Texts}>(tie => ({
	value: fc.oneof(
		{depthSize: 'small'},
		scalar,
		fc.array(fc.tuple(ws, tie('value'), ws), {maxLength: 4}).map((items): Texts => [
			`[${items.map(([before, item, after]) => before + item[0] + after).join(',')}]`,
			`[${items.map(([, item]) => item[1]).join(',')}]`,
		]),
		fc.array(fc.tuple(ws, stringToken, ws, ws, tie('value'), ws), {maxLength: 4}).map((entries): Texts => [
			`{${entries.map(([a, key, b, c, item, d]) => `${a}${key}${b}:${c}${item[0]}${d}`).join(',')}}`,
			`{${entries.map(([, key, , , item]) => `${key}:${item[1]}`).join(',')}}`,
		]),
	),
}));

function accepts(parse: (text: string) => unknown, text: string): boolean {
	try {
		parse(text);
		return true;
	} catch {
		return false;
	}
}

describe('json-tokenizer: property', () => {
	test('values and spans agree with JSON.parse on any JSON text', () => {
		fc.assert(fc.property(value, ws, ([text], space) => {
			const spaced = space + text + space;
			expect(readAll(spaced)).toEqual(JSON.parse(spaced));
		}), {numRuns: 500});
		fc.assert(fc.property(fc.jsonValue(), fc.integer({min: 0, max: 4}), (json, indent) => {
			const text = JSON.stringify(json, null, indent);
			expect(readAll(text)).toEqual(JSON.parse(text));
		}), {numRuns: 300});
	});

	test('number tokens keep every digit: big integers, trailing zeros, exponents', () => {
		fc.assert(fc.property(fc.array(numberToken, {minLength: 1, maxLength: 6}), ws, (tokens, space) => {
			const reader = new JsonReader(`[${tokens.map(token => space + token + space).join(',')}]`);
			const seen: string[] = [];
			const text = `[${tokens.map(token => space + token + space).join(',')}]`;
			for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
				if (kind === jsonNumber) {
					seen.push(text.slice(reader.start, reader.end));
				}
			}

			expect(seen).toEqual(tokens);
		}), {numRuns: 300});
	});

	test('compactJson writes a value without whitespace, tokens unchanged, the same value', () => {
		const unsafe = unsafePattern();
		fc.assert(fc.property(value, ([spaced, compact]) => {
			const text = compactJson(spaced, 0, spaced.length);
			expect(JSON.parse(text)).toEqual(JSON.parse(compact));
			unsafe.lastIndex = 0;
			if (!unsafe.test(compact)) {
				expect(text).toBe(compact);
			}
		}), {numRuns: 500});
	});

	test('agrees with JSON.parse on what is valid; a fault names its offset, line and column', () => {
		const texts = fc.oneof(
			value.map(([spaced]) => spaced),
			fc.tuple(value, fc.nat(), fc.string({unit: 'binary', maxLength: 1})).map(([[spaced], at, char]) => spaced.slice(0, at % (spaced.length + 1)) + char + spaced.slice((at % (spaced.length + 1)) + 1)),
			fc.tuple(value, fc.nat()).map(([[spaced], at]) => spaced.slice(0, at % (spaced.length + 1))),
			fc.string({unit: 'binary', maxLength: 12}),
		);
		fc.assert(fc.property(texts, text => {
			const read = () => {
				const reader = new JsonReader(text);
				while (reader.next() !== jsonEnd) {
					// Every token, to the end.
				}
			};

			expect(accepts(read, text)).toBe(accepts(JSON.parse, text));
			try {
				read();
			} catch (error: unknown) {
				expect(error).toBeInstanceOf(JsonSyntaxError);
				const {offset, line, column, message} = error as JsonSyntaxError;
				expect(offset).toBeGreaterThanOrEqual(0);
				expect(offset).toBeLessThanOrEqual(text.length);
				const before = text.slice(0, offset).split('\n');
				expect(line).toBe(before.length);
				expect(column).toBe(before.at(-1)!.length + 1);
				expect(message).toMatch(new RegExp(`^line ${line}, column ${column}: `));
			}
		}), {numRuns: 1000});
	});
});

describe('json-tokenizer: bounds and words', () => {
	test('nesting 100,000 deep reads without a stack overflow; the config reader refuses past 64 levels', () => {
		const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
		const reader = new JsonReader(deep);
		let deepest = 0;
		for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
			deepest = Math.max(deepest, reader.depth);
		}

		expect(deepest).toBe(100_000);
		expect(() => parseJsonWithLines(`${'['.repeat(65)}${']'.repeat(65)}`)).not.toThrow();
		expect(() => parseJsonWithLines(`${'['.repeat(66)}${']'.repeat(66)}`)).toThrow(/line 1, column 66: values nest deeper than 64 levels/);
	});

	test('one message style for every fault', () => {
		const fault = (text: string) => {
			try {
				const reader = new JsonReader(text);
				while (reader.next() !== jsonEnd) {
					// To the end.
				}
			} catch (error: unknown) {
				return (error as Error).message;
			}

			return undefined;
		};

		expect(fault('{"a": 1,\n "b" 2}')).toBe('line 2, column 6: expected \':\' after the key "b", found \'2\'');
		expect(fault('[1, 2,]')).toBe('line 1, column 7: a comma before \']\' (JSON allows no trailing comma)');
		expect(fault('{"a": -}')).toBe('line 1, column 8: expected a digit after \'-\', found \'}\'');
		expect(fault('[1.]')).toBe('line 1, column 4: expected a digit after the decimal point, found \']\'');
		expect(fault('"abc')).toBe('line 1, column 5: a string misses its closing quote');
		expect(fault('"\\q"')).toBe('line 1, column 2: a string holds an escape JSON does not know');
		expect(fault('{} x')).toBe('line 1, column 4: unexpected \'x\' after the end of the document');
		expect(fault('\u00e9')).toBe('line 1, column 1: expected a value, found character U+00E9');
		expect(fault('')).toBe('line 1, column 1: expected a value, found the end of the file');
	});
});
