import process from 'node:process';
import {UsageError} from '../../text/errors.js';
import {commands, type serveFlags} from '../../config/flags.js';
import {parseCommandLine, quoteValue} from '../../config/parse-flags.js';
import {commandLine, flag} from '../../config/hints.js';
import {commandOutput} from '../../output/sink.js';
import {networkInterfaces} from 'node:os';
import {makeStateFolder} from '../setup/state-folder.js';
import type {CommandIo} from '../process/command-io.js';
import {latencyUsage, sandboxFailure} from '../setup/demo.js';
import {formatOrigin, wildcardHosts} from '../../sandbox/routes/server.js';
import {defaults} from '../../config/config-defaults.js';
import {defaultLongTail, defaultRecords, defaultSeed, maximumTransactions, isScenario, parseLatency, parseRateLimit, scenarioNames, scenarioSummaries, startSandbox, type Sandbox, type SandboxSettings} from '../../sandbox/index.js';

const help = `
	Usage
	  $ pagewalk serve [options]

	Runs a local sandbox of both list APIs (account and commerce) until Ctrl-C.

	Options
	  --port N           account API port (default 4010; 0 picks a free one)
	  --commerce-port N  commerce API port (default: --port + 1, or free with --port 0)
	  --host H           interface to bind (default 127.0.0.1)
	  --records N        objects per list, up to 1000000 (default ${defaultRecords})
	  --long-tail N      the most transactions one account holds: about one account in
	                     thirty holds from a fifth of N to N, up to ${maximumTransactions} (default ${defaultLongTail})
	  --transactions N   every account holds exactly N transactions, a flat shape for
	                     benchmarks (default: none to a few pages each, and the long tail)
	  --seed S           seed of the generated data and credentials (default ${defaultSeed})
	  --churn N          insert and remove about N objects per second (default 0)
	  --scenario NAME    a preset (default restricted):
${scenarioNames.map(name => `	                       ${name.padEnd(17)}${scenarioSummaries[name]}`).join('\n')}
	  --rate-limit N/h   per-credential limit of the account API (also N/m, N/s; default off):
	                     over it, 429 with Retry-After and the API's error body; every answer
	                     says the budget left (RateLimit-Limit, -Remaining, -Reset: beyond the
	                     real API, which documents none; see docs/rate-limits.md)
	  --no-budget-headers
	                     with --rate-limit: send only 429 and Retry-After, as the real API
	  --latency MS[±J][/P]
	                     hold each answer MS ms before its first byte (± J ms of jitter), plus
	                     P ms (default 0.2) per object the page asks for, as a real link would
	  --json             print the URLs, credentials, CDP key files and settings as one JSON line
	  --verbose          log one line per request to stderr

	Examples
	  $ pagewalk serve
	  $ pagewalk serve --json --port 0
	  $ pagewalk serve --scenario duplicate   # then: pagewalk audit --base-url …
	  $ pagewalk serve --records 1000 --transactions 1000 --latency 50
`;

const defaultPort = 4010;
const maximumRecords = 1_000_000;

