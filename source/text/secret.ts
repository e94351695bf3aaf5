import {inspect} from 'node:util';

/**
 * Anything that holds a secret: it prints as the redaction mark everywhere
 * (string conversion, JSON, console.log, util.inspect), whatever it holds.
 */
export class Redacted {
	toString(): string {
		return Secret.mark;
	}

	toJSON(): string {
		return Secret.mark;
	}

	[inspect.custom](): string {
		return Secret.mark;
	}
}

/**
 * A credential. It prints as a redaction mark everywhere (string
 * conversion, JSON, console.log, util.inspect), so a config object that ends
 * up in a log or an error report cannot leak it; only `reveal()` gives the
 * value, and only the HTTP client calls it, per request to the checked origin.
 */
export class Secret extends Redacted {
	static readonly mark = '[redacted]';
	readonly #value: string;

	constructor(value: string) {
		super();
		this.#value = value;
		remember(value);
	}

	reveal(): string {
		return this.#value;
	}
}

/**
 * Every credential value this process holds, and the forms a server could
 * echo it in, longest first. Process-wide on purpose: a server's text may
 * reach a message through many paths (an error body, an excerpt, a warning,
 * a link), and redact() must catch the credential on all of them without
 * each path being handed the right Secret.
 */
const forms: string[] = [];
/**
 * The lower-hex spelling of each form with percent-encodings, made once when
 * the form is remembered: redact() runs on every response header of every
 * page, so a regex replace per form per call added up over a long walk.
 */
const lowerForms = new Map<string, string>();
// Shorter values would redact ordinary words; real credentials are far longer.
const minLength = 6;

function remember(value: string): void {
	const bare = value.replace(/^bearer\s+/i, '');
	const candidates = new Set<string>();
	// The Bearer form too: a token is held bare, but servers echo the header.
	for (const form of [value, bare, `Bearer ${bare}`]) {
		if (form.length < minLength) {
			continue;
		}

		candidates.add(form);
		candidates.add(encodeURIComponent(form));
		candidates.add(encodeURIComponent(form).replaceAll('%20', '+'));
		candidates.add(JSON.stringify(form).slice(1, -1));
	}

	for (const form of candidates) {
		if (!forms.includes(form)) {
			forms.push(form);
			if (form.includes('%')) {
				lowerForms.set(form, form.replaceAll(/%[\dA-F]{2}/g, escape => escape.toLowerCase()));
			}
		}
	}

	forms.sort((a, b) => b.length - a.length);
}

/**
 * The JWTs of the last requests (each signed for one request only, see
 * jwt-sign.ts), redacted like credentials in case a server echoes one. A
 * bounded ring, not the process-wide list: a walk of a million pages makes a
 * million JWTs, and an echo arrives in the answer to the request that sent
 * it. The ring covers every request that can be in flight at once (the
 * pool's connections, the prefetch, the compare view) many times over.
 */
const recent: string[] = [];
/** Their signatures alone: the part that proves the key, which a server may quote by itself. */
const recentSignatures: string[] = [];
export const recentJwtCount = 16;

/** Redacts `jwt` (and its signature alone) until {@link recentJwtCount} newer ones push it out. */
export function rememberJwt(jwt: string): void {
	recent.push(jwt);
	const signature = jwt.slice(jwt.lastIndexOf('.') + 1);
	if (signature.length >= 16) {
		recentSignatures.push(signature);
	}

	for (const list of [recent, recentSignatures]) {
		if (list.length > recentJwtCount) {
			list.shift();
		}
	}
}

/**
 * Header names that may carry a secret, whatever their value: the debug
 * view shows them as the mark and the curl command leaves them out.
 */
const secretLikeName = /auth|key|token|secret|cookie|session|signature|password/i;
export function secretLikeHeader(name: string): boolean {
	return secretLikeName.test(name);
}

/**
 * Replaces every credential pagewalk holds (bare, Bearer, URL-encoded or
 * JSON-escaped) with the redaction mark. Applied to server text before it is
 * cut into an excerpt, so no prefix of a credential survives the cut, and to
 * every message before it is printed.
 */
export function redact(text: string): string {
	let result = text;
	// Whole JWTs first: a JWT must not be half-replaced by its signature.
	for (const list of [recent, recentSignatures]) {
		for (const jwt of list) {
			if (result.includes(jwt)) {
				result = result.replaceAll(jwt, Secret.mark);
			}
		}
	}

	for (const form of forms) {
		if (result.includes(form)) {
			result = result.replaceAll(form, Secret.mark);
		}

		// Percent-encodings may use either case of hex digit.
		const lower = lowerForms.get(form);
		if (lower !== undefined && lower !== form && result.includes(lower)) {
			result = result.replaceAll(lower, Secret.mark);
		}
	}

	return result;
}

/**
 * Where `value` holds a character an HTTP header value cannot carry (1-based),
 * or 0 when it fits: only tab, visible ASCII, space and bytes 0x80-0xFF do,
 * as undici checks. Checked when a credential is read, so a bad one is a
 * sentence at start rather than an error from inside undici at the first request.
 */
export function unfitForHeader(value: string): number {
	const unfit = /[^\t\u0020-\u007E\u0080-\u00FF]/.exec(value);
	return unfit === null ? 0 : unfit.index + 1;
}
