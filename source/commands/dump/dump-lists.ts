import fs from 'node:fs';
import type {Writable} from 'node:stream';
import {colourLevel} from '../../text/colour.js';
import {UsageError, exitCodes} from '../../text/errors.js';
import {formatCount} from '../../text/format-count.js';
import {inert, inertLine} from '../../text/inert.js';
import {describeError} from '../../text/report-error.js';
import {redact} from '../../text/secret.js';
import {type commands, kebabName} from '../../config/flags.js';
import {describeCredential} from '../../config/credentials.js';
import type {WalkConfig} from '../../config/options.js';
import type {EachList} from '../../config/endpoint.js';
import type {EndsStep} from '../../http/both-ends.js';
import {createClient, type PageClient} from '../../http/http-client.js';
import {accountListPath, laneCount, walkAccountLists, type ListOutcome, type ListRef, type StepsOf} from '../../http/every-account/account-lists.js';
import {ListsJournal, stateFolderOf, type JournalHeader, type JournalState} from '../../http/every-account/lists-journal.js';
import {describeEnd} from '../../http/walk-rules.js';
import type {Page, RetryNotice, WalkEnd} from '../../contract/types.js';
import {createWriter, type Writer} from '../../output/index.js';
import {progressOn, type ListsState, type Progress} from '../../output/progress.js';
import {Sink} from '../../output/sink.js';
import {FindingsTally, WalkFindings} from '../../output/walk-findings.js';
import {again} from '../../config/hints.js';
import {dumpSteps} from './dump-steps.js';
import {resumeFlag, ServerWarnings, stepData} from './dump-parts.js';
import type {DumpOptions} from './dump-parts.js';
import type {CommandIo} from '../process/command-io.js';
import {interruptedExitCode} from '../process/stop-signals.js';

/**
 * `pagewalk dump transactions` (and `addresses`): that list of every
 * account, in one output, through the walk of http/account-lists.ts: the
 * one client and its budget, several lists at once (--concurrency), the
 * objects in one order whatever the concurrency. With -o FILE its state is
 * kept beside the file (http/lists-journal.ts) and --resume goes on with
 * it. docs/dump.md#every-account.
 */

/** The csv column that names each object's account: the flattened object would lose it (the other formats keep resource_path). */
export const accountColumn = 'account_id';

export type ListsDumpOptions = DumpOptions & {
	each: EachList;
	concurrency: number;
	/** -o FILE: write there, its state beside it. */
	output?: string | undefined;
	resume: boolean;
	/** The flags that shape the output, as given (their names as typed): what a resume must be given again. */
	identity: Record<string, unknown>;
};

const flagName = (name: keyof typeof commands.dump.flags) => `--${kebabName(name)}`;

/** The flags of dump that shape what is written, and so must be the same for --resume; the others (--concurrency, --one-chain) change how, not what. */
export const identityFlags = ['format', 'columns', 'noCsvGuard', 'limit', 'order', 'startingAfter', 'endingBefore', 'maxItems', 'all', 'api', 'apiVersion'] as const satisfies ReadonlyArray<keyof typeof commands.dump.flags>;

/** What a resume is checked against: the flags that shape the output, the endpoint, the server, the credential's source. */
export function identityOf(endpoint: string, flags: Partial<Record<(typeof identityFlags)[number], unknown>>): Record<string, unknown> {
	const identity: Record<string, unknown> = {endpoint};
	for (const name of identityFlags) {
		identity[flagName(name)] = flags[name] ?? null;
	}

	// No --format is ndjson: a walk started either way is the same walk, whoever starts it (dump, the browser's E).
	identity[flagName('format')] ??= 'ndjson';

	return identity;
}

/** The walk's output: the file of -o (appended to on a resume, after the last list written whole) or stdout. */
type Opened = {stream: Writable & {isTTY?: boolean; columns?: number}; fd: number | undefined; journal: ListsJournal | undefined; state: JournalState | undefined};

