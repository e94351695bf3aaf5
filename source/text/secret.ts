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
 * Redaction works on runs, not whole values: a server that echoes a token
 * minus its last characters, or from its fourth on, must not get the rest
 * printed. Every run of {@link secretRunLength} characters of every secret this
 * process holds is indexed (process-wide on purpose: a server's text reaches
 * a message through many paths, and redact() must catch it on all of them
 * without each path being handed the right Secret); redact() slides a window
 * of that length over the text and replaces the union of the windows found.
 * So any run of that length or longer is caught, and the work is one pass
 * over the text whatever the number of secrets. Shorter runs say too little
 * of a credential to matter, and would redact ordinary words.
 */
export const secretRunLength = 8;
/**
 * What a server may split an echoed value with, one UTF-16 unit each: spaces
 * and line breaks, and characters that show nothing of their own, so split
 * by them the value reads whole: control characters (NUL between every
 * character, as UTF-16 read as bytes is), and invisible format characters and
 * joiners (a soft hyphen, zero-width ones, bidi marks, variation selectors).
 */
// eslint-disable-next-line no-control-regex -- control characters are the point
const gaps = /[\u0000-\u0020\u007F-\u00A0\u00AD\u061C\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF\uFFF9-\uFFFB]/;

/** The joiner and the variation selectors: combining marks (which a character class cannot hold plainly), checked by code. */
function combiningGap(code: number): boolean {
	return code === 0x03_4F || (code >= 0x18_0B && code <= 0x18_0D) || (code >= 0xFE_00 && code <= 0xFE_0F);
}

function isGap(code: number): boolean {
	return code <= 0x20 || (code >= 0x7F && code <= 0xA0) || (code > 0xA0 && (combiningGap(code) || gaps.test(String.fromCharCode(code))));
}

function hasGap(text: string): boolean {
	if (gaps.test(text)) {
		return true;
	}

	for (let at = 0; at < text.length; at++) {
		if (combiningGap(text.charCodeAt(at))) {
			return true;
		}
	}

	return false;
}

function withoutGaps(text: string): string {
	let tight = '';
	for (let at = 0; at < text.length; at++) {
		if (!isGap(text.charCodeAt(at))) {
			tight += text[at];
		}
	}

	return tight;
}

/** Each secret window, counted: the JWTs of the ring share their header's windows, and leave it one by one. */
const windowCounts = new Map<string, number>();
/**
 * Their rolling hashes, counted by bucket, made when the first secret is:
 * the scan compares a window's text only where its bucket is not empty, a
 * typed-array read per position (a Map's lookup cost several times that).
 */
const bucketBits = 16;
let buckets: Uint32Array | undefined;
const hashBase = 0x01_00_01_93;
const hashBaseToLast = (() => {
	let power = 1;
	for (let index = 1; index < secretRunLength; index++) {
		power = Math.imul(power, hashBase);
	}

	return power;
})();

/** The values already indexed: a run resolves the same credential more than once. */
const indexed = new Set<string>();
/**
 * Credentials shorter than a window are redacted whole (and URL-encoded):
 * real ones are far longer, but a short one must not be printed either.
 */
const shortForms: string[] = [];
// Shorter values would redact ordinary words.
const minLength = 6;

/**
 * Runs are matched with ASCII letters case-folded: an echo upper-cased (or
 * lower-cased) gives away nearly all of a token whose letters are of both
 * cases, and all of a hex one, whose case carries nothing. Redacting text
 * that matches a run only case-folded hides a little more, never less.
 */
function folded(code: number): number {
	return code >= 0x41 && code <= 0x5A ? code | 0x20 : code;
}

function foldText(text: string): string {
	return /[A-Z]/.test(text) ? text.replaceAll(/[A-Z]+/g, letters => letters.toLowerCase()) : text;
}

function hashAt(text: string, from: number): number {
	let hash = 0;
	for (let index = from; index < from + secretRunLength; index++) {
		hash = (Math.imul(hash, hashBase) + folded(text.charCodeAt(index))) | 0;
	}

	return hash;
}

function count(map: Map<string, number>, key: string, delta: number): void {
	const next = (map.get(key) ?? 0) + delta;
	if (next > 0) {
		map.set(key, next);
	} else {
		map.delete(key);
	}
}

