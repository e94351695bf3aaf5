/**
 * `npm run bench:walk`: how fast `pagewalk dump --all` reads a whole list,
 * against the floor (a minimal undici loop that only parses and follows
 * next_uri) and against what users do today (a curl + jq shell loop).
 * 100,000 objects = 1,000 pages of 100 from `pagewalk serve` in its own
 * process; medians over --runs. Then peak memory (RSS) of the dump for
 * 100,000 and 1,000,000 objects, to show it stays flat as the list grows.
 *
 * Targets: dump within 1.2x the floor, at least 3x faster than curl+jq, and
 * peak RSS under 150 MiB for 1,000,000 objects.
 *
 * Options: --records N (default 100000), --runs N (default 3),
 * --curl-runs N (default 1; each takes tens of seconds), --big N (default
 * 1000000; 0 skips the memory comparison).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';

const {values} = parseArgs({
	options: {
		records: {type: 'string', default: '100000'},
		runs: {type: 'string', default: '3'},
		'curl-runs': {type: 'string', default: '1'},
		big: {type: 'string', default: '1000000'},
	},
});
const records = Number(values.records);
const runs = Number(values.runs);
const curlRuns = Number(values['curl-runs']);
const big = Number(values.big);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist/cli.js');
if (!existsSync(cli)) {
	process.stderr.write('dist/cli.js is missing: run `npm run build` first (npm run bench:walk does).\n');
	process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'pagewalk-bench-'));

type Served = {accountUrl: string; commerceUrl: string; credentials: {account: {full: string}; commerce: {full: string}}; child: ChildProcess};

// Servers still running when the bench ends or fails are stopped, so a failed
// run never leaves a sandbox behind holding a port (or our output pipe).
const running = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of running) {
		child.kill('SIGTERM');
	}
});

async function serve(count: number): Promise<Served> {
	const child = spawn(process.execPath, [cli, 'serve', '--json', '--port', '0', '--records', String(count)], {stdio: ['ignore', 'pipe', 'ignore']});
	running.add(child);
	const line = await new Promise<string>((resolve, reject) => {
		let text = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			if (text.includes('\n')) {
				resolve(text.split('\n')[0]!);
			}
		});
		child.on('exit', code => {
			reject(new Error(`pagewalk serve exited ${code ?? 'on a signal'}`));
		});
	});
	return {...(JSON.parse(line) as Omit<Served, 'child'>), child};
}

async function stop(served: Served): Promise<void> {
	const closed = new Promise(resolve => {
		served.child.on('close', resolve);
	});
	served.child.kill('SIGTERM');
	await closed;
	running.delete(served.child);
}

function median(list: number[]): number {
	const sorted = [...list].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Runs a command with stdout to /dev/null; wall time, and peak RSS via /usr/bin/time when asked. */
async function run(command: string, argv: string[], env: Record<string, string>, measureRss = false): Promise<{ms: number; rssKiB?: number}> {
	const devNull = openSync('/dev/null', 'w');
	const rssFile = path.join(work, 'rss');
	const [file, args] = measureRss ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, command, ...argv]] : [command, argv];
	const started = performance.now();
	const child = spawn(file, args, {env: {PATH: process.env.PATH ?? '', ...env}, stdio: ['ignore', devNull, 'pipe']});
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number>(resolve => {
		child.on('close', status => {
			resolve(status ?? 1);
		});
	});
	const ms = performance.now() - started;
	closeSync(devNull);
	if (code !== 0) {
		throw new Error(`${command} ${argv.join(' ')} exited ${code}: ${stderr.trim()}`);
	}

	return measureRss ? {ms, rssKiB: Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1))} : {ms};
}

// The floor: the least a Node client can do — one keep-alive pool, parse
// each page, follow next_uri — with nothing written.
const floorScript = path.join(work, 'floor.mjs');
writeFileSync(floorScript, `
import {Pool} from ${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/undici/index.js')).href)};
const base = process.env.BASE;
const pool = new Pool(base, {connections: 1});
const headers = {authorization: 'Bearer ' + process.env.TOKEN, 'cb-version': '2018-03-22'};
const write = process.argv[2] === 'write';
let path = '/v2/accounts?limit=100';
while (path) {
	const response = await pool.request({path, method: 'GET', headers});
	const page = await response.body.json();
	if (write) {
		let text = '';
		for (const object of page.data) text += JSON.stringify(object) + '\\n';
		if (!process.stdout.write(text)) await new Promise(resolve => process.stdout.once('drain', resolve));
	}
	path = page.pagination.next_uri;
}
await pool.close();
`);