function openOutput(config: WalkConfig, options: ListsDumpOptions, io: CommandIo): Opened {
	if (options.output === undefined) {
		return {stream: io.stdout, fd: undefined, journal: undefined, state: undefined};
	}

	const file = options.output;
	const header: JournalHeader = {command: options.identity, server: `${config.base.origin}${config.base.prefix}`, credential: describeCredential(config.credential)};
	let journal: ListsJournal;
	let state: JournalState | undefined;
	let fd: number;
	const cannot = (error: unknown) => new UsageError(`Cannot write ${flagName('output')} ${inert(file)} (${inert((error as NodeJS.ErrnoException).code ?? String(error))}); give a file in a folder that exists and can be written.`);
	// A device or a pipe (/dev/stdout, a FIFO): written as stdout is, with no state beside it (nothing there can be cut back and gone on with).
	const special = fs.statSync(file, {throwIfNoEntry: false});
	if (special !== undefined && !special.isFile() && !special.isDirectory()) {
		if (options.resume) {
			throw new UsageError(`${flagName('resume')} goes on with a walk written to a file, and ${inert(file)} is not one (a device or a pipe); run the command without ${flagName('resume')}.`);
		}

		try {
			fd = fs.openSync(file, 'w');
		} catch (error: unknown) {
			throw cannot(error);
		}

		return {stream: fs.createWriteStream(file, {fd, autoClose: false}), fd, journal: undefined, state: undefined};
	}

	const folder = inert(stateFolderOf(file));
	// The state's folder cannot be made, read or written (a read-only folder): one sentence, before anything of FILE is changed.
	const unkept = (error: unknown) => (error instanceof UsageError ? error : new UsageError(`The walk's state cannot be kept in ${folder} (${inert((error as NodeJS.ErrnoException).code ?? String(error))}); give ${flagName('output')} a file in a folder that can be written, or make that folder readable and writable.`));
	// Nothing to go on with, and nothing written: --resume starts the walk (a script may give it every time).
	const fresh = options.resume && !ListsJournal.exists(file) && (!fs.existsSync(file) || fs.statSync(file).size === 0);
	if (options.resume && !fresh) {
		try {
			({journal, state} = ListsJournal.resume(file, header, {resume: flagName('resume'), output: flagName('output')}));
		} catch (error: unknown) {
			throw unkept(error);
		}

		try {
			// Read too: the end of what was written is checked, and read for each list's mark.
			fd = fs.openSync(file, 'a+');
		} catch (error: unknown) {
			journal.close();
			throw cannot(error);
		}

		const bytes = state.written?.bytes ?? 0;
		const changed = fs.fstatSync(fd).size < bytes ? 'is shorter than its walk\'s state says it was written' : state.written !== undefined && tailOf(fd, bytes) !== state.written.tail ? 'is not what its walk wrote (changed or replaced since the walk stopped)' : undefined;
		if (changed !== undefined) {
			fs.closeSync(fd);
			journal.close();
			throw new UsageError(`${inert(file)} ${changed}; remove ${folder} and run the command again without ${flagName('resume')}.`);
		}

		// What came after the last list written whole (part of a list, a closing `]`) is written again, as the walk goes on.
		fs.ftruncateSync(fd, bytes);
	} else {
		if (ListsJournal.exists(file)) {
			throw new UsageError(`${inert(file)} has an unfinished walk beside it (${folder}); add ${flagName('resume')} to go on with it, or remove that folder to start over.`);
		}

		// The state first: where it cannot be kept, FILE is not emptied.
		try {
			journal = ListsJournal.start(file, header, {output: flagName('output')});
		} catch (error: unknown) {
			throw unkept(error);
		}

		try {
			fd = fs.openSync(file, 'w+');
		} catch (error: unknown) {
			journal.remove();
			throw cannot(error);
		}
	}

	return {stream: fs.createWriteStream(file, {fd, autoClose: false}), fd, journal, state};
}

