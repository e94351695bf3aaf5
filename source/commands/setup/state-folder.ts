/**
 * pagewalk's state folder: what it keeps between runs (the column choices,
 * the sandbox's key files). Made one level at a time, never with mkdir's
 * recursive mode (on a file system that refuses a new folder with ENOENT,
 * such as /proc, Node's recursive mkdir retries for ever), and every
 * problem is one sentence naming the folder and what is wrong.
 *
 * The levels above the state folder, and the state folder itself if it is
 * there, are the user's: a link among them is followed, as a user may keep
 * state elsewhere on purpose. Each level pagewalk makes, and each one it
 * names inside the state folder (sandbox-keys, seed-N), must be a real
 * folder: a symbolic link found there is refused, never followed, so no
 * one can send pagewalk's files where the link points.
 */
import {lstatSync, mkdirSync, statSync, type Stats} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {UsageError} from '../../text/errors.js';
import {quotePath} from '../../config/profiles.js';

/** The environment the state folder is found from (a command's `io.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** pagewalk's state folder: $PAGEWALK_STATE_DIR (tests), else $XDG_STATE_HOME/pagewalk, else ~/.local/state/pagewalk. */
export function stateDirectory(env: Env): string {
	const own = env['PAGEWALK_STATE_DIR'];
	if (own) {
		return own;
	}

	const xdg = env['XDG_STATE_HOME'];
	const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env['HOME'] ?? homedir(), '.local', 'state');
	return path.join(base, 'pagewalk');
}

function fixFor(env: Env): string {
	return env['PAGEWALK_STATE_DIR'] ? 'set PAGEWALK_STATE_DIR to a folder pagewalk can write' : 'set XDG_STATE_HOME (or PAGEWALK_STATE_DIR) to a folder pagewalk can write';
}

function reasonOf(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case 'EROFS': {
			return 'the file system is read-only';
		}

		case 'EACCES':
		case 'EPERM': {
			return 'permission denied';
		}

		case 'ENOSPC':
		case 'EDQUOT': {
			return 'no space left';
		}

		// /proc answers a new folder with ENOENT though its parent is there.
		case 'ENOENT': {
			return 'the file system there takes no new folders';
		}

		default: {
			return code ?? 'unknown error';
		}
	}
}

function statOrMissing(stat: (place: string) => Stats, place: string): Stats | undefined {
	try {
		return stat(place);
	} catch (error: unknown) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}

		throw error;
	}
}

/**
 * Makes the state folder, and the folders `inside` it (names, outermost
 * first), as needed; returns the innermost one's path. Throws a UsageError
 * (one sentence) when one cannot be made, something else is in its place,
 * or a level of pagewalk's own is a symbolic link.
 */
export function makeStateFolder(env: Env, inside: readonly string[] = []): string {
	const base = path.resolve(stateDirectory(env));
	const fix = fixFor(env);
	const cannot = (detail: string) => new UsageError(`The state folder ${quotePath(base)} cannot be made (${detail}); ${fix}.`);
	const notOwn = (place: string, what: string) => new UsageError(`pagewalk's own folder ${quotePath(place)} ${what}, so pagewalk keeps no files there; remove what is there, or ${fix}.`);

	/** Makes `place` (its parent is there) and checks that what is now there is the folder made, not a link put in its place. */
	const make = (place: string, own: boolean) => {
		try {
			mkdirSync(place, {mode: 0o700});
		} catch (error: unknown) {
			// Made by another run meanwhile: checked below like any level of pagewalk's.
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw own ? notOwn(place, `cannot be made (${reasonOf(error)})`) : cannot(`making ${quotePath(place)}: ${reasonOf(error)}`);
			}
		}

		check(place);
	};

	const check = (place: string) => {
		let stat: Stats;
		try {
			stat = lstatSync(place);
		} catch (error: unknown) {
			throw notOwn(place, `cannot be reached (${reasonOf(error)})`);
		}

		if (stat.isSymbolicLink()) {
			throw notOwn(place, 'is a symbolic link');
		}

		if (!stat.isDirectory()) {
			throw notOwn(place, 'is not a folder (a file is in its place)');
		}
	};

	const {root} = path.parse(base);
	let place = root;
	let making = false;
	for (const name of base.slice(root.length).split(path.sep).filter(Boolean)) {
		place = path.join(place, name);
		let stat: Stats | undefined;
		try {
			stat = making ? undefined : statOrMissing(statSync, place);
		} catch (error: unknown) {
			throw cannot(`${quotePath(place)} cannot be reached: ${reasonOf(error)}`);
		}

		if (stat === undefined) {
			making = true;
			make(place, false);
		} else if (!stat.isDirectory()) {
			throw place === base
				? new UsageError(`The state folder ${quotePath(base)} is not a folder (a file is in its place); ${fix}.`)
				: cannot(`${quotePath(place)} is not a folder`);
		}
	}

	for (const name of inside) {
		place = path.join(place, name);
		let stat: Stats | undefined;
		try {
			stat = statOrMissing(lstatSync, place);
		} catch (error: unknown) {
			throw notOwn(place, `cannot be reached (${reasonOf(error)})`);
		}

		if (stat === undefined) {
			make(place, true);
		} else {
			check(place);
		}
	}

	return place;
}
