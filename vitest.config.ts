import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
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
	},
});