/** The last bytes of the first `bytes` of a file (base64): what a list's mark keeps, and a resume checks, of where it ends. */
function tailOf(fd: number, bytes: number): string {
	const tail = Buffer.alloc(Math.min(32, bytes));
	let read = 0;
	while (read < tail.length) {
		const got = fs.readSync(fd, tail, read, tail.length - read, bytes - tail.length + read);
		if (got === 0) {
			break;
		}

		read += got;
	}

	return tail.subarray(0, read).toString('base64');
}

/** How the walk went, for its end on stderr. */
export type Tally = {
	listsDone: number;
	/** All lists, once the accounts list ended. */
	total: number | undefined;
	known: number;
	objects: number;
	lastId: string | undefined;
	requests: number;
	/** The last list written whole, and objects written of the list after it. */
	lastWhole: ListRef | undefined;
	partObjects: number;
	failed: Array<{list: ListRef; reason: string}>;
	morePages: number;
	failure?: unknown;
	maxed: boolean;
};

/** The steps of each list: dump's (dump-steps.ts), every page checked against the contract, findings told once for the whole walk. */
function stepsFor(config: WalkConfig, options: ListsDumpOptions, say: (line: string) => void, onRetry: (notice: RetryNotice) => void): StepsOf {
	const tally = new FindingsTally();
	const warnings = new ServerWarnings();
	const oneChain = options.oneChain === true || options.failOnFindings === true || (options.format !== 'ndjson' && options.format !== 'json');
	return (client, query, signal, list, spare) => {
		const findings = new WalkFindings(20, tally);
		const backFindings = new WalkFindings();
		const where = list === undefined ? 'the accounts list' : `account ${inert(list.account)}`;
		const tell = (line: string) => {
			if (options.quiet !== true) {
				say(`contract: ${where}: ${inertLine(line, 300)}`);
			}
		};

		const steps = dumpSteps(client, {...config, query, maxPages: null, maxItems: list === undefined ? null : config.maxItems}, {
			// The accounts list is read whole, for its ids; each account's list as --all says.
			all: list === undefined || options.all,
			oneChain: list === undefined ? options.oneChain === true : oneChain,
			...(options.bothEnds === true ? {quickMs: 0} : {}),
			// While lists wait to start, each walks from its first page alone: its pages and no more; the long ones left at the end from both ends.
			...(list === undefined ? {} : {backWhen: spare}),
			signal,
			onRetry,
			doubt(page) {
				backFindings.add(page);
				return backFindings.total > 0 ? 'a page in the other order broke a contract rule' : undefined;
			},
			onDisagreement(reason) {
				tell(findings.disagreement(reason));
			},
		});
		return checked(steps, page => {
			warnings.show(page, say);
			for (const line of findings.add(page)) {
				tell(line);
			}
		});
	};
}

/** The steps as they are, each forward page told to `check` first. */
async function * checked(steps: AsyncGenerator<EndsStep, WalkEnd>, check: (page: Page) => void): AsyncGenerator<EndsStep, WalkEnd> {
	try {
		for (;;) {
			// eslint-disable-next-line no-await-in-loop -- one step after the other
			const step = await steps.next();
			if (step.done) {
				return step.value;
			}

			if (step.value.chain === 'forward') {
				check(step.value.page);
			}

			yield step.value;
		}
	} finally {
		await steps.return({kind: 'end'}).catch(() => {});
	}
}

/** The lists of a resumed walk written before it: their failures and ends count in this one's summary. */
function resumedTally(state: JournalState | undefined): Tally {
	const tally: Tally = {listsDone: 0, total: undefined, known: state?.accounts.length ?? 0, objects: state?.written?.objects ?? 0, lastId: undefined, requests: 0, lastWhole: undefined, partObjects: 0, failed: [], morePages: 0, maxed: false};
	for (const {list, outcome} of state?.outcomes ?? []) {
		count(tally, list, outcome);
	}

	tally.total = state?.accountsEnded ? state.accounts.length : undefined;
	return tally;
}

