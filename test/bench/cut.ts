/**
 * `npm run bench:cut`: the cost of cutting one table cell, a 100-character
 * one against a 1 MB one, with today's cut (text/text-width.ts) and the cut
 * it replaced (string-width on the whole cell, then cli-truncate) side by
 * side; and `dump --format table` of one page holding a 1 MB cell, our own
 * work only (parsing the body and writing the table; no network), old writer
 * against new. Medians; the ratio 1 MB / 100 characters is the figure that
 * matters: bounded cost means it stays near 1.
 */
import process from 'node:process';
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import {cell, columnsOf, flatten} from '../../source/cells/flatten.js';
import {inert} from '../../source/text/inert.js';
import {padToWidth} from '../../source/text/text-width.js';
import type {ListObject} from '../../source/contract/types.js';
import {tableWriter} from '../../source/output/table.js';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 50);
// The old cut reads the whole cell, for seconds on wide text: on 1 MB it is
// timed once (BENCH_OLD_ROUNDS for more), without a warm-up round.
const oldRounds = Number(process.env['BENCH_OLD_ROUNDS'] ?? 1);

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

function time(rounds: number, run: () => unknown, warm = true): number {
	if (warm) {
		run();
	}

	const times: number[] = [];
	for (let i = 0; i < rounds; i++) {
		const start = performance.now();
		run();
		times.push(performance.now() - start);
	}

	return median(times);
}

/** A string as a parsed body gives it: flat, not a rope built by repeat(). */
const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/** The browser's cell cut before text/text-width.ts (browser/view/table-layout.ts fitCell). */
function oldFitCell(text: string, width: number): string {
	let cut = text;
	let cells = stringWidth(text);
	if (cells > width) {
		cut = cliTruncate(text, width, {position: 'end'});
		cells = stringWidth(cut);
		while (cells > width) {
			cut = cliTruncate(cut, width - (cells - width), {position: 'end'});
			cells = stringWidth(cut);
		}
	}

	return cut + ' '.repeat(width - cells);
}

/** The dump's table writer before the shared layout (output/table.ts), for one page. */
function oldTablePage(objects: Array<Record<string, unknown>>): string {
	const pad = (text: string, width: number) => {
		const fitted = stringWidth(text) > width ? cliTruncate(text, width) : text;
		return fitted + ' '.repeat(Math.max(0, width - stringWidth(fitted)));
	};

	const rows = objects.map(object => flatten(object, {value: cell}));
	const columns = columnsOf(rows).map(path => ({
		path,
		width: Math.min(36, Math.max(stringWidth(inert(path)), ...rows.map(row => stringWidth(inert(row.get(path) ?? ''))))),
	}));
	let text = `${columns.map(column => pad(inert(column.path), column.width)).join('  ').trimEnd()}\n`;
	for (const row of rows) {
		text += `${columns.map(column => pad(inert(row.get(column.path) ?? ''), column.width)).join('  ').trimEnd()}\n`;
	}

	return text;
}

const kinds = {
	ascii: 'The quick brown fox jumps over the lazy dog. ',
	'wide (CJK, emoji)': '日本語のテキスト👍🏽東京🇯🇵',
};

const format = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
// The old cut on 1 MB of wide text runs for minutes (string-width and
// cli-truncate segment the whole megabyte): it is timed on 100 KB unless
// BENCH_OLD_HUGE=1 asks for the full size.
const oldHugeWide = process.env['BENCH_OLD_HUGE'] === '1';
console.log(`cutting one cell to 36 cells, median of ${rounds} rounds (old cut on large cells: ${oldRounds}, no warm-up)\n`);
console.log(`${'cell'.padEnd(34)}${'100 chars'.padEnd(14)}${'large'.padEnd(13)}ratio`);
for (const [name, unit] of Object.entries(kinds)) {
	const short = flat(unit.repeat(Math.ceil(100 / unit.length)).slice(0, 100).replace(/[\uD800-\uDBFF]$/, ''));
	const huge = flat(unit.repeat(Math.ceil(1_000_000 / unit.length)));
	const oldSize = name === 'ascii' || oldHugeWide ? 1_000_000 : 100_000;
	const oldLarge = flat(unit.repeat(Math.ceil(oldSize / unit.length)));
	// Each round cuts many cells so the clock sees more than its own resolution.
	const repeat = 100;
	const newShort = time(rounds, () => {
		for (let i = 0; i < repeat; i++) {
			padToWidth(short, 36);
		}
	}) / repeat;
	const newHuge = time(rounds, () => {
		for (let i = 0; i < repeat; i++) {
			padToWidth(huge, 36);
		}
	}) / repeat;
	const oldShort = time(rounds, () => {
		for (let i = 0; i < repeat; i++) {
			oldFitCell(short, 36);
		}
	}) / repeat;
	const oldHuge = time(oldRounds, () => oldFitCell(oldLarge, 36), false);
	const row = (label: string, a: number, b: number) => console.log(`${label.padEnd(34)}${format(a).padEnd(14)}${format(b).padEnd(13)}${(b / a).toFixed(1)}x`);
	row(`${name}, new (1 MB)`, newShort, newHuge);
	row(`${name}, old (${oldSize === 1_000_000 ? '1 MB' : '100 KB'})`, oldShort, oldHuge);
}

// One page of 25 objects, one of them holding a 1 MB description of wide
// text (new writer), or of ASCII (both writers: the old one would take
// minutes on wide text).
const page = (huge: string) => Array.from({length: 25}, (_, i) => ({
	id: `5c771d99-7de1-4729-9b06-f2325a97${String(i).padStart(4, '0')}`,
	name: `Wallet ${i}`,
	description: i === 12 ? huge : 'a short description',
	balance: {amount: '0.00010000', currency: 'BTC'},
}));
const dumpRounds = Math.max(5, Math.round(rounds / 5));
for (const [name, unit] of [['wide', '日本語のテキスト👍🏽'], ['ascii', 'x']] as const) {
	const body = JSON.stringify({pagination: {}, data: page(unit.repeat(Math.ceil(1_000_000 / unit.length)))});
	const objects = () => (JSON.parse(body) as {data: ListObject[]}).data;
	console.log(`\ndump --format table, one page of 25 objects with a 1 MB ${name} cell (${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB body; parse and write), median`);
	const newDump = time(dumpRounds, () => tableWriter({tty: false, color: false}).page(objects()));
	const parseOnly = time(dumpRounds, () => JSON.parse(body));
	let line = `new ${format(newDump)} (of which JSON.parse ${format(parseOnly)}; our work ${format(newDump - parseOnly)}) · target < 100 ms`;
	if (name === 'ascii' || oldHugeWide) {
		const oldDump = time(oldRounds, () => oldTablePage(objects()), false);
		line += ` · old ${format(oldDump)} · old/new ${(oldDump / newDump).toFixed(1)}x`;
	}

	console.log(line);
}
