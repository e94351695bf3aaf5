/**
 * Advice to type, said once the prompt it belongs to has closed, names the
 * key that opens that prompt again, and that key opens it: typed on the
 * table, the advice would otherwise go to the table's keys (`o` flips the
 * order). Every message and write failure the message line can say is
 * read, one of each kind (the records below must name every kind).
 */
import {describe, expect, it} from 'vitest';
import type {SaveWhat} from '../../source/browser/stack/types.js';
import type {Notice} from '../../source/browser/stack/types.js';
import {notAFileSentence, saveErrorSentence, savePath} from '../../source/browser/actions/save-path.js';
import type {Screen} from '../../source/browser/keys/screen.js';
import {routeKey} from '../../source/browser/keys/router.js';
import {noticeText} from '../../source/browser/view/status-model.js';

const loop = {kind: 'not-advancing' as const, note: 'page 3 holds the same objects as page 1'};

const notices: {[Kind in Notice['kind']]: Array<Extract<Notice, {kind: Kind}>>} = {
	'end-of-list': [{kind: 'end-of-list', reason: 'no-next-uri'}, {kind: 'end-of-list', reason: 'loops-back', end: loop}],
	refreshed: [{kind: 'refreshed', changed: false}, {kind: 'refreshed', changed: true, added: 1, removed: 2}],
	'keys-dropped': [{kind: 'keys-dropped', count: 3}],
	'stopped-loading': [{kind: 'stopped-loading'}],
	'took-back': [{kind: 'took-back', stopsAt: 3}],
	'already-first': [{kind: 'already-first'}],
	'no-previous': [{kind: 'no-previous'}],
	'following-previous': [{kind: 'following-previous'}],
	'new-walk': [
		{kind: 'new-walk', change: 'order', order: 'asc', at: 'a'},
		{kind: 'new-walk', change: 'order', order: 'asc', at: 'a', gone: {neighbour: 'b'}},
		{kind: 'new-walk', change: 'order', order: 'asc', place: {cursor: 'ending_before', id: 'a'}},
		{kind: 'new-walk', change: 'order', order: 'desc', noRow: true},
		{kind: 'new-walk', change: 'limit', limit: 30},
		{kind: 'new-walk', change: 'limit', limit: 100, clamped: true},
	],
	'limit-stays': [
		{kind: 'limit-stays', limit: 25, maximum: 100},
		{kind: 'limit-stays', limit: 25, maximum: 100, refused: {typed: '', why: 'empty'}},
		{kind: 'limit-stays', limit: 25, maximum: 100, refused: {typed: '-1', why: 'not-whole'}},
		{kind: 'limit-stays', limit: 25, maximum: 100, refused: {typed: '101', why: 'over'}},
	],
	retrying: [{kind: 'retrying'}],
	bound: [{kind: 'bound', flag: 'max-pages', limit: 3}, {kind: 'bound', flag: 'max-items', limit: 30}],
	jump: [{kind: 'jump', cursor: 'starting_after'}, {kind: 'jump', cursor: 'ending_before'}],
	'jump-empty': [{kind: 'jump-empty'}],
	'jump-malformed': [{kind: 'jump-malformed'}],
	'jump-too-long': [{kind: 'jump-too-long', length: 250}],
	'search-no-filter': [{kind: 'search-no-filter'}],
	'search-busy': [{kind: 'search-busy'}],
	'search-found': [{kind: 'search-found', direction: 'forward', searched: 3, page: 4, before: false}, {kind: 'search-found', direction: 'backward', searched: 2, page: 1, before: true}],
	'search-end': (['no-next-uri', 'loops-back', 'start-of-list', 'no-previous'] as const).map(end => ({kind: 'search-end', direction: 'forward', searched: 5, filter: 'btc', end})),
	'search-bound': (['max-pages', 'max-items', 'search'] as const).map(flag => ({kind: 'search-bound', direction: 'forward', searched: 5, filter: 'btc', bound: {flag, limit: 5}})),
	'search-stopped': [{kind: 'search-stopped', direction: 'forward', searched: 5, moved: true, by: 'escape'}, {kind: 'search-stopped', direction: 'backward', searched: 5, moved: false, by: 'error'}],
	'follow-stopped': [{kind: 'follow-stopped', count: 2}, {kind: 'follow-stopped', count: 0, loop}],
	copied: [{kind: 'copied', words: 'id', label: 'a', write: {ok: true, sequence: '', bytes: 10}, caveat: true}],
	'nothing-to-copy': [{kind: 'nothing-to-copy'}],
	cannot: [{kind: 'cannot', what: 'curl'}, {kind: 'cannot', what: 'write'}],
	'no-file-name': [{kind: 'no-file-name', what: 'page'}, {kind: 'no-file-name', what: 'walk'}],
	'nothing-to-write': [{kind: 'nothing-to-write'}],
	wrote: [{kind: 'wrote', name: 'out.ndjson', counts: {objects: 3, pages: 1, refetched: 0}, walk: false}],
	kept: [{kind: 'kept', name: 'out.ndjson'}],
	exists: [{kind: 'exists', name: 'out.ndjson'}],
	'write-failed': [{kind: 'write-failed', message: 'Cannot write out.ndjson: permission denied; choose a folder you can write to.'}],
	found: [{kind: 'found', text: 'copy', line: 3, lines: 40}],
	'not-found': [{kind: 'not-found', text: 'copy'}],
	'export-where': [{kind: 'export-where'}],
	'export-busy': [{kind: 'export-busy'}],
	exported: [{kind: 'exported', name: 'tx.ndjson', objects: 30, lists: 6, failed: [], failedCount: 0}, {kind: 'exported', name: 'tx.ndjson', objects: 30, lists: 6, failed: ['a', 'b', 'c'], failedCount: 4}],
	'export-stopped': [
		{kind: 'export-stopped', name: 'tx.ndjson', why: null, objects: 30, lists: 2, total: 6, known: 6, resume: 'pagewalk dump transactions --all --output=tx.ndjson --resume'},
		{kind: 'export-stopped', name: 'tx.ndjson', why: 'The server is gone.', objects: 30, lists: 2, total: undefined, known: 4, resume: null},
	],
};

