/**
 * `npm run bench:search`: search across pages (`n`) against `dump --all`,
 * over the same pages of the same server: the page rate of each, side by side.
 *
 * `pagewalk serve` runs in its own process with --records objects (default
 * 100,000: 1,000 pages of --limit 100). The search drives the real app path:
 * <App> rendered with ink-testing-library on the real client, `/` and a
 * filter that only the last object of the list matches, then `n`; the clock
 * runs from the key to the frame saying it matched on the last page. The
 * baseline is `pagewalk dump accounts --all --one-chain` over the same list, twice: the
 * built CLI as a user runs it (its process start included), and the same
 * dump in this process (runDump, no start-up), so the ratio is not flattered
 * by the CLI's start. Runs alternate; medians over --runs.
 *
 * Target: the search's page rate within 1.2x of dump's (dump pages/s divided
 * by search pages/s <= 1.2).
 *
 * Options: --records N (default 100000), --limit N (default 100), --runs N (default 3),
 * --latency LIST (default 0,50): the whole bench once per value, against
 * `serve --latency MS` (0: at loopback speed), one after the other;
 * --latency-records N (default 10000) objects for the runs with latency.
 *
 * BENCH_AGAINST=DIR also loads the app, the dump and the search of another
 * checkout (its own node_modules, and its dist/cli.js for the CLI's dump) in
 * the same process (other-checkout.ts), and runs each measure for both builds,
 * alternating which goes first, against the one server: both are measured
 * under the same load. The report gives each build's figures and their ratios.
 */
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import type * as InkTestingTypes from 'ink-testing-library';
import type * as ReactTypes from 'react';
import type * as AppTypes from '../../source/app.js';
import type * as SearchTypes from '../../source/browser/search/search-pages.js';
import type * as StackTypes from '../../source/browser/stack/page-stack.js';
import type * as DumpTypes from '../../source/commands/dump/dump.js';
import type * as OptionsTypes from '../../source/config/options.js';
import type * as ClientTypes from '../../source/http/http-client.js';
import {runTimed} from './run-timed.js';
import {serveSandbox} from './serve-sandbox.js';
import {median} from './median.js';
import {checkoutFile, commitOf, runInProduction} from './other-checkout.js';

// React in production mode, as in the bundle (other-checkout.ts).
if (process.env['NODE_ENV'] === undefined) {
	runInProduction(process.env, process.env['BENCH_AGAINST']);
}

/** One build under test: a checkout's own modules (React, Ink, the app, the dump, the search) and its built CLI. */
type Build = {
	label: string;
	cli: string;
	React: typeof ReactTypes;
	render: typeof InkTestingTypes.render;
	App: typeof AppTypes.App;
	resolveConfig: typeof OptionsTypes.resolveConfig;
	createClient: typeof ClientTypes.createClient;
	runDump: typeof DumpTypes.runDump;
	stackModule: typeof StackTypes;
	searchPages: typeof SearchTypes.searchPages;
};

async function loadBuild(dir: string, label: string): Promise<Build> {
	const file = (name: string) => checkoutFile(dir, name);
	const [React, {render}, {App}, {resolveConfig}, {createClient}, {runDump}, stackModule, {searchPages}] = await Promise.all([
		import(file('node_modules/react/index.js')) as Promise<{default: typeof ReactTypes}>,
		import(file('node_modules/ink-testing-library/build/index.js')) as Promise<typeof InkTestingTypes>,
		import(file('source/app.tsx')) as Promise<typeof AppTypes>,
		import(file('source/config/options.ts')) as Promise<typeof OptionsTypes>,
		import(file('source/http/http-client.ts')) as Promise<typeof ClientTypes>,
		import(file('source/commands/dump/dump.ts')) as Promise<typeof DumpTypes>,
		import(file('source/browser/stack/page-stack.ts')) as Promise<typeof StackTypes>,
		import(file('source/browser/search/search-pages.ts')) as Promise<typeof SearchTypes>,
	]);
	return {label, cli: path.join(dir, 'dist/cli.js'), React: React.default, render, App, resolveConfig, createClient, runDump, stackModule, searchPages};
}

const {values} = parseArgs({
	options: {
		records: {type: 'string', default: '100000'},
		limit: {type: 'string', default: '100'},
		runs: {type: 'string', default: '3'},
		latency: {type: 'string', default: '0,50'},
		'latency-records': {type: 'string', default: '10000'},
	},
});

