/**
 * `npm run bench:walk`: how fast `pagewalk dump --all` reads a whole list,
 * against the floor (a minimal undici loop that only parses and follows
 * next_uri) and against what users do today (a curl + jq shell loop).
 * 100,000 objects = 1,000 pages of 100 from `pagewalk serve` in its own
 * process; medians over --runs. Then peak memory (RSS) of the dump for
 * 100,000 and 1,000,000 objects, to show it stays flat as the list grows.
 *
 * Then the same walk signed with a CDP key file (a fresh ES256 JWT for every
 * page) against it with the bearer token: the cost of per-request signing.
 *
 * Targets: dump no slower than the floor (ratio <= 1.0), at least 3x faster
 * than curl+jq, peak RSS under 150 MiB for 1,000,000 objects, and the
 * key-file walk within 1.05x the bearer walk.
 *
 * BENCH_DISTS=a,b (built CLIs, each a folder with cli.js; default dist)
 * times each of them against the same floor, alternated in the same runs,
 * so an earlier build (scripts/checkout-commit.sh) compares side by side.
 *
 * Options: --records N (default 100000), --runs N (default 3),
 * --curl-runs N (default 1; each takes tens of seconds), --big N (default
 * 1000000; 0 skips the memory comparison), --key-runs N (default 5),
 * --keys-only (only the key-file against bearer comparison),
 * --latency MS (default 20; 0 skips): the dump against the floor once more
 * over a real link's pace (`serve --latency MS`), --latency-records N
 * objects (default 20000), --latency-runs N (default 3), reported beside
 * the local figures. There `dump --all` walks from both ends (http/both-ends.ts)
 * and the floor follows next_uri one page at a time, so the target is
 * <= 0.55x; the one-chain dump (--one-chain) is timed beside them, and the
 * dump's NDJSON is checked to be the floor's, byte for byte.
 * Locally, the dump from both ends is also timed against --one-chain
 * (target: no slower, <= 1.0x).
 */
