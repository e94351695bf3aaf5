import process from 'node:process';
import meow from 'meow';
import {resolveConfig, walkFlags, walkFlagsHelp} from '../core/options.js';

const help = `
	Usage
	  $ pagewalk [endpoint] [options]   browse a list endpoint page by page
	  $ pagewalk dump [endpoint]        write pages as JSON or NDJSON
	  $ pagewalk audit [endpoint]       walk a list and check the contract
	  $ pagewalk serve                  run the local sandbox of both APIs

	In a terminal, opens the browser (press ? inside for the keys). When stdout
	is not a terminal, writes the first page as JSON instead, like 'dump'.
${walkFlagsHelp}
	Examples
	  $ pagewalk --demo
	  $ pagewalk checkouts --limit 50 --order asc
`;

/**
 * `pagewalk [endpoint]`: the interactive browser on a terminal. Not a
 * terminal: the bare dump, without ever loading React or Ink.
 */
export async function run(argv: string[]): Promise<number> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		return (await import('./dump.js')).run(argv, {bare: true});
	}

	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		flags: walkFlags,
		allowUnknownFlags: false,
	});
	const config = await resolveConfig({input: cli.input, flags: cli.flags});
	try {
		const [{createClient}, {runBrowser}] = await Promise.all([import('../core/http-client.js'), import('../components/run-browser.js')]);
		const client = createClient(config);
		try {
			await runBrowser({
				loadPage: async (url, options) => client.fetchPage(url, options),
				startUrl: client.firstUrl,
				api: config.api,
				endpoint: config.endpoint,
				// What the server does when the user gave neither (contract 4.2).
				settings: {order: config.query.order ?? 'desc', limit: config.query.limit ?? 25},
			});
		} finally {
			await client.close();
		}
	} finally {
		await config.close();
	}

	return 0;
}
