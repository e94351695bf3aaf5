import {randomBytes} from 'node:crypto';
import {renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {isEmptyChoice, type ColumnChoice} from '../../cells/column-order.js';
import {FileReadError, readRegularFile} from '../../config/regular-file.js';
import {quotePath} from '../../config/profiles.js';
import {PagewalkError} from '../../text/errors.js';
import {makeStateFolder, stateDirectory, type Env} from '../setup/state-folder.js';

/**
 * The column picker's choices, remembered per endpoint in one small JSON
 * file: $PAGEWALK_STATE_DIR/columns.json (tests), else
 * $XDG_STATE_HOME/pagewalk/columns.json, else ~/.local/state/pagewalk/columns.json.
 * State, not configuration: losing it costs a few key presses, so a missing
 * or malformed file reads as "no choice", and a state folder that cannot be
 * made or a file that is not a regular file (a link, a device, a pipe, too
 * large) is a warning (`problem`), and choices are not remembered that run:
 * never an error that ends the walk.
 *
 * Only column names (paths of the API's fields) are stored: no values, no
 * URLs with their queries, never a credential.
 */

type StateFile = {version: 1; endpoints: Record<string, {order: string[]; hidden: string[]}>};
/** The remembered choices as read from the file, once, for the loaders below. */
export type ColumnState = Readonly<StateFile> & {
	/** Why choices cannot be remembered this run, as one sentence to warn with; saving then writes nothing. */
	readonly problem?: string;
};

/** A few kilobytes per hundred endpoints; a larger file is not ours and is not read. */
const maxStateBytes = 1024 * 1024;

export function columnStatePath(env: Env): string {
	return path.join(stateDirectory(env), 'columns.json');
}

const names = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every(item => typeof item === 'string') ? value : undefined);

const empty = (): StateFile => ({version: 1, endpoints: {}});

function notRemembered(problem: string): ColumnState {
	return {...empty(), problem: `column choices are not remembered this time: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`};
}

/** The remembered choices: the browser reads the file once at start and gives the result to both loaders. Makes the state folder if missing. */
export function readColumnState(env: Env): ColumnState {
	const file = columnStatePath(env);
	try {
		makeStateFolder(env);
	} catch (error: unknown) {
		if (error instanceof PagewalkError) {
			return notRemembered(error.message);
		}

		throw error;
	}

	let text: string;
	try {
		// Not followed if a link: the state folder's files are pagewalk's own.
		text = readRegularFile(file, {maxBytes: maxStateBytes, refuseLink: true}).text;
	} catch (error: unknown) {
		if (!(error instanceof FileReadError)) {
			throw error;
		}

		return error.code === 'missing' ? empty() : notRemembered(`The file ${quotePath(file)} ${error.phrase}; remove it.`);
	}

	try {
		const parsed = JSON.parse(text) as Partial<StateFile> | null;
		if (parsed?.version === 1 && parsed.endpoints && typeof parsed.endpoints === 'object') {
			return {version: 1, endpoints: parsed.endpoints};
		}
	} catch {
		// Malformed: as if nothing were remembered; the next choice writes over it.
	}

	return empty();
}

/** The choice remembered for `endpoint` (e.g. "account /v2/accounts"), if any. */
export function loadColumnChoice(endpoint: string, env: Env, state = readColumnState(env)): ColumnChoice | undefined {
	return choiceOf(state.endpoints[endpoint]);
}

function choiceOf(entry: unknown): ColumnChoice | undefined {
	if (entry === null || typeof entry !== 'object') {
		return undefined;
	}

	const order = names((entry as {order?: unknown}).order);
	const hidden = names((entry as {hidden?: unknown}).hidden) ?? [];
	return order ? {order, hidden} : undefined;
}

/**
 * The choices remembered for related lists of `api` (keys such as
 * "account /v2/accounts/:id/transactions"), by their pattern: read once when
 * the browser starts, so opening a related list reads no file.
 */
export function loadRelatedColumnChoices(api: string, env: Env, state = readColumnState(env)): Record<string, ColumnChoice> {
	const choices: Record<string, ColumnChoice> = {};
	for (const [key, entry] of Object.entries(state.endpoints)) {
		const pattern = key.startsWith(`${api} `) ? key.slice(api.length + 1) : '';
		const choice = pattern.includes('/:id/') ? choiceOf(entry) : undefined;
		if (choice) {
			choices[pattern] = choice;
		}
	}

	return choices;
}

/**
 * Remembers `choice` for `endpoint`, or forgets what was remembered when the
 * choice is empty (the picker's reset: the default columns); false when the
 * file could not be written (see `problem` of readColumnState).
 */
export function saveColumnChoice(endpoint: string, choice: ColumnChoice, env: Env): boolean {
	const file = columnStatePath(env);
	const {problem, ...state} = readColumnState(env);
	if (problem !== undefined) {
		return false;
	}

	const forget = isEmptyChoice(choice);
	if (forget && !Object.hasOwn(state.endpoints, endpoint)) {
		return true;
	}

	const endpoints = {...state.endpoints, [endpoint]: {order: [...choice.order], hidden: [...(choice.hidden ?? [])]}};
	if (forget) {
		delete endpoints[endpoint];
	}

	// Written whole, then renamed: a crash mid-write leaves the old file, never half a one. `wx`: a new
	// file, never one (or a link) already there.
	const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
	try {
		writeFileSync(temporary, `${JSON.stringify({version: 1, endpoints}, null, 2)}\n`, {mode: 0o600, flag: 'wx'});
		renameSync(temporary, file);
		return true;
	} catch (error: unknown) {
		// Removed only if this write made it: EEXIST is a file that was there before.
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
			rmSync(temporary, {force: true});
		}

		return false;
	}
}
