import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import type {ColumnChoice} from '../cells/column-order.js';

/**
 * The column picker's choices, remembered per endpoint in one small JSON
 * file: $PAGEWALK_STATE_DIR/columns.json (tests), else
 * $XDG_STATE_HOME/pagewalk/columns.json, else ~/.local/state/pagewalk/columns.json.
 * State, not configuration: losing it costs a few key presses, so a missing,
 * unreadable or malformed file reads as "no choice" and a failed write is
 * skipped, never an error that ends the walk.
 *
 * Only column names (paths of the API's fields) are stored: no values, no
 * URLs with their queries, never a credential.
 */

type Env = Readonly<Record<string, string | undefined>>;
type StateFile = {version: 1; endpoints: Record<string, {order: string[]; hidden: string[]}>};
/** The remembered choices as read from the file, once, for the loaders below. */
export type ColumnState = Readonly<StateFile>;

/** pagewalk's state directory: $PAGEWALK_STATE_DIR (tests), else $XDG_STATE_HOME/pagewalk, else ~/.local/state/pagewalk. */
export function stateDirectory(env: Env): string {
	const own = env['PAGEWALK_STATE_DIR'];
	if (own) {
		return own;
	}

	const xdg = env['XDG_STATE_HOME'];
	const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env['HOME'] ?? homedir(), '.local', 'state');
	return path.join(base, 'pagewalk');
}

export function columnStatePath(env: Env): string {
	return path.join(stateDirectory(env), 'columns.json');
}

const names = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every(item => typeof item === 'string') ? value : undefined);

function read(file: string): StateFile {
	try {
		const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateFile> | null;
		if (parsed?.version === 1 && parsed.endpoints && typeof parsed.endpoints === 'object') {
			return {version: 1, endpoints: parsed.endpoints};
		}
	} catch {
		// Missing or malformed: as if nothing were remembered.
	}

	return {version: 1, endpoints: {}};
}

/** The remembered choices: the browser reads the file once at start and gives the result to both loaders. */
export function readColumnState(env: Env): ColumnState {
	return read(columnStatePath(env));
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

/** Remembers `choice` for `endpoint`; false when the file could not be written. */
export function saveColumnChoice(endpoint: string, choice: ColumnChoice, env: Env): boolean {
	const file = columnStatePath(env);
	try {
		const state = read(file);
		state.endpoints[endpoint] = {order: [...choice.order], hidden: [...(choice.hidden ?? [])]};
		mkdirSync(path.dirname(file), {recursive: true});
		// Written whole, then renamed: a crash mid-write leaves the old file, never half a one.
		const temporary = `${file}.${process.pid}.tmp`;
		writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
		renameSync(temporary, file);
		return true;
	} catch {
		return false;
	}
}
