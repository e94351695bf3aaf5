/**
 * `E` in the browser: every account's transactions (or addresses) to a file,
 * the walk of `pagewalk dump transactions --all -o FILE` (dump-lists.ts,
 * writeLists: the same walk, writer and state beside the file), run through
 * the browser's one client: its rate budget and its connections shared with
 * the pages the user asks for meanwhile (the lists on lanes of their own,
 * http-client.ts). The browser hands over a job and gets a result back; the
 * file system, the walk and the dump command line that goes on with it stay
 * here, with the command.
 *
 * A name that is there already is never written over unasked: the answer is
 * `exists` (with whether an unfinished export is beside it), and the user's
 * yes comes back as a job that goes on with it or writes over it. A new file
 * is made with O_EXCL (`wx`) before the walk starts, so one that appears
 * between the question and the write is not written over either.
 */
import fs from 'node:fs';
import {open, stat} from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import {Writable} from 'node:stream';
import {again, commandTakes, type UserLine} from '../../config/hints.js';
import type {WalkConfig} from '../../config/options.js';
import type {PageClient} from '../../http/http-client.js';
import {ListsJournal} from '../../http/every-account/lists-journal.js';
import {Progress} from '../../output/progress.js';
import {describeError} from '../../text/report-error.js';
import {redact} from '../../text/secret.js';
import type {ExportJob} from '../../browser/actions/effects.js';
import {exportStoppedNote, notAFileSentence, saveErrorSentence, savePath, type ExportResult} from '../../browser/actions/save-path.js';
import type {ExportLists} from '../../components/use-tasks.js';
import {defaultConcurrency} from '../../http/every-account/account-lists.js';
import {identityOf, writeLists, type ListsDumpOptions, type Tally} from '../dump/dump-lists.js';

export type ExportSetup = {
	/** The browser's walk: the credential, the server, the order and limit the export takes too. */
	config: WalkConfig;
	/** The browser's one client (its lanes: laneCount(defaultConcurrency)). */
	client: PageClient;
	/** The browser's command line, which the dump line that goes on with an export is made from. */
	line: UserLine;
	env: Record<string, string | undefined>;
	cwd?: string;
	home?: string | undefined;
};

/**
 * The flags of the browser's line that a dump of every account's lists does
 * not carry: the bounds and cursors of one list (the export is every
 * account's, whole), the table's columns and formats (it is ndjson), and
 * --api, which makes `transactions` one path rather than every account's.
 */
const notCarried = ['maxPages', 'maxItems', 'startingAfter', 'endingBefore', 'columns', 'format', 'api'] as const;

/** The dump line of an export: the browser's line as dump takes it, for every account's `each` to `file`, going on with it. */
function dumpLine(line: UserLine, each: ExportJob['each'], file: string) {
	return {command: 'dump' as const, endpoint: each, set: {all: true, output: file, resume: true}, drop: notCarried};
}

/** What the dump line's flags shape of the output (dump-lists.ts identityOf): a resume from that line is the same walk. */
function identity(line: UserLine, each: ExportJob['each']): Record<string, unknown> {
	const flags: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(line.flags)) {
		if (value !== undefined && commandTakes('dump', name) && !(notCarried as readonly string[]).includes(name)) {
			flags[name] = value;
		}
	}

	return identityOf(each, {...flags, all: true});
}

/** Writes nothing: a writer's stdout that the file of the export stands in for. */
const nowhere = () => new Writable({
	write(_chunk, _encoding, done) {
		done();
	},
});

/** The browser's port for E, and what the command says once the browser has closed: exports stopped short, and how to go on with each. */
export function exportPort(setup: ExportSetup): {exportLists: ExportLists; settled(): Promise<void>; lastWords(): string[]} {
	const running = new Set<Promise<unknown>>();
	// By file: the last word on each export stopped short, dropped once one to the same file ends.
	const unfinished = new Map<string, string>();
	const exportLists: ExportLists = async (job, options) => {
		const run = exportTo(setup, job, options);
		running.add(run);
		try {
			const {result, file} = await run;
			if (result.kind === 'stopped') {
				unfinished.set(file, exportStoppedNote({name: job.name, ...result}));
			} else if (result.kind === 'written') {
				unfinished.delete(file);
			}

			return result;
		} finally {
			running.delete(run);
		}
	};

	return {
		exportLists,
		async settled() {
			await Promise.allSettled([...running]);
		},
		lastWords: () => [...unfinished.values()],
	};
}