// One child per latency, so each runs in a fresh process: the local figures and those over a real link's pace, one after the other.
const latencies = values.latency.split(',').map(Number);
if (latencies.length > 1) {
	let status = 0;
	for (const ms of latencies) {
		const args = ['--records', ms > 0 ? values['latency-records'] : values.records, '--limit', values.limit, '--runs', values.runs, '--latency', String(ms)];
		const result = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {stdio: 'inherit', env: process.env});
		status ||= result.status ?? 1;
	}

	process.exit(status);
}
const records = Number(values.records);
const limit = Number(values.limit);
const runs = Number(values.runs);
const pages = Math.ceil(records / limit);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const against = process.env['BENCH_AGAINST'];
const builds = [
	...(against ? [await loadBuild(path.resolve(against), `before ${commitOf(path.resolve(against))}`)] : []),
	await loadBuild(root, `this tree ${commitOf(root)}`),
];
for (const {cli} of builds) {
	if (!existsSync(cli)) {
		process.stderr.write(`${cli} is missing: run \`npm run build\` there first (npm run bench:search does, in this tree).\n`);
		process.exit(1);
	}
}

const {cli} = builds.at(-1)!;

const latency = latencies[0]!;
const serve = async () => serveSandbox(cli, records, latency > 0 ? ['--latency', String(latency)] : []);

const served = await serve();
const env = {PAGEWALK_BASE_URL: served.accountUrl, COINBASE_ACCESS_TOKEN: served.credentials.account.full, NO_COLOR: '1'};
// One chain, as the search walks: from both ends (http/both-ends.ts) a
// dump over a slow link takes half the round trips, which the search, bound
// to find the first match in list order, cannot.
const dumpArgs = ['dump', 'accounts', '--all', '--one-chain', '--limit', String(limit)];

/** The last object of the list, found by walking it once (which also warms the server up). */
async function lastId(): Promise<string> {
	let next: string | null = `/v2/accounts?limit=${limit}`;
	let last = '';
	while (next) {

		const response = await fetch(`${served.accountUrl}${next}`, {headers: {authorization: `Bearer ${served.credentials.account.full}`}});

		const body = (await response.json()) as {data: Array<{id: string}>; pagination: {next_uri: string | null}};
		last = body.data.at(-1)?.id ?? last;
		next = body.pagination.next_uri;
	}

	return last;
}

/** The built CLI's dump, stdout to /dev/null: wall milliseconds. */
async function dumpCli(build: Build): Promise<number> {
	return (await runTimed(process.execPath, [build.cli, ...dumpArgs], env)).ms;
}

class Discard extends Writable {
	override _write(_chunk: unknown, _encoding: BufferEncoding, callback: () => void): void {
		callback();
	}
}

/** The same dump in this process (the walker and the NDJSON writer, no process start). */
async function dumpInProcess({runDump}: Build): Promise<number> {
	const started = performance.now();
	const code = await runDump(dumpArgs.slice(1), {stdout: new Discard(), stderr: new Discard(), env});
	if (code !== 0) {
		throw new Error(`runDump exited ${code}`);
	}

	return performance.now() - started;
}

/**
 * The app on the real client, `/` + filter + Enter, then `n`: milliseconds
 * from `n` to the frame of the match, and how many pages the search fetched
 * (page 2 may already be prefetched, and then costs the search nothing).
 */