// What users do today: curl for each page, jq for the objects and the next link.
const curlScript = path.join(work, 'curl-jq.sh');
writeFileSync(curlScript, `#!/usr/bin/env bash
set -euo pipefail
url="$BASE/v2/accounts?limit=100"
while [ -n "$url" ]; do
	body=$(curl -sS -H "Authorization: Bearer $TOKEN" -H 'CB-VERSION: 2018-03-22' "$url")
	printf '%s' "$body" | jq -c '.data[]'
	next=$(printf '%s' "$body" | jq -r '.pagination.next_uri // empty')
	url="\${next:+$BASE$next}"
done
`);

function envFor(served: Served): Record<string, string> {
	return {
		PAGEWALK_BASE_URL: served.accountUrl,
		COINBASE_ACCESS_TOKEN: served.credentials.account.full,
		BASE: served.accountUrl,
		TOKEN: served.credentials.account.full,
	};
}

const dumpArgs = [cli, 'dump', 'accounts', '--all', '--limit', '100'];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const served = await serve(records);
const env = envFor(served);
process.stdout.write(`Walking ${records.toLocaleString('en-US')} accounts (${Math.ceil(records / 100)} pages of 100) from pagewalk serve; ${runs} runs each${curlRuns > 0 ? `, ${curlRuns} of curl+jq` : ''}.\n`);
// One warm-up of each so the server's lazy structures and the disk cache are hot.
await run(process.execPath, dumpArgs, env);
await run(process.execPath, [floorScript], env);

const dumpMs: number[] = [];
const floorMs: number[] = [];
const bareMs: number[] = [];
for (let index = 0; index < runs; index++) {
	// Alternate, so drift in the machine's load hits all alike.
	dumpMs.push((await run(process.execPath, dumpArgs, env)).ms);
	floorMs.push((await run(process.execPath, [floorScript, 'write'], env)).ms);
	bareMs.push((await run(process.execPath, [floorScript], env)).ms);
}

const curlMs: number[] = [];
const haveCurl = existsSync('/usr/bin/curl') && existsSync('/usr/bin/jq');
for (let index = 0; haveCurl && index < curlRuns; index++) {
	curlMs.push((await run('bash', [curlScript], env)).ms);
}

const dumpMedian = median(dumpMs);
const floorMedian = median(floorMs);
process.stdout.write(`  pagewalk dump --all   ${seconds(dumpMedian)}  (${(records / dumpMedian * 1000).toFixed(0)} objects/s)\n`);
process.stdout.write(`  undici loop (floor)   ${seconds(floorMedian)}  -> dump is ${(dumpMedian / floorMedian).toFixed(2)}x the floor (target <= 1.2x); the floor writes the same NDJSON\n`);
process.stdout.write(`  undici loop, no output ${seconds(median(bareMs))}  (parse and follow only; dump is ${(dumpMedian / median(bareMs)).toFixed(2)}x)\n`);
if (curlMs.length > 0) {
	const curlMedian = median(curlMs);
	process.stdout.write(`  curl + jq loop        ${seconds(curlMedian)}  -> dump is ${(curlMedian / dumpMedian).toFixed(1)}x faster (target >= 3x)\n`);
} else {
	process.stdout.write('  curl + jq loop        skipped (needs /usr/bin/curl and /usr/bin/jq, or --curl-runs 0)\n');
}

const small = await run(process.execPath, dumpArgs, env, true);
await stop(served);
process.stdout.write(`Peak RSS of dump: ${(small.rssKiB! / 1024).toFixed(1)} MiB for ${records.toLocaleString('en-US')} objects`);
if (big > 0) {
	const bigServed = await serve(big);
	const large = await run(process.execPath, dumpArgs, envFor(bigServed), true);
	await stop(bigServed);
	process.stdout.write(`, ${(large.rssKiB! / 1024).toFixed(1)} MiB for ${big.toLocaleString('en-US')} objects in ${seconds(large.ms)} (target < 150 MiB, flat)\n`);
} else {
	process.stdout.write('\n');
}