/** What a name that cannot be an export's file says, or undefined: a folder, a device, a pipe is never written to. */
async function notAFile(file: string, name: string): Promise<string | undefined> {
	const existing = await stat(file).catch(() => undefined);
	if (existing?.isDirectory()) {
		return saveErrorSentence(Object.assign(new Error('is a folder'), {code: 'EISDIR'}), name, undefined, 'export');
	}

	if (existing && !existing.isFile()) {
		const kind = existing.isCharacterDevice() || existing.isBlockDevice() ? 'device' : existing.isFIFO() ? 'pipe' : existing.isSocket() ? 'socket' : 'other';
		return notAFileSentence(name, kind, 'export');
	}

	return undefined;
}

/** The file made, empty and new (O_EXCL), or why not: there already, or the file system's one sentence. */
async function create(file: string, name: string): Promise<ExportResult | undefined> {
	try {
		const handle = await open(file, 'wx');
		await handle.close();
		return undefined;
	} catch (error: unknown) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
			return {kind: 'exists', resumable: ListsJournal.exists(file)};
		}

		const folder = path.dirname(file);
		const found = (error as NodeJS.ErrnoException).code === 'ENOENT' ? await stat(folder).catch(() => undefined) : undefined;
		return {kind: 'failed', message: saveErrorSentence(error, name, found === undefined ? undefined : {folder, exists: found.isDirectory()}, 'export')};
	}
}

async function exportTo(setup: ExportSetup, job: ExportJob, {signal, onProgress, onRetry}: Parameters<ExportLists>[1]): Promise<{result: ExportResult; file: string}> {
	const target = savePath(job.name, setup.cwd ?? process.cwd(), 'home' in setup ? setup.home : setup.env['HOME'], 'export');
	if ('error' in target) {
		return {result: {kind: 'failed', message: target.error}, file: ''};
	}

	const file = target.path;
	const refused = await notAFile(file, job.name);
	if (refused !== undefined) {
		return {result: {kind: 'failed', message: refused}, file};
	}

	if (job.mode === 'new') {
		// The file, or an unfinished export's state without it: asked about, never written over.
		const made = ListsJournal.exists(file) ? {kind: 'exists' as const, resumable: true} : await create(file, job.name);
		if (made) {
			return {result: made, file};
		}
	}

	const said: string[] = [];
	const {config, line} = setup;
	const options: ListsDumpOptions = {
		all: true,
		format: 'ndjson',
		signal,
		line: {command: 'dump', input: [job.each], flags: {}},
		each: job.each,
		concurrency: defaultConcurrency,
		output: file,
		resume: job.mode === 'resume',
		identity: identity(line, job.each),
	};
	// Every account's lists from the accounts list, whole: as the dump line would walk them.
	const exportConfig: WalkConfig = {...config, each: job.each, query: {...(config.query.limit === undefined ? {} : {limit: config.query.limit}), ...(config.query.order === undefined ? {} : {order: config.query.order})}, extraQuery: [], maxPages: null, maxItems: null};
	let ended;
	try {
		ended = await writeLists(exportConfig, options, {stdout: nowhere(), stderr: nowhere(), env: setup.env}, {
			say(text) {
				said.push(redact(text));
			},
			progress: new Progress(undefined),
			host: {client: setup.client, onProgress, onRetry},
		});
	} catch (error: unknown) {
		// Before anything was written: the state beside the file is not this walk's, or the file cannot be opened.
		if (job.mode === 'new') {
			fs.rmSync(file, {force: true});
		}

		return {result: {kind: 'failed', message: describeError(error).message}, file};
	}

	const {tally} = ended;
	if (ended.how === 'done') {
		return {result: {kind: 'written', objects: tally.objects, lists: tally.listsDone, failed: tally.failed.map(({list, reason}) => ({account: list.account, reason})), said}, file};
	}

	const why = ended.how === 'interrupted' ? null : ended.how === 'write-failed' ? saveErrorSentence(ended.failure, job.name, undefined, 'export') : describeError(tally.failure).message;
	return {result: stoppedResult(setup, job, file, tally, why, said), file};
}

/** An export stopped short: what was written whole, and the dump line that goes on with it (none under --demo: its sandbox ends with the browser). */
function stoppedResult(setup: ExportSetup, job: ExportJob, file: string, tally: Tally, why: string | null, said: string[]): ExportResult {
	const resume = setup.config.demo ? null : again('browse-export-resume', setup.line, dumpLine(setup.line, job.each, file)).phrase;
	return {kind: 'stopped', why, objects: tally.objects - tally.partObjects, lists: tally.listsDone, total: tally.total, known: tally.known, resume, said};
}
