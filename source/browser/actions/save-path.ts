/**
 * Where `w` and `W` write, and what a failure says: pure, so the naming and
 * every sentence are tested without a file system. The writing itself is
 * the browse command's (commands/browse/copy-save.ts); the browser only asks.
 */
import path from 'node:path';
import {inert} from '../../text/inert.js';
import {cutToWidth} from '../../text/text-width.js';
import {firstKey, typeAgain} from '../keys/keymap.js';
import {formatCount} from '../../text/format-count.js';
import type {SaveWhat} from '../stack/types.js';

/** What a name is typed for: `w`'s page, `W`'s walk, or `E`'s export of every account's lists. */
export type Written = SaveWhat | 'export';

/** Advice to type a name, naming the key of the prompt the name goes in (w, W or E): that prompt has closed. */
function retype(what: Written, words: string): string {
	return typeAgain(what === 'page' ? 'save-page' : what === 'walk' ? 'save-walk' : 'export-lists', words);
}

export function noFileName(what: Written): string {
	return `No file name typed, so nothing was written; ${retype(what, 'one')}.`;
}

/** The file a typed name means: `~` and `~/…` expand to `home`, a relative name is taken from `cwd`. */
export function savePath(name: string, cwd: string, home: string | undefined, what: Written = 'page'): {path: string} | {error: string} {
	const typed = name.trim();
	if (typed === '') {
		return {error: noFileName(what)};
	}

	// A name ending in / names a folder: resolving it would drop the slash and write a file of that name.
	if (typed.endsWith('/') || typed.endsWith(`${path.sep}`)) {
		return {error: `Cannot write ${shownName(typed)}: a name ending in / is a folder; ${retype(what, 'a file name after it')}.`};
	}

	if (typed === '~' || typed.startsWith('~/')) {
		if (home === undefined || home === '') {
			return {error: `Cannot expand ~ in ${shownName(typed)}: HOME is not set; ${retype(what, 'the full path')}.`};
		}

		return {path: path.resolve(home, typed.slice(2))};
	}

	return {path: path.resolve(cwd, typed)};
}

/** A file name for the status line: quoted only when it holds a space, inert, cut in the middle. */
export function shownName(name: string): string {
	const text = cutToWidth(inert(name), 48, {position: 'middle'});
	return /\s/.test(name) ? `'${text}'` : text;
}

/** The question when the file is there already. */
/** `yes`: the key that says yes, as the keymap shows it. */
export function overwriteQuestion(name: string, yes = 'y'): string {
	return `overwrite ${shownName(name)}? ${yes}/n`;
}

/**
 * What the file system says of the folder a file was to be made in, when
 * the open answered "no such file" (ENOENT): that answer also comes from a
 * folder that is there but takes no new files (/proc, /sys).
 */
export type FolderFact = {folder: string; exists: boolean};

/** What a failed write says, in one sentence naming the file; nothing on screen is lost. */
export function saveErrorSentence(error: unknown, name: string, where?: FolderFact, what: Written = 'page'): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const file = shownName(name);
	switch (code) {
		case 'ENOENT': {
			return where?.exists
				? `Cannot write ${file}: its folder ${shownName(where.folder)} is there but takes no new files (the system answers "no such file"); choose another folder.`
				: `Cannot write ${file}: its folder does not exist; create it, or ${retype(what, 'another name')}.`;
		}

		case 'ELOOP': {
			return `Cannot write ${file}: its path goes round in a loop of symbolic links; ${retype(what, 'another name')}.`;
		}

		case 'ENOTDIR': {
			return `Cannot write ${file}: part of its path is a file, not a folder; ${retype(what, 'another name')}.`;
		}

		case 'EISDIR': {
			return `Cannot write ${file}: it is a folder; ${retype(what, 'a file name')}.`;
		}

		case 'EACCES':
		case 'EPERM': {
			return `Cannot write ${file}: permission denied; choose a folder you can write to.`;
		}

		case 'EROFS': {
			return `Cannot write ${file}: the file system is read-only; choose another folder.`;
		}

		case 'ENOSPC':
		case 'EDQUOT': {
			return `Cannot write ${file}: the disk is full; free some space or choose another disk.`;
		}

		case 'EFBIG': {
			return `Cannot write ${file}: it would pass the file size limit (ulimit -f); raise the limit or choose another disk.`;
		}

		case 'ENAMETOOLONG': {
			return `Cannot write ${file}: the name is too long; ${retype(what, 'a shorter one')}.`;
		}

		default: {
			const reason = error instanceof Error ? error.message : String(error);
			return `Cannot write ${file}: ${inert(cutToWidth(reason, 80))}.`;
		}
	}
}