function count(tally: Tally, list: ListRef, outcome: ListOutcome): void {
	tally.listsDone += 1;
	tally.lastWhole = list;
	tally.partObjects = 0;
	if ('failure' in outcome) {
		tally.failed.push({list, reason: outcome.failure});
	} else if (outcome.end.kind === 'max-pages') {
		tally.morePages += 1;
	}
}

/**
 * What a caller other than the CLI brings to the walk (the browser's export,
 * commands/browse/export-lists.ts): its one client, whose budget and
 * connections its own requests share (closed by its owner, not here), and
 * where the figures of the progress line go, as they change.
 */
export type ListsHost = {
	client: PageClient;
	onProgress(state: ListsState): void;
	onRetry?(notice: RetryNotice): void;
};

/** How the walk ended, for its words: the document closed, the state beside the file kept or removed. */
export type ListsEnded = {
	how: 'gone' | 'write-failed' | 'interrupted' | 'failed' | 'done';
	tally: Tally;
	/** The writer's notes (a csv column added, …), to say. */
	notes: string[];
	failure?: Error;
	/** Its state is kept beside the file: the same command with --resume goes on. */
	resumable: boolean;
};

export async function dumpLists(config: WalkConfig, options: ListsDumpOptions, io: CommandIo): Promise<number> {
	const progress = progressOn(io.stderr, io.env);
	const say = (line: string) => {
		progress.clear();
		io.stderr.write(`pagewalk: ${redact(line)}\n`);
	};

	return tell(await writeLists(config, options, io, {say, progress}), {say, progress, options, io});
}

/**
 * The walk written: to stdout or the file of -o, its state beside the file
 * (kept when it stopped short, removed when it ended), every line said
 * through `say` as it happens; the words at its end are the caller's.
 */
export async function writeLists(config: WalkConfig, options: ListsDumpOptions, io: CommandIo, {say, progress, host}: {say: (line: string) => void; progress: Progress; host?: ListsHost}): Promise<ListsEnded> {
	const controller = new AbortController();
	options.signal?.addEventListener('abort', () => {
		controller.abort(options.signal!.reason);
	});
	const opened = openOutput(config, options, io);
	const {stream, journal, state} = opened;
	const sink = new Sink(stream, () => {
		controller.abort();
	}, {stderr: io.stderr});
	const toTerminal = opened.fd === undefined && io.stdout.isTTY === true;
	const writer = createWriter(options.format, {
		tty: toTerminal,
		columns: toTerminal ? io.stdout.columns : undefined,
		color: toTerminal && colourLevel(io.env, true) > 0,
		fields: options.columns,
		formulaGuard: options.formulaGuard,
		...(options.format === 'csv' ? {parentColumn: accountColumn} : {}),
		...(state?.written === undefined ? {} : {resume: state.written.writer}),
	});
	const tally = resumedTally(state);
	const client = host?.client ?? createClient(config, {keepBytes: writer.pageBytes !== undefined, sequential: true, lanes: laneCount(options.concurrency)});
	const show = () => {
		const budget = client.budget?.();
		const figures: ListsState = {done: tally.listsDone, total: tally.total, known: tally.known, objects: tally.objects, requests: tally.requests, budget: budget && {remaining: budget.remaining, limit: budget.limit}};
		progress.lists(figures);
		host?.onProgress(figures);
	};

	const items = walkAccountLists({
		client,
		config,
		each: options.each,
		concurrency: options.concurrency,
		steps: stepsFor(config, options, say, notice => {
			progress.retry(notice);
			host?.onRetry?.(notice);
		}),
		signal: controller.signal,
		...(journal ? {spoolFile: journal.spoolFile} : {}),
		...(state ? {resume: state} : {}),
		onAccounts(ids, from) {
			journal?.accounts(ids, from);
			tally.known = from + ids.length;
		},
		onAccountsEnd(total, end) {
			journal?.accountsEnded(total, end);
			tally.total = total;
			if (end.kind !== 'end') {
				say(`the accounts list ${inert(describeEnd(end))}.`);
			}
		},
		onWaiting(list, waiting) {
			journal?.waiting(list, waiting);
		},
		onRequest() {
			tally.requests += 1;
			show();
		},
	});
	try {
		await writeItems(items, {writer, sink, journal, fd: opened.fd, tally, say, toTerminal, progress, maxItems: config.maxItems, show});
	} catch (error: unknown) {
		tally.failure = error;
	} finally {
		await items.return({kind: 'end'}).catch(() => {});
		if (!host) {
			await client.close().catch(() => {});
		}
	}

	return close({sink, writer, journal, tally, options, io, stream});
}

