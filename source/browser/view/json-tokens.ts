/**
 * Syntax colour for the detail view's pretty JSON, one line at a time: keys,
 * strings, numbers and literals get a tone each; the view maps tones to
 * colours (and to none at all under NO_COLOR). Works on the line as drawn
 * (inert, maybe cut at the pane's edge): a string cut before its closing
 * quote is simply left plain. Not the JSON scanner's (json/json-tokenizer.ts)
 * work: these lines are display text, escaped and cut, no longer JSON, and
 * only need a tone for each stretch.
 */
export type JsonTone = 'key' | 'string' | 'number' | 'literal' | 'plain';
export type JsonToken = {text: string; tone: JsonTone};

const token = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)\b|([^"\d\-tfn]+|.)/gu;

export function jsonTokens(line: string): JsonToken[] {
	const tokens: JsonToken[] = [];
	const push = (text: string, tone: JsonTone) => {
		const last = tokens.at(-1);
		if (last?.tone === tone) {
			last.text += text;
		} else {
			tokens.push({text, tone});
		}
	};

	for (const match of line.matchAll(token)) {
		const [, string, colon, number, literal] = match;
		if (string !== undefined) {
			push(string, colon === undefined ? 'string' : 'key');
			if (colon !== undefined) {
				push(colon, 'plain');
			}
		} else if (number !== undefined) {
			push(number, 'number');
		} else if (literal !== undefined) {
			push(literal, 'literal');
		} else {
			push(match[0], 'plain');
		}
	}

	return tokens;
}
