/**
 * A control string on the input is no key: an OSC, DCS, SOS, PM or APC
 * string (a paste, or a terminal's answer to a query), 7- or 8-bit, ended by
 * BEL or either ST; a bracketed paste on the table or a pane; a CSI or SS3
 * sequence the browser has no key for (device attributes, a cursor position
 * report, focus in and out, kitty's flags and keys, window reports, colours,
 * 8-bit CSI), also as raw 8-bit bytes that are no UTF-8 (a lone 0x9D,
 * read through commands/browse/terminal-input.ts's decoder). Each, with any printable payload (keys such as ] j J W Y q g
 * included), cut across reads at any point, does nothing at all: the frame
 * is the same and is not even drawn again (the note a key would clear stays),
 * no page is requested, nothing is copied or written.
 *
 * The reads arrive with time between them, less than the input deadline
 * (Ink's parser waits that long for the rest of a sequence: patches/): the
 * deadline runs on fake timers, so no test here depends on the clock. The
 * parser alone is tested in ink-input-patch.test.ts.
 */
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {savePages} from '../../source/commands/browse/copy-save.js';
import {InputDecoder} from '../../source/browser/keys/input-bytes.js';
import type {Page} from '../../source/contract/types.js';
import {keys} from './support/render-app.js';
import {sandboxBrowser} from './support/sandbox-browser.js';

const fixture = sandboxBrowser({size: {columns: 100, rows: 16}});
let folder: string;
let requests = 0;
let answered = 0;
let writes: string[] = [];

beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-control-strings-'));
	requests = 0;
	answered = 0;
	writes = [];
});

afterEach(() => {
	rmSync(folder, {recursive: true, force: true});
});

/** Longer than any wait of Ink's input parser (its deadline for an open string: 500 ms). */
const pastTheDeadline = 1000;

/**
 * The browser on the sandbox, counting the pages it asks for and the files it
 * writes (into `folder`); returned once it is idle: the first page drawn and
 * the second one fetched ahead (each redraws the frame).
 */
async function browse() {
	const app = await fixture.browse({
		wrapLoad: load => async (url, options) => {
			requests++;
			try {
				return await load(url, options);
			} finally {
				answered++;
			}
		},
		appProps: () => ({
			async save(name: string, pages: AsyncIterable<Page>, options: {overwrite: boolean}) {
				writes.push(name);
				return savePages(name, pages, {...options, cwd: folder});
			},
		}),
	});
	await app.waitFor(f => f.includes('page 1 ') && f.includes('row 1/') && requests === 2 && answered === 2);
	await turn();
	return app;
}

type App = Awaited<ReturnType<typeof browse>>;