/** What a name that is there but is no regular file (a device, a pipe, a socket) says: it is never written over. */
export function notAFileSentence(name: string, kind: 'device' | 'pipe' | 'socket' | 'other', what: Written = 'page'): string {
	const thing = kind === 'device' ? 'a device' : kind === 'pipe' ? 'a named pipe' : kind === 'socket' ? 'a socket' : 'not a regular file';
	return `Cannot write ${shownName(name)}: it is ${thing}, not a file to write over; ${retype(what, 'a file name')}.`;
}

/** The note after a write: `wrote 25 objects to out.ndjson`, for a walk with its pages and those fetched again. */
export function wroteNote(name: string, counts: {objects: number; pages: number; refetched: number}, walk: boolean): string {
	const objects = `${counts.objects} object${counts.objects === 1 ? '' : 's'}`;
	if (!walk) {
		return `wrote ${objects} to ${shownName(name)}`;
	}

	const again = counts.refetched > 0 ? `, ${counts.refetched} fetched again (the list may have changed since)` : '';
	return `wrote ${objects} from ${counts.pages} page${counts.pages === 1 ? '' : 's'} to ${shownName(name)}${again}`;
}

/**
 * What the browse command's writer answers: the counts written, that the
 * file exists (asked before anything is written, so the user can say
 * whether to overwrite it), or the one sentence of a failure.
 */
export type SaveResult = {kind: 'written'; objects: number; pages: number} | {kind: 'exists'} | {kind: 'failed'; message: string};

/** A list of the export that failed: its account, and why (one sentence, inert and redacted, as dump says it). */
export type FailedList = {account: string; reason: string};

/**
 * What the browse command's export of every account's lists answers (E;
 * commands/browse/export-lists.ts): written to its end (some lists may have
 * failed, the others written), the file there already (asked before anything
 * is written: overwrite it, or go on with the unfinished export beside it),
 * stopped short (Ctrl-C, or a failure every list meets) with the file and
 * its state kept to go on with, or the one sentence of a failure that wrote
 * nothing. `resume`: the dump command line that goes on with it, where one
 * can (not under --demo, whose sandbox ends with the browser). `said`: what
 * dump says on stderr meanwhile (each failed list, contract findings), for
 * the debug view.
 */
export type ExportResult =
	| {kind: 'written'; objects: number; lists: number; failed: FailedList[]; said: string[]}
	| {kind: 'exists'; resumable: boolean}
	| {kind: 'stopped'; why: string | null; objects: number; lists: number; total: number | undefined; known: number; resume: string | null; said: string[]}
	| {kind: 'failed'; message: string};

function counted(count: number, one: string, many: string): string {
	return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** `wrote 21,791 objects of 300 lists to transactions.ndjson`; failed lists named (the first few) and where each is said: the debug view. */
export function exportedNote({name, objects, lists, failed, failedCount}: {name: string; objects: number; lists: number; failed: readonly string[]; failedCount: number}): string {
	const wrote = `wrote ${counted(objects, 'object', 'objects')} of ${counted(lists, 'list', 'lists')} to ${shownName(name)}`;
	if (failedCount === 0) {
		return wrote;
	}

	const named = failed.map(account => inert(cutToWidth(account, 24))).join(', ') + (failedCount > failed.length ? ', …' : '');
	return `${wrote}; ${counted(failedCount, 'list', 'lists')} failed (${failedCount === 1 ? 'account' : 'accounts'} ${named}; ${firstKey('debug')} says why), the others written`;
}

/**
 * An export stopped short (Ctrl-C, or `why`, a failure every list meets):
 * what was written whole, kept with its state beside it, and how to go on:
 * E with the same name, or `resume`, the dump command line, where there is one.
 */
export function exportStoppedNote({name, why, objects, lists, total, known, resume}: {name: string; why: string | null; objects: number; lists: number; total: number | undefined; known: number; resume: string | null}): string {
	const stopped = why === null ? `export stopped (${firstKey('interrupt')})` : `export stopped: ${why.replace(/\.$/, '')}`;
	// The accounts list not read to its end: the lists known so far.
	const of = `${formatCount(lists)} of ${total === undefined ? `at least ${counted(known, 'list', 'lists')}` : counted(total, 'list', 'lists')}`;
	const goOn = `${firstKey('export-lists')} and the same name goes on with it${resume === null ? '' : `, or run ${resume}`}`;
	return `${stopped}; ${of} (${counted(objects, 'object', 'objects')}) written whole to ${shownName(name)}, kept to go on with: ${goOn}`;
}

/** E off the account API's accounts list. */
export function exportWhere(): string {
	return `${firstKey('export-lists')} exports every account's lists from the account API's accounts list (/v2/accounts), which this list is not.`;
}

/** E, or the question's y, while an export runs. */
export function exportBusy(): string {
	return `An export is running (${firstKey('interrupt')} stops it); press ${firstKey('export-lists')} again once it is done.`;
}
