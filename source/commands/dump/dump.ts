import fs from 'node:fs';
import {loadTextWidth} from '../../text/text-width.js';
import {parseColumnList} from '../../cells/column-order.js';
import {colourLevel} from '../../text/colour.js';
import {PagewalkError, UsageError} from '../../text/errors.js';
import {createClient, type PageClient} from '../../http/http-client.js';
import {quickServerMs} from '../../http/both-ends.js';
import {inert, inertLine} from '../../text/inert.js';
import {parseCommandLine, quoteValue, type ParsedArgs} from '../../config/parse-flags.js';
import type {WalkConfig} from '../../config/options.js';
import {commands, walkFlagsHelp} from '../../config/flags.js';
import {integer} from '../../config/flag-values.js';
import {openConfig} from '../setup/demo.js';
import {describeError} from '../../text/report-error.js';
import {redact} from '../../text/secret.js';
import {again, flag, type Change, type UserLine} from '../../config/hints.js';
import {abortOnStopSignals, interruptedExitCode} from '../process/stop-signals.js';
import type {CommandIo} from '../process/command-io.js';
import type {WalkEnd} from '../../contract/types.js';
import {describeEnd} from '../../http/walk-rules.js';
import {chainFlags, dumpSteps} from './dump-steps.js';
import {dumpLists, identityOf, listsUsage} from './dump-lists.js';
import {defaultConcurrency, maximumConcurrency} from '../../http/every-account/account-lists.js';
import {ServerWarnings, stepData, type DumpOptions} from './dump-parts.js';

export {resumeFlag} from './dump-parts.js';
import {refuseCursorInEndpoint, refuseDumpPairs} from '../setup/flag-pairs.js';
import {createWriter, formats, type Format, type Writer} from '../../output/index.js';
import {progressOn, type Progress} from '../../output/progress.js';
import {Sink, type Mark, commandOutput, writeFailure} from '../../output/sink.js';
import {WalkFindings} from '../../output/walk-findings.js';
import {formatCount} from '../../text/format-count.js';

const help = `
	Usage
	  $ pagewalk dump [endpoint] [options]

	Writes the objects of a list endpoint to stdout: one page, or every page
	with --all. Progress, warnings and errors go to stderr; stdout carries data only.

	Output
	  --all                    follow next_uri to the end of the list
	  --format ndjson|json|csv|table
	                           ndjson (default): one API object per line, exactly as sent
	                           json: one array for the whole walk (valid even if it fails)
	                           csv: flattened columns (nested fields as a.b); table: for people
	  --columns a,b,c          csv and table: exactly these columns, in this order (names as in
	                           the header, e.g. id,name,balance.amount); a name no object has
	                           yet is kept as an empty column (it may appear on a later page)
	  --no-csv-guard           csv only: write cells starting with = + - @ tab or CR unchanged
	                           (by default they get a leading ' so a spreadsheet shows text)
	  --one-chain              walk from the first page only; by default --all (ndjson, json,
	                           no bound, no cursor, no --fail-on-findings) also walks from the
	                           list's other end at once, in half the round trips, unless its
	                           first pages come back in under ${quickServerMs} ms (a local server: one
	                           chain is faster there); from a server whose asc list is its desc
	                           list reversed it writes what one chain writes, which is checked
	                           where the two ends meet (and against total on the commerce API),
	                           not deep inside the other end's half (docs/dump.md)
	  --both-ends              from both ends even from a server that answers that fast (with
	                           --all; refused beside csv, table, a bound, a cursor or
	                           --fail-on-findings, which walk one chain)
	  -o, --output FILE        write to FILE instead of stdout (as > FILE would)

	Every account's list (docs/dump.md#every-account)
	  transactions, addresses  that list of every account, in one output: the accounts list
	                           walked for their ids, then each account's list, accounts in
	                           list order, each list's objects in its order, whatever the
	                           concurrency; --limit, --order, --all and --max-items apply to
	                           every list, --starting-after to the accounts list; csv adds
	                           an account_id column (the others name the account in resource_path)
	  --concurrency N          lists walked at once, default ${defaultConcurrency}, at most ${maximumConcurrency}; every request
	                           goes through one client and its one rate budget
	  --resume                 with -o: go on with the walk that stopped (a signal, SIGKILL,
	                           a crash, a lost connection), its state in FILE.pagewalk;
	                           the file ends byte for byte as one never stopped

	Contract findings
	  Each page gets the browser's per-page checks (limit, what pagination reports, next_uri,
	  commerce counts, order, ids repeated within the last 20 pages): the first finding of each
	  kind goes to stderr, and a count of each at the end. pagewalk audit checks a whole walk.
	  --quiet                  no findings on stderr (with --fail-on-findings, the closing
	                           count still says why the exit status is 1)
	  --fail-on-findings       exit 1 when there were findings, even if the walk succeeded
${walkFlagsHelp}
	Exit status
	  0  done (also when stdout closed early, or a bound or a looping link stopped the walk; stderr says which)
	  1  the walk failed; what was read is written, and stderr says how to resume (--starting-after=ID);
	     or a write failed (a full disk): the file keeps whole lines, and stderr says how to resume;
	     or, with --fail-on-findings, a page broke a contract rule
	  2  wrong flags or arguments, or a missing credential; nothing was sent
	  4  transactions, addresses: some accounts' lists failed (each said on stderr), the others were written
	  130, 143, 129
	     interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP; the document is closed, what
	     was read is written, and stderr says how to resume

	Examples
	  $ COINBASE_ACCESS_TOKEN=… pagewalk dump accounts --all > accounts.ndjson
	  $ pagewalk dump checkouts --all --format csv --limit 100 > checkouts.csv
	  $ pagewalk dump --demo --all --format table
	  $ pagewalk dump transactions --all -o transactions.ndjson   (again with --resume if it stops)
`;

