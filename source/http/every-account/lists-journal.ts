import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {UsageError} from '../../text/errors.js';
import {inert} from '../../text/inert.js';
import type {WalkEnd} from '../../contract/types.js';
import type {ListOutcome, ListRef, ListsResume, WaitingList} from './account-lists.js';
import type {SpoolChunk} from '../page-spool.js';

/**
 * The state of a walk of every account's lists written to a file (dump -o
 * FILE), kept beside it in the folder FILE.pagewalk so that --resume goes on
 * where the walk stopped, however it stopped (a signal, SIGKILL, a crash, a
 * lost connection), and ends the file byte for byte as a walk never stopped
 * would (docs/dump.md#every-account).
 *
 * `journal`: one JSON line per event, only ever appended, so a process
 * killed mid-write leaves at most a torn last line, which is dropped. The
 * first line says what walk it is (the command's flags that shape the
 * output, the server, the credential's source, never a secret); then, in
 * the order they happen: account ids as the accounts list gives them;
 * that list's end; each list finished before the lists ahead of it were
 * written (where its pages lie in `spool`); each list written whole to the
 * file, with the file's length and object count after it. `spool`: the
 * pages of those waiting lists (page-spool.ts). `lock`: the process that
 * holds the walk, so that a second run on the same file is refused rather
 * than writing over the first; a lock whose process is gone (SIGKILL, a
 * crash) is taken over.
 *
 * A resume cuts the file back to the length of the last list written whole,
 * reads the waiting lists back from the spool, walks the accounts list on
 * after the last id it holds, and walks every other list again.
 */

/** What a walk is: resumed only by the same. Values are the flags as given (null when absent), the server, the credential's source. */
export type JournalHeader = {command: Record<string, unknown>; server: string; credential: string};

/** The state of the writer after a list (the csv header's columns, whether a JSON array was begun), to write on as it would have. */
export type WriterState = unknown;

/**
 * The last list written whole: the file holds it and every list before it,
 * `bytes` long, ending with `tail` (its last bytes, base64), by which a
 * resume knows the file is still the one the walk wrote.
 */
export type WrittenMark = {index: number; bytes: number; objects: number; writer: WriterState; tail: string};

/** A walk's state read back: where to go on, and what the lists written so far said (their failures, their ends). */
export type JournalState = ListsResume & {
	written: WrittenMark | undefined;
	/** The lists written whole, each with its outcome, for the end's summary (failures, ends other than the list's end). */
	outcomes: Array<{list: ListRef; outcome: ListOutcome}>;
	accountsEnd: WalkEnd | undefined;
};

const format = 'pagewalk every-account walk';
const version = 1;

/** The state folder of an output file. */
export function stateFolderOf(output: string): string {
	return `${output}.pagewalk`;
}

type Line =
	| {accounts: string[]; from: number}
	| {accountsEnded: number; end: WalkEnd}
	| {waiting: number; account: string; chunks: number[]; objects: number; outcome: ListOutcome}
	| {written: number; account: string; bytes: number; objects: number; writer: WriterState; tail: string; outcome: ListOutcome};

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEnd = (value: unknown): value is WalkEnd => isRecord(value) && typeof value['kind'] === 'string';
const isOutcome = (value: unknown): value is ListOutcome => isRecord(value) && (isEnd(value['end']) || typeof value['failure'] === 'string');

/** Whether a journal line (after the first) has the shape its kind says: anything else is a damaged journal, never a crash. */
function wellFormed(line: unknown): line is Line {
	if (!isRecord(line)) {
		return false;
	}

	if ('accounts' in line) {
		return Array.isArray(line['accounts']) && line['accounts'].every(id => typeof id === 'string') && isCount(line['from']);
	}

	if ('accountsEnded' in line) {
		return isCount(line['accountsEnded']) && isEnd(line['end']);
	}

	const chunks = line['chunks'];
	if ('waiting' in line) {
		return isCount(line['waiting']) && typeof line['account'] === 'string' && Array.isArray(chunks) && chunks.length % 2 === 0 && chunks.every(isCount) && isCount(line['objects']) && isOutcome(line['outcome']);
	}

	return 'written' in line && isCount(line['written']) && typeof line['account'] === 'string' && isCount(line['bytes']) && isCount(line['objects'])
		&& (line['writer'] === undefined || isRecord(line['writer'])) && typeof line['tail'] === 'string' && isOutcome(line['outcome']);
}

function flatChunks(chunks: readonly SpoolChunk[]): number[] {
	return chunks.flatMap(chunk => [chunk.offset, chunk.length]);
}

function chunksOf(flat: readonly number[]): SpoolChunk[] {
	const chunks: SpoolChunk[] = [];
	for (let index = 0; index + 1 < flat.length; index += 2) {
		chunks.push({offset: flat[index]!, length: flat[index + 1]!});
	}

	return chunks;
}

