/**
 * `npm run bench:export`: every account's transactions, the job people do
 * with the account API, timed three ways against `pagewalk serve --latency
 * 50` (300 accounts, 21,791 transactions, in its own process): `pagewalk
 * dump transactions --all`; a sequential loop written as the official
 * `coinbase` SDK's README does (`getAccounts`, then `account.getTransactions`
 * for each, page by page, the pagination object handed back); and the
 * least a Node client can do one request at a time (an undici loop: one
 * connection, parse, follow next_uri). Alternated, medians over --runs,
 * each one's objects checked to be the others', in the same order. Target:
 * dump at most 0.15x the SDK loop's time.
 *
 * Then --concurrency beside the default (--sweep), the same walk; then the
 * peak RSS of the dump at 1,000 accounts of 1,000 transactions each
 * (`serve --records 1000 --transactions 1000`, no latency) and
 * at 100 of them, to show it stays flat. Target: under 150 MiB.
 *
 * BENCH_DISTS=a,b (built CLIs, each a folder with cli.js; default dist)
 * times each beside this one, in the same runs, as bench:walk does.
 *
 * Options: --runs N (default 3), --latency MS (default 50), --records N
 * (accounts, default 300), --sweep 4,16 (default; '' skips), --big N
 * (accounts of 1,000 transactions for the memory figure, default 1000; 0
 * skips), --sdk-runs N (default --runs; each takes about a minute).
 */
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {createInterface} from 'node:readline';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';
import {median} from './median.js';
import {runTimed} from './run-timed.js';
import {serveSandbox, stopSandbox, type Served} from './serve-sandbox.js';

const {values} = parseArgs({
	options: {
		runs: {type: 'string', default: '3'},
		'sdk-runs': {type: 'string'},
		latency: {type: 'string', default: '50'},
		records: {type: 'string', default: '300'},
		sweep: {type: 'string', default: '4,16'},
		big: {type: 'string', default: '1000'},
	},
});
const runs = Number(values.runs);
const sdkRuns = Number(values['sdk-runs'] ?? values.runs);
const records = Number(values.records);
const big = Number(values.big);
const sweep = values.sweep.split(',').filter(Boolean).map(Number);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist/cli.js');
if (!existsSync(cli)) {
	process.stderr.write('dist/cli.js is missing: run `npm run build` first (npm run bench:export does).\n');
	process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'pagewalk-bench-export-'));

// The official SDK, as its README pages: getAccounts, then getTransactions of each account,
// each next page asked for with the pagination object the page before gave. `write`: the objects as NDJSON.
const sdkScript = path.join(work, 'sdk-loop.cjs');
writeFileSync(sdkScript, `
const {Client} = require(${JSON.stringify(path.join(root, 'node_modules/coinbase'))});
const client = new Client({accessToken: process.env.TOKEN, baseApiUri: process.env.BASE + '/v2/', strictSSL: false});
const write = process.argv[2] === 'write';
const page = (call, args) => new Promise((resolve, reject) => {
	call(args, (error, items, pagination) => (error ? reject(error) : resolve({items, pagination})));
});
(async () => {
	const accounts = [];
	for (let args = {}; ;) {
		const {items, pagination} = await page(client.getAccounts.bind(client), args);
		accounts.push(...items);
		if (!pagination.next_uri) break;
		args = pagination;
	}
	for (const account of accounts) {
		for (let args = null; ;) {
			const {items, pagination} = await page(account.getTransactions.bind(account), args);
			if (write) {
				let text = '';
				for (const {client: _client, account: _account, ...data} of items) text += JSON.stringify(data) + '\\n';
				if (!process.stdout.write(text)) await new Promise(resolve => process.stdout.once('drain', resolve));
			}
			if (!pagination.next_uri) break;
			args = pagination;
		}
	}
})().catch(error => {
	process.stderr.write(String(error) + '\\n');
	process.exit(1);
});
`);

// The floor of one request at a time: one keep-alive connection, parse each page, follow next_uri.
const undiciScript = path.join(work, 'undici-loop.mjs');
writeFileSync(undiciScript, `
import {Pool} from ${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/undici/index.js')).href)};
const pool = new Pool(process.env.BASE, {connections: 1});
const headers = {authorization: 'Bearer ' + process.env.TOKEN, 'cb-version': '2018-03-22'};
const write = process.argv[2] === 'write';
async function * pages(first) {
	for (let path = first; path; ) {
		const response = await pool.request({path, method: 'GET', headers});
		const page = await response.body.json();
		yield page.data;
		path = page.pagination.next_uri;
	}
}
const accounts = [];
for await (const data of pages('/v2/accounts')) accounts.push(...data.map(account => account.id));
for (const id of accounts) {
	for await (const data of pages('/v2/accounts/' + id + '/transactions')) {
		if (write) {
			let text = '';
			for (const object of data) text += JSON.stringify(object) + '\\n';
			if (!process.stdout.write(text)) await new Promise(resolve => process.stdout.once('drain', resolve));
		}
	}
}
await pool.close();
`);

function envFor(served: Served): Record<string, string> {
	return {PAGEWALK_BASE_URL: served.accountUrl, COINBASE_ACCESS_TOKEN: served.credentials.account.full, BASE: served.accountUrl, TOKEN: served.credentials.account.full};
}