async function turn(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

/**
 * Writes each chunk as one read, a turn of the event loop between reads (so
 * each is parsed on its own, and anything it asked for would be drawn), with
 * the clock stopped: the reads come sooner than the input deadline. Then the
 * deadline passes.
 */
async function deliver(app: App, chunks: readonly string[]): Promise<void> {
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
	try {
		for (const chunk of chunks) {
			app.instance.stdin.write(chunk);
			// eslint-disable-next-line no-await-in-loop -- one read after another
			await turn();
		}

		// Nothing but the input deadline waits: no task, no poll.
		expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
		vi.advanceTimersByTime(pastTheDeadline);
		await turn();
	} finally {
		vi.useRealTimers();
	}

	await turn();
}

/** Everything the browser shows or does: what a control string must leave as it is. */
function observed(app: App) {
	return {frame: app.frame(), frames: app.instance.stdout.frames.length, requests, writes: [...writes]};
}

const character = (code: number) => String.fromCodePoint(code);
// Printable text, heavy on the browser's keys (a leak would act), and wide characters.
const printable = fc.oneof(
	{weight: 4, arbitrary: fc.integer({min: 0x20, max: 0x7E}).map(character)},
	{weight: 4, arbitrary: fc.constantFrom(...']jJWYqQgGlhnNycdwL/?:\\')},
	{weight: 1, arbitrary: fc.constantFrom('é', '日', '😀')},
);
const payload = fc.string({unit: printable, maxLength: 24});
const introducers = [']', 'P', 'X', '^', '_'].map(kind => `\u001B${kind}`).concat(['\u009D', '\u0090', '\u0098', '\u009E', '\u009F']);
const terminators = ['\u0007', '\u001B\\', '\u009C'];
const controlString = fc.tuple(fc.constantFrom(...introducers), payload, fc.constantFrom(...terminators)).map(([start, body, end]) => start + body + end);
const paste = fc.string({unit: fc.oneof({weight: 8, arbitrary: printable}, {weight: 1, arbitrary: fc.constantFrom('\r', '\n', '\t')}), maxLength: 24}).map(text => `\u001B[200~${text}\u001B[201~`);
const number = fc.nat({max: 9999}).map(String);
// Kitty's functional keys (its Private Use Area), none of them text and none bound: Caps Lock … Menu, F13 …, keypad,
// media, modifiers, which Ink names; and the codes Ink reads as a private-use character (57364–57375 and past 57454).
const kittyKey = fc.oneof(fc.integer({min: 57_358, max: 57_454}), fc.integer({min: 57_364, max: 57_375}), fc.integer({min: 57_344, max: 63_743}));
const unknownSequence = fc.oneof(
	fc.tuple(fc.constantFrom('?', '>'), fc.array(number, {minLength: 1, maxLength: 4})).map(([mark, parameters]) => `\u001B[${mark}${parameters.join(';')}c`),
	fc.tuple(number, number).map(([row, column]) => `\u001B[${row};${column}R`),
	fc.constantFrom('\u001B[I', '\u001B[O'),
	number.map(flags => `\u001B[?${flags}u`),
	kittyKey.map(code => `\u001B[${code}u`),
	fc.tuple(kittyKey, fc.integer({min: 1, max: 16})).map(([code, modifiers]) => `\u001B[${code};${modifiers}u`),
	fc.tuple(number, fc.constantFrom('0', '1', '2', '3', '4')).map(([mode, value]) => `\u001B[?${mode};${value}$y`),
	fc.array(number, {minLength: 3, maxLength: 3}).map(parameters => `\u001B[${parameters.join(';')}t`),
	number.map(colour => `\u001B[${colour}m`),
	fc.constantFrom(...'ghijklmnopqrstuvwxyz').map(final => `\u001BO${final}`),
	fc.tuple(number, number).map(([row, column]) => `\u009B${row};${column}R`),
);

// The same strings as raw 8-bit bytes (not UTF-8): the C1 introducer a byte of its own, ended by BEL, a raw ST, ESC \\ or ST as UTF-8; and 8-bit CSI and SS3.
const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];
const rawControlString = fc.tuple(fc.constantFrom(0x90, 0x98, 0x9D, 0x9E, 0x9F), payload, fc.constantFrom([0x07], [0x9C], [0x1B, 0x5C], [0xC2, 0x9C])).map(([start, body, end]) => [start, ...utf8(body), ...end]);
const rawSequence = fc.oneof(
	fc.tuple(number, number).map(([row, column]) => [0x9B, ...utf8(`${row};${column}R`)]),
	fc.array(number, {minLength: 1, maxLength: 3}).map(parameters => [0x9B, ...utf8(`?${parameters.join(';')}c`)]),
	fc.constantFrom(...'PQRS').map(final => [0x8F, final.codePointAt(0)!]),
);