type Writing = {writer: Writer; sink: Sink; journal: ListsJournal | undefined; fd: number | undefined; tally: Tally; say: (line: string) => void; toTerminal: boolean; progress: Progress; maxItems: number | null; show: () => void};

async function writeItems(items: ReturnType<typeof walkAccountLists>, {writer, sink, journal, fd, tally, say, toTerminal, progress, maxItems, show}: Writing): Promise<void> {
	for await (const item of items) {
		if (item.kind === 'data') {
			const room = maxItems === null ? null : maxItems - tally.objects;
			const out = stepData(item.step, writer, room, item.list.account);
			if (toTerminal && out.data.length > 0) {
				progress.clear();
			}

			const lastId = out.objects.at(-1)?.id ?? tally.lastId;
			await sink.write(out.data, {objects: tally.objects + out.objects.length, lastId});
			if (sink.gone || sink.failure) {
				return;
			}

			tally.objects += out.objects.length;
			tally.partObjects += out.objects.length;
			tally.lastId = lastId;
			show();
			if (maxItems !== null && tally.objects >= maxItems) {
				tally.maxed = true;
				return;
			}

			continue;
		}

		const {list, outcome} = item;
		if ('failure' in outcome) {
			say(`account ${inert(list.account)}: ${outcome.failure}`);
		} else if (outcome.end.kind === 'not-advancing') {
			say(`account ${inert(list.account)}: ${inert(describeEnd(outcome.end))}.`);
		}

		count(tally, list, outcome);
		if (journal !== undefined && fd !== undefined) {
			const bytes = fs.fstatSync(fd).size;
			journal.written(list, {bytes, objects: tally.objects, writer: writer.state?.(), tail: tailOf(fd, bytes)}, outcome);
		}

		show();
	}
}

type Closing = {sink: Sink; writer: Writer; journal: ListsJournal | undefined; tally: Tally; options: ListsDumpOptions; io: CommandIo; stream: Writable};

/** The end: the document closed, the state beside the file kept (the walk stopped short) or removed (it ended), the file closed. */
async function close({sink, writer, journal, tally, options, io, stream}: Closing): Promise<ListsEnded> {
	try {
		if (sink.gone) {
			return {how: 'gone', tally, notes: [], resumable: false};
		}

		await sink.write(writer.end());
		// A device's write fails in its callback: the last one may not have called back yet.
		await sink.settled();
		const notes = writer.notes();
		const resumable = journal !== undefined;
		if (sink.failure) {
			sink.closeAfterFailure(objects => writer.end(objects));
			return {how: 'write-failed', tally, notes, failure: sink.failure, resumable};
		}

		if (options.signal?.aborted) {
			return {how: 'interrupted', tally, notes, resumable};
		}

		if (tally.failure !== undefined) {
			return {how: 'failed', tally, notes, resumable};
		}

		journal?.remove();
		return {how: 'done', tally, notes, resumable};
	} finally {
		if (journal && (options.signal?.aborted || tally.failure !== undefined || sink.failure)) {
			journal.close();
		}

		if (stream !== io.stdout) {
			// Closed once, here, the stream (idle: every write to it was awaited) left alone: its destroy()
			// closes the descriptor too, later and asynchronously whatever autoClose says, and in a process
			// that goes on (the browser's export, E) that number is by then another file's or a socket's.
			const {fd} = stream as {fd?: number};
			if (typeof fd === 'number') {
				fs.closeSync(fd);
			}
		}
	}
}