/** How many objects went out before `event`, and the user's own command that resumes after the last (`how`: where its output goes); undefined before the first. */
function resumeHint(written: number, lastId: string | undefined, event: string, line: UserLine, how = ''): string | undefined {
	return written > 0 && lastId !== undefined
		? `${formatCount(written)} ${written === 1 ? 'object was' : 'objects were'} written before the ${event}; to resume, run ${again('dump-resume', line, afterId(lastId)).phrase}${how}.`
		: undefined;
}

/**
 * The user's line from after `id` (the next page, or where a walk resumes):
 * --ending-before goes, the contract refuses both cursors; --both-ends goes,
 * it is refused beside a cursor (a cursor walks one chain).
 */
function afterId(id: string): Change<'dump' | 'browse'> {
	return {set: {startingAfter: id}, drop: ['endingBefore', 'bothEnds']};
}

function endNote(end: WalkEnd, lastId: string | undefined, line: UserLine): string | undefined {
	if (end.kind === 'end') {
		return undefined;
	}

	const resume = end.kind !== 'not-advancing' && lastId !== undefined ? `; to continue, run ${again('dump-continue', line, afterId(lastId)).phrase}` : '';
	return `${inert(describeEnd(end))}${resume}.`;
}

/**
 * The dump's walk: from both ends for ndjson and json where it can be
 * (dump-steps.ts), else one chain. `disagreed` is told when the two ends
 * disagree where they meet (the walk then goes on as one chain).
 */
function stepsOf(client: PageClient, config: WalkConfig, options: DumpOptions, signal: AbortSignal, progress: Progress, disagreed: (reason: string) => void) {
	// The other order's pages are checked apart: a finding there only lets that chain go.
	const backFindings = new WalkFindings();
	return dumpSteps(client, config, {
		all: options.all,
		// --fail-on-findings asks the checks of every page in order: from both ends the pages past the meeting point are never read.
		oneChain: options.oneChain === true || options.failOnFindings === true || (options.format !== 'ndjson' && options.format !== 'json'),
		...(options.bothEnds === true ? {quickMs: 0} : {}),
		signal,
		onRetry(notice) {
			progress.retry(notice);
		},
		doubt(page) {
			backFindings.add(page);
			return backFindings.total > 0 ? 'a page in the other order broke a contract rule' : undefined;
		},
		onDisagreement: disagreed,
		onOneChain() {
			progress.oneChain();
		},
	});
}

/** What a dump writes through: the output, the progress line, stderr's one voice. */
type Output = {
	controller: AbortController;
	sink: Sink;
	writer: Writer;
	progress: Progress;
	/** Writes a step's text; `mark`: the objects written in all once it is, and the last one's id. */
	writeData(text: string | Uint8Array, mark?: Mark): Promise<void>;
	say(line: string): void;
};

