import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/bench/**', 'node_modules/**'],
		testTimeout: 20_000,
		hookTimeout: 20_000,
		// Two cores here and in CI: more workers only contend.
		maxWorkers: 2,
	},
});
