import {describe, expect, it} from 'vitest';
import {browserReducer, copyOutcome, startState} from '../../source/browser/state/browser-state.js';
import type {Effect} from '../../source/browser/actions/effects.js';
import {commandFor} from '../../source/browser/keys/keymap.js';
import {modeOf} from '../../source/browser/keys/screen.js';
import {makePage} from './pages.js';
import type {BrowserState} from '../../source/browser/state/types.js';
import {flash, levelTone} from '../../source/browser/view/status-model.js';

/** The message's words, as the status line draws them, and its colour. */
const noteOf = (state: BrowserState) => (state.stack.notice ? flash(state.stack.notice).text : undefined);
const toneOf = (state: BrowserState) => {
	if (!state.stack.notice) {
		return null;
	}

	const {text, level} = flash(state.stack.notice);
	return {text, tone: levelTone[level]};
};

/**
 * Copy, save and the wheel through the one reducer, no terminal: what each
 * key queues for the app, the file name prompt, the overwrite question.
 */

const url = 'http://127.0.0.1:9/v2/accounts';
const page = makePage({url, texts: ['{"id":"a","n":1.0}', '{"id":"b"}', '{"id":"c"}', '{"id":"d"}', '{"id":"e"}'], next: `${url}?starting_after=e`});

function start(): BrowserState {
	return startState({startUrl: url, settings: {order: 'desc', limit: 5}, firstPage: page});
}

function press(state: BrowserState, ...inputs: string[]): BrowserState {
	let next = state;
	for (const input of inputs) {
		const key = input === '\r' ? {return: true} : input === '\u001B' ? {escape: true} : {};
		next = browserReducer(next, {type: 'key', input: input === '\r' || input === '\u001B' ? '' : input, key, bodyRows: 3, columns: 80});
	}

	return next;
}

describe('copy keys', () => {
	it('y and Y queue the selected id and its exact text; u the page\'s request URL', () => {
		const state = press(start(), 'y', 'Y', 'u');
		expect(state.tasks.effects.map(effect => effect.kind === 'copy' && [effect.what, effect.text, effect.url])).toEqual([
			['id', 'a', url],
			['json', '{"id":"a","n":1.0}', url],
			['curl', '', url],
		]);
		expect(commandFor('overlay', 'y')).toBe('copy-id');
	});

	it('the app taking them empties the queue; the note it reports stays until the next key', () => {
		let state = press(start(), 'j', 'y');
		const effect = state.tasks.effects[0] as Extract<Effect, {kind: 'copy'}>;
		expect(effect.text).toBe('b');
		const outcome = copyOutcome(effect, effect.text);
		expect(outcome.sequence).toBe('\u001B]52;c;Yg==\u0007');
		state = browserReducer(state, {type: 'done', id: effect.id, notice: outcome.notice});
		expect(state.tasks.effects).toEqual([]);
		expect(noteOf(state)).toBe('copied id b (needs a terminal that allows OSC 52)');
		expect(press(state, 'j').stack.notice).toBeNull();
	});

	it('no selection (a filter matching nothing): y copies nothing', () => {
		const state = press(start(), '/', 'z', 'z', 'z', '\r', 'y', 'Y');
		expect(state.tasks.effects).toEqual([]);
	});
});

