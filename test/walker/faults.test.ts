/**
 * Every fault of the misbehaving server, through `pagewalk dump --all` with
 * the canary credential set: the documented outcome, no crash, nothing
 * already written lost, the canary in no output byte and at no other origin.
 */
import {describe, expect, test} from 'vitest';
import {apiOf, faultNames, type FaultName} from '../support/faulty-server.js';
import {useFaultyServer} from '../support/use-faulty-server.js';
import {canary, dumpInProcess, type Result} from '../support/run-dump.js';
import {leakedRun} from '../support/secret-runs.js';
import {patience} from '../support/patience.js';

const faultyServer = useFaultyServer();

async function dumpFault(fault: FaultName, extra: string[] = [], options: {stderrTty?: boolean} = {}): Promise<Result> {
	const api = apiOf(fault);
	// A single-value flag may be given once, so `extra` replaces the default timeout: a guard
	// against a hang, long enough for a good page on a loaded machine. The faults that test the
	// deadline itself give a short one.
	const timeout = extra.includes('--timeout') ? [] : ['--timeout', String(patience / 1000)];
	const argv = [
		api === 'account' ? 'accounts' : 'checkouts',
		api === 'account' ? `--base-url=${faultyServer().base(fault)}` : `--commerce-url=${faultyServer().base(fault)}`,
		'--all', ...timeout, '--retries', '1', '--max-wait', '2',
		// The faulty pages break contract rules on purpose; what these tests read is how the walk ends (findings: dump-findings.test.ts).
		'--quiet',
		// One chain: the faults count the requests they answer, and these tests count the requests sent
		// (the walk from both ends against faults: test/walker/both-ends.test.ts).
		'--one-chain',
		...extra,
	];
	return dumpInProcess(argv, undefined, options);
}

function lines(stdout: string): unknown[] {
	return stdout.split('\n').filter(line => line !== '').map(line => JSON.parse(line) as unknown);
}

/** What must hold for every fault, whatever its outcome. */
function expectSafe(result: Result, tty = false): void {
	expect([0, 1]).toContain(result.code);
	expect(result.stdout).not.toContain(canary);
	expect(result.stderr).not.toContain(canary);
	// Nor any piece of it long enough to matter.
	expect(leakedRun(result.stdout + result.stderr, [canary])).toBeUndefined();
	// Nothing raw from a server reaches the terminal: no ESC, no C1, no bidi override.
	// eslint-disable-next-line no-control-regex -- these control characters are what must not reach a terminal
	expect(result.stderr).not.toMatch(/[\u001B\u0007\u009B\u202E]/);
	expect(result.stderr).not.toMatch(/\n\s+at /); // never a stack trace
	if (!tty) {
		for (const line of result.stderr.split('\n').filter(Boolean)) {
			expect(line.startsWith('pagewalk: ')).toBe(true);
		}
	}

	expect(faultyServer().received.filter(request => request.server === 'evil')).toEqual([]);
	for (const request of faultyServer().received) {
		if (request.authorization !== undefined) {
			expect(request.authorization).toBe(`Bearer ${canary}`);
		}

		if (request.apiKey !== undefined) {
			expect(request.apiKey).toBe(canary);
		}
	}
}

type Expectation = {code: 0 | 1; stderr?: RegExp; objects: number; extra?: string[]};

/** A short --timeout, for the faults that test the deadline (a good first page still comes well within it). */
const deadline = ['--timeout', '0.5'];