/** The pieces' bytes joined, then cut into reads at random bytes (inside a UTF-8 character too). */
function cutBytesIntoReads(piece: fc.Arbitrary<number[]>) {
	return fc.tuple(fc.array(piece, {minLength: 1, maxLength: 4}), fc.array(fc.nat(), {maxLength: 8})).map(([pieces, cuts]) => {
		const bytes = pieces.flat();
		const points = [...new Set([0, ...cuts.map(cut => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
		return points.slice(1).map((point, index) => Uint8Array.from(bytes.slice(points[index], point)));
	});
}

/** Raw reads as the browser's stdin hands them to Ink (commands/browse/terminal-input.ts): through one decoder. */
function decoded(reads: readonly Uint8Array[]): string[] {
	const decoder = new InputDecoder();
	return reads.map(read => decoder.decode(read));
}

/** The pieces joined, then cut into reads at random code points. */
function cutIntoReads(piece: fc.Arbitrary<string>) {
	return fc.tuple(fc.array(piece, {minLength: 1, maxLength: 4}), fc.array(fc.nat(), {maxLength: 8})).map(([pieces, cuts]) => {
		const characters = [...pieces.join('')];
		const points = [...new Set([0, ...cuts.map(cut => cut % (characters.length + 1)), characters.length])].sort((a, b) => a - b);
		return points.slice(1).map((point, index) => characters.slice(points[index], point).join(''));
	});
}

describe('control strings, pastes and unknown sequences are no keys (ink-testing-library, against the sandbox)', () => {
	it('on the table, with a note showing: no action at all, whatever the kind, payload and reads', async () => {
		const app = await browse();
		await app.press('y');
		await app.waitFor(f => f.includes('copied id'));
		await turn();
		const start = observed(app);
		// Any key clears this note: the selected row's id, cut to 16 cells.
		const selected = /^› (\S+)/m.exec(start.frame)?.[1] ?? '';
		expect(start.frame).toContain(`copied id ${selected.slice(0, 15)}… (`);
		await fc.assert(
			fc.asyncProperty(cutIntoReads(fc.oneof(controlString, controlString, paste, unknownSequence)), async reads => {
				const before = observed(app);
				await deliver(app, reads);
				expect(observed(app)).toEqual(before);
			}),
			{numRuns: 200, seed: 20_261_127},
		);
		expect(observed(app)).toEqual(start);
		// And keys are still keys.
		await app.press('j');
		await app.waitFor(f => f.includes('row 2/') && !f.includes('copied id'));
	}, 60_000);

	it('raw 8-bit forms (a lone C1 byte, not UTF-8), on the table and in the save prompt: no action at all', async () => {
		const app = await browse();
		await app.press('y');
		await app.waitFor(f => f.includes('copied id'));
		await turn();
		const property = (seed: number) => fc.assert(
			fc.asyncProperty(cutBytesIntoReads(fc.oneof(rawControlString, rawControlString, rawSequence)), async reads => {
				const before = observed(app);
				await deliver(app, decoded(reads));
				expect(observed(app)).toEqual(before);
			}),
			{numRuns: 100, seed},
		);
		const start = observed(app);
		await property(20_261_129);
		expect(observed(app)).toEqual(start);
		await app.press('w', 'a', 'b');
		await app.waitFor(f => f.includes('as NDJSON to file: ab'));
		await turn();
		const prompt = observed(app);
		await property(20_261_130);
		expect(observed(app)).toEqual(prompt);
	}, 60_000);

	it('in the save prompt: nothing typed, nothing written', async () => {
		const app = await browse();
		await app.press('w', 'a', 'b');
		await app.waitFor(f => f.includes('as NDJSON to file: ab'));
		await turn();
		const start = observed(app);
		await fc.assert(
			fc.asyncProperty(cutIntoReads(fc.oneof(controlString, unknownSequence)), async reads => {
				const before = observed(app);
				await deliver(app, reads);
				expect(observed(app)).toEqual(before);
			}),
			{numRuns: 60, seed: 20_261_128},
		);
		expect(observed(app)).toEqual(start);
	}, 60_000);

	it('the two strings of the issue: the page stays, no save prompt, no file; Enter after them is Enter', async () => {
		const app = await browse();
		const before = observed(app);
		// An OSC 52 string (unfixed: ] next page, Y a copy, W the save prompt with `Jj` typed), then a colour reply.
		await deliver(app, ['\u001B]52;c;YWJj\u0007', '\u001B]11;rgb:0000/ffff/0000\u001B\\']);
		expect(observed(app)).toEqual(before);
		await app.press(keys.enter);
		await app.waitFor(f => f.startsWith('object 1 of'));
		expect(writes).toEqual([]);
		expect(readdirSync(folder)).toEqual([]);
		expect(requests).toBe(before.requests);
	});
});

describe('raw C1 bytes: the issue\'s strings in their 8-bit form', () => {
	it('0x9D 52;c;YWJj BEL and 0x9D 11;rgb:… 0x9C: the page stays, no save prompt, no file; Enter after them is Enter', async () => {
		const app = await browse();
		const before = observed(app);
		await deliver(app, decoded([Uint8Array.from([0x9D, ...utf8('52;c;YWJj'), 0x07]), Uint8Array.from([0x9D, ...utf8('11;rgb:0000/ffff/0000'), 0x9C])]));
		expect(observed(app)).toEqual(before);
		await app.press(keys.enter);
		await app.waitFor(f => f.startsWith('object 1 of'));
		expect(writes).toEqual([]);
		expect(requests).toBe(before.requests);
	});

	it('behind a lead byte it could continue (0xE2 0x9D 5…, a character broken off): the lead is one U+FFFD, the string is still swallowed whole', async () => {
		const app = await browse();
		const before = observed(app);
		await deliver(app, decoded([Uint8Array.from([0xE2, 0x9D, ...utf8('52;c;YWJj'), 0x07, 0xF0, 0x9D, ...utf8(']]W'), 0x9C])]));
		// U+FFFD names no key: the page, the row and the files stay as they were.
		expect(observed(app)).toMatchObject({requests: before.requests, writes: []});
		expect(app.frame()).not.toContain('as NDJSON to file');
		expect(app.frame()).toContain('row 1/');
		expect(readdirSync(folder)).toEqual([]);
	});
});

describe('an open string ends when the input has been quiet; a lone Esc waits as long for the rest of a sequence', () => {
	it('a key typed into an unterminated string is lost, the next one after the deadline counts', async () => {
		const app = await browse();
		const before = observed(app);
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		try {
			app.instance.stdin.write('\u001B]11;rgb:0000/');
			await turn();
			app.instance.stdin.write('j');
			await turn();
			vi.advanceTimersByTime(400);
			await turn();
			expect(observed(app)).toEqual(before);
			vi.advanceTimersByTime(pastTheDeadline);
			await turn();
		} finally {
			vi.useRealTimers();
		}

		await app.press('j');
		await app.waitFor(f => f.includes('row 2/'));
	});

	it('Esc cut from the ] of an OSC by a read is no key; Esc alone is Esc once the input is quiet', async () => {
		const app = await browse();
		await app.press('/', 'a');
		await app.waitFor(f => f.includes('/ filter rows: a'));
		await turn();
		const before = observed(app);
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		try {
			app.instance.stdin.write(keys.escape);
			await turn();
			vi.advanceTimersByTime(40);
			app.instance.stdin.write(']52;c;YWJj\u0007');
			await turn();
			vi.advanceTimersByTime(pastTheDeadline);
			await turn();
			expect(observed(app)).toEqual(before);
			app.instance.stdin.write(keys.escape);
			await turn();
			vi.advanceTimersByTime(40);
			await turn();
			expect(observed(app)).toEqual(before);
			vi.advanceTimersByTime(20);
			await turn();
		} finally {
			vi.useRealTimers();
		}

		await app.waitFor(f => !f.includes('/ filter rows') && f.includes('row 1/'));
	});
});

describe('mouse reports stay the wheel', () => {
	it('an SGR wheel notch and the old form (ESC[M and three bytes, one of them q) each scroll three rows and type nothing', async () => {
		const app = await browse();
		await deliver(app, ['\u001B[<65;10;5M']);
		await app.waitFor(f => f.includes('row 4/'));
		// Wheel down (65 + 32 = a) at column 81 (q), row 10 (*).
		await deliver(app, ['\u001B[M', 'aq*']);
		await app.waitFor(f => f.includes('row 7/') && f.includes('page 1 '));
	});
});

describe('bracketed paste: text for a prompt, never keys', () => {
	const pasted = (text: string) => `\u001B[200~${text}\u001B[201~`;

	it('into the save prompt (w): the text is typed, its line end is no Enter; Enter then writes that file', async () => {
		const app = await browse();
		await app.press('w');
		await app.waitFor(f => f.includes('as NDJSON to file:'));
		await deliver(app, ['\u001B[200~page one', '.ndjson\r\n\u001B[2', '01~']);
		await app.waitFor(f => f.includes('as NDJSON to file: page one.ndjson'));
		expect(writes).toEqual([]);
		await app.press(keys.enter);
		await app.waitFor(f => f.includes('wrote '));
		expect(writes).toEqual(['page one.ndjson']);
		expect(readFileSync(path.join(folder, 'page one.ndjson'), 'utf8')).toMatch(/^\{"id":/);
	});

	it('into the filter (/), the limit (L) and the jump (:) prompts', async () => {
		const app = await browse();
		await app.press('/');
		await deliver(app, [pasted('BT\tC\n')]);
		await app.waitFor(f => f.includes('/ filter rows: BT C'));
		await app.press(keys.escape, 'L');
		await app.waitFor(f => f.includes('(type to replace)'));
		await deliver(app, [pasted('50')]);
		await app.waitFor(f => f.includes('limit (0–100), Enter applies: 50') && !f.includes('(type to replace)'));
		await app.press(keys.escape, ':');
		await deliver(app, [pasted('abc')]);
		await app.waitFor(f => f.includes(': jump (id: after it, <id: before it): abc'));
	});

	it('on the table and in a pane: nothing, not even a note cleared', async () => {
		const app = await browse();
		await app.press('y');
		await app.waitFor(f => f.includes('copied id'));
		await turn();
		let before = observed(app);
		await deliver(app, [pasted(']]jjJWq\r')]);
		expect(observed(app)).toEqual(before);
		await app.press('?');
		await app.waitFor(f => f.startsWith('keys'));
		await turn();
		before = observed(app);
		await deliver(app, [pasted('jjq\u001B')]);
		expect(observed(app)).toEqual(before);
	});
});
