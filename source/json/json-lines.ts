import {JsonReader, JsonSyntaxError, jsonArray, jsonClose, jsonEnd, jsonKey, jsonNull, jsonNumber, jsonObject, jsonString, jsonTrue, stringValue} from './json-tokenizer.js';

/**
 * Strict JSON (RFC 8259) read into a tree that remembers the line of every
 * value and key, for config files whose errors must name the line. Why not
 * JSON.parse: its syntax errors give a position only in some V8 versions and
 * in a wording that changes between them, and it cannot say on which line a
 * key it accepted sits (an unknown key, a wrong type) or that a key came
 * twice (it keeps the last one silently). The tokens come from the one JSON
 * scanner (json-tokenizer.ts); strings and numbers are still decoded by
 * JSON.parse and Number, so their meaning is exactly JSON's.
 */

export {JsonSyntaxError} from './json-tokenizer.js';

type ObjectNode = {kind: 'object'; line: number; entries: Array<{key: string; line: number; value: JsonNode}>};
type ArrayNode = {kind: 'array'; line: number; items: JsonNode[]};
export type JsonNode =
	| ObjectNode
	| ArrayNode
	| {kind: 'string'; line: number; value: string}
	| {kind: 'number'; line: number; value: number}
	| {kind: 'boolean'; line: number; value: boolean}
	| {kind: 'null'; line: number};

/** Nesting deeper than any config needs is refused, so a crafted file cannot make a tree that deep. */
const maxDepth = 64;

/** The line (1-based) of an offset, for offsets asked in increasing order. */
function lineCounter(text: string): (offset: number) => number {
	let line = 1;
	let next = text.indexOf('\n');
	return offset => {
		while (next !== -1 && next < offset) {
			line++;
			next = text.indexOf('\n', next + 1);
		}

		return line;
	};
}

type ObjectFrame = {node: ObjectNode; keys: Set<string>; key: string; keyLine: number};
type Frame = ObjectFrame | {node: ArrayNode};

/** Parses `text` as one JSON value; throws a JsonSyntaxError naming the line. */
export function parseJsonWithLines(text: string): JsonNode {
	const reader = new JsonReader(text, text.codePointAt(0) === 0xFE_FF ? 1 : 0);
	const lineOf = lineCounter(text);
	const stack: Frame[] = [];
	let root: JsonNode | undefined;
	const place = (node: JsonNode) => {
		const frame = stack.at(-1);
		if (frame === undefined) {
			root = node;
		} else if ('keys' in frame) {
			frame.node.entries.push({key: frame.key, line: frame.keyLine, value: node});
		} else {
			frame.node.items.push(node);
		}
	};

	for (let kind = reader.next(); kind !== jsonEnd; kind = reader.next()) {
		if (kind === jsonClose) {
			stack.pop();
			continue;
		}

		const {start, end} = reader;
		const line = lineOf(start);
		if (kind === jsonKey) {
			const frame = stack.at(-1) as ObjectFrame;
			const key = stringValue(text, start, end);
			if (frame.keys.has(key)) {
				throw new JsonSyntaxError(`the key "${key}" appears twice in the same object`, start, text);
			}

			frame.keys.add(key);
			frame.key = key;
			frame.keyLine = line;
			continue;
		}

		if (reader.depth > maxDepth) {
			throw new JsonSyntaxError(`values nest deeper than ${maxDepth} levels`, start, text);
		}

		if (kind === jsonObject) {
			const node: ObjectNode = {kind: 'object', line, entries: []};
			place(node);
			stack.push({node, keys: new Set(), key: '', keyLine: line});
		} else if (kind === jsonArray) {
			const node: ArrayNode = {kind: 'array', line, items: []};
			place(node);
			stack.push({node});
		} else if (kind === jsonString) {
			place({kind: 'string', line, value: stringValue(text, start, end)});
		} else if (kind === jsonNumber) {
			place({kind: 'number', line, value: Number(text.slice(start, end))});
		} else if (kind === jsonNull) {
			place({kind: 'null', line});
		} else {
			place({kind: 'boolean', line, value: kind === jsonTrue});
		}
	}

	return root!;
}
