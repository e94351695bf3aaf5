/**
 * Strict JSON (RFC 8259) read into a tree that remembers the line of every
 * value and key, for config files whose errors must name the line. Why not
 * JSON.parse: its syntax errors give a position only in some V8 versions and
 * in a wording that changes between them, and it cannot say on which line a
 * key it accepted sits (an unknown key, a wrong type) or that a key came
 * twice (it keeps the last one silently). A config file is small, so a
 * hand-written reader costs less than a dependency; strings and numbers are
 * still decoded by JSON.parse, so their meaning is exactly JSON's.
 */

export type JsonNode =
	| {kind: 'object'; line: number; entries: Array<{key: string; line: number; value: JsonNode}>}
	| {kind: 'array'; line: number; items: JsonNode[]}
	| {kind: 'string'; line: number; value: string}
	| {kind: 'number'; line: number; value: number}
	| {kind: 'boolean'; line: number; value: boolean}
	| {kind: 'null'; line: number};

/** A syntax error at a line (1-based), worded to follow "line N: ". */
export class JsonSyntaxError extends Error {
	constructor(readonly line: number, readonly problem: string) {
		super(`line ${line}: ${problem}`);
		this.name = 'JsonSyntaxError';
	}
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern looks for
const stringToken = /"(?:[^"\\\u0000-\u001F]|\\(?:["\\/bfnrt]|u[\dA-Fa-f]{4}))*"/y;
const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Nesting deeper than any config needs is refused, so a crafted file cannot exhaust the stack. */
const maxDepth = 64;

/** Parses `text` as one JSON value; throws a JsonSyntaxError naming the line. */
export function parseJsonWithLines(text: string): JsonNode {
	let index = text.codePointAt(0) === 0xFE_FF ? 1 : 0;
	let line = 1;

	const skipSpace = () => {
		while (index < text.length) {
			const char = text[index];
			if (char === '\n') {
				line++;
			} else if (char !== ' ' && char !== '\t' && char !== '\r') {
				return;
			}

			index++;
		}
	};

	const describeHere = (): string => {
		if (index >= text.length) {
			return 'the end of the file';
		}

		const char = text[index]!;
		return /^[\u0021-\u007E]$/.test(char) ? `'${char}'` : `character U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
	};

	const fail = (problem: string): never => {
		throw new JsonSyntaxError(line, problem);
	};

	/** The usual slips from JavaScript or JSON5 get their own words. */
	const unexpected = (expected: string): never => {
		if (text[index] === '/' && (text[index + 1] === '/' || text[index + 1] === '*')) {
			fail('JSON has no comments');
		}

		if (text[index] === '\'') {
			fail('strings take double quotes in JSON, not single ones');
		}

		return fail(`expected ${expected}, found ${describeHere()}`);
	};

	const expect = (char: string, what: string) => {
		skipSpace();
		if (text[index] !== char) {
			unexpected(what);
		}

		index++;
	};

	const readString = (): string => {
		stringToken.lastIndex = index;
		const match = stringToken.exec(text);
		if (!match) {
			// Find the reason: an unescaped line break, a bad escape or no closing quote.
			const rest = text.slice(index + 1);
			// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern looks for
			const newline = rest.search(/[\u0000-\u001F]/);
			const close = rest.search(/(?<!\\)(?:\\\\)*"/);
			fail(newline !== -1 && (close === -1 || newline < close) ? 'a string holds a line break or control character (write it as \\n) or misses its closing quote' : 'a string holds an escape JSON does not know');
		}

		index += match![0].length;
		return JSON.parse(match![0]) as string;
	};

	const readValue = (depth: number): JsonNode => {
		skipSpace();
		if (depth > maxDepth) {
			fail(`values nest deeper than ${maxDepth} levels`);
		}

		const start = line;
		const char = text[index];
		if (char === '{') {
			index++;
			const entries: Array<{key: string; line: number; value: JsonNode}> = [];
			skipSpace();
			if (text[index] === '}') {
				index++;
				return {kind: 'object', line: start, entries};
			}

			for (;;) {
				skipSpace();
				if (text[index] !== '"') {
					unexpected('a key in double quotes');
				}

				const keyLine = line;
				const key = readString();
				if (entries.some(entry => entry.key === key)) {
					line = keyLine;
					fail(`the key "${key}" appears twice in the same object`);
				}

				expect(':', `':' after the key "${key}"`);
				const value = readValue(depth + 1);
				entries.push({key, line: keyLine, value});
				skipSpace();
				if (text[index] === ',') {
					index++;
					skipSpace();
					if (text[index] === '}') {
						fail('a comma before \'}\' (JSON allows no trailing comma)');
					}

					continue;
				}

				expect('}', '\',\' or \'}\' after a value in an object');
				return {kind: 'object', line: start, entries};
			}
		}

		if (char === '[') {
			index++;
			const items: JsonNode[] = [];
			skipSpace();
			if (text[index] === ']') {
				index++;
				return {kind: 'array', line: start, items};
			}

			for (;;) {
				items.push(readValue(depth + 1));
				skipSpace();
				if (text[index] === ',') {
					index++;
					skipSpace();
					if (text[index] === ']') {
						fail('a comma before \']\' (JSON allows no trailing comma)');
					}

					continue;
				}

				expect(']', '\',\' or \']\' after a value in a list');
				return {kind: 'array', line: start, items};
			}
		}

		if (char === '"') {
			return {kind: 'string', line: start, value: readString()};
		}

		numberToken.lastIndex = index;
		const number = numberToken.exec(text);
		if (number) {
			index += number[0].length;
			return {kind: 'number', line: start, value: Number(number[0])};
		}

		for (const [word, node] of [['true', {kind: 'boolean', line: start, value: true}], ['false', {kind: 'boolean', line: start, value: false}], ['null', {kind: 'null', line: start}]] as const) {
			if (text.startsWith(word, index)) {
				index += word.length;
				return node;
			}
		}

		return unexpected('a value');
	};

	const value = readValue(0);
	skipSpace();
	if (index < text.length) {
		fail(`unexpected ${describeHere()} after the end of the document`);
	}

	return value;
}