function bucketOf(hash: number): number {
	return (hash ^ (hash >>> bucketBits)) & ((1 << bucketBits) - 1);
}

/** Adds (delta 1) or removes (delta -1) every window of `form`. */
function index(form: string, delta: 1 | -1): void {
	buckets ??= new Uint32Array(1 << bucketBits);
	// Folded once, not per window: a JWT's forms are hundreds of windows each, and each JWT is indexed on every request.
	const foldedForm = foldText(form);
	for (let from = 0; from + secretRunLength <= form.length; from++) {
		count(windowCounts, foldedForm.slice(from, from + secretRunLength), delta);
		buckets[bucketOf(hashAt(form, from))] += delta;
	}
}

function rememberForm(form: string): void {
	// Indexed as it is read: with its spaces and line breaks taken out (see scanSplit).
	const tight = withoutGaps(form);
	if (tight.length >= secretRunLength) {
		if (!indexed.has(tight)) {
			indexed.add(tight);
			index(tight, 1);
		}
	} else if (form.length >= minLength) {
		for (const short of [form, encodeURIComponent(form)]) {
			if (!shortForms.includes(short)) {
				shortForms.push(short);
			}
		}
	}
}

/**
 * `value` as base64 (and base64url) wherever it starts in what was encoded:
 * base64 turns 3 bytes into 4 characters, so a value after 0, 1 or 2 other
 * bytes (`user:` and a token in a Basic header, `Bearer ` before it) is
 * spelled three ways. Each is the characters that only the value's bytes
 * make: those shared with a byte before or after it are left off.
 */
function base64Forms(value: string): string[] {
	const bytes = Buffer.from(value, 'utf8');
	const forms: string[] = [];
	for (let before = 0; before < 3; before++) {
		const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
		const form = encoded.slice(Math.ceil((before * 8) / 6), Math.floor(((before + bytes.length) * 8) / 6));
		forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
	}

	return forms;
}

/**
 * The forms a value is held in. Escaped forms (JSON, URL) need no entry:
 * redact() decodes the text's escapes before it looks, so an echo inside a
 * JSON string or a query is found however the server escaped it; nor does a
 * form split by spaces or line breaks, which it reads with them taken out.
 * Its base64 does: nothing decodes base64 text (it is indistinguishable from
 * any other), so the runs of the encoded value are indexed themselves.
 */
function remember(value: string): void {
	const bare = value.replace(/^bearer\s+/i, '');
	for (const form of new Set([value, bare])) {
		rememberForm(form);
		// A form-encoded space is a plus, which no percent-decoding gives back.
		if (form.includes(' ')) {
			rememberForm(form.replaceAll(' ', '+'));
		}

		for (const encoded of base64Forms(form)) {
			rememberForm(encoded);
		}
	}
}

/**
 * The material of a private key (PEM or base64), redacted like a credential:
 * its base64 lines, not the armour (`-----BEGIN ...`), which every key of
 * the kind shares. Joined as the key's text holds them, as one string, and
 * with a literal `\n` (how .env files and SDKs write a PEM on one line).
 */