async function searchInApp({React, render, App, resolveConfig, createClient}: Build, filter: string): Promise<{ms: number; fetched: number; cpuMs: number}> {
	const config = await resolveConfig({
		input: ['accounts'],
		flags: {baseUrl: served.accountUrl, limit: String(limit), retries: '0'},
		env: {COINBASE_ACCESS_TOKEN: served.credentials.account.full},
	});
	const client = createClient(config);
	let fetched = 0;
	let counting = false;
	// Every page asked for before the search, so the bench can wait for the prefetch instead of sleeping.
	const before: Array<Promise<unknown>> = [];
	const loadPage = async (url: string, options: {signal: AbortSignal}) => {
		const page = client.fetchPage(url, options);
		if (counting) {
			fetched += 1;
		} else {
			before.push(page.catch(() => undefined));
		}

		return page;
	};

	const settings = {order: config.query.order ?? 'desc', limit: config.query.limit ?? 25};
	const app = render(React.createElement(App, {loadPage, startUrl: client.firstUrl, api: config.api, endpoint: config.endpoint, settings, size: {columns: 120, rows: 30}, colour: 0}));
	// Waits for a frame by watching Ink's writes, not by polling: a poll loop
	// would take the event loop from the search it measures.
	const waitFor = async (predicate: (frame: string) => boolean) => new Promise<void>((resolve, reject) => {
		if (predicate(app.lastFrame() ?? '')) {
			resolve();
			return;
		}

		const {write} = app.stdout;
		const timer = setTimeout(() => {
			app.stdout.write = write;
			reject(new Error(`no such frame within 120 s; last:\n${app.lastFrame() ?? ''}`));
		}, 120_000);
		app.stdout.write = (frame: string) => {
			write(frame);
			if (predicate(frame)) {
				clearTimeout(timer);
				app.stdout.write = write;
				resolve();
			}
		};
	});

	await waitFor(frame => frame.includes('page 1 ·') && frame.includes('more pages follow'));
	while (app.stdin.listenerCount('readable') === 0) {
		await new Promise(resolve => {
			setImmediate(resolve);
		});
	}

	app.stdin.write('/');
	app.stdin.write(filter);
	app.stdin.write('\r');
	await waitFor(frame => frame.includes(`filter "${filter}"`) && !frame.includes('/ filter rows'));
	// Let the prefetch of page 2 land, as it would while the user types:
	// once the app has asked for it, wait for the answer and the frame after it.
	while (before.length < 2) {
		await new Promise(resolve => {
			setImmediate(resolve);
		});
	}

	await Promise.all(before);
	await new Promise(resolve => {
		setImmediate(resolve);
	});
	counting = true;
	const cpu = process.cpuUsage();
	const started = performance.now();
	app.stdin.write('n');
	await waitFor(frame => frame.includes(`match on page ${pages}`) || frame.includes('no match'));
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const frame = app.lastFrame() ?? '';
	app.unmount();
	await client.close();
	if (!frame.includes(`match on page ${pages}`)) {
		throw new Error(`the search did not land on page ${pages}:\n${frame}`);
	}

	return {ms, fetched, cpuMs: (used.user + used.system) / 1000};
}

/** The search loop alone (searchPages over the client, no app, no frames): the app's share is the difference. */
async function searchLoop({resolveConfig, createClient, stackModule, searchPages}: Build, filter: string): Promise<{ms: number; fetched: number; cpuMs: number}> {
	const config = await resolveConfig({
		input: ['accounts'],
		flags: {baseUrl: served.accountUrl, limit: String(limit), retries: '0'},
		env: {COINBASE_ACCESS_TOKEN: served.credentials.account.full},
	});
	const client = createClient(config);
	let stack = stackModule.initialState({startUrl: client.firstUrl, settings: {order: 'desc', limit}});
	stack = stackModule.pageStackReducer(stack, {type: 'loaded', requestId: stack.pending!.requestId, page: await client.fetchPage(client.firstUrl)});
	stack = stackModule.pageStackReducer(stack, {type: 'set-filter', filter});
	let fetched = 0;
	const cpu = process.cpuUsage();
	const started = performance.now();
	const outcome = await searchPages(stack, 'forward', filter, {
		signal: new AbortController().signal,
		async loadPage(url, options) {
			fetched += 1;
			return client.fetchPage(url, options);
		},
	});
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	await client.close();
	if (outcome.result !== 'found') {
		throw new Error(`the search loop ended with ${outcome.result}`);
	}

	return {ms, fetched, cpuMs: (used.user + used.system) / 1000};
}

const target = await lastId();
process.stdout.write(`Search across ${pages.toLocaleString('en-US')} pages (${records.toLocaleString('en-US')} accounts, limit ${limit}) from pagewalk serve${latency > 0 ? ` --latency ${latency}` : ''}, against dump --all of the same list; ${runs} runs each, alternated (medians).\n`);
// Warm-ups: the server's structures, the disk cache, this process's JIT.
for (const build of builds) {
	await dumpCli(build);
	await dumpInProcess(build);
	await searchInApp(build, target);
	await searchLoop(build, target);
}

/** Runs `measure` and adds this process's CPU time over it (the server runs in its own). */
async function withCpu<T extends object>(measure: () => Promise<T>): Promise<T & {cpuMs: number}> {
	const before = process.cpuUsage();
	const result = await measure();
	const used = process.cpuUsage(before);
	return {...result, cpuMs: (used.user + used.system) / 1000};
}

