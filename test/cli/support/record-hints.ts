/**
 * Loaded with `node --import tsx --import <this> source/cli.tsx …`: when the
 * CLI exits, the hints it built (config/hints.ts, the same module instance
 * the CLI loaded) are written as JSON to $HINTS_RECORD, for
 * test/cli/hints-run.test.ts to run. Test code only: nothing in source/ knows of it.
 */
import {writeFileSync} from 'node:fs';
import process from 'node:process';
import {builtHints} from '../../../source/config/hints.js';

const file = process.env['HINTS_RECORD'];
if (file !== undefined) {
	process.on('exit', () => {
		writeFileSync(file, JSON.stringify(builtHints));
	});
}