describe('faulty server', () => {
	const expectations: Partial<Record<FaultName, Expectation>> = {
		'non-json': {code: 1, stderr: /not a valid list page: the body is not valid JSON \(body starts "hello, this is not JSON"\)/, objects: 0},
		'html-502': {code: 1, stderr: /failed \(502, body "<html><head><title>502 Bad Gateway.*\) after 1 retry; try again later/, objects: 0},
		'html-login': {code: 1, stderr: /answered 200 with an HTML page titled "Sign in – Example SSO", not the account API's JSON: most likely a sign-in page or a proxy in between; open http:\/\/127\.0\.0\.1:\d+ in a web browser and sign in if it asks, check that the base URL points at the API itself, then run again\.\npagewalk: no objects were written\.\n$/, objects: 0},
		'html-401': {code: 1, stderr: /answered 401 with an HTML page titled "Proxy login", not the account API's JSON: most likely a sign-in page or a proxy in between;[^]*no objects were written\.\n$/, objects: 0},
		'headers-too-large': {code: 1, stderr: /The account API refused the request's headers as too large \(431 request_header_fields_too_large: Request Header Fields Too Large\); check --header values and the credential's size\.\npagewalk: no objects were written\.\n$/, objects: 0},
		truncated: {code: 1, stderr: /the body is truncated JSON/, objects: 0},
		'no-pagination': {code: 1, stderr: /the field pagination is missing/, objects: 0},
		'bad-pagination': {code: 1, stderr: /pagination\.limit is a string "25", not a whole number/, objects: 0},
		'data-not-array': {code: 1, stderr: /data is an object, not an array/, objects: 0},
		'no-ids': {code: 1, stderr: /data\[1\]\.id is missing/, objects: 0},
		'foreign-next': {code: 1, stderr: /The page URL points to http:\/\/127\.0\.0\.1:\d+, not the configured http:\/\/127\.0\.0\.1:\d+; pagewalk stopped and sent nothing there\./, objects: 3},
		'userinfo-next': {code: 1, stderr: /user name or password in the URL \(userinfo\)/, objects: 3},
		'protocol-relative-next': {code: 1, stderr: /points to http:\/\/127\.0\.0\.1:\d+, not the configured/, objects: 3},
		'backslash-next': {code: 1, stderr: /points to http:\/\/127\.0\.0\.1:\d+, not the configured/, objects: 3},
		redirect: {code: 1, stderr: /answered 302 with a redirect to http:\/\/127\.0\.0\.1:\d+\/v2\/accounts; pagewalk does not follow redirects/, objects: 0},
		// Page 4 (cursor p3) repeats page 1's objects: caught before they are written again.
		cycle: {code: 0, stderr: /stopped: the next_uri of page 3 leads back: page 4 holds the same objects as page 1, so following it would loop\./, objects: 9},
		'empty-same': {code: 0, stderr: /page 1 was empty and its next_uri repeats its own request/, objects: 0},
		'empty-fresh': {code: 0, stderr: /stopped after 20 pages \(--max-pages\); more pages follow\./, objects: 0, extra: ['--max-pages', '20']},
		// A generous --timeout: the cap, not the deadline, must end this one, however busy the machine.
		oversized: {code: 1, stderr: /larger than the 32 MiB limit; ask for smaller pages with --limit/, objects: 0, extra: ['--timeout', '60']},
		'no-headers': {code: 1, stderr: /did not answer within 0\.5 s \(--timeout\); check the URL/, objects: 0, extra: deadline},
		'stall-body': {code: 1, stderr: /did not send the whole page within 0\.5 s \(--timeout\)/, objects: 0, extra: deadline},
		'reset-always': {code: 1, stderr: /connection to http:\/\/127\.0\.0\.1:\d+ was reset 2 times|closed the connection before the whole body/, objects: 0},
		'reset-once': {code: 0, objects: 3},
		'rate-limit-silent': {code: 1, stderr: /rate limiting \(429 rate_limit_exceeded: Too many requests\) after 1 retry; it did not say for how long: wait a minute and retry\./, objects: 0},
		'rate-limit-long': {code: 1, stderr: /rate limiting \(429 rate_limit_exceeded: Too many requests\); wait 3600 s and retry/, objects: 0},
		'unavailable-once': {code: 0, objects: 6},
		'gateway-timeout-once': {code: 0, objects: 3},
		'unauthorized-account': {code: 1, stderr: /account API rejected the credential \(401 invalid_token: The access token is invalid\); set COINBASE_ACCESS_TOKEN to a valid access token\./, objects: 0},
		'unauthorized-commerce': {code: 1, stderr: /commerce API rejected the credential \(401 authentication_error: No such API Key\.\); set COINBASE_COMMERCE_API_KEY to a valid API key\./, objects: 0},
		'forbidden-account': {code: 1, stderr: /account API refused access \(403 invalid_scope: Invalid scope\); use a credential in COINBASE_ACCESS_TOKEN/, objects: 0},
		'forbidden-commerce': {code: 1, stderr: /commerce API refused access \(403 authorization_error: Forbidden\); use a credential in COINBASE_COMMERCE_API_KEY/, objects: 0},
		'not-found': {code: 1, stderr: /has no such list \(404 not_found: Not found\)/, objects: 0},
		'bad-request': {code: 1, stderr: /rejected the request \(400 validation_error: limit must be at most 100\)/, objects: 0},
		escapes: {code: 0, objects: 1},
		'escape-error': {code: 1, stderr: /400 invalid_request\\x1b\[31m: bad \\x1b\]8;;http:\/\/evil\\x07link/, objects: 0},
		'escape-id-fails': {code: 1, stderr: /resume, run the same command with --starting-after='x\\x1b\[2J'\\''\$\(rm\)'\./, objects: 1},
		'fail-midway': {code: 1, stderr: /6 objects were written before the failure; to resume, run the same command with --starting-after=obj-2-2\./, objects: 6},
		warnings: {code: 0, stderr: /the server warns: missing_version: Please supply API version \(YYYY-MM-DD\) as CB-VERSION header \\x1b\[5m/, objects: 2},
		quirks: {code: 0, objects: 4},
		exact: {code: 0, objects: 3},
		'hang-after-first': {code: 1, stderr: /did not answer within 0\.5 s[^]*3 objects were written before the failure; to resume, run the same command with --starting-after=obj-1-2\./, objects: 3, extra: deadline},
		// Whole-page deadline: a good first page, then a second that never completes.
		'trickle-body': {code: 1, stderr: /did not send the whole page within 0\.5 s \(--timeout\)[^]*3 objects were written before the failure/, objects: 3, extra: deadline},
		'endless-1xx': {code: 1, stderr: /did not answer within 0\.5 s \(--timeout\)[^]*3 objects were written before the failure/, objects: 3, extra: deadline},
		'dribble-headers': {code: 1, stderr: /did not answer within 0\.5 s \(--timeout\)[^]*3 objects were written before the failure/, objects: 3, extra: deadline},
		// The credential echoed back is redacted, also where an excerpt cuts it.
		'echo-in-error': {code: 1, stderr: /rejected the credential \(401 invalid_token: The access token \[redacted\] \(\[redacted\]\) is invalid\)/, objects: 0},
		'echo-in-excerpt': {code: 1, stderr: /failed \(500, body "x{70} key=\[reda…"\); try again later/, objects: 0},
		'echo-in-body': {code: 1, stderr: /the body is not valid JSON \(body starts "not json y{60}\[redacted/, objects: 0},
		'echo-in-warning': {code: 0, stderr: /the server warns: key_in_use: You used \[redacted\]/, objects: 2},
		'echo-in-pagination': {code: 1, stderr: /pagination\.limit is a string "z{30}\[redacted/, objects: 0},
		// Pieces of it (cut at either end, JSON-escaped, percent-encoded): no run of 8 of its characters survives (expectSafe).
		'echo-runs': {code: 1, stderr: /the server warns: echo_0: You sent \[redacted\][^]*rejected the credential \(401 invalid_token: Not valid: \[redacted\] \| \[redacted\]/, objects: 3},
		'echo-runs-commerce': {code: 1, stderr: /the server warns: echo_0: You sent \[redacted\][^]*rejected the credential \(401 authentication_error: Not valid: \[redacted\] \| \[redacted\]/, objects: 3},
		'echo-in-link': {code: 1, stderr: /The page URL carries t in its query, which looks like a credential; pagewalk stopped and sent nothing/, objects: 3},
		'credential-param-next': {code: 1, stderr: /The page URL carries API_Key in its query, which looks like a credential/, objects: 3},
		'query-only-next': {code: 0, objects: 9},
		'path-relative-next': {code: 0, objects: 9},
		'loop-back': {code: 0, stderr: /stopped: the next_uri of page 2 leads back: page 3 holds the same objects as page 1, so following it would loop\./, objects: 6},
		'repeat-previous': {code: 0, stderr: /stopped: the next_uri of page 1 leads back: every object of page 2 was already on page 1, so following it would loop\./, objects: 3},
		'awkward-ids': {code: 1, stderr: /5 objects were written before the failure; to resume, run the same command with --starting-after='--all '\\''q'\\'' "\$HOME" x'\./, objects: 5},
		bom: {code: 0, objects: 3},
		'invalid-utf8': {code: 1, stderr: /sent a page that is not valid UTF-8 \(the first bad byte, 0xe9, is at offset 19 of the body\)/, objects: 0},
		gzip: {code: 0, objects: 3},
		deflate: {code: 0, objects: 3},
		'gzip-bomb': {code: 1, stderr: /The gzip response from http:\/\/127\.0\.0\.1:\d+ decodes to more than the 32 MiB limit/, objects: 0, extra: ['--timeout', '60']},
		'unknown-encoding': {code: 1, stderr: /sent the page with Content-Encoding "zstd", which pagewalk cannot decode/, objects: 0},
		'no-content': {code: 1, stderr: /answered 204 No Content instead of a page/, objects: 0},
		'not-modified': {code: 1, stderr: /answered 304 Not Modified instead of a page/, objects: 0},
		'json-as-text': {code: 0, objects: 3},
		'truncated-chunked': {code: 1, stderr: /closed the connection before the whole body arrived|connection to http:\/\/127\.0\.0\.1:\d+ was reset 2 times before the page was complete/, objects: 0},
		'hostile-strings': {code: 0, objects: 3},
		// An attacker's shapes.
		'duplicate-data': {code: 0, objects: 3},
		'data-huge-string': {code: 1, stderr: /data is a string, not an array/, objects: 0, extra: ['--timeout', '60']},
		'whitespace-body': {code: 1, stderr: /the body is 32,505,856 characters of whitespace and nothing else, not JSON/, objects: 0, extra: ['--timeout', '60']},
		'odd-numbers': {code: 0, objects: 1},
		'bytes-ascii': {code: 0, objects: 4},
		'bytes-utf8': {code: 0, objects: 7},
		'hostile-pagination': {code: 1, stderr: /pagination\.order is a string "desch\\u001b\[2J\\u\{202e\}evil/, objects: 0},
		'hostile-next': {code: 0, stderr: /stopped: the next_uri of page 1 leads back/, objects: 3},
		'many-warnings': {code: 0, stderr: /the server warns: warning 19\npagewalk: at least 80 more warnings from the server were not shown\.\n$/, objects: 1, extra: ['--timeout', '60']},
		'long-header': {code: 1, stderr: /sent response headers larger than pagewalk reads \(16 KiB\); check the server or a proxy in between\./, objects: 0},
		'retry-after-combo': {code: 1, stderr: /The account API failed \(503 unavailable: later\) after 1 retry; try again later\./, objects: 0},
		// Size and shape (test/dump/size-shape.test.ts checks every format): generous deadlines, as for oversized.
		deep: {code: 0, objects: 4, extra: ['--timeout', '60']},
		'huge-cell': {code: 0, objects: 3, extra: ['--timeout', '60']},
		'many-objects': {code: 0, objects: 300_000, extra: ['--timeout', '60']},
		wide: {code: 0, objects: 2, extra: ['--timeout', '60']},
		'good-account': {code: 0, objects: 12},
		'good-commerce': {code: 0, objects: 12},
		// The list faults of the walk from both ends break only the other order (or ignore it): one chain in desc gets the list.
		list: {code: 0, objects: 200},
		'list-commerce': {code: 0, objects: 200},
		'asc-lacks-one': {code: 0, objects: 200},
		'asc-lacks-one-commerce': {code: 0, objects: 200},
		'asc-replaces-one': {code: 0, objects: 200},
		'asc-replaces-one-commerce': {code: 0, objects: 200},
		'cursor-varies': {code: 0, objects: 200},
		'cursor-varies-commerce': {code: 0, objects: 200},
		'ignores-order': {code: 0, objects: 200},
		// Its accounts list is a clean list; the failing lists are each account's (test/dump/every-account.test.ts).
		'account-lists': {code: 0, objects: 200},
		// A pagination field misreported: a contract finding each (test/contract/rules.test.ts), never a failed walk.
		'cursor-not-echoed': {code: 0, objects: 200},
		'range-reversed': {code: 0, objects: 200},
		'total-moves': {code: 0, objects: 200},
	};

	test('covers every fault the server has, at least 20', () => {
		const covered = [...Object.keys(expectations), 'rate-limit'];
		expect(covered.sort()).toEqual([...faultNames].sort());
		expect(faultNames.length).toBeGreaterThanOrEqual(20);
	});

	for (const [fault, expected] of Object.entries(expectations) as Array<[FaultName, Expectation]>) {
		test(`${fault}: exit ${expected.code}, ${expected.objects} objects kept`, async () => {
			const result = await dumpFault(fault, expected.extra);
			expectSafe(result);
			expect(result.code, result.stderr).toBe(expected.code);
			if (expected.stderr) {
				expect(result.stderr).toMatch(expected.stderr);
			}

			expect(lines(result.stdout)).toHaveLength(expected.objects);
			if (expected.code === 1 && expected.objects === 0) {
				// Retry advice only where asking again may help: never after a refusal only a fix can change.
				expect(result.stderr).toMatch(/no objects were written(; run the same command again to retry)?\.\n$/);
				expect(/ 40[134] /.test(result.stderr) && /run the same command again/.test(result.stderr)).toBe(false);
			}
		});
	}

	test('429 with Retry-After: waits the time the server asked, shows it, then goes on', async () => {
		const started = Date.now();
		const result = await dumpFault('rate-limit', [], {stderrTty: true});
		// The progress line redraws with CR and erase-line: our own escapes, not the server's.
		expectSafe({...result, stderr: result.stderr.replaceAll('\r\u001B[2K', '')}, true);
		expect(result.code).toBe(0);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(result.stderr).toContain('waiting 1.0 s before retry 1 (429 rate_limit_exceeded)');
		expect(lines(result.stdout)).toHaveLength(3);
	});

	test('terminal escapes in objects: NDJSON keeps the exact values, escaped, so a terminal is safe', async () => {
		const result = await dumpFault('escapes');
		// eslint-disable-next-line no-control-regex -- these control characters are what must not reach a terminal
		expect(result.stdout).not.toMatch(/[\u001B\u0007\u009B\u202E]/);
		expect(lines(result.stdout)).toEqual([{id: 'esc-1', name: '\u001B[2Jwiped\u0007', note: '\u001B]52;c;cHduZWQ=\u0007', bidi: 'abc\u202Edcba', c1: '\u009B31mred'}]);
	});

	test('a failure midway in --format json still leaves one valid array of what was read', async () => {
		const result = await dumpFault('fail-midway', ['--format', 'json']);
		expect(result.code).toBe(1);
		const array = JSON.parse(result.stdout) as Array<{id: string}>;
		expect(array.map(object => object.id)).toEqual(['obj-1-0', 'obj-1-1', 'obj-1-2', 'obj-2-0', 'obj-2-1', 'obj-2-2']);
	});

	test('the quirks page: `?&` and a repeated parameter are tidied, a short page is followed', async () => {
		await dumpFault('quirks');
		const paths = faultyServer().received.map(request => request.path);
		expect(paths).toEqual(['/f/quirks/v2/accounts', '/f/quirks/v2/accounts?limit=3&limit=3&starting_after=obj-1-0']);
	});

	test('nothing listening: connection refused, one sentence, no retries', async () => {
		const result = await dumpInProcess(['accounts', '--base-url', 'http://127.0.0.1:1', '--timeout', '0.5']);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe('pagewalk: Could not connect to http://127.0.0.1:1 (connection refused); check --base-url / --commerce-url or that the server runs.\npagewalk: no objects were written; run the same command again to retry.\n');
	});

	test('a foreign link is refused before anything is sent: one request in all, to the configured origin', async () => {
		for (const fault of ['foreign-next', 'protocol-relative-next', 'backslash-next', 'userinfo-next', 'redirect'] as const) {
			faultyServer().reset();
			// eslint-disable-next-line no-await-in-loop -- faultyServer().received is reset and read for each fault in turn
			await dumpFault(fault);
			expect(faultyServer().received).toHaveLength(1);
			expect(faultyServer().received[0]!.server).toBe('faulty');
		}
	});
});
