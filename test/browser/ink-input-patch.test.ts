/**
 * Ink's input parser as patches/ink+6.8.0.patch extends it: the one
 * tokenizer of the browser's input. Control strings (OSC, DCS, SOS, PM, APC;
 * 7- and 8-bit) are read whole and dropped, cut across reads anywhere; one
 * left open never holds its content, and ends at ESC, CAN, SUB or the
 * deadline (the App calls flushPendingEscape once the input has been quiet
 * for pendingDelay() ms: here the test calls it, no clock involved). A
 * bracketed paste is one event, its text capped. The app-level tests (what
 * the browser does with all this) are in control-strings.property.test.tsx.
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';

type Parser = {push(chunk: string): string[]; hasPendingEscape(): boolean; flushPendingEscape(): string | undefined; pendingDelay?(): number; reset(): void};
type ParserModule = {createInputParser(): Parser; maxPasteLength?: number; escapeDelay?: number; stringDelay?: number};

async function load(): Promise<ParserModule> {
	const entry = createRequire(import.meta.url).resolve('ink');
	return (await import(pathToFileURL(path.join(path.dirname(entry), 'input-parser.js')).href)) as ParserModule;
}

const parserModule = await load();
const notPatched = 'patches/ink+6.8.0.patch is not applied: run `npx patch-package` (npm install runs it)';

/** The events of `chunks` pushed one read at a time, then what the deadline flushes. */
function events(chunks: readonly string[]): string[] {
	const parser = parserModule.createInputParser();
	const out = chunks.flatMap(chunk => parser.push(chunk));
	const flushed = parser.flushPendingEscape();
	return flushed === undefined ? out : [...out, flushed];
}

/** Every way to cut `text` into two reads, and into one read per character. */
function cuts(text: string): string[][] {
	const characters = [...text];
	return [[text], characters, ...characters.map((_, index) => [characters.slice(0, index).join(''), characters.slice(index).join('')])];
}

const strings = [
	'\u001B]52;c;YWJj\u0007',
	'\u001B]11;rgb:0000/ffff/0000\u001B\\',
	'\u001BP1$r0m\u001B\\',
	'\u001BX]jJWY\u0007',
	'\u001B^qgQ\u009C',
	'\u001B_Gi=1;OK\u001B\\',
	'\u009D52;c;YWJj\u0007',
	'\u0090>|xterm(388)\u009C',
	'\u0098sos\u001B\\',
	'\u009Epm\u0007',
	'\u009Fapc\u009C',
];

describe('control strings in Ink\'s input parser', () => {
	it('is the patched parser', () => {
		expect(parserModule.stringDelay, notPatched).toBeTypeOf('number');
	});

	it('drops every kind whole, 7- and 8-bit, ended by BEL or ST (ESC \\ or 0x9c), cut across reads anywhere; the keys around it stay keys', () => {
		for (const string of strings) {
			for (const chunks of cuts(`j${string}k`)) {
				expect(events(chunks).join(''), JSON.stringify(chunks)).toBe('jk');
			}
		}
	});

	it('CAN or SUB aborts a string; an ESC that is not ST ends it and starts the next key, so Esc always gets out', () => {
		expect(events(['\u001B]11;rgb\u0018j'])).toEqual(['j']);
		expect(events(['\u001BPjunk\u001Aj'])).toEqual(['j']);
		expect(events(['\u001B]11;rgb:00', '00\u001B', '[A'])).toEqual(['\u001B[A']);
		expect(events(['\u001B]11;rgb:00\u001Bj'])).toEqual(['\u001Bj']);
	});

	it('an unterminated string swallows what follows until the input is quiet, holding none of it; then keys are keys again', () => {
		const parser = parserModule.createInputParser();
		expect(parser.push('\u001B]11;rgb:0000/')).toEqual([]);
		// A key typed while the string is open is part of it…
		expect(parser.push('j')).toEqual([]);
		expect(parser.hasPendingEscape()).toBe(true);
		expect(parser.pendingDelay?.()).toBe(parserModule.stringDelay);
		// …until the deadline, which ends it and drops it (an ESC waiting for its `\` too).
		expect(parser.push('\u001B')).toEqual([]);
		expect(parser.flushPendingEscape()).toBeUndefined();
		expect(parser.hasPendingEscape()).toBe(false);
		expect(parser.push('j')).toEqual(['j']);
		// The ST that comes too late is no key either.
		expect(parser.push('\u001B\\k')).toEqual(['k']);
	});

	it('a string of megabytes is dropped as it comes, whatever the reads', () => {
		const parser = parserModule.createInputParser();
		const body = 'YWJj'.repeat(1024);
		expect(parser.push('\u001B]52;c;')).toEqual([]);
		for (let index = 0; index < 1024; index++) {
			expect(parser.push(body)).toEqual([]);
		}

		expect(parser.push('\u0007q')).toEqual(['q']);
		// A CSI sequence that never ends is not held either: swallowed to its final byte.
		expect(parser.push(`\u001B[${'1;'.repeat(200)}`)).toEqual([]);
		expect(parser.push('2'.repeat(100_000))).toEqual([]);
		expect(parser.push('Rj')).toEqual(['j']);
	});

	it('a lone ESC waits for what a later read brings (ESC | ] is a string), and is Esc when the input stays quiet', () => {
		const parser = parserModule.createInputParser();
		expect(parser.push('\u001B')).toEqual([]);
		expect(parser.pendingDelay?.()).toBe(parserModule.escapeDelay);
		expect(parser.push(']52;c;YWJj\u0007')).toEqual([]);
		expect(parser.push('\u001B')).toEqual([]);
		expect(parser.flushPendingEscape()).toBe('\u001B');
		// ESC [ and ESC O alone are what a person types (Esc, then a key); a sequence cut short is dropped.
		expect(events(['\u001B['])).toEqual(['\u001B[']);
		expect(events(['\u001B[12;4'])).toEqual([]);
		// Esc Esc: each its own key, also before a string.
		expect(events(['\u001B\u001B]11;x\u0007j'])).toEqual(['\u001B', 'j']);
	});

	it('other CSI and SS3 sequences stay whole (Ink names them or not), 8-bit ones and C1 controls are dropped', () => {
		expect(events(['\u001B[?62;c\u001B[12;40R\u001B[I\u001BOx'])).toEqual(['\u001B[?62;c', '\u001B[12;40R', '\u001B[I', '\u001BOx']);
		expect(events(['\u009B12;40Rj\u008FAk\u0085l'])).toEqual(['j', 'k', 'l']);
	});
});

describe('bracketed paste in Ink\'s input parser', () => {
	const paste = (text: string) => `\u001B[200~${text}\u001B[201~`;

	it('is one event, cut across reads anywhere (inside both markers too), keys around it stay keys', () => {
		for (const chunks of cuts(`j${paste('ab]\u001B[Acd\r')}k`)) {
			expect(events(chunks), JSON.stringify(chunks)).toEqual(['j', paste('ab]\u001B[Acd\r'), 'k'].filter(Boolean));
		}
	});

	it('holds at most maxPasteLength characters; an unterminated paste is handed over at the deadline', () => {
		const parser = parserModule.createInputParser();
		expect(parser.push('\u001B[200~')).toEqual([]);
		for (let index = 0; index < 1000; index++) {
			parser.push('x'.repeat(1000));
		}

		const [event] = parser.push('\u001B[201~');
		expect(event).toBe(paste('x'.repeat(parserModule.maxPasteLength!)));
		expect(events(['\u001B[200~abc', 'j'])).toEqual([paste('abcj')]);
	});
});
