/**
 * Every command's flags, declared once: the parser (parse-flags.ts) reads
 * these tables and nothing else, in every command and mode (the piped bare
 * mode and serve included). The help texts live with their commands; the
 * walk flags' help is here because three commands share it. Values are
 * checked where they are used (options.ts for the walk flags).
 *
 * No defaults here: a flag left out is absent from the parsed values, and
 * the code that reads a value owns its default (and its help says it).
 */

/**
 * `dashValue`: a value may start with '-' (an id, a path), written `--flag=-value`, as the parser's hint says.
 * `shortFlag`: the one letter it is also typed as after one dash (`-o`); few flags have one.
 */
export type FlagSpec = {readonly type: 'string' | 'boolean'; readonly isMultiple?: boolean; readonly dashValue?: boolean; readonly shortFlag?: string};
export type FlagDeclarations = Readonly<Record<string, FlagSpec>>;

/** What the parser gives for a table: a switch is true, a repeatable flag a list, any other a string. */
export type FlagValues<D extends FlagDeclarations> = {
	-readonly [K in keyof D]?: D[K] extends {type: 'boolean'} ? boolean : D[K] extends {isMultiple: true} ? string[] : string;
};

/** A command as the parser sees it: its name in messages, its flags, and whether it takes an argument (the endpoint). */
export type CommandFlags<D extends FlagDeclarations = FlagDeclarations> = {
	readonly name: string;
	readonly flags: D;
	readonly takesArguments: boolean;
};

