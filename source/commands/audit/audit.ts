import {auditWalk} from '../../audit/audit-walk.js';
import type {WalkAudit} from '../../audit/audit-walk.js';
import {compareWalks} from '../../audit/compare.js';
import type {Comparison} from '../../audit/compare.js';
import {buildReport, renderJson, renderText} from '../../audit/report.js';
import {compareCredential, credentialLabel, withCredential} from '../setup/second-credential.js';
import type {SecondCredential} from '../setup/second-credential.js';
import {UsageError} from '../../text/errors.js';
import {createClient} from '../../http/http-client.js';
import {inert} from '../../text/inert.js';
import {defaults} from '../../config/options.js';
import type {WalkConfig} from '../../config/options.js';
import {commands, walkFlagsHelp} from '../../config/flags.js';
import {openConfig} from '../setup/demo.js';
import type {Credential} from '../../config/credentials.js';
import {compareProfileCredential, demoCompareProfile} from '../setup/profile-config.js';
import type {Order} from '../../contract/types.js';
import {auditPages, auditsBothEnds, defaultMaxPages} from './audit-pages.js';
import {chainFlags} from '../dump/dump-steps.js';
import {refuseAuditPairs, refuseCursorInEndpoint} from '../setup/flag-pairs.js';
import {progressOn} from '../../output/progress.js';
import {parseCommandLine} from '../../config/parse-flags.js';
import {flag} from '../../config/hints.js';
import {redact} from '../../text/secret.js';
import {abortOnStopSignals, Interrupted, interruptedExitCode} from '../process/stop-signals.js';
import type {StopSignal} from '../process/stop-signals.js';
import type {CommandIo} from '../process/command-io.js';
import {commandOutput} from '../../output/sink.js';
import {integer} from '../../config/flag-values.js';
import type {EachList} from '../../config/endpoint.js';
import {defaultConcurrency, maximumConcurrency} from '../../http/every-account/account-lists.js';
import {auditLists} from './audit-lists.js';

function signalName(reason: unknown): StopSignal {
	return reason instanceof Interrupted ? reason.signal : 'SIGINT';
}

const help = `
	Usage
	  $ pagewalk audit [endpoint] [options]

	Walks a list endpoint to its end and reports how full its pages are, why
	pages are short, and whether the server keeps the pagination contract.
	The report goes to stdout; progress to stderr (on a terminal; elsewhere only
	a wait of 5 s or more, as one line).

	Audit
	  --json                   one JSON document (schema: source/audit/report-schema.json)
	  --both-orders            walk desc and asc; report objects seen in one and not the other
	  --compare-env NAME       also walk with the credential in environment variable NAME;
	                           report ids one credential sees and the other does not, per page
	                           and in total (the value is never printed)
	  --compare-profile NAME   the same with the credential of profile NAME (see pagewalk
	                           profiles); its base URL must be the one in use
	  --max-pages N            stop after N pages per walk (default ${defaultMaxPages}; reported, exit 3)
	  --both-ends              walk a whole list from both ends at once, in half the round
	                           trips, meeting in the middle: each end's pages are checked
	                           along its own order, and the pages past the meeting point in
	                           either order are never read, so a fault there goes unseen
	                           (pages are numbered as read); refused beside --both-orders,
	                           --compare-env, --compare-profile, a bound or a cursor
	  --one-chain              walk from the first page only, every page in order (the default)

	Every account's list (docs/audit.md#every-account)
	  transactions, addresses  that list of every account, each audited as an audit of
	                           /v2/accounts/ID/transactions alone audits it, in one report: a
	                           summary, the lists that failed, the lists with findings, short
	                           pages per list (the text sums up the lists without findings; every
	                           list is in --json); --limit, --order, --max-pages, --max-items
	                           and --both-ends apply to each list, --starting-after to the
	                           accounts list, which is audited too (from its first page)
	  --concurrency N          lists audited at once, default ${defaultConcurrency}, at most ${maximumConcurrency}; every request
	                           goes through one client and its one rate budget

	Checks (each passed or failed, with the page and the evidence)
	  unique-ids               every object id is unique across the walk
	  order                    objects follow --order by created_at, then id (where present)
	  echo-limit, echo-order, echo-cursors
	                           pagination reports the limit, order and cursors sent
	                           (no limit or limit=0 means the default 25)
	  next-uri-params          next_uri carries limit, order (when sent) and a cursor
	  yielded, cursor-range    commerce: yielded = objects in data; cursor_range = [first, last]
	  total                    commerce: total stays the same (changes are noted, not failed)
	  ends-agree               --both-ends: where the two ends meet, each reads on a page and
	                           sees the other's last objects reversed; commerce: total = objects
	                           (on a disagreement the walk finishes as one chain, and this fails)
	A short page with no next_uri is the end of the list, not a violation.
${walkFlagsHelp}
	Exit status
	  0  every check passed and every walk reached the end of the list
	  1  a contract check failed (the report says which, on which page, and why)
	  2  wrong flags or arguments, or a missing credential; nothing was sent
	  3  a walk could not finish (an HTTP or network error, or --max-pages/--max-items
	     reached before the end); what was read is still reported; with transactions
	     or addresses, also when some lists failed (403, 404, a 5xx past the retries)
	  130, 143, 129
	     interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP; the partial report is
	     written, marked as interrupted

	Examples
	  $ COINBASE_ACCESS_TOKEN=… pagewalk audit accounts --limit 100
	  $ COINBASE_ACCESS_TOKEN=… OTHER_TOKEN=… pagewalk audit accounts --compare-env OTHER_TOKEN
	  $ pagewalk audit checkouts --both-orders --json > audit.json
	  $ pagewalk audit --demo --demo-credential restricted
	  $ pagewalk audit transactions --demo --json > every-account.json
`;

