/**
 * `npx tsx test/bench/json-scan.ts`: the JSON scanner's hot paths in one
 * process, with no network in the way: what `dump` runs on every page
 * (pageSpans with the body's bytes), the validating page scanner (scanPage),
 * and the cells of every object (exactCells, for csv, table and the
 * browser), over pages of 100 account-like objects written three ways:
 * compact ASCII (as the sandbox writes them), pretty-printed (every object
 * goes through compactJson), and compact with non-ASCII and unsafe text.
 *
 * BENCH_BASE=DIR (a source tree of an earlier commit, for example
 * `git archive REF | tar -x -C DIR`) times that tree's modules beside this
 * one's, alternated round by round; each line gives the median time a page
 * and the range over the rounds, and the ratio of this tree to the base,
 * paired by round.
 *
 * Options: --rounds N (default 9), --pages N pages timed a round (default 300).
 */
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';
import {median} from './median.js';

const {values} = parseArgs({options: {rounds: {type: 'string', default: '9'}, pages: {type: 'string', default: '300'}}});
const rounds = Number(values.rounds);
const pages = Number(values.pages);

type Spans = {
	pageSpans(body: string, count: number, bytes?: Uint8Array): {texts: string[] | undefined};
	scanPage(body: string): {objectTexts: string[]};
};
type Cells = {exactCells(text: string): Map<string, string>};
type Tree = {name: string; spans: Spans; cells: Cells};

async function load(root: string, name: string): Promise<Tree> {
	const module = async <T>(file: string) => import(pathToFileURL(path.join(root, 'source/core', file)).href) as Promise<T>;
	return {name, spans: await module<Spans>('json-spans.ts'), cells: await module<Cells>('exact-cells.ts')};
}

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const trees = [await load(here, 'this tree')];
const base = process.env['BENCH_BASE'];
if (base) {
	trees.push(await load(path.resolve(base), base));
}

function account(index: number, name: string) {
	return {
		id: `acct-${index.toString(16).padStart(8, '0')}-4b1c-9f2e-${index}`,
		name,
		primary: index % 7 === 0,
		type: 'wallet',
		currency: {code: 'BTC', name: 'Bitcoin', color: '#F7931A', exponent: 8, type: 'crypto', address_regex: '^([13][a-km-zA-HJ-NP-Z1-9]{25,34})$'},
		balance: {amount: `${index}.00000000`, currency: 'BTC'},
		created_at: '2026-11-25T10:00:00Z',
		updated_at: '2026-11-25T10:00:00Z',
		resource: 'account',
		resource_path: `/v2/accounts/acct-${index}`,
		allow_deposits: true,
		allow_withdrawals: true,
	};
}

function page(name: (index: number) => string, indent?: number): {body: string; bytes: Uint8Array; count: number} {
	const data = Array.from({length: 100}, (_, index) => account(index, name(index)));
	const body = JSON.stringify({pagination: {ending_before: null, starting_after: null, limit: 100, order: 'desc', previous_uri: null, next_uri: '/v2/accounts?limit=100&starting_after=acct-99'}, data}, null, indent);
	return {body, bytes: Buffer.from(body), count: data.length};
}

const bodies = {
	compact: page(index => `BTC Wallet ${index}`),
	pretty: page(index => `BTC Wallet ${index}`, 2),
	'non-ASCII': page(index => (index % 3 === 0 ? `Kontō ${index} \u202E` : `Wallet ${index} 葛飾`)),
};

type Case = {label: string; run: (tree: Tree, body: (typeof bodies)['compact']) => unknown};
const cases: Case[] = [
	{label: 'pageSpans (dump)', run: (tree, {body, bytes, count}) => tree.spans.pageSpans(body, count, bytes)},
	{label: 'scanPage', run: (tree, {body}) => tree.spans.scanPage(body)},
	{
		label: 'exactCells x100',
		run(tree, {body}) {
			const texts = tree.spans.scanPage(body).objectTexts;
			return texts.map(text => tree.cells.exactCells(text));
		},
	},
];

let sink = 0;
const format = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
process.stdout.write(`The JSON scanner in process: ${rounds} rounds of ${pages} pages (100 objects each), alternated between trees; median a page (range over rounds).\n`);
for (const [kind, body] of Object.entries(bodies)) {
	for (const {label, run} of cases) {
		const times = new Map(trees.map(tree => [tree, [] as number[]]));
		for (const tree of trees) {
			// Warm-up: let the JIT settle before the clock runs.
			for (let index = 0; index < 50; index++) {
				sink += run(tree, body) === undefined ? 0 : 1;
			}
		}

		for (let round = 0; round < rounds; round++) {
			for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
				const start = performance.now();
				for (let index = 0; index < pages; index++) {
					sink += run(tree, body) === undefined ? 0 : 1;
				}

				times.get(tree)!.push((performance.now() - start) / pages);
			}
		}

		const mine = times.get(trees[0]!)!;
		let line = `  ${kind.padEnd(10)} ${label.padEnd(17)} ${format(median(mine))} (${format(Math.min(...mine))}–${format(Math.max(...mine))})`;
		for (const tree of trees.slice(1)) {
			const theirs = times.get(tree)!;
			const ratios = mine.map((ms, index) => ms / theirs[index]!);
			line += `   base ${format(median(theirs))} (${format(Math.min(...theirs))}–${format(Math.max(...theirs))})   this/base ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
		}

		process.stdout.write(`${line}\n`);
	}
}

if (sink < 0) {
	process.stdout.write('');
}