describe('w and W', () => {
	it('w opens a prompt where every key is text, Enter queues the write of the page', () => {
		let state = press(start(), 'w');
		expect(state.screen).toMatchObject({kind: 'save', draft: '', what: 'page'});
		expect(modeOf(state.screen)).toBe('prompt');
		state = press(state, 'q', 'y', '.', 'n', 'd');
		expect(state.quit).toBe(false);
		state = press(state, '\r');
		expect(state.screen).toEqual({kind: 'table'});
		expect(state.tasks.effects).toEqual([{id: expect.any(Number) as number, kind: 'save', job: {what: 'page', name: 'qy.nd', pages: [{url, page}], overwrite: false}}]);
	});

	it('Esc writes nothing; Enter with no name typed takes the name offered (the list and the page)', () => {
		expect(press(start(), 'w', 'x', '\u001B').tasks.effects).toEqual([]);
		const opened = press(start(), 'w');
		expect(opened.screen).toMatchObject({suggested: expect.stringMatching(/^[\w-]+-page-1\.ndjson$/) as string});
		const state = press(opened, '\r');
		expect(state.tasks.effects[0]).toMatchObject({kind: 'save', job: {what: 'page', name: (opened.screen as {suggested: string}).suggested}});
		expect(press(start(), 'W', '\r').tasks.effects[0]).toMatchObject({kind: 'save', job: {what: 'walk', name: expect.stringMatching(/-page-1\.ndjson$/) as string}});
	});

	it('W queues every page of the stack, bottom to top', () => {
		const state = press(start(), 'W', 'f', '\r');
		expect(state.tasks.effects[0]).toMatchObject({kind: 'save', job: {what: 'walk', name: 'f', pages: [{url, page}]}});
	});

	it('an existing file asks: y queues the overwrite, any other key keeps the file', () => {
		const asked = press(start(), 'w', 'f', '\r');
		const {id, job} = asked.tasks.effects[0] as Extract<Effect, {kind: 'save'}>;
		const question = browserReducer(asked, {type: 'saved', id, job, result: {kind: 'exists'}, refetched: 0});
		expect(question.screen).toEqual({kind: 'overwrite', job});
		expect(modeOf(question.screen)).toBe('confirm');
		const yes = press(question, 'y');
		expect(yes.screen).toEqual({kind: 'table'});
		expect(yes.tasks.effects.at(-1)).toMatchObject({kind: 'save', job: {...job, overwrite: true}});
		for (const key of ['n', '\u001B', 'q', 'j']) {
			const no = press(question, key);
			expect(no.screen, key).toEqual({kind: 'table'});
			expect(no.tasks.effects, key).toEqual(question.tasks.effects);
			expect(noteOf(no), key).toBe('kept f as it was; nothing written');
			expect(no.quit).toBe(false);
		}
	});

	it('written and failed are notes; no question while the user types', () => {
		const asked = press(start(), 'W', 'f', '\r');
		const {id, job} = asked.tasks.effects[0] as Extract<Effect, {kind: 'save'}>;
		expect(toneOf(browserReducer(asked, {type: 'saved', id, job, result: {kind: 'written', objects: 5, pages: 1}, refetched: 0}))).toEqual({text: 'wrote 5 objects from 1 page to f', tone: 'good'});
		expect(toneOf(browserReducer(asked, {type: 'saved', id, job, result: {kind: 'failed', message: 'Cannot write f: x.'}, refetched: 0}))).toEqual({text: 'Cannot write f: x.', tone: 'warn'});
		const typing = press(asked, '/');
		const later = browserReducer(typing, {type: 'saved', id, job, result: {kind: 'exists'}, refetched: 0});
		expect(later.screen.kind).toBe('filter');
		expect(noteOf(later)).toBe('f exists, so nothing was written.');
	});
});

describe('the wheel', () => {
	it('moves the selection 3 rows on the table, scrolls an overlay, does nothing in a prompt', () => {
		let state = browserReducer(start(), {type: 'wheel', rows: 3, bodyRows: 3});
		expect(state.stack.entries[0]!.selected).toBe(3);
		state = browserReducer(state, {type: 'wheel', rows: -3, bodyRows: 3});
		expect(state.stack.entries[0]!.selected).toBe(0);
		const help = press(start(), '?');
		expect(browserReducer(help, {type: 'wheel', rows: 3, bodyRows: 3, columns: 200}).screen).toEqual({kind: 'help', scroll: 3});
		const prompt = press(start(), '/');
		expect(browserReducer(prompt, {type: 'wheel', rows: 3, bodyRows: 3})).toBe(prompt);
	});
});
