/**
 * Another checkout's browser modules in this bench process (BENCH_AGAINST=DIR
 * of bench:keys and bench:search), so both builds are measured under the same
 * load, their runs alternated. Each checkout keeps its own node_modules:
 * its React, Ink and their caches are its own.
 */
import {execFileSync, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath, pathToFileURL} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs this bench again in a child with React in production mode (React picks
 * its build when first loaded, so it has to be set before the process starts),
 * and exits with the child's status. tsx compiles JSX by the tsconfig only for
 * the files that tsconfig includes: with `against`, the other checkout's sources
 * are included too.
 */
export function runInProduction(env: NodeJS.ProcessEnv, against: string | undefined): never {
	let tsconfig: string | undefined;
	if (against) {
		tsconfig = path.join(mkdtempSync(path.join(tmpdir(), 'bench-against-')), 'tsconfig.json');
		writeFileSync(tsconfig, JSON.stringify({extends: path.join(root, 'tsconfig.json'), include: [path.join(root, 'source'), path.join(root, 'test'), path.join(path.resolve(against), 'source')]}));
	}

	const result = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
		stdio: 'inherit',
		env: {...env, NODE_ENV: 'production', ...(tsconfig ? {TSX_TSCONFIG_PATH: tsconfig} : {})},
	});
	if (tsconfig) {
		rmSync(path.dirname(tsconfig), {recursive: true, force: true});
	}

	process.exit(result.status ?? 1);
}

/**
 * The file URL of `file` (a path as this tree has it) in the checkout at `dir`.
 * A checkout from before source/core/ was split keeps config/ and http/ there;
 * one from before browser/, commands/ and sandbox/ had rooms keeps a room's
 * file one folder up.
 */
export function checkoutFile(dir: string, file: string): string {
	const places = [file, file.replace(/^source\/(?:config|http)\//, 'source/core/'), file.replace(/^(source\/(?:browser|commands|sandbox))\/[^/]+\//, '$1/')];
	return pathToFileURL(path.join(dir, places.find(place => existsSync(path.join(dir, place))) ?? file)).href;
}

/** The checkout's commit, `+changes` when its source or tests differ from it. */
export function commitOf(dir: string): string {
	try {
		const head = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim();
		const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--', 'source', 'test'], {encoding: 'utf8'}).trim() === '' ? '' : '+changes';
		return head + dirty;
	} catch {
		// A checkout made by git archive has no repository: scripts/checkout-commit.sh leaves its commit beside it.
		try {
			return readFileSync(path.join(dir, '.bench-compare-commit'), 'utf8').trim().slice(0, 7);
		} catch {
			return path.basename(dir);
		}
	}
}
