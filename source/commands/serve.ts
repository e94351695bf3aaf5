import process from 'node:process';
import meow from 'meow';
import {UsageError} from '../core/errors.js';
import {sandboxFailure} from './demo.js';
import {defaultRecords, defaultSeed, isScenario, scenarioNames, scenarioSummaries, startSandbox, type Sandbox} from '../sandbox/index.js';

const help = `
	Usage
	  $ pagewalk serve [options]

	Runs a local sandbox of both list APIs (account and commerce) until Ctrl-C.

	Options
	  --port N           account API port (default 4010; 0 picks a free one)
	  --commerce-port N  commerce API port (default: --port + 1, or free with --port 0)
	  --host H           interface to bind (default 127.0.0.1)
	  --records N        objects per list, up to 1000000 (default ${defaultRecords})
	  --seed S           seed of the generated data and credentials (default ${defaultSeed})
	  --churn N          insert and remove about N objects per second (default 0)
	  --scenario NAME    a preset (default restricted):
${scenarioNames.map(name => `	                       ${name.padEnd(17)}${scenarioSummaries[name]}`).join('\n')}
	  --json             print the URLs and credentials as one JSON line
	  --verbose          log one line per request to stderr

	Examples
	  $ pagewalk serve
	  $ pagewalk serve --json --port 0
	  $ pagewalk serve --scenario duplicate   # then: pagewalk audit --base-url …
`;

const defaultPort = 4010;
const maximumRecords = 1_000_000;

function wholeNumber(flag: string, value: string | undefined, maximum: number): number | undefined {
	if (value === undefined) {
		return undefined;
	}

	if (!/^\d+$/.test(value) || Number(value) > maximum) {
		throw new UsageError(`--${flag} must be a whole number from 0 to ${maximum}; got "${value}".`);
	}

	return Number(value);
}

export async function run(argv: string[]): Promise<number> {
	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		allowUnknownFlags: true,
		flags: {
			port: {type: 'string'},
			commercePort: {type: 'string'},
			host: {type: 'string', default: '127.0.0.1'},
			records: {type: 'string'},
			seed: {type: 'string'},
			churn: {type: 'string'},
			scenario: {type: 'string'},
			json: {type: 'boolean', default: false},
			verbose: {type: 'boolean', default: false},
		},
	});
	const knownFlags = new Set(['port', 'commercePort', 'host', 'records', 'seed', 'churn', 'scenario', 'json', 'verbose', 'help', 'version']);
	const unknown = Object.keys(cli.flags).filter((flag) => !knownFlags.has(flag));
	if (unknown.length > 0) {
		throw new UsageError(`pagewalk serve does not know --${unknown[0]}; see pagewalk serve --help.`);
	}

	if (cli.input.length > 0) {
		throw new UsageError(`pagewalk serve takes no arguments, only options; got "${cli.input[0]}".`);
	}

	const {flags} = cli;
	for (const name of ['port', 'commercePort', 'records', 'seed', 'churn', 'host', 'scenario'] as const) {
		if (Array.isArray(flags[name])) {
			throw new UsageError(`--${name} is given more than once; give it once.`);
		}
	}

	const port = wholeNumber('port', flags.port, 65_535) ?? defaultPort;
	const commercePort = wholeNumber('commerce-port', flags.commercePort, 65_535);
	if (commercePort === undefined && port === 65_535) {
		throw new UsageError('--port 65535 leaves no port for the commerce API; give --commerce-port too.');
	}

	const records = wholeNumber('records', flags.records, maximumRecords);
	const seed = wholeNumber('seed', flags.seed, 4_294_967_295);
	const churn = wholeNumber('churn', flags.churn, 100_000);
	if (flags.host.trim() === '') {
		throw new UsageError('--host must name an interface, such as 127.0.0.1.');
	}

	const scenario = flags.scenario ?? 'restricted';
	if (!isScenario(scenario)) {
		throw new UsageError(`--scenario must be one of ${scenarioNames.join(', ')}; got "${scenario}".`);
	}

	const sandbox = await startSandbox({
		scenario,
		host: flags.host,
		port,
		...(commercePort === undefined ? {} : {commercePort}),
		...(records === undefined ? {} : {records}),
		...(seed === undefined ? {} : {seed}),
		...(churn === undefined ? {} : {churn}),
		...(flags.verbose ? {verbose: (line: string) => process.stderr.write(`${line}\n`)} : {}),
	}).catch(sandboxFailure);
	process.stdout.write(flags.json ? `${JSON.stringify({accountUrl: sandbox.accountUrl, commerceUrl: sandbox.commerceUrl, credentials: sandbox.credentials})}\n` : banner(sandbox));

	await new Promise<void>((resolve) => {
		const stop = () => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			resolve();
		};

		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
	await sandbox.close();
	return 0;
}

function banner({accountUrl, commerceUrl, credentials}: Sandbox): string {
	const today = new Date().toISOString().slice(0, 10);
	return `pagewalk sandbox is serving both list APIs.

  account API   ${accountUrl}   lists: /v2/accounts, /v2/accounts/:id/transactions
  commerce API  ${commerceUrl}   lists: /checkouts, /charges

Credentials (the restricted ones see part of each list, so pages come back short):
  account   full        ${credentials.account.full}
  account   restricted  ${credentials.account.restricted}
  commerce  full        ${credentials.commerce.full}
  commerce  restricted  ${credentials.commerce.restricted}

Try:
  curl -H 'Authorization: Bearer ${credentials.account.full}' -H 'CB-VERSION: ${today}' '${accountUrl}/v2/accounts?limit=5'
  curl -H 'X-CC-Api-Key: ${credentials.commerce.full}' -H 'X-CC-Version: 2018-03-22' '${commerceUrl}/checkouts?limit=5'

Ctrl-C stops it.
`;
}