/** A flag's name as typed (`startingAfter` is `starting-after`): the parser reads, and hints and completion write, only this spelling. */
export function kebabName(name: string): string {
	return name.replaceAll(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}

/** Shared by the browser, dump and audit. */
export const walkFlags = {
	api: {type: 'string'},
	baseUrl: {type: 'string'},
	commerceUrl: {type: 'string'},
	apiVersion: {type: 'string'},
	header: {type: 'string', isMultiple: true},
	limit: {type: 'string'},
	order: {type: 'string'},
	startingAfter: {type: 'string', dashValue: true},
	endingBefore: {type: 'string', dashValue: true},
	timeout: {type: 'string'},
	retries: {type: 'string'},
	maxWait: {type: 'string'},
	maxPages: {type: 'string'},
	maxItems: {type: 'string'},
	demo: {type: 'boolean'},
	demoCredential: {type: 'string'},
	demoAuth: {type: 'string'},
	scenario: {type: 'string'},
	latency: {type: 'string'},
	profile: {type: 'string'},
	keyFile: {type: 'string', dashValue: true},
} as const;

/**
 * `pagewalk [endpoint]`: on a terminal the browser, on a pipe the first page
 * (bare mode), so --format is here too: both modes take the same flags.
 */
export const browseFlags = {
	...walkFlags,
	compareEnv: {type: 'string'},
	compareProfile: {type: 'string'},
	format: {type: 'string'},
	columns: {type: 'string'},
	// The wheel: mouse reporting is on unless this is given (browser/keys/mouse.ts says why).
	noMouse: {type: 'boolean'},
} as const;

export const dumpFlags = {
	...walkFlags,
	all: {type: 'boolean'},
	format: {type: 'string'},
	columns: {type: 'string'},
	// Spelled as the switch it is: the parser has no `--no-` negation, and a
	// switch is only ever true.
	noCsvGuard: {type: 'boolean'},
	quiet: {type: 'boolean'},
	failOnFindings: {type: 'boolean'},
	// A walk of a whole list goes from both ends at once unless this is given (http/both-ends.ts).
	oneChain: {type: 'boolean'},
	// ... and from both ends even from a server that answers faster than a second chain can help.
	bothEnds: {type: 'boolean'},
	// The file to write instead of stdout: what --resume continues (dump-lists.ts).
	output: {type: 'string', shortFlag: 'o'},
	resume: {type: 'boolean'},
	// Lists walked at once by transactions and addresses (every account's list).
	concurrency: {type: 'string'},
} as const;

export const auditFlags = {
	...walkFlags,
	json: {type: 'boolean'},
	bothOrders: {type: 'boolean'},
	compareEnv: {type: 'string'},
	compareProfile: {type: 'string'},
	oneChain: {type: 'boolean'},
	bothEnds: {type: 'boolean'},
	// Lists audited at once by transactions and addresses (every account's list).
	concurrency: {type: 'string'},
} as const;

/** `pagewalk profiles`: lists the config file's profiles, every secret left out. */
export const profilesFlags = {
	json: {type: 'boolean'},
} as const;

export const serveFlags = {
	port: {type: 'string'},
	commercePort: {type: 'string'},
	host: {type: 'string'},
	records: {type: 'string'},
	longTail: {type: 'string'},
	transactions: {type: 'string'},
	seed: {type: 'string'},
	churn: {type: 'string'},
	scenario: {type: 'string'},
	json: {type: 'boolean'},
	verbose: {type: 'boolean'},
	rateLimit: {type: 'string'},
	noBudgetHeaders: {type: 'boolean'},
	latency: {type: 'string'},
} as const;

/** `pagewalk token`: which API and which credential, as for a walk. */
export const tokenFlags = {
	api: walkFlags.api,
	baseUrl: walkFlags.baseUrl,
	commerceUrl: walkFlags.commerceUrl,
	profile: walkFlags.profile,
	keyFile: walkFlags.keyFile,
} as const;

/** `pagewalk completion bash|zsh|fish`; --profiles is what the scripts ask on Tab. */
export const completionFlags = {
	profiles: {type: 'boolean'},
} as const;

/** Every command, so an unknown flag can be told apart from one that belongs to another command. */
export const commands = {
	browse: {name: 'pagewalk', flags: browseFlags, takesArguments: true},
	dump: {name: 'pagewalk dump', flags: dumpFlags, takesArguments: true},
	audit: {name: 'pagewalk audit', flags: auditFlags, takesArguments: true},
	serve: {name: 'pagewalk serve', flags: serveFlags, takesArguments: false},
	profiles: {name: 'pagewalk profiles', flags: profilesFlags, takesArguments: false},
	token: {name: 'pagewalk token', flags: tokenFlags, takesArguments: true},
	completion: {name: 'pagewalk completion', flags: completionFlags, takesArguments: true},
} as const satisfies Record<string, CommandFlags>;

export const walkFlagsHelp = `
	Endpoint
	  accounts (default)       {base-url}/v2/accounts, the account API
	  checkouts, charges       {commerce-url}/checkouts, /charges, the commerce API
	  /v2/…                    any account API path; any other /path is the commerce API
	  https://…                a full URL on one of the two configured bases

	Query
	  --limit N                page size, 0 to 100 (server default 25)
	  --order asc|desc         list order (server default desc, newest first)
	  --starting-after ID      start after this object (resume a walk)
	  --ending-before ID       start before this object

	Target
	  --api account|commerce   which API the endpoint belongs to (overrides the guess)
	  --base-url URL           account API base, default https://api.coinbase.com
	                           (env PAGEWALK_BASE_URL); a path prefix is kept
	  --commerce-url URL       commerce API base, default https://api.commerce.coinbase.com
	                           (env PAGEWALK_COMMERCE_URL)
	  --api-version DATE       CB-VERSION and X-CC-Version header, default 2018-03-22
	  --header 'Name: value'   extra request header, repeatable
	  --demo                   walk the built-in sandbox on 127.0.0.1 (no network)
	  --demo-credential full|restricted
	                           sandbox credential, default restricted (short pages)
	  --demo-auth key|token    with --demo on the account API: sign with the sandbox's CDP key
	                           (ES256, default) or send its access token
	  --scenario NAME          sandbox preset with --demo: restricted (default), churn, or one
	                           that breaks a rule on page 2: duplicate, wrong-limit, unordered,
	                           yielded-mismatch, missing-param (see pagewalk serve --help)
	  --latency MS[±J]         with --demo: hold each sandbox answer MS ms (± J), as a real link
	                           would (see pagewalk serve --help)

	Limits
	  --timeout SECONDS        connect, headers and body timeout, default 30
	  --retries N              retries on 429, 502, 503, 504 and resets, default 3
	  --max-wait SECONDS       longest wait honoured for Retry-After, default 60
	  --max-pages N            stop after N pages (reported, never silent)
	  --max-items N            stop after N objects (reported, never silent); dump walks as many
	                           pages as it takes to write N, with or without --all

	Credentials (account API: one of these; two set in the environment is an error)
	  --key-file PATH             CDP API key file (JSON with name or id, and privateKey), signed
	                              as a fresh JWT for every request; beats the environment
	  COINBASE_API_KEY_FILE       the same, from the environment
	  COINBASE_API_KEY_NAME       a CDP key's name, with COINBASE_API_PRIVATE_KEY (its PEM or base64)
	  COINBASE_ACCESS_TOKEN       an OAuth access token, sent as Authorization: Bearer …
	Commerce API
	  COINBASE_COMMERCE_API_KEY   sent as X-CC-Api-Key
	  They are sent only to the configured origin, never in a URL, never printed.

	Profiles (pagewalk profiles lists them)
	  --profile NAME           use a profile of the config file (env PAGEWALK_PROFILE): its
	                           bases, API version and credential sources; flags still win,
	                           and the shell's PAGEWALK_*_URL and credential variables are
	                           then not read
`;