export function rememberKeyMaterial(text: string): void {
	const lines = text.split(/\r?\n|\\n/).map(line => line.trim()).filter(line => line !== '' && !line.startsWith('-----') && !/^[\w-]+:/.test(line));
	for (const separator of ['\n', '', '\\n', '\r\n']) {
		rememberForm(lines.join(separator));
	}
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
export const recentJwtCount = 16;

/** Redacts every run of `jwt` (any of its parts, whole or cut, or its base64) until {@link recentJwtCount} newer ones push it out. */
export function rememberJwt(jwt: string): void {
	recent.push(jwt);
	for (const form of [jwt, ...base64Forms(jwt)]) {
		index(form, 1);
	}

	if (recent.length > recentJwtCount) {
		for (const form of [recent[0]!, ...base64Forms(recent[0]!)]) {
			index(form, -1);
		}

		recent.shift();
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
 * A way of reading a stretch of the text: its characters after decoding one
 * kind of escape, each with the span of the stretch it came from
 * (`start`/`end` undefined: the stretch itself), which begins at `offset`.
 */
type View = {text: string; start: Int32Array | undefined; end: Int32Array | undefined; offset: number};

/** What each character after a backslash stands for in a JSON string (0: not a one-character escape). */
const jsonEscapes = new Uint8Array(128);
for (const [escape, character] of [['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']] as const) {
	jsonEscapes[escape.charCodeAt(0)] = character.charCodeAt(0);
}

/** An escape's decoded character, set by the step that read it. */
let decoded = 0;

/** A hex digit's value, or -1 (NaN and anything out of range too). */
function hexValue(code: number): number {
	return code >= 0x30 && code <= 0x39 ? code - 0x30 : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66 ? (code | 0x20) - 0x57 : -1;
}

/** The value of `digits` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, digits: number): number {
	let value = 0;
	for (let index = at; index < at + digits; index++) {
		const digit = hexValue(text.charCodeAt(index));
		if (digit < 0) {
			return -1;
		}

		value = (value << 4) | digit;
	}

	return value;
}

/**
 * A JSON string escape at `at` (`\/`, `\n`, `\u00e9` ...), or one of
 * inert()'s (`\x00`, `\u{200d}`, of a character in the Basic Multilingual
 * Plane): its length, or 0. inert's too, so that text made inert before it
 * is redacted (a line of the debug view) reads as the server sent it.
 */
function jsonEscape(text: string, at: number): number {
	const next = text.charCodeAt(at + 1);
	const simple = next < 128 ? jsonEscapes[next]! : 0;
	if (simple !== 0) {
		decoded = simple;
		return 2;
	}

	const value = next === 0x75 ? hexAt(text, at + 2, 4) : next === 0x78 ? hexAt(text, at + 2, 2) : -1;
	if (value >= 0) {
		decoded = value;
		return next === 0x75 ? 6 : 4;
	}

	if (next === 0x75 && text.charCodeAt(at + 2) === 0x7B) {
		const close = text.indexOf('}', at + 3);
		const braced = close > at + 3 && close <= at + 7 ? hexAt(text, at + 3, close - at - 3) : -1;
		if (braced >= 0) {
			decoded = braced;
			return close - at + 1;
		}
	}

	return 0;
}

function percentByte(text: string, at: number): number {
	return text.charCodeAt(at) === 0x25 ? hexAt(text, at + 1, 2) : -1;
}

/** A percent-encoding at `at`, of either case (one ASCII byte, or the two UTF-8 bytes of a Latin-1 character): its length, or 0. */
function percentEscape(text: string, at: number): number {
	const first = percentByte(text, at);
	if (first >= 0 && first < 0x80) {
		decoded = first;
		return 3;
	}

	const second = first >= 0xC2 && first <= 0xDF ? percentByte(text, at + 3) : -1;
	if (second >= 0x80 && second <= 0xBF) {
		decoded = ((first & 0x1F) << 6) | (second & 0x3F);
		return 6;
	}

	return 0;
}

/**
 * Where a decoded view is built: kept and grown, not made per stretch, as a
 * text with escapes all through it has a stretch every few dozen characters.
 */
class Scratch {
	codes = new Uint16Array(0);
	start = new Int32Array(0);
	end = new Int32Array(0);

	fit(length: number): this {
		if (this.codes.length < length) {
			const size = Math.max(length, this.codes.length * 2, 256);
			this.codes = new Uint16Array(size);
			this.start = new Int32Array(size);
			this.end = new Int32Array(size);
		}

		return this;
	}
}

/** The longest text whose squeezed view is built in kept arrays; longer ones (a whole audit report) get their own. */
const keptScratch = 1 << 16;
const squeezeScratch = new Scratch();
const jsonScratch = new Scratch();
const twiceScratch = new Scratch();
const percentScratch = new Scratch();

/**
 * `source` with every escape `step` reads (each begins with `marker`)
 * decoded, each character mapped back to the text, built in `scratch` (so
 * valid until the next decode into it).
 */
function decode(source: View, marker: number, step: (text: string, at: number) => number, scratch: Scratch): View {
	const {text} = source;
	const {codes, start, end} = scratch.fit(text.length);
	let length = 0;
	for (let at = 0; at < text.length;) {
		const width = text.charCodeAt(at) === marker ? step(text, at) || 1 : 1;
		codes[length] = width === 1 ? text.charCodeAt(at) : decoded;
		start[length] = source.start === undefined ? at : source.start[at]!;
		end[length] = source.end === undefined ? at + width : source.end[at + width - 1]!;
		length++;
		at += width;
	}

	let decodedText = '';
	// In slices: fromCharCode takes its characters as arguments (apply reads a typed array as they are; spreading iterates).
	for (let from = 0; from < length; from += 8192) {
		decodedText += String.fromCharCode.apply(undefined, codes.subarray(from, Math.min(length, from + 8192)) as unknown as number[]);
	}

	return {text: decodedText, start, end, offset: source.offset};
}

/**
 * `source` with its spaces and line breaks taken out, each character
 * mapped back to the text: a value split by them (`tok0A1b2 C3d4…`, a line
 * wrapped) reads whole, and the span found covers the gaps inside it, not
 * those around it. Built in `scratch` for a short text; a long one gets
 * arrays of its own, let go after the scan.
 */
function squeeze(source: View, scratch: Scratch): View {
	const {text} = source;
	const {codes, start, end} = text.length <= keptScratch ? scratch.fit(text.length) : new Scratch().fit(text.length);
	let length = 0;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (!isGap(code)) {
			codes[length] = code;
			start[length] = source.start === undefined ? at : source.start[at]!;
			end[length] = source.end === undefined ? at + 1 : source.end[at]!;
			length++;
		}
	}

	let squeezed = '';
	for (let from = 0; from < length; from += 8192) {
		squeezed += String.fromCharCode.apply(undefined, codes.subarray(from, Math.min(length, from + 8192)) as unknown as number[]);
	}

	return {text: squeezed, start, end, offset: source.offset};
}

/**
 * Adds to `spans` (start, end pairs in the original text, in order, merged)
 * where a secret window lies in `view`: a rolling hash over the text, so
 * each position costs a few integer operations and a window's text is
 * compared only on a hash that a secret window has.
 */
function scan(view: View, spans: number[], table: Uint32Array): void {
	const {text} = view;
	if (text.length < secretRunLength) {
		return;
	}

	let hash = hashAt(text, 0);
	let runStart = -1;
	let runEnd = -1;
	for (let at = 0; ; at++) {
		if (table[bucketOf(hash)] !== 0 && windowCounts.has(foldText(text.slice(at, at + secretRunLength)))) {
			const start = view.offset + (view.start === undefined ? at : view.start[at]!);
			const end = view.offset + (view.end === undefined ? at + secretRunLength : view.end[at + secretRunLength - 1]!);
			if (runStart >= 0 && start <= runEnd) {
				runEnd = Math.max(runEnd, end);
			} else {
				if (runStart >= 0) {
					spans.push(runStart, runEnd);
				}

				runStart = start;
				runEnd = end;
			}
		}

		if (at + secretRunLength >= text.length) {
			break;
		}

		hash = (Math.imul((hash - Math.imul(folded(text.charCodeAt(at)), hashBaseToLast)) | 0, hashBase) + folded(text.charCodeAt(at + secretRunLength))) | 0;
	}

	if (runStart >= 0) {
		spans.push(runStart, runEnd);
	}
}

/**
 * Scans `view` with its spaces and line breaks taken out (an escaped `\n`
 * too, once decoded), where it has any: the secrets' runs are indexed so
 * (rememberForm), so one scan finds a run split by them and one that is not.
 */
function scanSplit(view: View, spans: number[], table: Uint32Array): void {
	scan(hasGap(view.text) ? squeeze(view, squeezeScratch) : view, spans, table);
}

/** The most characters of the text one escape takes (`\u00e9`, `%C3%A9`, inert's `\u{200d}`). */
const widestEscape = 8;

/**
 * The stretches of `text` (start, end pairs) that a decoded view can differ
 * in: around each run of escapes (a `\` or `%` begins one) close enough to
 * share a window, as far as a window reaches. Every other window reads the
 * same decoded as not, and the plain scan has seen it; so decoding costs
 * what the escapes cost, not the text's length.
 */
function escapedStretches(text: string): number[] {
	const stretches: number[] = [];
	// Two escapes share a window when no more than a window's length of other characters lies between them.
	const reach = widestEscape + secretRunLength - 1;
	let first = -1;
	let last = -1;
	const close = () => {
		if (first >= 0) {
			stretches.push(Math.max(0, first - (secretRunLength - 1)), Math.min(text.length, last + reach + 1));
		}
	};

	let backslash = text.indexOf('\\');
	let percent = text.indexOf('%');
	while (backslash >= 0 || percent >= 0) {
		const at = percent < 0 || (backslash >= 0 && backslash < percent) ? backslash : percent;
		if (at === backslash) {
			backslash = text.indexOf('\\', at + 1);
		} else {
			percent = text.indexOf('%', at + 1);
		}

		if (first >= 0 && at - last <= reach) {
			last = at;
		} else {
			close();
			first = at;
			last = at;
		}
	}

	close();
	return stretches;
}

/** The scheme that introduces a credential goes with it: `Bearer ` (or its escapes) before a redacted run. */
const scheme = /bearer(?:\s|%20|\+|\\u0020)$/i;

/** Where secret runs lie in `text`, read as it is, JSON-unescaped (once or twice), URL-decoded, and both: start, end pairs, merged. */
function secretSpans(text: string, table: Uint32Array): number[] {
	const found: number[] = [];
	scanSplit({text, start: undefined, end: undefined, offset: 0}, found, table);

	for (let pair = 0, regions = escapedStretches(text); pair < regions.length; pair += 2) {
		const stretch: View = {text: text.slice(regions[pair], regions[pair + 1]), start: undefined, end: undefined, offset: regions[pair]!};
		// JSON-unescaped twice: a string holding escapes, JSON-encoded again (as the debug view's raw pagination is), holds them doubled.
		const json = stretch.text.includes('\\') ? decode(stretch, 0x5C, jsonEscape, jsonScratch) : undefined;
		const twice = json?.text.includes('\\') ? decode(json, 0x5C, jsonEscape, twiceScratch) : undefined;
		for (const view of [stretch, json, twice]) {
			if (view !== undefined && view !== stretch) {
				scanSplit(view, found, table);
			}

			if (view?.text.includes('%')) {
				scanSplit(decode(view, 0x25, percentEscape, percentScratch), found, table);
			}
		}
	}

	const order: number[] = [];
	for (let pair = 0; pair < found.length; pair += 2) {
		order.push(pair);
	}

	order.sort((a, b) => found[a]! - found[b]!);
	const spans: number[] = [];
	for (const pair of order) {
		let start = found[pair]!;
		const end = found[pair + 1]!;
		const before = scheme.exec(text.slice(Math.max(0, start - 12), start));
		start -= before?.[0].length ?? 0;
		if (spans.length > 0 && start <= spans.at(-1)!) {
			spans[spans.length - 2] = Math.min(spans.at(-2)!, start);
			spans[spans.length - 1] = Math.max(spans.at(-1)!, end);
		} else {
			spans.push(start, end);
		}
	}

	return spans;
}

/**
 * Replaces every run of {@link secretRunLength} or more characters of every
 * credential, key and recent JWT pagewalk holds (bare or after `Bearer`, in
 * the text as it is, JSON-escaped or URL-encoded) with the redaction mark.
 * Applied to server text before it is cut into an excerpt, and to every
 * message before it is printed.
 */
export function redact(text: string): string {
	let result = text;
	if (buckets !== undefined && windowCounts.size > 0 && text.length >= secretRunLength) {
		const spans = secretSpans(text, buckets);
		if (spans.length > 0) {
			let joined = text.slice(0, spans[0]);
			for (let pair = 0; pair < spans.length; pair += 2) {
				joined += Secret.mark + text.slice(spans[pair + 1], spans[pair + 2] ?? text.length);
			}

			result = joined;
		}
	}

	const lower = shortForms.length === 0 ? '' : foldText(result);
	for (const form of shortForms) {
		const wanted = foldText(form);
		if (lower.includes(wanted)) {
			result = result.replaceAll(new RegExp(wanted.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), Secret.mark);
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