export type AuditOptions = {
	json: boolean;
	bothOrders: boolean;
	/** A second credential, already read from the environment. */
	compare: SecondCredential | Credential | null;
	/** How the report names the first credential: its environment variable, or the demo's. */
	primaryLabel?: string;
	/** Aborted (with an Interrupted) by SIGINT, SIGTERM or SIGHUP: stop and report what was read. */
	signal?: AbortSignal;
	/** --both-ends: from both ends, whatever the server's pace (BothEndsOptions.quickMs 0); one chain otherwise (--one-chain, the default). */
	bothEnds?: boolean;
};

type Plan = {label: string; order: Order; config: WalkConfig; credential: string};

/**
 * Runs the audit for a resolved config and writes the report. Returns the
 * exit status (0, 1 or 3); usage errors are thrown before anything is sent.
 */
export async function audit(config: WalkConfig, options: AuditOptions, io: CommandIo): Promise<number> {
	const firstOrder: Order = config.query.order ?? defaults.order;
	const orders: Order[] = options.bothOrders ? [firstOrder, firstOrder === 'desc' ? 'asc' : 'desc'] : [firstOrder];
	const credentials: Array<{label: string; config: WalkConfig}> = [{label: options.primaryLabel ?? config.credential.from, config}];
	if (options.compare) {
		credentials.push({label: credentialLabel(options.compare), config: withCredential(config, options.compare)});
	}

	const plans: Plan[] = [];
	for (const credential of credentials) {
		for (const order of orders) {
			const parts = [order, ...(credentials.length > 1 ? [credential.label] : [])];
			plans.push({label: parts.join(', '), order, config: credential.config, credential: credential.label});
		}
	}

	const progress = progressOn(io.stderr);
	const keepIds = plans.length > 1;
	const walks: WalkAudit[] = [];
	let endpoint = '';
	for (const plan of plans) {
		if (options.signal?.aborted) {
			break;
		}

		const client = createClient(plan.config, {sequential: true, lanes: 2});
		const query = {...plan.config.query, ...(options.bothOrders || plan.config.query.order !== undefined ? {order: plan.order} : {})};
		const startUrl = client.urlFor(query);
		endpoint ||= startUrl;
		try {
			const bothEnds = auditsBothEnds(plan.config, options, keepIds);
			const {pages, disagreements} = auditPages(client, plan.config, query, {
				order: plan.order,
				bothEnds,
				signal: options.signal,
				onRetry(notice) {
					progress.retry(notice);
				},
			});
			// eslint-disable-next-line no-await-in-loop -- one walk at a time: the progress line and the server see one walk
			const walked = await auditWalk(pages, {
				label: plan.label,
				order: plan.order,
				keepIds,
				...(disagreements === undefined ? {} : {disagreements}),
				onPage(page, {chain, take}) {
					if (chain === 'back') {
						progress.backPage(page, take);
					} else {
						progress.page(page, take);
					}
				},
			});
			if (options.signal?.aborted) {
				walked.end = {kind: 'error', detail: `interrupted by ${signalName(options.signal.reason)} before the end of the list.`, complete: false, lastPageShort: false};
			}

			walks.push(walked);
		} finally {
			// eslint-disable-next-line no-await-in-loop -- the client of this walk closes before the next one starts
			await client.close().catch(() => {});
		}
	}

	progress.clear();
	const comparisons: Comparison[] = [];
	const walkOf = (credential: string, order: Order) => walks[plans.findIndex((plan) => plan.credential === credential && plan.order === order)];
	// An interrupted audit may lack the second walk of a pair: compare only pairs both walked.
	const compare = (a: WalkAudit | undefined, b: WalkAudit | undefined) => {
		if (a !== undefined && b !== undefined) {
			comparisons.push(compareWalks(a.ids!, b.ids!, {a: a.label, b: b.label}));
		}
	};

	if (options.bothOrders) {
		for (const credential of credentials) {
			const [a, b] = orders.map((order) => walkOf(credential.label, order));
			compare(a, b);
		}
	}

	if (credentials.length > 1) {
		for (const order of orders) {
			const [a, b] = credentials.map((credential) => walkOf(credential.label, order));
			compare(a, b);
		}
	}

	const interrupted = options.signal?.aborted
		? {signal: signalName(options.signal.reason), exitCode: interruptedExitCode(options.signal.reason) as 129 | 130 | 143}
		: undefined;
	const report = buildReport({endpoint, api: config.api, walks, comparisons, interrupted});
	// The report can quote server text (ids, links, messages): no credential a server echoed survives.
	await commandOutput(io.stdout, io.stderr).write(redact(options.json ? renderJson(report) : renderText(report)));
	// Also on stderr, so a CI log that keeps only stderr (or reads --json) still says why.
	for (const walk of walks) {
		if (walk.end.kind === 'error') {
			io.stderr.write(`pagewalk: ${inert(redact(walk.end.detail))}\n`);
		}
	}

	return report.exitCode;
}

