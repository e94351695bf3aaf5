import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/bench/**', 'node_modules/**'],
		// A process warning (a listener leak, a deprecation) fails the test it came in.
		setupFiles: ['test/support/no-warnings.ts', 'test/support/text-width.ts'],
		globalSetup: ['test/support/global-setup.ts'],
		// Deadlines against hangs, not speed checks (speed is measured under test/bench/):
		// on a loaded 2-core machine a property test or a series of subprocesses
		// legitimately takes 20 s or more.
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// Two cores here and in CI: more workers only contend.
		maxWorkers: 2,
	},
});