function wholeNumber(name: keyof typeof serveFlags, value: string | undefined, maximum: number): number | undefined {
	if (value === undefined) {
		return undefined;
	}

	if (!/^\d+$/.test(value) || Number(value) > maximum) {
		throw new UsageError(`${flag(['serve'], name)} must be a whole number from 0 to ${maximum}, not ${quoteValue(value)}.`);
	}

	return Number(value);
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
	const out = commandOutput(io.stdout, io.stderr);
	const parsed = await parseCommandLine(argv, commands.serve, help, out);
	if (parsed === undefined) {
		return 0;
	}

	const {flags} = parsed;
	const host = flags.host ?? '127.0.0.1';
	const port = wholeNumber('port', flags.port, 65_535) ?? defaultPort;
	const commercePort = wholeNumber('commercePort', flags.commercePort, 65_535);
	if (commercePort === undefined && port === 65_535) {
		throw new UsageError(`${flag(['serve'], 'port', '65535')} leaves no port for the commerce API; give ${flag(['serve'], 'commercePort')} too.`);
	}

	const records = wholeNumber('records', flags.records, maximumRecords);
	const longTail = wholeNumber('longTail', flags.longTail, maximumTransactions);
	const transactions = wholeNumber('transactions', flags.transactions, maximumTransactions);
	if (longTail !== undefined && transactions !== undefined) {
		throw new UsageError(`${flag(['serve'], 'longTail')} shapes the varied transactions that ${flag(['serve'], 'transactions')} replaces; give one of them.`);
	}

	const seed = wholeNumber('seed', flags.seed, 4_294_967_295);
	const churn = wholeNumber('churn', flags.churn, 100_000);
	if (host.trim() === '') {
		throw new UsageError('--host must name an interface, such as 127.0.0.1.');
	}

	let rateLimit;
	if (flags.rateLimit !== undefined) {
		const parsedLimit = parseRateLimit(flags.rateLimit);
		if (!parsedLimit.ok) {
			// Our own words rather than the sandbox's: they quote the value made inert.
			throw new UsageError(`--rate-limit must be a number of requests per hour, minute or second, such as 10000/h or 5/s, not ${quoteValue(flags.rateLimit)}.`);
		}

		rateLimit = {...parsedLimit.value, headers: flags.noBudgetHeaders !== true};
	}

	if (flags.noBudgetHeaders === true && rateLimit === undefined) {
		throw new UsageError(`${flag(['serve'], 'noBudgetHeaders')} applies with ${flag(['serve'], 'rateLimit')}, which sets the budget.`);
	}

	let latency;
	if (flags.latency !== undefined) {
		const parsedLatency = parseLatency(flags.latency);
		if (!parsedLatency.ok) {
			throw new UsageError(latencyUsage(flags.latency));
		}

		latency = parsedLatency.value;
	}

	const scenario = flags.scenario ?? 'restricted';
	if (!isScenario(scenario)) {
		throw new UsageError(`--scenario must be one of ${scenarioNames.join(', ')}, not ${quoteValue(scenario)}.`);
	}

	const resolvedSeed = seed ?? defaultSeed;
	const keyDirectory = sandboxKeyDirectory(resolvedSeed, io.env);
	const sandbox = await startSandbox({
		scenario,
		keyDirectory,
		host,
		port,
		...(commercePort === undefined ? {} : {commercePort}),
		...(records === undefined ? {} : {records}),
		...(longTail === undefined ? {} : {longTail}),
		...(transactions === undefined ? {} : {transactionsPerAccount: transactions}),
		seed: resolvedSeed,
		...(churn === undefined ? {} : {churn}),
		...(rateLimit === undefined ? {} : {rateLimit}),
		...(latency === undefined ? {} : {latency}),
		...(flags.verbose ? {verbose: (line: string) => io.stderr.write(`${line}\n`)} : {}),
	}).catch(sandboxFailure);
	// The handlers come before the first line: a script that reads it and stops the server at once must find them there.
	const stopped = new Promise<void>((resolve) => {
		const stop = () => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			resolve();
		};

		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});
	if (!loopbackHost(host)) {
		io.stderr.write(`pagewalk: the sandbox listens on ${host}, so other machines can reach it, and its credentials and keys are public (printed here, derived from ${flag(['serve'], 'seed')}); bind 127.0.0.1 (the default) unless that is what you want.\n`);
	}

	try {
		// Settings that could not be written (a full disk) stop the server: a script reading them would wait for nothing.
		await out.write(flags.json ? `${JSON.stringify({accountUrl: sandbox.accountUrl, commerceUrl: sandbox.commerceUrl, credentials: sandbox.credentials, keys: sandbox.keys, settings: sandbox.settings})}\n` : banner(sandbox, resolvedSeed, host));
		await stopped;
	} finally {
		await sandbox.close();
	}

	return 0;
}

/**
 * Where serve keeps the key files of a seed's keys, made if missing: the
 * same keys and paths on every run with that seed. A folder that cannot be
 * made, or a link in place of sandbox-keys or seed-N, is one sentence (exit 2).
 */
export function sandboxKeyDirectory(seed: number, env: Readonly<Record<string, string | undefined>> = process.env): string {
	return makeStateFolder(env, ['sandbox-keys', `seed-${seed}`]);
}

const formNames = {
	sec1: 'SEC1 PEM, as the key portal downloads it',
	pkcs8: 'PKCS#8 PEM, the same key as the Node CDP SDK (@coinbase/cdp-sdk) reads it',
	base64: 'base64 Ed25519 (seed then public key), as the key portal downloads it',
} as const;

function keyLines(keys: Sandbox['keys']): string {
	return keys.map((key) => [
		`  ${key.viewer.padEnd(11)} ${key.algorithm.padEnd(6)} ${key.name}`,
		...key.files.map((file) => `              key file  ${file.path ?? '(not written)'}\n                        ${formNames[file.form]}`),
	].join('\n')).join('\n');
}

