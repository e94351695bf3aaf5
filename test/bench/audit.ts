/**
 * `npm run bench:audit`: what auditing costs over plainly reading. Walks a
 * list of 100,000 objects (1,000 pages of 100) from an in-process sandbox,
 * alternating `pagewalk audit` and `pagewalk dump --all` of the built bundle,
 * both writing to /dev/null, and prints the medians side by side.
 * Target: audit at most 1.3x the time of dump.
 *
 * Options: --records N (default 100000), --runs N (default 5), --list accounts|checkouts.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {startSandbox} from '../../source/sandbox/index.js';
import {median} from './median.js';
import {runTimed} from './run-timed.js';

const {values} = parseArgs({
	options: {
		records: {type: 'string', default: '100000'},
		runs: {type: 'string', default: '5'},
		list: {type: 'string', default: 'checkouts'},
	},
});
const records = Number(values.records);
const runs = Number(values.runs);
const list = values.list === 'accounts' ? 'accounts' : 'checkouts';
const target = 1.3;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist/cli.js');
if (!existsSync(cli)) {
	process.stderr.write('dist/cli.js is missing: run `npm run build` first (npm run bench:audit does).\n');
	process.exit(1);
}

const time = async (argv: string[], env: Record<string, string>) => runTimed(process.execPath, [cli, ...argv], env);

const sandbox = await startSandbox({port: 0, records});
try {
	const api = list === 'accounts' ? 'account' : 'commerce';
	const env = {
		COINBASE_ACCESS_TOKEN: sandbox.credentials.account.full,
		COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce.full,
	};
	const common = [list, '--base-url', sandbox.accountUrl, '--commerce-url', sandbox.commerceUrl, '--limit', '100'];
	const commands = {
		audit: ['audit', ...common, '--max-pages', String(Math.ceil(records / 100) + 10)],
		dump: ['dump', ...common, '--all'],
	};
	process.stdout.write(`Walking ${records.toLocaleString('en-US')} ${list} (${api} API) in pages of 100, ${runs} runs each, alternating; one warm-up each.\n`);
	await time(commands.dump, env);
	await time(commands.audit, env);
	const times: Record<'audit' | 'dump', number[]> = {audit: [], dump: []};
	for (let run = 0; run < runs; run += 1) {
		// Alternate which goes first so neither always meets a warmer server.
		const order = run % 2 === 0 ? (['dump', 'audit'] as const) : (['audit', 'dump'] as const);
		for (const name of order) {
			times[name].push((await time(commands[name], env)).ms);
		}
	}

	const audit = median(times.audit);
	const dump = median(times.dump);
	const ratio = audit / dump;
	const format = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
	process.stdout.write([
		'',
		'                      median     runs',
		`pagewalk dump --all   ${format(dump).padStart(8)}   ${times.dump.map((ms) => format(ms)).join(', ')}`,
		`pagewalk audit        ${format(audit).padStart(8)}   ${times.audit.map((ms) => format(ms)).join(', ')}`,
		'',
		`audit / dump = ${ratio.toFixed(2)} (target at most ${target}): ${ratio <= target ? 'met' : 'NOT met'}`,
		'',
	].join('\n'));
	process.exitCode = ratio <= target ? 0 : 1;
} finally {
	await sandbox.close();
}
