/**
 * Every process warning fails the suite: a MaxListenersExceededWarning is a
 * leak (a listener added per request or per chunk), a DeprecationWarning an
 * API about to go. Node emits a warning on a later tick, so it is checked
 * after each test and once more after the file's last one.
 */
import process from 'node:process';
import {afterAll, afterEach} from 'vitest';

// One listener per worker, however many test files it runs.
const shared = globalThis as {pagewalkWarnings?: string[]};
const seen = shared.pagewalkWarnings ?? [];
if (shared.pagewalkWarnings === undefined) {
	shared.pagewalkWarnings = seen;
	process.on('warning', (warning) => {
		seen.push(`${warning.name}: ${warning.message}`);
	});
}

function check(): void {
	if (seen.length > 0) {
		throw new Error(`Node warned during this test or just before it: ${seen.splice(0).join('; ')}`);
	}
}

afterEach(async () => {
	// emitWarning emits on the next tick (never faked by the tests' fake timers).
	await new Promise<void>((resolve) => {
		process.nextTick(resolve);
	});
	check();
});
afterAll(check);