import {spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';
import {median} from './median.js';
import {runTimed} from './run-timed.js';
import {serveSandbox, stopSandbox, type Served} from './serve-sandbox.js';

const {values} = parseArgs({
	options: {
		records: {type: 'string', default: '100000'},
		runs: {type: 'string', default: '3'},
		'curl-runs': {type: 'string', default: '1'},
		big: {type: 'string', default: '1000000'},
		'key-runs': {type: 'string', default: '5'},
		'keys-only': {type: 'boolean', default: false},
		latency: {type: 'string', default: '20'},
		'latency-records': {type: 'string', default: '20000'},
		'latency-runs': {type: 'string', default: '3'},
	},
});
const keyRuns = Number(values['key-runs']);
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

const serve = async (count: number) => serveSandbox(cli, count);

/** {@link runTimed}, the peak RSS read from a file in the bench's folder when asked. */
async function run(command: string, argv: string[], env: Record<string, string>, measureRss = false): Promise<{ms: number; rssKiB?: number}> {
	return runTimed(command, argv, env, measureRss ? path.join(work, 'rss') : undefined);
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
const oneChainArgs = [...dumpArgs, '--one-chain'];

/** The SHA-256 of what a command writes to stdout, and how many lines: to show two walks wrote the same bytes. */
async function outputOf(argv: string[], env: Record<string, string>): Promise<{sha: string; lines: number}> {
	const child = spawn(process.execPath, argv, {env: {PATH: process.env['PATH'] ?? '', ...env}, stdio: ['ignore', 'pipe', 'ignore']});
	const hash = createHash('sha256');
	let lines = 0;
	child.stdout.on('data', (chunk: Buffer) => {
		hash.update(chunk);
		for (const byte of chunk) {
			lines += byte === 0x0A ? 1 : 0;
		}
	});
	await new Promise(resolve => {
		child.on('close', resolve);
	});
	return {sha: hash.digest('hex'), lines};
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const served = await serve(records);
const env = envFor(served);

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is none. */
function cpuSeconds(pid: number | undefined): number | undefined {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
		// utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
		return (Number(fields[11]) + Number(fields[12])) / 100;
	} catch {
		return undefined;
	}
}

/** Runs the dump and says how much CPU it and the server (when it is `served`) used. */
async function timed(envFor: Record<string, string>): Promise<{ms: number; dumpCpu: number; serverCpu: number}> {
	const cpuFile = path.join(work, 'cpu');
	const before = cpuSeconds(served.child.pid) ?? 0;
	const {ms} = await run('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, process.execPath, ...dumpArgs], envFor);
	const serverCpu = (cpuSeconds(served.child.pid) ?? 0) - before;
	const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
	return {ms, dumpCpu: user! + system!, serverCpu};
}

/**
 * The sandbox's pages, recorded once with the token and served back from
 * memory whatever the Authorization: the same bytes and links, with no JWT
 * check on the other side, so a walk against it measures pagewalk's own
 * cost of signing (the sandbox verifies every JWT, an ECDSA verify dearer
 * than the signing, on the same ping-pong path).
 */
async function startReplay(): Promise<{origin: string; close(): Promise<void>}> {
	const pages = new Map<string, string>();
	let next: string | null = '/v2/accounts?limit=100';
	while (next !== null) {
		const response = await fetch(`${served.accountUrl}${next}`, {headers: {authorization: `Bearer ${served.credentials.account.full}`}});
		const body = await response.text();
		pages.set(next, body);
		next = (JSON.parse(body) as {pagination: {next_uri: string | null}}).pagination.next_uri;
	}

	const server = http.createServer((request, response) => {
		request.resume();
		const body = pages.get(request.url ?? '');
		response.writeHead(body === undefined ? 404 : 200, {'content-type': 'application/json'});
		response.end(body ?? '{"errors":[{"id":"not_found","message":"Not found"}]}');
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		async close() {
			server.closeAllConnections();
			await new Promise(resolve => {
				server.close(resolve);
			});
		},
	};
}

/**
 * The same dump signed with the sandbox's full ES256 key file against the
 * full bearer token (the same objects): alternated, medians of `keyRuns`.
 * Twice: against the sandbox, end to end (its JWT checks included), and
 * against the replay of its pages, which checks nothing: pagewalk's part.
 */
async function keyAgainstBearer(): Promise<void> {
	const keyFile = served.keys.find(key => key.algorithm === 'ES256' && key.viewer === 'full')!.path;
	const replay = await startReplay();
	const pages = Math.ceil(records / 100);
	const of = (list: Array<Awaited<ReturnType<typeof timed>>>, field: 'ms' | 'dumpCpu' | 'serverCpu') => median(list.map(item => item[field]));
	const perPage = (seconds: number) => `${(seconds * 1000 / pages).toFixed(3)} ms a page`;
	process.stdout.write(`Signed with a key file (ES256, a JWT per page) against the bearer token, ${pages} pages, ${keyRuns} runs each, alternated (medians):\n`);
	for (const [label, base] of [['sandbox (verifies every JWT)', served.accountUrl], ['replay (checks nothing)', replay.origin]] as const) {
		const keyEnv = {PAGEWALK_BASE_URL: base, COINBASE_API_KEY_FILE: keyFile};
		const bearerEnv = {PAGEWALK_BASE_URL: base, COINBASE_ACCESS_TOKEN: served.credentials.account.full};
		await run(process.execPath, dumpArgs, keyEnv);
		const key: Array<Awaited<ReturnType<typeof timed>>> = [];
		const bearer: Array<Awaited<ReturnType<typeof timed>>> = [];
		for (let index = 0; index < keyRuns; index++) {
			key.push(await timed(keyEnv));
			bearer.push(await timed(bearerEnv));
		}

		const ratio = of(key, 'ms') / of(bearer, 'ms');
		process.stdout.write(`  ${label}: bearer ${seconds(of(bearer, 'ms'))}, key file ${seconds(of(key, 'ms'))} -> ${ratio.toFixed(3)}x${label.startsWith('replay') ? ' (target <= 1.05x)' : ''}\n`);
		process.stdout.write(`    dump CPU +${perPage(of(key, 'dumpCpu') - of(bearer, 'dumpCpu'))}${label.startsWith('sandbox') ? `; sandbox CPU +${perPage(of(key, 'serverCpu') - of(bearer, 'serverCpu'))}` : ''}\n`);
	}

	await replay.close();
}

if (values['keys-only']) {
	await keyAgainstBearer();
	await stopSandbox(served);
	process.exit(0);
}
process.stdout.write(`Walking ${records.toLocaleString('en-US')} accounts (${Math.ceil(records / 100)} pages of 100) from pagewalk serve; ${runs} runs each${curlRuns > 0 ? `, ${curlRuns} of curl+jq` : ''}.\n`);
// One warm-up of each so the server's lazy structures and the disk cache are hot.
await run(process.execPath, dumpArgs, env);
await run(process.execPath, [floorScript], env);

// Other builds to time beside this one (BENCH_DISTS), each with its own dump arguments.
const others = (process.env['BENCH_DISTS'] ?? '').split(',').filter(dist => dist !== '' && dist !== 'dist');
const otherArgs = new Map(others.map(dist => [dist, [path.resolve(dist, 'cli.js'), ...dumpArgs.slice(1)]]));
const otherMs = new Map(others.map(dist => [dist, [] as number[]]));
for (const argv of otherArgs.values()) {
	await run(process.execPath, argv, env);
}

const dumpMs: number[] = [];
const oneChainMs: number[] = [];
const floorMs: number[] = [];
const bareMs: number[] = [];
for (let index = 0; index < runs; index++) {
	// Alternate, so drift in the machine's load hits all alike.
	dumpMs.push((await run(process.execPath, dumpArgs, env)).ms);
	oneChainMs.push((await run(process.execPath, oneChainArgs, env)).ms);
	floorMs.push((await run(process.execPath, [floorScript, 'write'], env)).ms);
	bareMs.push((await run(process.execPath, [floorScript], env)).ms);
	for (const [dist, argv] of otherArgs) {
		otherMs.get(dist)!.push((await run(process.execPath, argv, env)).ms);
	}
}

const curlMs: number[] = [];
const haveCurl = existsSync('/usr/bin/curl') && existsSync('/usr/bin/jq');
for (let index = 0; haveCurl && index < curlRuns; index++) {
	curlMs.push((await run('bash', [curlScript], env)).ms);
}

const dumpMedian = median(dumpMs);
const floorMedian = median(floorMs);
process.stdout.write(`  pagewalk dump --all   ${seconds(dumpMedian)}  (${(records / dumpMedian * 1000).toFixed(0)} objects/s)\n`);
process.stdout.write(`  undici loop (floor)   ${seconds(floorMedian)}  -> dump is ${(dumpMedian / floorMedian).toFixed(2)}x the floor (target <= 1.0x); the floor writes the same NDJSON\n`);
process.stdout.write(`  dump --one-chain       ${seconds(median(oneChainMs))}  -> from both ends is ${(dumpMedian / median(oneChainMs)).toFixed(2)}x one chain (target <= 1.0x)\n`);
process.stdout.write(`  undici loop, no output ${seconds(median(bareMs))}  (parse and follow only; dump is ${(dumpMedian / median(bareMs)).toFixed(2)}x)\n`);
const range = (times: number[]) => `${seconds(Math.min(...times))}–${seconds(Math.max(...times))}`;
process.stdout.write(`  (dump run by run: ${range(dumpMs)}; floor ${range(floorMs)})\n`);
for (const [dist, times] of otherMs) {
	process.stdout.write(`  ${dist} dump   ${seconds(median(times))}  -> ${(median(times) / floorMedian).toFixed(2)}x the floor\n`);
	// Paired with the run of this build just before it, so the load of the moment cancels out.
	const ratios = dumpMs.map((ms, index) => ms / times[index]!);
	process.stdout.write(`    run by run ${range(times)}; this build / it, paired by run: median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})\n`);
}

if (curlMs.length > 0) {
	const curlMedian = median(curlMs);
	process.stdout.write(`  curl + jq loop        ${seconds(curlMedian)}  -> dump is ${(curlMedian / dumpMedian).toFixed(1)}x faster (target >= 3x)\n`);
} else {
	process.stdout.write('  curl + jq loop        skipped (needs /usr/bin/curl and /usr/bin/jq, or --curl-runs 0)\n');
}

/**
 * The dump against the floor over a real link's pace: the same alternation,
 * fewer objects (each page waits). The dump walks from both ends; the floor
 * and --one-chain one page at a time.
 */
async function atLatency(ms: string, count: number, times: number): Promise<void> {
	const slow = await serveSandbox(cli, count, ['--latency', ms]);
	const slowEnv = envFor(slow);
	const dumps: number[] = [];
	const oneChains: number[] = [];
	const floors: number[] = [];
	const builds = new Map(others.map(dist => [dist, [] as number[]]));
	for (let index = 0; index < times; index++) {
		dumps.push((await run(process.execPath, dumpArgs, slowEnv)).ms);
		floors.push((await run(process.execPath, [floorScript, 'write'], slowEnv)).ms);
		oneChains.push((await run(process.execPath, oneChainArgs, slowEnv)).ms);
		for (const [dist, argv] of otherArgs) {
			builds.get(dist)!.push((await run(process.execPath, argv, slowEnv)).ms);
		}
	}

	const dumped = await outputOf(dumpArgs, slowEnv);
	const floored = await outputOf([floorScript, 'write'], slowEnv);
	await stopSandbox(slow);
	const pages = Math.ceil(count / 100);
	const floor = median(floors);
	process.stdout.write(`At --latency ${ms} (${count.toLocaleString('en-US')} objects, ${pages} pages of 100, ${times} runs, alternated, medians):
`);
	process.stdout.write(`  pagewalk dump --all (both ends)  ${seconds(median(dumps))}  -> ${(median(dumps) / floor).toFixed(2)}x the floor (${seconds(floor)}, sequential undici loop writing the same NDJSON; target <= 0.55x)
`);
	process.stdout.write(`  pagewalk dump --all --one-chain  ${seconds(median(oneChains))}  -> ${(median(oneChains) / floor).toFixed(2)}x the floor
`);
	process.stdout.write(`  the same objects in the same order as the floor: ${dumped.sha === floored.sha ? 'yes' : 'NO'} (${dumped.lines.toLocaleString('en-US')} lines, sha256 ${dumped.sha.slice(0, 12)}${dumped.sha === floored.sha ? '' : ` against ${floored.sha.slice(0, 12)}, ${floored.lines} lines`})
`);
	for (const [dist, list] of builds) {
		process.stdout.write(`  ${dist} dump   ${seconds(median(list))}  -> ${(median(list) / floor).toFixed(2)}x the floor
`);
	}
}

if (Number(values.latency) > 0) {
	await atLatency(values.latency, Number(values['latency-records']), Number(values['latency-runs']));
}

if (keyRuns > 0) {
	await keyAgainstBearer();
}
const small = await run(process.execPath, dumpArgs, env, true);
await stopSandbox(served);
process.stdout.write(`Peak RSS of dump: ${(small.rssKiB! / 1024).toFixed(1)} MiB for ${records.toLocaleString('en-US')} objects`);
if (big > 0) {
	const bigServed = await serve(big);
	const large = await run(process.execPath, dumpArgs, envFor(bigServed), true);
	await stopSandbox(bigServed);
	process.stdout.write(`, ${(large.rssKiB! / 1024).toFixed(1)} MiB for ${big.toLocaleString('en-US')} objects in ${seconds(large.ms)} (target < 150 MiB, flat)\n`);
} else {
	process.stdout.write('\n');
}