function openOutput(options: DumpOptions, io: CommandIo): Output {
	const controller = new AbortController();
	// Ctrl-C: stop the walk, but still close the document and say how to resume.
	options.signal?.addEventListener('abort', () => {
		controller.abort(options.signal!.reason);
	});
	const sink = new Sink(io.stdout, () => {
		controller.abort();
	}, {stderr: io.stderr});
	const writer = createWriter(options.format, {
		tty: io.stdout.isTTY === true,
		columns: io.stdout.columns,
		color: colourLevel(io.env, io.stdout.isTTY === true) > 0,
		fields: options.columns,
		formulaGuard: options.formulaGuard,
	});
	const progress = progressOn(io.stderr, io.env);
	// With stdout on a terminal too (most often the same one), the progress
	// line would sit where the next data lands and a \r redraw would overwrite
	// it: take the line down before every write of data; page() redraws it
	// below the data afterwards.
	const dataOnTerminal = io.stdout.isTTY === true;
	return {
		controller,
		sink,
		writer,
		progress,
		async writeData(text, mark) {
			if (dataOnTerminal && text.length > 0) {
				progress.clear();
			}

			await sink.write(text, mark);
		},
		say(line) {
			progress.clear();
			// The one way to stderr: no credential a server echoed survives it.
			io.stderr.write(`pagewalk: ${redact(line)}\n`);
		},
	};
}

/** How a walk went: how it ended (or failed), and what was written. */
type Walked = {end?: WalkEnd; failure?: unknown; written: number; lastId?: string; morePages: boolean; findings: WalkFindings; warnings: ServerWarnings};

/** Walks the list and writes each step as it comes; never throws (a failure is in the result). */
async function writeWalk(config: WalkConfig, options: DumpOptions, output: Output): Promise<Walked> {
	const {writer, progress, sink, say} = output;
	// The body bytes are kept for the writers that copy them (see exact-bytes.ts).
	const client = createClient(config, {keepBytes: writer.pageBytes !== undefined, sequential: true, lanes: 2});
	const walked: Walked = {written: 0, morePages: false, findings: new WalkFindings(), warnings: new ServerWarnings()};
	try {
		const steps = stepsOf(client, config, options, output.controller.signal, progress, reason => {
			const line = walked.findings.disagreement(reason);
			if (options.quiet !== true) {
				say(`contract: ${inertLine(line, 600)}`);
			}
		});
		try {
			for (;;) {
				// eslint-disable-next-line no-await-in-loop -- each page follows the link the previous one gave
				const step = await steps.next();
				if (step.done) {
					walked.end = step.value;
					break;
				}

				const item = step.value;
				if (item.chain !== 'replay') {
					walked.warnings.show(item.page, say);
				}

				if (item.chain === 'forward') {
					for (const line of walked.findings.add(item.page)) {
						if (options.quiet !== true) {
							say(`contract: ${inertLine(line, 300)}`);
						}
					}

					walked.morePages = item.page.nextUrl !== null;
				}

				if (item.chain === 'back') {
					progress.backPage(item.page, item.take);
					continue;
				}

				const out = stepData(item, writer, config.maxItems === null ? null : config.maxItems - walked.written);
				// eslint-disable-next-line no-await-in-loop -- pages are written in order, and the sink pushes back
				await output.writeData(out.data, {objects: walked.written + out.objects.length, lastId: out.objects.at(-1)?.id ?? walked.lastId});
				if (sink.gone || sink.failure) {
					break;
				}

				walked.written += out.objects.length;
				walked.lastId = out.objects.at(-1)?.id ?? walked.lastId;
				if (item.chain === 'forward') {
					progress.page(item.page, out.objects.length);
				} else {
					progress.replayed(out.objects.length);
				}
			}
		} finally {
			// Ends the walk (and cancels what it read ahead) when the loop left it early.
			await steps.return({kind: 'end'}).catch(() => {});
		}
	} catch (error: unknown) {
		walked.failure = error;
	} finally {
		await client.close().catch(() => {});
	}

	return walked;
}

