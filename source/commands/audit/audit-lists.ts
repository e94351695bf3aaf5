import {WalkAuditor, type WalkAudit} from '../../audit/audit-walk.js';
import {buildListsReport, listSection, renderListsText, type ListSection} from '../../audit/lists-report.js';
import {renderJson} from '../../audit/report.js';
import {defaults, type WalkConfig} from '../../config/options.js';
import type {EachList} from '../../config/endpoint.js';
import type {Page, WalkEnd} from '../../contract/types.js';
import type {EndsStep} from '../../http/both-ends.js';
import {createClient} from '../../http/http-client.js';
import {laneCount, walkAccountLists, type StepsOf} from '../../http/every-account/account-lists.js';
import {progressOn} from '../../output/progress.js';
import {commandOutput} from '../../output/sink.js';
import {inert} from '../../text/inert.js';
import {describeError} from '../../text/report-error.js';
import {redact} from '../../text/secret.js';
import {loadTextWidth} from '../../text/text-width.js';
import type {CommandIo} from '../process/command-io.js';
import {Interrupted, interruptedExitCode, type StopSignal} from '../process/stop-signals.js';
import {auditPages, auditsBothEnds} from './audit-pages.js';

/**
 * `pagewalk audit transactions` (and `addresses`): every account's list
 * audited as `audit /v2/accounts/ID/transactions` audits it alone (the same
 * walk, auditPages, and the same checks, WalkAuditor), through the walk of
 * http/every-account/account-lists.ts: the accounts list, then several
 * lists at once (--concurrency), every request through the one client and
 * its budget. The lists' reports come in the accounts list's order
 * whatever the concurrency; one report of them all (audit/lists-report.ts).
 * docs/audit.md#every-account.
 */

export type ListsAuditOptions = {
	json: boolean;
	/** --both-ends: each account's list from both ends, as an audit of that list alone with it; the accounts list from its first page (its ids are read in order). */
	bothEnds: boolean;
	concurrency: number;
	signal?: AbortSignal;
};

/**
 * A walk's pages as the walk of every account's lists takes them, each told
 * to `auditor` first, its end or its failure too. `passOn`: the accounts
 * list, whose ids the walk reads; an account's list hands on nothing (its
 * objects are not written, so nothing is kept of them meanwhile).
 */
async function * audited(pages: AsyncGenerator<Page | EndsStep, WalkEnd>, auditor: WalkAuditor, passOn: boolean, done: (walk: WalkAudit) => void): AsyncGenerator<EndsStep, WalkEnd> {
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
			const next = await pages.next();
			if (next.done) {
				auditor.end(next.value);
				done(auditor.result());
				return next.value;
			}

			auditor.step(next.value);
			if (passOn) {
				const item = next.value;
				yield 'chain' in item ? item : {chain: 'forward', page: item, take: item.objects.length};
			}
		}
	} catch (error: unknown) {
		auditor.fail(error);
		done(auditor.result());
		throw error;
	} finally {
		await pages.return({kind: 'end'}).catch(() => {});
	}
}

function signalName(reason: unknown): StopSignal {
	return reason instanceof Interrupted ? reason.signal : 'SIGINT';
}

export async function auditLists(config: WalkConfig, each: EachList, options: ListsAuditOptions, io: CommandIo): Promise<number> {
	const order = config.query.order ?? defaults.order;
	const progress = progressOn(io.stderr);
	const client = createClient(config, {sequential: true, lanes: laneCount(options.concurrency)});
	const onRetry = progress.retry.bind(progress);
	// Each list's audit once its walk ended, until the walk hands the list on in its order.
	const walked = new Map<number, {endpoint: string; walk?: WalkAudit}>();
	let accounts: WalkAudit | undefined;
	const accountsAuditor = new WalkAuditor({label: order, order});
	const steps: StepsOf = (view, query, signal, list) => {
		if (list === undefined) {
			// The accounts list from its first page, every page in order: its ids are the walk's order.
			const {pages} = auditPages(view, config, query, {order, bothEnds: false, signal, onRetry});
			return audited(pages, accountsAuditor, true, walk => {
				accounts = walk;
			});
		}

		const entry: {endpoint: string; walk?: WalkAudit} = {endpoint: view.firstUrl};
		walked.set(list.index, entry);
		const {pages, disagreements} = auditPages(view, config, query, {order, bothEnds: auditsBothEnds(config, options, false), signal, onRetry});
		const auditor = new WalkAuditor({label: order, order, ...(disagreements === undefined ? {} : {disagreements})});
		return audited(pages, auditor, false, walk => {
			entry.walk = walk;
		});
	};

	const sections: ListSection[] = [];
	const tally = {done: 0, total: undefined as number | undefined, known: 0, objects: 0, requests: 0};
	const show = () => {
		const budget = client.budget?.();
		progress.lists({...tally, budget: budget && {remaining: budget.remaining, limit: budget.limit}});
	};

	const say = (line: string) => {
		progress.clear();
		io.stderr.write(`pagewalk: ${inert(redact(line))}\n`);
	};

	let stopped: string | null = null;
	const items = walkAccountLists({
		client,
		config,
		each,
		concurrency: options.concurrency,
		steps,
		...(options.signal ? {signal: options.signal} : {}),
		onAccounts(ids, from) {
			tally.known = from + ids.length;
		},
		onAccountsEnd(total) {
			tally.total = total;
		},
		onRequest() {
			tally.requests += 1;
			show();
		},
	});
	try {
		for await (const item of items) {
			if (item.kind !== 'done') {
				continue;
			}

			const {list, outcome} = item;
			const entry = walked.get(list.index)!;
			walked.delete(list.index);
			const failure = 'failure' in outcome ? outcome.failure : null;
			if (failure !== null) {
				// Also on stderr as it comes, as dump says it: a log that keeps only stderr still names each list lost.
				say(`account ${list.account}: ${failure}`);
			}

			const section = listSection({account: list.account, endpoint: entry.endpoint, failure, walk: entry.walk!}, config.api);
			sections.push(section);
			tally.done += 1;
			tally.objects += section.report.walks[0]!.objects;
			show();
		}
	} catch (error: unknown) {
		if (!options.signal?.aborted) {
			stopped = describeError(error).message;
		}
	} finally {
		await items.return({kind: 'end'}).catch(() => {});
		await client.close().catch(() => {});
	}

	progress.clear();
	const interrupted = options.signal?.aborted
		? {signal: signalName(options.signal.reason), exitCode: interruptedExitCode(options.signal.reason) as 129 | 130 | 143}
		: undefined;
	if (accounts === undefined) {
		// The accounts list is read as its ids are needed: the walk stopped before its end was read.
		accountsAuditor.stop(`the walk of every account's lists stopped before the end of this list was read${stopped === null ? '.' : `: ${stopped}`}`);
		accounts = accountsAuditor.result();
	}

	if (interrupted && !accounts.end.complete) {
		accounts.end = {kind: 'error', detail: `interrupted by ${interrupted.signal} before the end of the list.`, complete: false, lastPageShort: false};
	}

	const report = buildListsReport({endpoint: client.firstUrl, api: config.api, each, accounts, lists: sections, stopped, ...(interrupted ? {interrupted} : {})});
	if (!options.json) {
		await loadTextWidth();
	}

	// The report can quote server text (ids, links, messages): no credential a server echoed survives.
	await commandOutput(io.stdout, io.stderr).write(redact(options.json ? renderJson(report) : renderListsText(report)));
	if (stopped !== null) {
		say(stopped);
	}

	return report.exitCode;
}
