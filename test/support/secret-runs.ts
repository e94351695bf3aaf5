/**
 * What the redaction tests look for: any run of 8 characters of a secret
 * (the length redact() covers, secretRunLength), not only the whole value,
 * in the text as it is and as a reader would decode it (JSON escapes, once
 * or twice, and percent-encodings), in either case, with spaces and line
 * breaks taken out, and in base64: a secret drawn escaped is still drawn.
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

/** `text`, and what it reads as with its escapes decoded; case-folded, spaces and line breaks taken out. */
function readings(text: string): string[] {
	const once = jsonUnescaped(text);
	const twice = jsonUnescaped(once);
	return [text, once, twice].flatMap(reading => [reading, percentDecoded(reading)]).map(reading => reading.toLowerCase().replaceAll(/\s+/g, ''));
}

/** `secret`, and its base64 (and base64url) as it reads wherever it falls among the bytes encoded with it. */
function spellings(secret: string): string[] {
	const bytes = Buffer.from(secret);
	return [secret, ...[0, 1, 2].flatMap(before => {
		const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
		const form = encoded.slice(Math.ceil((before * 8) / 6), Math.floor(((before + bytes.length) * 8) / 6));
		return [form, form.replaceAll('+', '-').replaceAll('/', '_')];
	})];
}

/** The first run of {@link secretRunLength} characters of any of `secrets` that `text` holds (decoded or not), or undefined. */
export function leakedRun(text: string, secrets: readonly string[]): string | undefined {
	const all = readings(text);
	for (const secret of secrets.flatMap(each => spellings(each)).map(spelling => spelling.toLowerCase().replaceAll(/\s+/g, ''))) {
		for (let from = 0; from + secretRunLength <= secret.length; from++) {
			const run = secret.slice(from, from + secretRunLength);
			if (all.some(reading => reading.includes(run))) {
				return run;
			}
		}
	}

	return undefined;
}