/** The first difference between what a walk was and what is asked, as the refusal names it; undefined when they agree. */
function difference(was: JournalHeader, now: JournalHeader): string | undefined {
	const shown = (value: unknown) => (value === null || value === undefined ? 'not given' : inert(JSON.stringify(value).slice(0, 80)));
	for (const key of new Set([...Object.keys(was.command), ...Object.keys(now.command)])) {
		const before = was.command[key] ?? null;
		const after = now.command[key] ?? null;
		if (JSON.stringify(before) !== JSON.stringify(after)) {
			return `${key.startsWith('-') ? key : `the ${key}`} was ${shown(before)}, now ${shown(after)}`;
		}
	}

	if (was.server !== now.server) {
		return `the server was ${inert(was.server)}, now ${inert(now.server)}`;
	}

	if (was.credential !== now.credential) {
		return `the credential came from ${inert(was.credential)}, now from ${inert(now.credential)}`;
	}

	return undefined;
}

/** Whether the process a lock names may still be running: on this host, unless the system says it is gone; on another, it cannot be told. */
function holderAlive(holder: {pid?: unknown; host?: unknown}): boolean {
	if (holder.host !== os.hostname() || typeof holder.pid !== 'number') {
		return holder.host !== os.hostname();
	}

	try {
		process.kill(holder.pid, 0);
		return true;
	} catch (error: unknown) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Takes the lock of the state folder for this process: refused (one
 * sentence) while another running process holds it; taken over from one
 * that is gone.
 */
function lock(folder: string, output: string): void {
	const file = path.join(folder, 'lock');
	const mine = JSON.stringify({pid: process.pid, host: os.hostname()});
	for (let attempt = 0; ; attempt++) {
		try {
			fs.writeFileSync(file, mine, {flag: 'wx', mode: 0o600});
			return;
		} catch (error: unknown) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}

		let holder: {pid?: unknown; host?: unknown} = {};
		try {
			holder = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof holder;
		} catch {}

		if (attempt > 0 || holderAlive(holder)) {
			const who = typeof holder.pid === 'number' ? ` (process ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${inert(String(holder.host))}`})` : '';
			throw new UsageError(`${inert(output)} is being written by another pagewalk${who}; wait for it to end, or stop it, then run the command again (if no such process runs, remove ${inert(file)}).`);
		}

		fs.rmSync(file, {force: true});
	}
}

export class ListsJournal {
	readonly folder: string;
	readonly spoolFile: string;
	readonly #fd: number;

	private constructor(folder: string, fd: number) {
		this.folder = folder;
		this.spoolFile = path.join(folder, 'spool');
		this.#fd = fd;
	}

	/** Whether `output` has a walk's state beside it (or something there that cannot be read, which a resume then names). */
	static exists(output: string): boolean {
		try {
			fs.statSync(path.join(stateFolderOf(output), 'journal'));
			return true;
		} catch (error: unknown) {
			const {code} = error as NodeJS.ErrnoException;
			return code !== 'ENOENT' && code !== 'ENOTDIR';
		}
	}

	/**
	 * Starts the state of a new walk beside `output`. What a walk may leave
	 * there without a journal (a lock of a process gone, a spool) is
	 * removed; anything else is refused, never removed: the folder's name is
	 * the user's too. A folder another run holds is refused (lock).
	 */
	static start(output: string, header: JournalHeader, flags: {output: string}): ListsJournal {
		const folder = stateFolderOf(output);
		let made = false;
		try {
			fs.mkdirSync(folder, {mode: 0o700});
			made = true;
		} catch (error: unknown) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}

		const taken = (what: string) => new UsageError(`${inert(folder)}, where the walk would keep its state, ${what}; move it away, or give ${flags.output} another file.`);
		if (!made && !fs.lstatSync(folder).isDirectory()) {
			throw taken('is not a folder');
		}

		lock(folder, output);
		if (!made) {
			fs.rmSync(path.join(folder, 'spool'), {force: true});
			if (fs.readdirSync(folder).some(name => name !== 'lock')) {
				fs.rmSync(path.join(folder, 'lock'), {force: true});
				throw taken('holds files pagewalk did not put there');
			}
		}

		const fd = fs.openSync(path.join(folder, 'journal'), 'a', 0o600);
		const journal = new ListsJournal(folder, fd);
		journal.#append({pagewalk: format, version, ...header});
		return journal;
	}

	/**
	 * The state of the walk beside `output`, to go on with: refused (a
	 * UsageError, one sentence) when there is none, when it is damaged, or
	 * when it is another walk than `header` says (another command, server or
	 * credential).
	 */
	static resume(output: string, header: JournalHeader, flags: {resume: string; output: string}): {journal: ListsJournal; state: JournalState} {
		const folder = stateFolderOf(output);
		if (!ListsJournal.exists(output)) {
			throw new UsageError(`${inert(output)} holds something, but no unfinished walk is beside it (no ${inert(folder)}) to go on with; run the same command without ${flags.resume} to write it again.`);
		}

		lock(folder, output);
		try {
			return ListsJournal.#read(output, header, flags);
		} catch (error: unknown) {
			fs.rmSync(path.join(folder, 'lock'), {force: true});
			throw error;
		}
	}

	static #read(output: string, header: JournalHeader, flags: {resume: string; output: string}): {journal: ListsJournal; state: JournalState} {
		const folder = stateFolderOf(output);
		const file = path.join(folder, 'journal');
		const shownOutput = inert(output);
		const text = fs.readFileSync(file, 'utf8');

		// A torn last line (a process killed mid-write) is dropped: what it said never happened.
		const whole = text.lastIndexOf('\n') + 1;
		const lines = text.slice(0, whole).split('\n').slice(0, -1);
		const damaged = () => new UsageError(`The state of the walk beside ${shownOutput} is damaged; remove ${inert(folder)} and run the command again without ${flags.resume}.`);
		let first: (JournalHeader & {pagewalk?: unknown; version?: unknown}) | undefined;
		try {
			first = lines.length > 0 ? JSON.parse(lines[0]!) as JournalHeader & {pagewalk?: unknown; version?: unknown} : undefined;
		} catch {}

		if (first?.pagewalk !== format || first.version !== version || !isRecord(first.command) || typeof first.server !== 'string' || typeof first.credential !== 'string') {
			throw damaged();
		}

		const different = difference(first, header);
		if (different !== undefined) {
			throw new UsageError(`The unfinished walk beside ${shownOutput} is another walk (${different}); run the command it was started with and ${flags.resume}, or remove ${inert(folder)} to start over.`);
		}

		const state: JournalState = {accounts: [], accountsEnded: false, next: 0, waiting: new Map(), written: undefined, outcomes: [], accountsEnd: undefined};
		const accounts: string[] = [];
		const waiting = new Map<number, WaitingList>();
		const spoolSize = fs.statSync(path.join(folder, 'spool'), {throwIfNoEntry: false})?.size ?? 0;
		for (const raw of lines.slice(1)) {
			let line: unknown;
			try {
				line = JSON.parse(raw);
			} catch {
				throw damaged();
			}

			if (!wellFormed(line)) {
				throw damaged();
			}

			if ('accounts' in line) {
				if (line.from !== accounts.length) {
					throw damaged();
				}

				accounts.push(...line.accounts);
			} else if ('accountsEnded' in line) {
				state.accountsEnded = true;
				state.accountsEnd = line.end;
			} else if ('waiting' in line) {
				if (line.account !== accounts[line.waiting] || chunksOf(line.chunks).some(chunk => chunk.offset + chunk.length > spoolSize)) {
					throw damaged();
				}

				waiting.set(line.waiting, {account: line.account, chunks: chunksOf(line.chunks), objects: line.objects, outcome: line.outcome});
			} else {
				if (line.written !== state.next || line.account !== accounts[line.written] || line.bytes < (state.written?.bytes ?? 0) || line.objects < (state.written?.objects ?? 0)) {
					throw damaged();
				}

				state.written = {index: line.written, bytes: line.bytes, objects: line.objects, writer: line.writer, tail: line.tail};
				state.outcomes.push({list: {index: line.written, account: line.account}, outcome: line.outcome});
				waiting.delete(line.written);
				state.next = line.written + 1;
			}
		}

		fs.truncateSync(file, whole);
		const fd = fs.openSync(file, 'a', 0o600);
		return {journal: new ListsJournal(folder, fd), state: {...state, accounts, waiting}};
	}

	accounts(ids: readonly string[], from: number): void {
		this.#append({accounts: ids, from});
	}

	accountsEnded(count: number, end: WalkEnd): void {
		this.#append({accountsEnded: count, end});
	}

	waiting(list: ListRef, waiting: WaitingList): void {
		this.#append({waiting: list.index, account: list.account, chunks: flatChunks(waiting.chunks), objects: waiting.objects, outcome: waiting.outcome});
	}

	written(list: ListRef, mark: Omit<WrittenMark, 'index'>, outcome: ListOutcome): void {
		this.#append({written: list.index, account: list.account, ...mark, outcome});
	}

	/** The walk stops here: its state stays, for --resume, and its lock goes. */
	close(): void {
		fs.closeSync(this.#fd);
		fs.rmSync(path.join(this.folder, 'lock'), {force: true});
	}

	/** The walk is done: its state goes. */
	remove(): void {
		this.close();
		fs.rmSync(this.folder, {recursive: true, force: true});
	}

	#append(line: Record<string, unknown>): void {
		const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
		let done = 0;
		while (done < bytes.length) {
			done += fs.writeSync(this.#fd, bytes, done, bytes.length - done);
		}
	}
}