/** The end of a dump on stderr (notes, findings, how it ended, how to resume) and its exit status. */
function finish(walked: Walked, options: DumpOptions, output: Output, io: CommandIo): number {
	const {say, progress} = output;
	const {written, lastId, failure, end, findings} = walked;
	progress.clear();
	for (const note of output.writer.notes()) {
		say(note);
	}

	const summary = findings.summary(() => again('dump-audit', options.line, {command: 'audit'}).phrase, options.quiet !== true);
	// --quiet keeps the findings off stderr, but not why --fail-on-findings makes the status 1.
	if (summary !== undefined && (options.quiet !== true || options.failOnFindings === true)) {
		say(summary);
	}

	const {unshown} = walked.warnings;
	if (unshown > 0) {
		// At least: a page's warnings past the first hundred are not read (see envelope.ts).
		say(`at least ${formatCount(unshown)} more ${unshown === 1 ? 'warning' : 'warnings'} from the server ${unshown === 1 ? 'was' : 'were'} not shown.`);
	}

	const resume = (event: string) => resumeHint(written, lastId, event, options.line);
	if (options.signal?.aborted) {
		say(resume('interruption') ?? 'interrupted before any object was written.');
		return interruptedExitCode(options.signal.reason);
	}

	if (failure !== undefined) {
		const {message} = describeError(failure);
		say(message);
		// Asking again helps only where the failure may pass (a dead server, a timeout); a 401 or 404 needs its own fix, which the message names.
		const retryable = !(failure instanceof PagewalkError) || failure.retryable;
		say(resume('failure') ?? (retryable ? 'no objects were written; run the same command again to retry.' : 'no objects were written.'));
		return 1;
	}

	if (end !== undefined) {
		if (!options.all && end.kind === 'max-pages') {
			if (walked.morePages) {
				// On a pipe the browser writes one page: dump is what walks them all (and --max-pages would stop it again).
				const all = again('dump-walk-all', options.line, {command: 'dump', set: {all: true}, drop: ['maxPages']}).action;
				say(`more pages follow: ${all} to walk them${lastId === undefined ? '' : `, or ${again('dump-next-page', options.line, afterId(lastId)).action} for the next page`}.`);
			}
		} else {
			const note = endNote(end, lastId, options.line);
			if (note !== undefined) {
				say(note);
			}
		}
	}

	if (io.stderr.isTTY === true) {
		io.stderr.write(`${progress.summary()}\n`);
	}

	return options.failOnFindings === true && findings.total > 0 ? 1 : 0;
}

export async function dump(config: WalkConfig, options: DumpOptions, io: CommandIo): Promise<number> {
	// Widths matter only for a table or a terminal: to a pipe, string-width is never loaded.
	if (options.format === 'table' || io.stdout.isTTY === true || io.stderr.isTTY === true) {
		await loadTextWidth();
	}

	const output = openOutput(options, io);
	const walked = await writeWalk(config, options, output);
	const {sink} = output;
	if (sink.gone) {
		// The reader went away (`| head`): what it wanted, it got.
		return 0;
	}

	await output.writeData(output.writer.end());
	// A device's write fails in its callback: the last one (a single page's) may not have called back yet.
	await sink.settled();
	if (sink.failure) {
		return writeFailed(sink, sink.failure, options, output);
	}

	return sink.gone ? 0 : finish(walked, options, output, io);
}

/**
 * A write that failed (a full disk, a file size limit, an I/O error): the
 * file ends with the last whole page and, for json, is closed where it can
 * be (Sink); stderr says why, and the flag that resumes after the last
 * object kept, appending to the same file where the format allows.
 */
function writeFailed(sink: Sink, failure: Error, options: DumpOptions, output: Output): number {
	sink.closeAfterFailure(objects => output.writer.end(objects));
	output.say(`${writeFailure(failure)}.`);
	const {objects, lastId} = sink.kept;
	// NDJSON continues in the same file; the other formats begin a document of their own (a header, an array).
	const how = sink.toFile ? (options.format === 'ndjson' ? ', appending (>>) to the same file' : ', writing to another file') : '';
	output.say(resumeHint(objects, lastId, 'failure', options.line, how) ?? 'no objects were written; run the same command again to retry.');
	return 1;
}

/**
 * A dump from parsed flags. With `bare`, this is the browser on a stdout
 * that is not a terminal (`pagewalk accounts | jq`): one page, from the
 * browser's flags (browse.tsx); --compare-env and --compare-profile, views of the screen, do nothing here.
 */