function loopbackHost(host: string): boolean {
	return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** For a server bound to every interface: this machine's other addresses, as URLs a client elsewhere can use. */
function otherUrls(host: string, url: string): string[] {
	if (!wildcardHosts.has(host)) {
		return [];
	}

	const {port} = new URL(url);
	return Object.values(networkInterfaces()).flat().filter(entry => entry !== undefined && !entry.internal && (entry.family === 'IPv4' || host.includes(':'))).map(entry => formatOrigin(entry!.address, Number(port)));
}

const windows: Record<number, string> = {1000: 'second', 60_000: 'minute', 3_600_000: 'hour'};

/** `80 ms ± 20 ms before each answer's first byte, + 0.2 ms per object asked for`, or how to turn it on. */
function latencyLine(latency: SandboxSettings['latency']): string {
	if (latency === null) {
		return `none: answers come at once (${flag(['serve'], 'latency', 'MS[±J][/P]')} holds them as a real link would)`;
	}

	const jitter = latency.jitterMs === 0 ? '' : ` ± ${latency.jitterMs} ms`;
	return `${latency.ms} ms${jitter} before each answer's first byte, + ${latency.perObjectMs} ms per object asked for`;
}

/** `100 requests a minute per credential on the account API, ...`, or how to turn it on. */
function rateLimitLine(limit: SandboxSettings['rateLimit']): string {
	if (limit === null) {
		return `off (${flag(['serve'], 'rateLimit', 'N/h')}, N/m or N/s sets one)`;
	}

	const window = windows[limit.perMs] ?? `${limit.perMs} ms`;
	const budget = limit.headers === false ? `only 429 and Retry-After, as the real API (${flag(['serve'], 'noBudgetHeaders')})` : 'every answer states the budget left (RateLimit-*)';
	return `${limit.count} ${limit.count === 1 ? 'request' : 'requests'} ${window === 'hour' ? 'an' : 'a'} ${window} per credential on the account API, then 429 with Retry-After; ${budget}`;
}

/** What the sandbox runs with, as it applies them: the flags confirmed, defaults named. */
function settingLines({scenario, records, longTail, transactionsPerAccount, seed, churnPerSecond, latency, rateLimit}: SandboxSettings): string {
	return [
		`  scenario    ${scenario}: ${scenarioSummaries[scenario]}`,
		`  records     ${records} objects per list, seed ${seed}, ${churnPerSecond === 0 ? 'no churn' : `churn: about ${churnPerSecond} inserts and removals a second`}`,
		`  long tail   ${transactionsPerAccount === null ? `about one account in thirty holds ${Math.floor(longTail / 5)} to ${longTail} transactions (${flag(['serve'], 'longTail', 'N')} sets the most)` : `none: every account holds ${transactionsPerAccount} transactions (${flag(['serve'], 'transactions')})`}`,
		`  latency     ${latencyLine(latency)}`,
		`  rate limit  ${rateLimitLine(rateLimit)}`,
	].join('\n');
}

export function banner({accountUrl, commerceUrl, credentials, keys, settings}: Sandbox, seed: number, host: string): string {
	const elsewhere = otherUrls(host, accountUrl);
	const reach = elsewhere.length === 0 ? '' : `  from other machines: account API ${elsewhere.join(', ')}; commerce API ${otherUrls(host, commerceUrl).join(', ')}\n`;
	return `pagewalk sandbox is serving both list APIs.

  account API   ${accountUrl}   lists: /v2/accounts, /v2/accounts/:id/transactions, /v2/accounts/:id/addresses
  commerce API  ${commerceUrl}   lists: /checkouts, /charges
${reach}
${settingLines(settings)}

Credentials (the restricted ones see part of each list, so pages come back short):
  account   full        ${credentials.account.full}
  account   restricted  ${credentials.account.restricted}
  commerce  full        ${credentials.commerce.full}
  commerce  restricted  ${credentials.commerce.restricted}

CDP keys of the account API, derived from ${flag(['serve'], 'seed', String(seed))}: the same keys and files on every run with this seed
(sign a fresh JWT for every request; \`${commandLine('serve-token', 'token', {keyFile: keys[0]?.path ?? 'FILE', baseUrl: accountUrl})}\` prints one):
${keyLines(keys)}

Try:
  curl -H 'Authorization: Bearer ${credentials.account.full}' -H 'CB-VERSION: ${defaults.apiVersion}' '${accountUrl}/v2/accounts?limit=5'
  curl -H 'X-CC-Api-Key: ${credentials.commerce.full}' -H 'X-CC-Version: ${defaults.apiVersion}' '${commerceUrl}/checkouts?limit=5'

Ctrl-C stops it.
`;
}
