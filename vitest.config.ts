import {defineConfig} from 'vitest/config';

/**
 * Four projects, one per kind of test, so a maintainer runs the kind a change
 * touches (`npm run test:fast` is `unit`; `npx vitest run --project app`) and
 * `npm test` runs them all. A test file belongs to one project by where it
 * lives: a new folder of tests needs a line here (test/architecture/test-projects.test.ts).
 */
export const projects = {
	// Plain TypeScript in process: the pure core (contract, links, cells, JSON,
	// text, config, the browser's reducers and keys) and the layer rules.
	// No child process, no build: what needs a process of its own lives in browser/child-process/.
	unit: ['test/{architecture,cells,config,contract,http,json,text}/**/*.test.ts', 'test/browser/*.test.ts'],
	// The browser's Ink app rendered in process (ink-testing-library), over a real sandbox.
	app: ['test/browser/*.test.tsx'],
	// The commands and the walker over real HTTP: in process or as dist/cli.js, the sandbox, the wire, the docs' claims;
	// and the browser's parts that need a child process (a real signal, a file size limit, a heap measured).
	cli: ['test/{audit,cli,docs,dump,sandbox,walker,wire}/**/*.test.ts', 'test/browser/child-process/*.test.ts'],
	// pagewalk in a real terminal (tmux) and the packed install.
	terminal: ['test/e2e/**/*.test.ts'],
};

export default defineConfig({
	test: {
		exclude: ['test/bench/**', 'node_modules/**'],
		// A process warning (a listener leak, a deprecation) fails the test it came in.
		setupFiles: ['test/support/no-warnings.ts', 'test/support/text-width.ts'],
		globalSetup: ['test/support/global-setup.ts'],
		// Deadlines against hangs, not speed checks (speed is measured under test/bench/),
		// and the only ones: no test sets its own. A test's waits on events give up far
		// sooner (test/support/patience.ts); this bounds fixed work, which on a loaded
		// 2-core machine takes several times what it takes on an idle one (every code
		// point through two string-widths, a property test, a series of subprocesses:
		// over 90 s beside two busy processes).
		testTimeout: 300_000,
		hookTimeout: 300_000,
		// Two cores here and in CI: more workers only contend.
		maxWorkers: 2,
		// The unit tests share their workers' modules (isolate: false): loading
		// the module graph once per worker, not once per file, halves the unit
		// project's CPU time; they are plain functions over values, so no file
		// leaves state another reads (checked in shuffled file orders).
		projects: Object.entries(projects).map(([name, include]) => ({extends: true, test: {name, include, isolate: name !== 'unit'}})),
	},
});