type Runs = {
	cliMs: number[];
	inProcess: Array<{ms: number; cpuMs: number}>;
	search: Array<{ms: number; fetched: number; cpuMs: number}>;
	loop: Array<{ms: number; fetched: number; cpuMs: number}>;
};
const results = new Map<Build, Runs>(builds.map(build => [build, {cliMs: [], inProcess: [], search: [], loop: []}]));
const of = (build: Build) => results.get(build)!;
for (let index = 0; index < runs; index++) {
	// Each measure for every build in turn, the first one alternating: drift in the load hits all alike.
	const order = index % 2 === 0 ? builds : [...builds].reverse();
	for (const build of order) {
		of(build).cliMs.push(await dumpCli(build));
	}

	for (const build of order) {
		of(build).inProcess.push(await withCpu(async () => ({ms: await dumpInProcess(build)})));
	}

	for (const build of order) {
		of(build).search.push(await searchInApp(build, target));
	}

	for (const build of order) {
		of(build).loop.push(await searchLoop(build, target));
	}
}

const rate = (count: number, ms: number) => (count / ms) * 1000;
const cpuPerPage = (list: Array<{cpuMs: number; fetched?: number}>) => median(list.map(run => run.cpuMs / (run.fetched ?? pages)));
const line = (label: string, pagesPerSecond: number, ms: number) => `  ${label.padEnd(34)} ${pagesPerSecond.toFixed(0).padStart(5)} pages/s  (${(ms / 1000).toFixed(2)} s)\n`;
for (const build of builds) {
	const {cliMs, inProcess, search, loop} = of(build);
	const inProcessMs = inProcess.map(run => run.ms);
	const searchRates = search.map(run => rate(run.fetched, run.ms));
	const cliRate = median(cliMs.map(ms => rate(pages, ms)));
	const inProcessRate = median(inProcessMs.map(ms => rate(pages, ms)));
	const searchRate = median(searchRates);
	if (builds.length > 1) {
		process.stdout.write(`${build.label}:\n`);
	}

	process.stdout.write(line('pagewalk dump --all (built CLI)', cliRate, median(cliMs)));
	process.stdout.write(line('dump in process (runDump)', inProcessRate, median(inProcessMs)));
	process.stdout.write(line(`search n in the app (${median(search.map(run => run.fetched))} fetched)`, searchRate, median(search.map(run => run.ms))));
	process.stdout.write(line('search loop alone (no app)', median(loop.map(run => rate(run.fetched, run.ms))), median(loop.map(run => run.ms))));
	process.stdout.write(`  runs: search ${searchRates.map(value => value.toFixed(0)).join(', ')} pages/s; dump CLI ${cliMs.map(ms => rate(pages, ms).toFixed(0)).join(', ')}; dump in process ${inProcessMs.map(ms => rate(pages, ms).toFixed(0)).join(', ')}\n`);
	process.stdout.write(`  our CPU a page (this process; the server's apart): dump in process ${cpuPerPage(inProcess).toFixed(2)} ms, search in the app ${cpuPerPage(search).toFixed(2)} ms, loop alone ${cpuPerPage(loop).toFixed(2)} ms\n`);
	process.stdout.write(`  dump / search: ${(cliRate / searchRate).toFixed(2)}x against the CLI, ${(inProcessRate / searchRate).toFixed(2)}x against the dump in process (target <= 1.2x)\n`);
}

if (builds.length > 1) {
	const [before, after] = builds.map(of) as [Runs, Runs];
	// Time over time, each run paired with the other build's run of the same round.
	const paired = (pick: (runs: Runs) => number[]) => {
		const times = pick(after).map((ms, index) => ms / pick(before)[index]!);
		return `${median(times).toFixed(2)} (${Math.min(...times).toFixed(2)}–${Math.max(...times).toFixed(2)})`;
	};

	process.stdout.write(`${builds[1]!.label} / ${builds[0]!.label}, time over time paired by run, median (range): search in the app ${paired(runs => runs.search.map(run => run.ms))}, loop alone ${paired(runs => runs.loop.map(run => run.ms))}, dump in process ${paired(runs => runs.inProcess.map(run => run.ms))}, dump CLI ${paired(runs => runs.cliMs)}; CPU a page in the app ${(cpuPerPage(after.search) / cpuPerPage(before.search)).toFixed(2)}\n`);
}

served.child.kill('SIGTERM');
process.exit(0);
