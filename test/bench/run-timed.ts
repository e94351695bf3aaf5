import {spawn} from 'node:child_process';
import {closeSync, openSync, readFileSync} from 'node:fs';
import process from 'node:process';

/**
 * Runs a command of a benchmark with stdout to /dev/null and only PATH plus
 * `env` in its environment: its wall time, and its peak RSS (via
 * /usr/bin/time, written to `rssFile`) when a file is given. A failed run
 * throws with the command and its stderr: a benchmark never times an error.
 */
export async function runTimed(command: string, argv: string[], env: Record<string, string>, rssFile?: string): Promise<{ms: number; rssKiB?: number}> {
	const devNull = openSync('/dev/null', 'w');
	const [file, args] = rssFile === undefined ? [command, argv] : ['/usr/bin/time', ['-f', '%M', '-o', rssFile, command, ...argv]];
	const started = performance.now();
	const child = spawn(file, args, {env: {PATH: process.env['PATH'] ?? '', ...env}, stdio: ['ignore', devNull, 'pipe']});
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

	return rssFile === undefined ? {ms} : {ms, rssKiB: Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1))};
}