export async function dumpParsed(
	{input, flags}: ParsedArgs<typeof commands.dump.flags> | ParsedArgs<typeof commands.browse.flags>,
	io: CommandIo,
	options: {bare?: boolean; signal?: AbortSignal},
): Promise<number> {
	const format = flags.format ?? 'ndjson';
	if (!(formats as readonly string[]).includes(format)) {
		throw new UsageError(`--format must be one of ${formats.join(', ')}, not ${quoteValue(format)}.`);
	}

	// Checked before anything is sent, as every usage error is.
	const columns = parseColumnList(flags.columns);
	if (columns && format !== 'csv' && format !== 'table') {
		throw new UsageError(`--columns applies to ${flag(['dump', 'browse'], 'format', 'csv')} and table (and the browser); ${format} writes every field as sent.`);
	}

	refuseDumpPairs(flags, format);
	// The browser's bare mode (a pipe) takes the browser's flags: one page, none of these.
	const dumpFlags = options.bare === true ? undefined : flags as ParsedArgs<typeof commands.dump.flags>['flags'];
	const lists = dumpFlags && {output: dumpFlags.output, resume: dumpFlags.resume === true, concurrency: integer('concurrency', dumpFlags.concurrency, 1, maximumConcurrency)};
	if (lists?.resume === true && lists.output === undefined) {
		throw new UsageError(`${flagName('resume')} goes on with a walk written to a file: give the ${flagName('output')} FILE it was started with.`);
	}

	const config = await openConfig({input, flags, command: options.bare === true ? 'browse' : 'dump', env: io.env, warn: line => io.stderr.write(`pagewalk: ${line}\n`), everyAccount: lists !== undefined});
	try {
		refuseCursorInEndpoint(flags, config.query);
		const all = 'all' in flags && flags.all === true && options.bare !== true;
		const formulaGuard = !('noCsvGuard' in flags && flags.noCsvGuard === true);
		const quiet = 'quiet' in flags && flags.quiet === true;
		const failOnFindings = 'failOnFindings' in flags && flags.failOnFindings === true;
		const {oneChain, bothEnds} = chainFlags(flags);
		const line = {command: options.bare === true ? 'browse' as const : 'dump' as const, input, flags};
		const dumpOptions: DumpOptions = {all, format: format as Format, formulaGuard, signal: options.signal, columns, quiet, failOnFindings, oneChain, bothEnds, line};
		if (config.each !== undefined && lists !== undefined) {
			const problem = listsUsage(config);
			if (problem !== undefined) {
				throw new UsageError(problem);
			}

			// The format as used: `--format ndjson` and no --format write the same, and resume each other.
			const identity = identityOf(input[0] ?? 'accounts', flags as Record<string, unknown>);
			return await dumpLists(config, {...dumpOptions, each: config.each, concurrency: lists.concurrency ?? defaultConcurrency, output: lists.output, resume: lists.resume, identity}, io);
		}

		if (lists?.resume === true) {
			throw new UsageError(`${flagName('resume')} goes on with a walk of every account's list (transactions, addresses); a walk of one list goes on with ${flagName('startingAfter')}.`);
		}

		if (lists?.concurrency !== undefined) {
			throw new UsageError(`${flagName('concurrency')} applies to transactions and addresses, which walk a list of every account; one list is walked page after page.`);
		}

		return await (lists?.output === undefined ? dump(config, dumpOptions, io) : dumpToFile(config, dumpOptions, io, lists.output));
	} finally {
		await config.close();
	}
}

const flagName = (name: keyof typeof commands.dump.flags & string) => flag(['dump'], name);

/** One list to the file of -o, as `> FILE` would write it. */
async function dumpToFile(config: WalkConfig, options: DumpOptions, io: CommandIo, file: string): Promise<number> {
	let fd: number;
	try {
		fd = fs.openSync(file, 'w');
	} catch (error: unknown) {
		throw new UsageError(`Cannot write ${flagName('output')} ${inert(file)} (${inert((error as NodeJS.ErrnoException).code ?? String(error))}); give a file in a folder that exists and can be written.`);
	}

	const stream = fs.createWriteStream(file, {fd, autoClose: false});
	try {
		return await dump(config, options, {...io, stdout: stream});
	} finally {
		stream.destroy();
		fs.closeSync(fd);
	}
}

/** `pagewalk dump`, with its streams passed in so tests can run it in process. */
export async function runDump(argv: string[], io: CommandIo, options: {signal?: AbortSignal} = {}): Promise<number> {
	const parsed = await parseCommandLine(argv, commands.dump, help, commandOutput(io.stdout, io.stderr));
	return parsed === undefined ? 0 : dumpParsed(parsed, io, options);
}

/** Runs `dump` as the CLI does; Ctrl-C stops the walk but still closes the output. */
async function onProcess(dumpIt: (signal: AbortSignal) => Promise<number>): Promise<number> {
	const interrupt = new AbortController();
	const release = abortOnStopSignals(interrupt);
	try {
		return await dumpIt(interrupt.signal);
	} finally {
		release();
	}
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
	return onProcess(async signal => runDump(argv, io, {signal}));
}

/** The browser's bare mode: the first page of `pagewalk [endpoint]` on a pipe, from the browser's parsed flags. */
export async function runBare(parsed: ParsedArgs<typeof commands.browse.flags>, io: CommandIo): Promise<number> {
	return onProcess(async signal => dumpParsed(parsed, io, {bare: true, signal}));
}
