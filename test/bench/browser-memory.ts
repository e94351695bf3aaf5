/**
 * `npm run bench:memory` (builds first): the browser's resident memory while
 * paging through 1,000 pages of 100 and during a 1,000-page search, against
 * `pagewalk serve --records 200000` in a process of its own (so the figures
 * are the browser's alone). The browser runs in a pseudo-terminal (`script`,
 * as bench:startup), keys go to it through the pty, and its peak resident
 * set (VmHWM) and current one (VmRSS) are read from /proc after each step.
 *
 * Target: peak under 150 MiB through both, at any terminal size.
 * BENCH_SIZE=COLSxROWS sets the pty's size (`stty` inside it; default 80x24,
 * what the browser takes a pty of no size for). BENCH_DIST=dir measures
 * another build (for a before and after); BENCH_DISTS=a,b measures each in
 * turn in one run, the same size and steps (as bench:walk and bench:startup).
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {createInterface} from 'node:readline';

const dists = (process.env['BENCH_DISTS'] ?? process.env['BENCH_DIST'] ?? 'dist').split(',');
const pages = Number(process.env['BENCH_PAGES'] ?? 1000);
const size = /^(\d+)x(\d+)$/.exec(process.env['BENCH_SIZE'] ?? '80x24');
if (!size) {
	throw new Error(`BENCH_SIZE should be COLSxROWS, such as 160x50; it is ${JSON.stringify(process.env['BENCH_SIZE'])}.`);
}

const [, columns, rows] = size;

type Served = {accountUrl: string; credentials: {account: {full: string}}};

async function serve(cli: string): Promise<{served: Served; child: ChildProcess}> {
	const child = spawn(process.execPath, [cli, 'serve', '--records', '200000', '--port', '0', '--json'], {stdio: ['ignore', 'pipe', 'inherit']});
	const line = await new Promise<string>(resolve => {
		createInterface({input: child.stdout!}).once('line', resolve);
	});
	return {served: JSON.parse(line) as Served, child};
}

/** Peak and current resident memory of a process, in MiB. */
function memory(pid: number): {peak: number; now: number} {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
	return {peak: field('VmHWM'), now: field('VmRSS')};
}

/** The node process under `script`: its child. */
function browserPid(script: ChildProcess): number {
	for (const line of readFileSync(`/proc/${script.pid}/task/${script.pid}/children`, 'utf8').trim().split(/\s+/)) {
		const command = readFileSync(`/proc/${line}/cmdline`, 'utf8');
		if (command.includes('cli.js')) {
			return Number(line);
		}
	}

	throw new Error('the browser process was not found under script');
}

/** One build's browser through the pages and the search: its report and its peak. */
async function measure(dist: string): Promise<{report: string; peak: number}> {
	const cli = path.resolve(dist, 'cli.js');
	const {served, child: server} = await serve(cli);
	// `script` gives its pty no size when its own input is no terminal: stty sets one before the browser starts.
	const command = `stty cols ${columns} rows ${rows} && exec ${process.execPath} ${process.env['BENCH_NODE_FLAGS'] ?? ''} ${cli} accounts --base-url ${served.accountUrl} --limit 100`;
	const browser = spawn('script', ['-qfec', command, '/dev/null'], {
		env: {...process.env, COINBASE_ACCESS_TOKEN: served.credentials.account.full, NO_COLOR: '1', TERM: 'xterm-256color'},
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	let screen = '';
	browser.stdout!.on('data', (chunk: Buffer) => {
		screen = (screen + chunk.toString('utf8')).slice(-20_000);
	});

	async function until(predicate: () => boolean, what: string, timeoutMs = Number(process.env['BENCH_WAIT_MS'] ?? 600_000)): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!predicate()) {
			if (Date.now() > deadline) {
				throw new Error(`timed out waiting for ${what}; screen ends: ${JSON.stringify(screen.slice(-600))}`);
			}

			await new Promise(resolve => {
				setTimeout(resolve, 20);
			});
		}
	}

	await until(() => screen.includes('page 1 '), 'the first page');
	const pid = browserPid(browser);
	const lines: string[] = [`start: ${memory(pid).now.toFixed(1)} MiB`];
	// Keys in chunks of 25, each chunk waiting for its last page: key repeat, as a user holding →.
	for (let page = 1; page < pages;) {
		const step = Math.min(25, pages - page);
		browser.stdin!.write('l'.repeat(step));
		page += step;
		const target = `page ${page} `;

		await until(() => screen.includes(target) && !screen.slice(screen.lastIndexOf(target)).includes('loading'), target);
		if (Math.floor(page / 250) > Math.floor((page - step) / 250) || page === pages) {
			const {peak, now} = memory(pid);
			lines.push(`after ${page} pages: ${now.toFixed(1)} MiB now, ${peak.toFixed(1)} MiB peak`);
		}
	}

	// A search across pages for text no object holds: it walks until its bound (1,000 pages).
	browser.stdin!.write('0');
	await until(() => /page 1 ·/.test(screen.slice(-3000)), 'back to the first page');
	browser.stdin!.write('/zzzz-no-such-text\r');
	browser.stdin!.write('n');
	await until(() => /no match for "zzzz-no-such-text"/.test(screen.slice(-4000)), 'the search to end');
	const {peak, now} = memory(pid);
	lines.push(`after a ${pages}-page search: ${now.toFixed(1)} MiB now, ${peak.toFixed(1)} MiB peak`);
	browser.stdin!.write('Q');
	await new Promise(resolve => {
		browser.once('exit', resolve);
	});
	server.kill();
	return {report: `bench:memory (${dist}, ${pages} pages of 100, records 200000, ${columns}x${rows})\n${lines.map(line => `  ${line}`).join('\n')}\n`, peak};
}

const peaks: number[] = [];
for (const dist of dists) {
	const {report, peak} = await measure(dist);
	process.stdout.write(report);
	peaks.push(peak);
}

if (peaks.length > 1) {
	process.stdout.write(`peak, ${dists.at(-1)!} / ${dists[0]!}: ${(peaks.at(-1)! / peaks[0]!).toFixed(3)}\n`);
}
