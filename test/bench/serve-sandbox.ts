import {spawn, type ChildProcess} from 'node:child_process';
import process from 'node:process';

/**
 * `pagewalk serve --json` of the built CLI in its own process, for the
 * benchmarks that walk it: the sandbox answers on the other core, as a real
 * server would. Every server still running when the bench ends (or fails) is
 * stopped, so a failed run never leaves one behind holding a port.
 */

export type Served = {
	accountUrl: string;
	commerceUrl: string;
	credentials: {account: {full: string}; commerce: {full: string}};
	keys: Array<{algorithm: string; viewer: string; path: string}>;
	child: ChildProcess;
};

const running = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of running) {
		child.kill('SIGTERM');
	}
});

/** Starts the sandbox with `records` objects per list (and `extra` serve flags, such as --latency) and resolves with its `--json` line. */
export async function serveSandbox(cli: string, records: number, extra: string[] = []): Promise<Served> {
	const child = spawn(process.execPath, [cli, 'serve', '--json', '--port', '0', '--records', String(records), ...extra], {stdio: ['ignore', 'pipe', 'ignore']});
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

/** Stops a sandbox started by {@link serveSandbox} and waits until it has exited. */
export async function stopSandbox(served: Served): Promise<void> {
	const closed = new Promise(resolve => {
		served.child.on('close', resolve);
	});
	served.child.kill('SIGTERM');
	await closed;
	running.delete(served.child);
}
