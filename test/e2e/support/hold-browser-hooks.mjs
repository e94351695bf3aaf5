// The module hook of hold-browser.mjs, for either API: `load` for
// module.register (Node 20: an async hook, run off the main thread), `loadSync`
// for module.registerHooks (run in the thread, so it must not wait itself).
// Neither waits: the module that imports the browser's chunk is rewritten so
// that its import waits for the release file first, with timers, and the main
// thread stays free meanwhile (signals, the terminal) on every Node.

// esbuild's dynamic import of the browser's chunk (source/commands/browse/load-browser.ts).
const browserImport = /\bimport\((["'])(\.\/run-browser-[\w-]+\.js)\1\)/g;
const browserChunk = /\/run-browser-[\w-]+\.js$/;
let rewritten = false;

// Waits until the file PAGEWALK_TEST_RELEASE names exists (at most 120 s, a guard
// against a hang far past any test's patience on a loaded machine); one
// that says `fail` makes the chunk fail to load, as a broken install's would.
const hold = `async function __pagewalkTestHold() {
	const {existsSync, readFileSync} = globalThis.process.getBuiltinModule('node:fs');
	const release = globalThis.process.env.PAGEWALK_TEST_RELEASE;
	const deadline = Date.now() + 120_000;
	while (release && !existsSync(release) && Date.now() < deadline) {
		await new Promise(resolve => {
			setTimeout(resolve, 10);
		});
	}

	if (release && existsSync(release) && readFileSync(release, 'utf8') === 'fail') {
		throw new Error('the browser chunk is broken (test/e2e/support/hold-browser-hooks.mjs)');
	}
}
`;

function held(url, loaded) {
	if (browserChunk.test(url) && !rewritten) {
		throw new Error(`${url} was imported by no module hold-browser-hooks.mjs rewrote: update its pattern to the bundle's import`);
	}

	if (loaded.format !== 'module' || loaded.source === undefined || loaded.source === null) {
		return loaded;
	}

	const source = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
	const rewrittenSource = source.replace(browserImport, '__pagewalkTestHold().then(() => import($1$2$1))');
	if (rewrittenSource === source) {
		return loaded;
	}

	rewritten = true;
	return {...loaded, source: hold + rewrittenSource};
}

export async function load(url, context, nextLoad) {
	return held(url, await nextLoad(url, context));
}

export function loadSync(url, context, nextLoad) {
	return held(url, nextLoad(url, context));
}
