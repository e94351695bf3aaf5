import process from 'node:process';

/**
 * V8 flags each entry sets, named here in one table rather than inside the
 * commands. A dump's every page, and the browser's every page, frame and row,
 * is garbage once written or drawn: a young generation that does not grow
 * past its starting size is enough for that, and by default V8 lets the heap
 * grow well past what is live before it collects, so the browser's resident
 * memory climbed with every page walked; sized for memory, it collects
 * sooner (bench:walk and bench:memory, figures in docs/benchmarks.md). A
 * dump also lets its old generation grow by a fifth before the next full
 * collection, not by V8's default factor: two chains of a walk from both ends
 * at loopback speed make garbage faster than one, and the heap's headroom,
 * not what is live, is what pushed its peak past the bound. V8
 * reads these flags each time it considers growing a space, so setting them
 * after start-up takes effect.
 *
 * `dump` sets its flag at dispatch (cli.tsx). The browser sets its own once
 * its first frame is drawn (run-browser.tsx), not before its modules load:
 * loading them and drawing the first frame allocate far more than is kept,
 * and with these flags V8 collects many times over on the way to the first
 * page (bench:startup).
 */
export const heapFlags: Record<'dump' | 'browser' | 'browser-load', readonly string[]> = {
	dump: ['--semi-space-growth-factor=1', '--heap-growing-percent=20'],
	browser: ['--optimize-for-size', '--semi-space-growth-factor=1'],
	// Set before the browser's modules load (load-browser.ts). yoga, Ink's
	// layout engine, instantiates its WebAssembly asynchronously, and V8's
	// asynchronous compile of it waits for worker threads kept busy by the
	// start-up's own compiling: on Node 20 the main thread then sat idle for
	// longer than the whole first frame takes, where compiling the module on
	// the main thread takes a few milliseconds (bench:startup, first key).
	'browser-load': ['--no-wasm-async-compilation'],
};

export function setHeapFlags(entry: keyof typeof heapFlags): void {
	// node:v8 loaded when the flags are set, not with the CLI's entry: the
	// browser sets them after its first frame, and the load is start-up time.
	const v8 = process.getBuiltinModule('node:v8');
	for (const flag of heapFlags[entry]) {
		v8.setFlagsFromString(flag);
	}
}
