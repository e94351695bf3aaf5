/**
 * `npm run bench:startup` (builds first): time from process start to the first
 * page on screen, in a pseudo-terminal, for `pagewalk` and for a bare `node`
 * script that fetches and prints the same page. Side by side, medians.
 *
 * The pseudo-terminal is `script` (util-linux): it is spawned, its output read
 * here, and the clock stops when the page's status text arrives. Both commands
 * pay for `script` and the pty the same way. The sandbox runs in this process,
 * so neither command pays for starting it; `--demo` (which starts it inside
 * pagewalk) is timed as a third line for reference. The pty is sized 100x30.
 *
 * Target (issue 23): pagewalk's median at most 1.5x the bare script's. On
 * Node 22 and later the first, warm-up run fills pagewalk's compile cache
 * (cli.tsx), as any earlier run of the installed tool would.
 *
 * A fourth line, for scale: `ink floor`, the least an Ink app can do to show
 * the same page (ink-floor.tsx, built here as pagewalk is built): what Ink
 * and React cost before any of pagewalk's own work.
 *
 * The first page is painted before Ink has loaded (components/first-paint.ts),
 * so a second figure says when the browser answers: `j` is typed the moment
 * the page is on screen, and the clock stops when the frame shows the second
 * row selected (`row 2/`). Keys typed before that wait in the terminal.
 */
import {spawn} from 'node:child_process';
import {build} from 'esbuild';
// @ts-expect-error -- a build script in plain JavaScript, without types
import {bundleOptions} from '../../scripts/bundle-options.mjs';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {startSandbox} from '../../source/sandbox/index.js';
import {median} from './median.js';

const runs = Number(process.env['BENCH_RUNS'] ?? 15);
const marker = 'more pages follow';

const bare = `
const response = await fetch(process.argv[2], {headers: {authorization: 'Bearer ' + process.env.COINBASE_ACCESS_TOKEN, 'cb-version': '2018-03-22'}});
const body = await response.json();
const lines = body.data.map(object => object.id + '  ' + object.name);
lines.push(body.data.length + '/25 · ' + (body.pagination.next_uri ? '${marker}' : 'end of list'));
process.stdout.write(lines.join('\\n') + '\\n');
`;

function shellQuote(text: string): string {
	return `'${text.replaceAll("'", String.raw`'\''`)}'`;
}

const answered = 'row 2/';

type Timing = {page: number; key?: number};

/**
 * Runs `command` under `script`, resolves with ms from spawn to `marker` on
 * screen and, for the browser (`browser`), to `j` answered; then quits it.
 */
async function timeToMarker(command: string, env: NodeJS.ProcessEnv, browser: boolean): Promise<Timing> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		// A pty made by `script` from pipes is 0x0; a real terminal has a size,
		// and Ink takes other paths without one. Both commands pay for stty.
		const child = spawn('script', ['-q', '-e', '-c', `stty cols 100 rows 30; exec ${command}`, '/dev/null'], {env, stdio: ['pipe', 'pipe', 'pipe']});
		let output = '';
		let elapsed: number | undefined;
		let key: number | undefined;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`no first page within 10 s; output:\n${output}`));
		}, 10_000);
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString('utf8');
			if (elapsed === undefined && output.includes(marker)) {
				elapsed = performance.now() - started;
				output = '';
				if (browser) {
					child.stdin.write('j');
				}
			} else if (browser && elapsed !== undefined && key === undefined && output.includes(answered)) {
				key = performance.now() - started;
				child.stdin.write('q');
			}
		});
		child.on('close', () => {
			clearTimeout(timer);
			if (elapsed === undefined || (browser && key === undefined)) {
				reject(new Error(`exited before the first page or before j was answered; output:\n${output}`));
			} else {
				resolve({page: elapsed, key});
			}
		});
	});
}

const sandbox = await startSandbox({port: 0});
const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-bench-'));
try {
	const bareScript = path.join(directory, 'bare.mjs');
	writeFileSync(bareScript, bare);
	const env: NodeJS.ProcessEnv = {...process.env, COINBASE_ACCESS_TOKEN: sandbox.credentials.account.restricted, TERM: 'xterm-256color'};
	// Ink prints only the last frame when it thinks it runs in CI.
	delete env['CI'];
	const node = shellQuote(process.execPath);
	const commands: Record<string, string> = {
		bare: `${node} ${shellQuote(bareScript)} ${shellQuote(`${sandbox.accountUrl}/v2/accounts`)}`,
	};
	for (const dist of (process.env['BENCH_DISTS'] ?? 'dist').split(',')) {
		commands[dist === 'dist' ? 'pagewalk' : dist] = `${node} ${dist}/cli.js accounts --base-url ${shellQuote(sandbox.accountUrl)}`;
	}
	if (!process.env['BENCH_DISTS']) {
		commands['pagewalk --demo'] = `${node} dist/cli.js --demo`;
		await build({...bundleOptions, entryPoints: {floor: 'test/bench/ink-floor.tsx'}, outdir: directory});
		commands['ink floor'] = `${node} ${shellQuote(path.join(directory, 'floor.js'))} ${shellQuote(`${sandbox.accountUrl}/v2/accounts`)}`;
	}
	const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map(name => [name, []]));
	const keyTimes: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map(name => [name, []]));
	// One warm-up each (disk cache, sandbox JIT), then interleaved runs.
	for (let run = -1; run < runs; run++) {
		for (const [name, command] of Object.entries(commands)) {
			const timing = await timeToMarker(command, env, !['bare', 'ink floor'].includes(name));
			if (run >= 0) {
				times[name]!.push(timing.page);
				if (timing.key !== undefined) {
					keyTimes[name]!.push(timing.key);
				}
			}
		}
	}

	const bareMedian = median(times['bare']!);
	console.log(`startup to first page on screen, ${runs} runs each, medians (min–max):`);
	for (const [name, values] of Object.entries(times)) {
		const value = median(values);
		const ratio = name === 'bare' ? '' : `  ${(value / bareMedian).toFixed(2)}x bare`;
		console.log(
			`  ${name.padEnd(16)} ${value.toFixed(0).padStart(4)} ms  (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})${ratio}; min ${(Math.min(...values) / Math.min(...times['bare']!)).toFixed(2)}x bare's min`,
		);
	}

	console.log('startup to the first key answered (j typed when the page is on screen), medians (min–max):');
	for (const [name, values] of Object.entries(keyTimes)) {
		if (values.length > 0) {
			console.log(`  ${name.padEnd(16)} ${median(values).toFixed(0).padStart(4)} ms  (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`);
		}
	}

	if (!times['pagewalk']) {
		process.exit(0);
	}

	const pagewalk = median(times['pagewalk']!);
	const ok = pagewalk <= 1.5 * bareMedian;
	console.log(`target ≤ 1.5x bare: ${ok ? 'met' : 'NOT met'}`);
} finally {
	rmSync(directory, {recursive: true, force: true});
	await sandbox.close();
}
