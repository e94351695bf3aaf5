/**
 * The terminal the first paint opens (commands/browse/terminal-screen.ts) hands the
 * stop signals to the browser without losing one: a signal received while
 * the browser's modules load reaches the browser's handler. Run in a child
 * process, since the signal is real.
 */
import {spawnSync} from 'node:child_process';
import process from 'node:process';
import {describe, expect, it} from 'vitest';

function run(mode: string) {
	return spawnSync(process.execPath, ['--import', 'tsx', 'test/browser/child-process/signal-handover.ts', mode], {encoding: 'utf8', timeout: 25_000});
}

describe('the stop signals handed from the first paint to the browser', () => {
	it('a SIGTERM received before the hand-over reaches the browser\'s handler', () => {
		for (const mode of ['screen', 'no-screen']) {
			const child = run(mode);
			expect(child.stdout, child.stderr).toContain('browser got SIGTERM');
			expect(child.status).toBe(0);
		}
	});
});