/**
 * The flags an audit of every account's list cannot apply to each list:
 * those that compare two walks of one list, page by page (of two orders,
 * of two credentials). Refused before anything is sent.
 */
function refuseListsFlags(flags: {bothOrders?: boolean; compareEnv?: string; compareProfile?: string}, each: EachList): void {
	const compare = flags.bothOrders === true ? 'bothOrders' : flags.compareEnv === undefined ? (flags.compareProfile === undefined ? undefined : 'compareProfile') : 'compareEnv';
	if (compare !== undefined) {
		throw new UsageError(`${flag(['audit'], compare)} compares two walks of one list page by page, so it applies to one account's list (/v2/accounts/ID/${each}), not to every account's.`);
	}
}

export async function runAudit(argv: string[], io: CommandIo, options: {signal?: AbortSignal} = {}): Promise<number> {
	const parsed = await parseCommandLine(argv, commands.audit, help, commandOutput(io.stdout, io.stderr));
	if (parsed === undefined) {
		return 0;
	}

	const {input, flags} = parsed;
	if (flags.compareEnv !== undefined && flags.compareProfile !== undefined) {
		throw new UsageError(`Give ${flag(['audit'], 'compareEnv')} or ${flag(['audit'], 'compareProfile')}, not both: an audit compares two credentials.`);
	}

	if (flags.demo === true && flags.compareProfile !== undefined) {
		// Checked here too, so the sandbox is not started for nothing.
		throw new UsageError(demoCompareProfile);
	}

	refuseAuditPairs(flags);
	const fromEnv = compareCredential(flags.compareEnv, io.env);
	const json = flags.json === true;
	const bothOrders = flags.bothOrders === true;
	const concurrency = integer('concurrency', flags.concurrency, 1, maximumConcurrency);

	const config = await openConfig({input, flags, command: 'audit', env: io.env, profiles: io.profiles, warn: line => io.stderr.write(`pagewalk: ${line}\n`), everyAccount: true});
	try {
		refuseCursorInEndpoint(flags, config.query);
		// --one-chain is the default; chainFlags still refuses it beside --both-ends.
		const {bothEnds} = chainFlags(flags);
		if (config.each !== undefined) {
			refuseListsFlags(flags, config.each);
			return await auditLists(config, config.each, {json, bothEnds, concurrency: concurrency ?? defaultConcurrency, ...(options.signal ? {signal: options.signal} : {})}, io);
		}

		if (concurrency !== undefined) {
			throw new UsageError(`${flag(['audit'], 'concurrency')} applies to transactions and addresses, which walk a list of every account; one list is walked page after page.`);
		}

		const compare = fromEnv ?? (flags.compareProfile === undefined ? null : await compareProfileCredential(flags.compareProfile, config, io.env, io.profiles));
		if (bothOrders && (config.query.startingAfter !== undefined || config.query.endingBefore !== undefined)) {
			throw new UsageError('--both-orders walks the whole list each way, so it cannot start from a cursor.');
		}

		const primaryLabel = config.demoCredentials?.using ?? (config.profile === undefined ? config.credential.from : `profile ${config.profile}`);
		return await audit(config, {json, bothOrders, compare, primaryLabel, signal: options.signal, bothEnds}, io);
	} finally {
		await config.close();
	}
}

/** `pagewalk audit` as the CLI runs it: Ctrl-C stops the walk and the report says so. */
export async function run(argv: string[], io: CommandIo): Promise<number> {
	const interrupt = new AbortController();
	const release = abortOnStopSignals(interrupt);
	try {
		return await runAudit(argv, io, {signal: interrupt.signal});
	} finally {
		release();
	}
}
