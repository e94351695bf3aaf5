/**
 * Where `w` and `W` write, and what a failure says: pure, so the naming and
 * every sentence are tested without a file system. The writing itself is
 * the browse command's (commands/browse/copy-save.ts); the browser only asks.
 */
import path from 'node:path';
import {inert} from '../../text/inert.js';
import {cutToWidth} from '../../text/text-width.js';
import {typeAgain} from '../keys/keymap.js';
import type {SaveWhat} from '../stack/types.js';

/** Advice to type a name, naming the key of the prompt the name goes in (w or W): that prompt has closed. */
function retype(what: SaveWhat, words: string): string {
	return typeAgain(what === 'page' ? 'save-page' : 'save-walk', words);
}

export function noFileName(what: SaveWhat): string {
	return `No file name typed, so nothing was written; ${retype(what, 'one')}.`;
}

/** The file a typed name means: `~` and `~/…` expand to `home`, a relative name is taken from `cwd`. */
export function savePath(name: string, cwd: string, home: string | undefined, what: SaveWhat = 'page'): {path: string} | {error: string} {
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
export function saveErrorSentence(error: unknown, name: string, where?: FolderFact, what: SaveWhat = 'page'): string {
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
export function notAFileSentence(name: string, kind: 'device' | 'pipe' | 'socket' | 'other', what: SaveWhat = 'page'): string {
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