type Telling = {say: (line: string) => void; progress: Progress; options: ListsDumpOptions; io: CommandIo};

/** What happened, said on stderr, and the exit status. */
function tell({how, tally, notes, failure, resumable}: ListsEnded, {say, progress, options, io}: Telling): number {
	if (how === 'gone') {
		return exitCodes.ok;
	}

	progress.clear();
	for (const note of notes) {
		say(note);
	}

	switch (how) {
		case 'write-failed': {
			say(`could not write the output (${inert(failure!.message)}).`);
			say(stopped(tally, options, 'failure', resumable));
			return exitCodes.failure;
		}

		case 'interrupted': {
			say(stopped(tally, options, 'interruption', resumable));
			return interruptedExitCode(options.signal!.reason);
		}

		case 'failed': {
			say(describeError(tally.failure).message);
			say(stopped(tally, options, 'failure', resumable));
			return exitCodes.failure;
		}

		case 'done': {
			break;
		}
	}

	if (tally.morePages > 0) {
		say(`more pages follow in ${formatCount(tally.morePages)} ${tally.morePages === 1 ? 'list' : 'lists'}: add ${flagName('all')} to walk them.`);
	}

	if (tally.maxed) {
		say(`stopped after ${formatCount(tally.objects)} ${tally.objects === 1 ? 'object' : 'objects'} (${flagName('maxItems')}); more lists or pages follow.`);
	}

	if (io.stderr.isTTY === true) {
		io.stderr.write(`${progress.summary()}\n`);
	}

	if (tally.failed.length > 0) {
		const {failed} = tally;
		const named = failed.slice(0, 5).map(({list}) => inert(list.account)).join(', ') + (failed.length > 5 ? ', …' : '');
		say(`${formatCount(failed.length)} of ${formatCount(tally.listsDone)} lists failed (${failed.length === 1 ? 'account' : 'accounts'} ${named}; each said above) and the others were written; the first alone: ${again('dump-list-failed', options.line, {endpoint: accountListPath(failed[0]!.list.account, options.each), set: {all: true}, drop: ['concurrency', 'resume', 'output', 'startingAfter']}).phrase}.`);
		return exitCodes.listsFailed;
	}

	return exitCodes.ok;
}

/** What was written before the walk stopped (`event`), and how to go on: --resume with its state beside -o FILE, else --starting-after at the last list written whole. */
function stopped(tally: Tally, options: ListsDumpOptions, event: 'interruption' | 'failure', resumable: boolean): string {
	// Before the accounts list's first page there is no count of lists to give.
	const all = tally.total === undefined ? (tally.known === 0 ? '' : ` of at least ${formatCount(tally.known)}`) : ` of ${formatCount(tally.total)}`;
	const whole = `${formatCount(tally.listsDone)}${all} lists (${formatCount(tally.objects - tally.partObjects)} objects) were written whole before the ${event}`;
	if (resumable) {
		return `${whole}; to go on, run the same command with ${flagName('resume')}.`;
	}

	const part = tally.partObjects > 0 ? `, and ${formatCount(tally.partObjects)} ${tally.partObjects === 1 ? 'object' : 'objects'} of the next list, which a resume writes again` : '';
	const from = tally.lastWhole === undefined ? 'the same command again' : `the same command with ${resumeFlag(tally.lastWhole.account)} (the accounts after it)`;
	return `${whole}${part}; to resume, run ${from}, or with ${flagName('output')} FILE to go on later with ${flagName('resume')} exactly where it stopped.`;
}

/** Why a walk of every account's lists cannot be asked for with these flags, before anything is sent; undefined when it can. */
export function listsUsage(config: WalkConfig): string | undefined {
	if (config.maxPages !== null) {
		return `${flagName('maxPages')} bounds one list; with every account's lists, give ${flagName('maxItems')} (objects in all) instead.`;
	}

	return undefined;
}
