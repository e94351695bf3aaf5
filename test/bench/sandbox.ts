/**
 * `npm run bench:sandbox`: how the sandbox's cost grows with list size, and how
 * many pages per second it serves. The sandbox runs in a child process so the
 * client's work does not share its event loop; the client is an undici Pool.
 *
 * 1. Median (and p95) time to serve a page of 100, at 10,000 and 1,000,000
 *    objects, first pages and random cursors in both orders. Targets: ratio
 *    1M/10k at most 1.5, median under 2 ms.
 * 2. Pages per second for limit=25 under 10 concurrent keep-alive connections,
 *    at 1,000,000 objects. Target: at least 5,000 per second on 2 cores.
 * 3. Median time to build the store of 1,000,000 records in process (compact
 *    keys). Target: under 8 s on a loaded 2-core machine; this bound used to sit
 *    in a test, where wall-clock time made it flaky.
 */
import {fork, type ChildProcess} from 'node:child_process';
import process from 'node:process';
import {fileURLToPath} from 'node:url';
import {Pool} from 'undici';

type Ready = {accountUrl: string; token: string; cursors: string[]};

if (process.argv[2] === '--serve') {
	// Child: start the sandbox and report where it is and some cursors to use.
	const {startSandbox} = await import('../../source/sandbox/index.js');
	const {Lists} = await import('../../source/sandbox/data/store.js');
	const sandbox = await startSandbox({records: Number(process.argv[3])});
	const {store} = sandbox;
	if (!(store instanceof Lists)) {
		throw new TypeError('The sandbox store is not the in-process Lists.');
	}

	const {index} = store.collections.accounts;
	const cursors = Array.from({length: 400}, (_, n) => index.idOf(index.serialAt(Math.floor(((n * 7919) % 400) / 400 * index.length))));
	process.send!({accountUrl: sandbox.accountUrl, token: sandbox.credentials.account.full, cursors} satisfies Ready);
	process.on('disconnect', () => {
		void sandbox.close().then(() => process.exit(0));
	});
} else {
	await main();
}

async function serve(records: number): Promise<{child: ChildProcess; ready: Ready; startMs: number}> {
	const started = performance.now();
	const child = fork(fileURLToPath(import.meta.url), ['--serve', String(records)], {stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
	const ready = await new Promise<Ready>((resolve, reject) => {
		child.once('message', (message) => {
			resolve(message as Ready);
		});
		child.once('exit', (code) => {
			reject(new Error(`The sandbox child exited with ${code}.`));
		});
	});
	return {child, ready, startMs: performance.now() - started};
}

function paths(ready: Ready, limit: number): string[] {
	const list: string[] = [];
	for (const [n, cursor] of ready.cursors.entries()) {
		const order = n % 2 === 0 ? 'desc' : 'asc';
		list.push(n % 4 === 0 ? `/v2/accounts?limit=${limit}&order=${order}` : `/v2/accounts?limit=${limit}&order=${order}&${n % 3 === 0 ? 'ending_before' : 'starting_after'}=${cursor}`);
	}

	return list;
}

async function fetchPage(pool: Pool, path: string, token: string): Promise<void> {
	const response = await pool.request({method: 'GET', path, headers: {authorization: `Bearer ${token}`, 'cb-version': '2024-05-01'}});
	await response.body.text();
	if (response.statusCode !== 200) {
		throw new Error(`${path} answered ${response.statusCode}.`);
	}
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function latency(ready: Ready): Promise<{median: number; p95: number}> {
	const pool = new Pool(ready.accountUrl, {connections: 1});
	const list = paths(ready, 100);
	for (let n = 0; n < 300; n++) {
		await fetchPage(pool, list[n % list.length]!, ready.token);
	}

	const times: number[] = [];
	for (let n = 0; n < 1500; n++) {
		const started = performance.now();
		await fetchPage(pool, list[n % list.length]!, ready.token);
		times.push(performance.now() - started);
	}

	await pool.close();
	times.sort((a, b) => a - b);
	return {median: percentile(times, 0.5), p95: percentile(times, 0.95)};
}

async function throughput(ready: Ready, seconds: number): Promise<number> {
	const pool = new Pool(ready.accountUrl, {connections: 10, pipelining: 1});
	const list = paths(ready, 25);
	let done = 0;
	let stop = false;
	const worker = async (offset: number) => {
		for (let n = offset; !stop; n += 10) {
			await fetchPage(pool, list[n % list.length]!, ready.token);
			done++;
		}
	};

	// Warm up, then count.
	const warm = performance.now();
	while (performance.now() - warm < 500) {
		await Promise.all(Array.from({length: 10}, async (_, n) => fetchPage(pool, list[n]!, ready.token)));
	}

	const started = performance.now();
	const workers = Array.from({length: 10}, async (_, n) => worker(n));
	await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
	stop = true;
	await Promise.all(workers);
	const elapsed = (performance.now() - started) / 1000;
	await pool.close();
	return done / elapsed;
}

/** Median of `runs` builds of the in-process store of `records` objects, in ms. */
async function buildMs(records: number, runs: number): Promise<number> {
	const {Lists} = await import('../../source/sandbox/data/store.js');
	const times: number[] = [];
	for (let n = 0; n < runs; n++) {
		const started = performance.now();
		const lists = new Lists(1, records);
		times.push(performance.now() - started);
		if (lists.count('accounts') !== records) {
			throw new Error(`The store holds ${lists.count('accounts')} accounts, not ${records}.`);
		}
	}

	times.sort((a, b) => a - b);
	return percentile(times, 0.5);
}

async function main(): Promise<void> {
	const rows: string[][] = [];
	const buildMedian = await buildMs(1_000_000, 5);
	const results: Record<number, {median: number; p95: number; startMs: number}> = {};
	let pagesPerSecond = 0;
	for (const records of [10_000, 1_000_000]) {
		const {child, ready, startMs} = await serve(records);
		results[records] = {...(await latency(ready)), startMs};
		if (records === 1_000_000) {
			pagesPerSecond = await throughput(ready, 4);
		}

		child.disconnect();
		await new Promise((resolve) => child.once('exit', resolve));
	}

	const small = results[10_000]!;
	const large = results[1_000_000]!;
	rows.push(['', '10,000 objects', '1,000,000 objects', 'ratio', 'target']);
	rows.push(['start (ms)', small.startMs.toFixed(0), large.startMs.toFixed(0), '', '']);
	rows.push(['page of 100, median (ms)', small.median.toFixed(2), large.median.toFixed(2), (large.median / small.median).toFixed(2), 'ratio <= 1.5, median < 2 ms']);
	rows.push(['page of 100, p95 (ms)', small.p95.toFixed(2), large.p95.toFixed(2), (large.p95 / small.p95).toFixed(2), '']);
	rows.push(['pages/s, limit=25, 10 connections', '', pagesPerSecond.toFixed(0), '', '>= 5,000']);
	rows.push(['build store in process, median of 5 (ms)', '', buildMedian.toFixed(0), '', '< 8,000']);
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
	process.stdout.write(`${rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n')}\n`);
}