const codes = ['ENOENT', 'ELOOP', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENAMETOOLONG', 'EIO'];
const errno = (code: string) => Object.assign(new Error(code), {code});

/** Each write failure a save of `what` can end in, in its own words. */
function writeFailures(what: SaveWhat | 'export'): string[] {
	const refused = ['', 'pages/', '~/x.ndjson'].map(name => savePath(name, '/', '', what)).flatMap(result => ('error' in result ? [result.error] : []));
	expect(refused).toHaveLength(3);
	return [
		...refused,
		...codes.map(code => saveErrorSentence(errno(code), 'out.ndjson', undefined, what)),
		saveErrorSentence(errno('ENOENT'), 'out.ndjson', {folder: '/proc', exists: true}, what),
		...(['device', 'pipe', 'socket', 'other'] as const).map(kind => notAFileSentence('/dev/null', kind, what)),
	];
}

const context = {bodyRows: 10, overlayLines: 0, filter: '', hasSelection: true};
const opened = (screen: Screen | undefined) => (screen === undefined || screen.kind === 'table' ? undefined : screen.kind);

/** The prompt each opener opens, as the table routes its first key; and the advice's words for it. */
function advised(sentence: string): Array<{key: string; opens: string | undefined}> {
	return [...sentence.matchAll(/press (\S+)(?: again)? and type/g)].map(([, key]) => ({key: key!, opens: opened(routeKey({kind: 'table'}, key!, key!, context).screen)}));
}

describe('advice to type names the key that opens the prompt again', () => {
	const sentences = [
		...Object.values(notices).flat().map(notice => noticeText(notice)),
		...writeFailures('page'),
	];

	it('every sentence that says to type says which key to press first, and that key opens a prompt', () => {
		const typing = sentences.filter(sentence => /\btype\b/.test(sentence));
		expect(typing.length).toBeGreaterThan(10);
		for (const sentence of typing) {
			const keys = advised(sentence);
			// Each "type" is preceded by the key that opens its prompt.
			expect(keys.length, sentence).toBe([...sentence.matchAll(/\btype\b/g)].length);
			for (const {key, opens} of keys) {
				expect(opens, `${key} in: ${sentence}`).toMatch(/^(filter|limit|jump|save)$/);
			}
		}
	});

	it('a write failure sends the user back to the prompt of the same write: w for the page, W for the walk, E for the export', () => {
		for (const what of ['page', 'walk'] as const) {
			for (const sentence of writeFailures(what).filter(text => /\btype\b/.test(text))) {
				for (const {key} of advised(sentence)) {
					expect(routeKey({kind: 'table'}, key, key, context).screen, sentence).toMatchObject({kind: 'save', what});
				}
			}
		}

		// E's export: its failures send the user back to E, whose prompt opens on the accounts list.
		for (const sentence of writeFailures('export').filter(text => /\btype\b/.test(text))) {
			const keys = [...sentence.matchAll(/press (\S+)(?: again)? and type/g)].map(([, key]) => key!);
			expect(keys.length, sentence).toBeGreaterThan(0);
			for (const key of keys) {
				expect(routeKey({kind: 'table'}, key, key, {...context, exportable: true}).screen, sentence).toMatchObject({kind: 'export'});
			}
		}

		for (const what of ['page', 'walk'] as const) {
			const keys = advised(noticeText({kind: 'no-file-name', what}));
			expect(keys).toHaveLength(1);
			expect(routeKey({kind: 'table'}, keys[0]!.key, keys[0]!.key, context).screen).toMatchObject({kind: 'save', what});
		}
	});

	it('the jump\'s and the search\'s advice opens the jump and the filter', () => {
		for (const kind of ['jump-empty', 'jump-malformed', 'jump-too-long'] as const) {
			expect(advised(noticeText(notices[kind][0]!)).map(({opens}) => opens), kind).toEqual(['jump']);
		}

		expect(advised(noticeText({kind: 'search-no-filter'})).map(({opens}) => opens)).toEqual(['filter']);
	});
});
