/**
 * One state directory for the whole run, removed at its end: `serve` keeps
 * its key files in the state directory, and the browser its column choices,
 * so no test writes into the user's own (~/.local/state/pagewalk).
 * Workers and the CLIs they spawn inherit it through the environment.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';

export default function setup(): () => void {
	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-test-state-'));
	process.env['PAGEWALK_STATE_DIR'] ??= directory;
	return () => {
		rmSync(directory, {recursive: true, force: true});
	};
}
