import chalk from 'chalk';
import {afterAll, beforeAll} from 'vitest';

/**
 * Ink styles through chalk, which finds no terminal under vitest: this gives
 * it one of colour `level` for the suite (or describe block) it is called
 * in, and puts the old level back after, so that a frame without escape
 * sequences is our doing, not chalk's.
 */
export function withChalkLevel(level: typeof chalk.level = 3): void {
	let before: typeof chalk.level;
	beforeAll(() => {
		before = chalk.level;
		chalk.level = level;
	});
	afterAll(() => {
		chalk.level = before;
	});
}