/** Each object a command writes, parsed and written again (the SDK's objects are values, not texts): their SHA-256 and count. */
async function objectsOf(argv: string[], env: Record<string, string>): Promise<{sha: string; count: number}> {
	const child = spawn(process.execPath, argv, {env: {PATH: process.env['PATH'] ?? '', ...env}, stdio: ['ignore', 'pipe', 'inherit']});
	const hash = createHash('sha256');
	let count = 0;
	for await (const line of createInterface({input: child.stdout})) {
		hash.update(`${JSON.stringify(JSON.parse(line))}\n`);
		count += 1;
	}

	await new Promise(resolve => {
		child.on('close', resolve);
	});
	return {sha: hash.digest('hex'), count};
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const dumpArgs = (dist = cli, ...more: string[]) => [dist, 'dump', 'transactions', '--all', ...more];
const others = (process.env['BENCH_DISTS'] ?? '').split(',').filter(dist => dist !== '' && dist !== 'dist').map(dist => path.resolve(dist, 'cli.js'));

const served = await serveSandbox(cli, records, ['--latency', values.latency]);
const env = envFor(served);
process.stdout.write(`Every account's transactions from pagewalk serve --latency ${values.latency} (${records.toLocaleString('en-US')} accounts, 25 objects a page, the server's default); ${runs} runs, the SDK loop ${sdkRuns}, alternated, medians.\n`);

// The same objects in the same order, each way, before anything is timed.
const dumped = await objectsOf(dumpArgs(), env);
const bySdk = await objectsOf([sdkScript, 'write'], env);
const byUndici = await objectsOf([undiciScript, 'write'], env);
const same = dumped.sha === bySdk.sha && dumped.sha === byUndici.sha;
process.stdout.write(`  the same ${dumped.count.toLocaleString('en-US')} objects in the same order, each way: ${same ? 'yes' : `NO (dump ${dumped.sha.slice(0, 12)} ${dumped.count}, SDK ${bySdk.sha.slice(0, 12)} ${bySdk.count}, undici ${byUndici.sha.slice(0, 12)} ${byUndici.count})`}\n`);
if (!same) {
	await stopSandbox(served);
	process.exit(1);
}

const run = async (argv: string[]) => (await runTimed(process.execPath, argv, env)).ms;
const dumpMs: number[] = [];
const sdkMs: number[] = [];
const undiciMs: number[] = [];
const sweepMs = new Map(sweep.map(concurrency => [concurrency, [] as number[]]));
const otherMs = new Map(others.map(dist => [dist, [] as number[]]));
for (let index = 0; index < Math.max(runs, sdkRuns); index++) {
	if (index < runs) {
		dumpMs.push(await run(dumpArgs()));
		undiciMs.push(await run([undiciScript]));
		for (const [concurrency, times] of sweepMs) {
			times.push(await run(dumpArgs(cli, '--concurrency', String(concurrency))));
		}

		for (const [dist, times] of otherMs) {
			times.push(await run(dumpArgs(dist)));
		}
	}

	if (index < sdkRuns) {
		sdkMs.push(await run([sdkScript]));
	}
}

await stopSandbox(served);
const dump = median(dumpMs);
const sdk = median(sdkMs);
const undici = median(undiciMs);
const range = (times: number[]) => `${seconds(Math.min(...times))}–${seconds(Math.max(...times))}`;
process.stdout.write(`  pagewalk dump transactions --all   ${seconds(dump)}  (run by run ${range(dumpMs)})\n`);
process.stdout.write(`  coinbase SDK loop (its README)     ${seconds(sdk)}  -> dump is ${(dump / sdk).toFixed(3)}x its time (target <= 0.15x)\n`);
process.stdout.write(`  undici loop, one request at a time ${seconds(undici)}  -> dump is ${(dump / undici).toFixed(3)}x its time\n`);
for (const [concurrency, times] of sweepMs) {
	process.stdout.write(`  --concurrency ${String(concurrency).padEnd(3)}                   ${seconds(median(times))}  -> ${(median(times) / dump).toFixed(2)}x the default's\n`);
}

for (const [dist, times] of otherMs) {
	process.stdout.write(`  ${dist}   ${seconds(median(times))}  -> ${(median(times) / dump).toFixed(2)}x this build's\n`);
}

/** The dump's peak RSS and time at `accounts` accounts of 1,000 transactions each, from a sandbox with no latency. */
async function memory(accounts: number): Promise<{rssMiB: number; ms: number}> {
	const sized = await serveSandbox(cli, accounts, ['--transactions', '1000']);
	try {
		const {ms, rssKiB} = await runTimed(process.execPath, dumpArgs(cli, '--limit', '100'), envFor(sized), path.join(work, 'rss'));
		return {rssMiB: rssKiB! / 1024, ms};
	} finally {
		await stopSandbox(sized);
	}
}

if (big > 0) {
	const small = await memory(Math.max(1, Math.round(big / 10)));
	const large = await memory(big);
	process.stdout.write(`Peak RSS of dump transactions --all --limit 100: ${small.rssMiB.toFixed(1)} MiB for ${Math.round(big / 10).toLocaleString('en-US')} accounts of 1,000 (${seconds(small.ms)}), ${large.rssMiB.toFixed(1)} MiB for ${big.toLocaleString('en-US')} accounts of 1,000 (${(big * 1000).toLocaleString('en-US')} objects, ${seconds(large.ms)}) (target < 150 MiB, flat)\n`);
}
