/**
 * `pagewalk token`: prints what authenticates one request with the
 * credential in use, for the curl copy's `$JWT` and for scripts, as
 * `gh auth token` does. A CDP key gives a JWT signed for that one request
 * (method, host and path, as the account API checks it); a token or API key
 * is printed as it is. The secret goes to stdout only: never to stderr, a
 * log or an error message.
 */
import type {CommandIo} from '../process/command-io.js';
import {commands} from '../../config/flags.js';
import {jwtLifetimeSeconds, requestUri, signRequestJwt} from '../../config/jwt-sign.js';
import {firstPageUrl} from '../../config/options.js';
import {parseCommandLine} from '../../config/parse-flags.js';
import {redact} from '../../text/secret.js';
import {openConfig} from '../setup/demo.js';
import {commandOutput} from '../../output/sink.js';

const help = `
	Usage
	  $ pagewalk token [endpoint] [options]

	Prints what authenticates a GET of the endpoint (every list is a GET) with the credential in use:
	for a CDP key, a JWT signed for that one request (valid ${jwtLifetimeSeconds / 60} minutes, one
	request: sign a new one for the next); for an access token or a commerce API
	key, the token itself. It goes to stdout and nowhere else.

	Options
	  --base-url, --commerce-url, --api, --profile, --key-file
	                           as for pagewalk dump: which API, and which credential

	Examples
	  $ JWT=$(pagewalk token accounts --key-file cdp-key.json)
	  $ curl -H "Authorization: Bearer $JWT" https://api.coinbase.com/v2/accounts
	  $ pagewalk token /v2/accounts/ID/transactions --profile work
`;

export async function runToken(argv: string[], io: CommandIo): Promise<number> {
	const out = commandOutput(io.stdout, io.stderr);
	const parsed = await parseCommandLine(argv, commands.token, help, out);
	if (parsed === undefined) {
		return 0;
	}

	const config = await openConfig({input: parsed.input, flags: parsed.flags, command: 'token', env: io.env, warn: line => io.stderr.write(`pagewalk: ${line}\n`)});
	try {
		const {credential} = config;
		const url = firstPageUrl(config);
		const secret = credential.kind === 'cdp-key' ? signRequestJwt(credential.key, {method: 'GET', url}) : credential.secret.reveal();
		await out.write(`${secret}\n`);
		if (io.stdout.isTTY && credential.kind === 'cdp-key') {
			io.stderr.write(`pagewalk: ${redact(`a JWT for "${requestUri('GET', url)}" with the CDP key from ${credential.from}, valid ${jwtLifetimeSeconds} s, for one request.`)}\n`);
		}

		return 0;
	} finally {
		await config.close();
	}
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
	return runToken(argv, io);
}
