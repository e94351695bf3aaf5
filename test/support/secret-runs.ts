/**
 * What the redaction tests look for: any run of 8 characters of a secret
 * (the length redact() covers, secretRunLength), not only the whole value,
 * in the text as it is and as a reader would decode it (JSON escapes, once
 * or twice, and percent-encodings): a secret drawn escaped is still drawn.
 */
import {secretRunLength} from '../../source/text/secret.js';

/** JSON string escapes decoded once; anything else as it is. */
function jsonUnescaped(text: string): string {
	const simple: Record<string, string> = {b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'};
	return text.replaceAll(/\\(?:u([\dA-Fa-f]{4})|(.))/g, (_, hex: string | undefined, character: string) => hex === undefined ? simple[character] ?? character : String.fromCharCode(Number.parseInt(hex, 16)));
}

function percentDecoded(text: string): string {
	return text.replaceAll(/%([\dA-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** `text`, and what it reads as with its escapes decoded. */
function readings(text: string): string[] {
	const once = jsonUnescaped(text);
	const twice = jsonUnescaped(once);
	return [text, once, twice].flatMap(reading => [reading, percentDecoded(reading)]);
}

/** The first run of {@link secretRunLength} characters of any of `secrets` that `text` holds (decoded or not), or undefined. */
export function leakedRun(text: string, secrets: readonly string[]): string | undefined {
	const all = readings(text);
	for (const secret of secrets) {
		for (let from = 0; from + secretRunLength <= secret.length; from++) {
			const run = secret.slice(from, from + secretRunLength);
			if (all.some(reading => reading.includes(run))) {
				return run;
			}
		}
	}

	return undefined;
}
