import {lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {columnStatePath, loadColumnChoice, loadRelatedColumnChoices, readColumnState, saveColumnChoice} from '../../source/commands/browse/column-store.js';

const made: string[] = [];
function stateDir(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'pagewalk-state-'));
	made.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of made.splice(0)) {
		rmSync(dir, {recursive: true, force: true});
	}
});

describe('the column choices file', () => {
	it('lives in PAGEWALK_STATE_DIR, else XDG_STATE_HOME/pagewalk, else ~/.local/state/pagewalk', () => {
		expect(columnStatePath({PAGEWALK_STATE_DIR: '/s'})).toBe(path.join('/s', 'columns.json'));
		expect(columnStatePath({XDG_STATE_HOME: '/x', HOME: '/h'})).toBe(path.join('/x', 'pagewalk', 'columns.json'));
		// A relative XDG path is ignored, as the spec says.
		expect(columnStatePath({XDG_STATE_HOME: 'rel', HOME: '/h'})).toBe(path.join('/h', '.local', 'state', 'pagewalk', 'columns.json'));
	});

	it('hands over the choices of related lists, by pattern, for one API', () => {
		const env = {PAGEWALK_STATE_DIR: stateDir()};
		expect(loadRelatedColumnChoices('account', env)).toEqual({});
		saveColumnChoice('account /v2/accounts', {order: ['id', 'name']}, env);
		saveColumnChoice('account /v2/accounts/:id/transactions', {order: ['id', 'type'], hidden: ['type']}, env);
		saveColumnChoice('commerce /checkouts/:id/things', {order: ['id']}, env);
		writeFileSync(columnStatePath(env), JSON.stringify({version: 1, endpoints: {...JSON.parse(readFileSync(columnStatePath(env), 'utf8')).endpoints, 'account /v2/accounts/:id/addresses': 'junk'}}));
		expect(loadRelatedColumnChoices('account', env)).toEqual({'/v2/accounts/:id/transactions': {order: ['id', 'type'], hidden: ['type']}});
	});

	it('remembers a choice per endpoint, and only column names', () => {
		const env = {PAGEWALK_STATE_DIR: path.join(stateDir(), 'nested')};
		expect(loadColumnChoice('account /v2/accounts', env)).toBeUndefined();
		expect(saveColumnChoice('account /v2/accounts', {order: ['id', 'created_at', 'name'], hidden: ['name']}, env)).toBe(true);
		expect(saveColumnChoice('commerce /checkouts', {order: ['id', 'local_price.amount']}, env)).toBe(true);
		expect(loadColumnChoice('account /v2/accounts', env)).toEqual({order: ['id', 'created_at', 'name'], hidden: ['name']});
		expect(loadColumnChoice('commerce /checkouts', env)).toEqual({order: ['id', 'local_price.amount'], hidden: []});
		expect(JSON.parse(readFileSync(columnStatePath(env), 'utf8'))).toEqual({
			version: 1,
			endpoints: {
				'account /v2/accounts': {order: ['id', 'created_at', 'name'], hidden: ['name']},
				'commerce /checkouts': {order: ['id', 'local_price.amount'], hidden: []},
			},
		});
	});

	it('forgets an endpoint\'s choice when the choice is empty (the picker\'s r), keeping the others', () => {
		const env = {PAGEWALK_STATE_DIR: stateDir()};
		// Nothing remembered: nothing to forget, and no file is made for it.
		expect(saveColumnChoice('account /v2/accounts', {order: [], hidden: []}, env)).toBe(true);
		expect(() => lstatSync(columnStatePath(env))).toThrow();
		saveColumnChoice('account /v2/accounts', {order: ['id', 'name'], hidden: ['name']}, env);
		saveColumnChoice('commerce /checkouts', {order: ['id']}, env);
		expect(saveColumnChoice('account /v2/accounts', {order: [], hidden: []}, env)).toBe(true);
		expect(loadColumnChoice('account /v2/accounts', env)).toBeUndefined();
		expect(JSON.parse(readFileSync(columnStatePath(env), 'utf8'))).toEqual({version: 1, endpoints: {'commerce /checkouts': {order: ['id'], hidden: []}}});
	});

	it('reads a malformed file as no choice and writes over it', () => {
		const env = {PAGEWALK_STATE_DIR: stateDir()};
		writeFileSync(columnStatePath(env), '{not json');
		expect(loadColumnChoice('account /v2/accounts', env)).toBeUndefined();
		writeFileSync(columnStatePath(env), JSON.stringify({version: 1, endpoints: {'account /v2/accounts': {order: 'name'}}}));
		expect(loadColumnChoice('account /v2/accounts', env)).toBeUndefined();
		expect(saveColumnChoice('account /v2/accounts', {order: ['id']}, env)).toBe(true);
		expect(loadColumnChoice('account /v2/accounts', env)).toEqual({order: ['id'], hidden: []});
	});

	it('makes a missing state folder (private) without a warning, and refuses a link in place of the file: never read or written through', () => {
		const env = {PAGEWALK_STATE_DIR: path.join(stateDir(), 'new')};
		expect(readColumnState(env).problem).toBeUndefined();
		expect(lstatSync(env.PAGEWALK_STATE_DIR).mode & 0o777).toBe(0o700);
		const elsewhere = path.join(stateDir(), 'elsewhere.json');
		writeFileSync(elsewhere, 'theirs');
		symlinkSync(elsewhere, columnStatePath(env));
		expect(readColumnState(env).problem).toMatch(/^column choices are not remembered this time: the file '.*columns\.json' is a symbolic link, which pagewalk does not follow for its own files; remove it\.$/);
		expect(saveColumnChoice('account /v2/accounts', {order: ['id']}, env)).toBe(false);
		expect(readFileSync(elsewhere, 'utf8')).toBe('theirs');
	});
});
