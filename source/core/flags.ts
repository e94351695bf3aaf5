/**
 * The flag declarations every command that walks a list shares (dump, audit,
 * the browser), and their help text. Values are checked in options.ts.
 */

export const walkFlags = {
	api: {type: 'string'},
	baseUrl: {type: 'string'},
	commerceUrl: {type: 'string'},
	apiVersion: {type: 'string'},
	header: {type: 'string', isMultiple: true},
	limit: {type: 'string'},
	order: {type: 'string'},
	startingAfter: {type: 'string'},
	endingBefore: {type: 'string'},
	timeout: {type: 'string'},
	retries: {type: 'string'},
	maxWait: {type: 'string'},
	maxPages: {type: 'string'},
	maxItems: {type: 'string'},
	demo: {type: 'boolean', default: false},
	demoCredential: {type: 'string'},
	scenario: {type: 'string'},
} as const;

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
	  --scenario NAME          sandbox preset with --demo: restricted (default), churn, or one
	                           that breaks a rule on page 2: duplicate, wrong-limit, unordered,
	                           yielded-mismatch, missing-param (see pagewalk serve --help)

	Limits
	  --timeout SECONDS        connect, headers and body timeout, default 30
	  --retries N              retries on 429, 502, 503, 504 and resets, default 3
	  --max-wait SECONDS       longest wait honoured for Retry-After, default 60
	  --max-pages N            stop after N pages (reported, never silent)
	  --max-items N            stop after N objects (reported, never silent)

	Credentials (environment only, never flags)
	  COINBASE_ACCESS_TOKEN       account API, sent as Authorization: Bearer …
	  COINBASE_COMMERCE_API_KEY   commerce API, sent as X-CC-Api-Key
	  They are sent only to the configured origin, never in a URL, never printed.
`;
