import {describe, expect, it} from 'vitest';
import {pastedText, splitKeys} from '../../source/browser/keys/key-chunks.js';
import {keyName} from '../../source/browser/keys/keymap.js';
import {initialState, pageStackReducer as reduce, wantedRequests} from '../../source/browser/stack/page-stack.js';
import {makePage, url} from './pages.js';
import {top} from '../../source/browser/stack/stack-steps.js';
import type {PageStackState} from '../../source/browser/stack/types.js';

function names(input: string, key = {}, token?: string): string[] {
	return splitKeys(input, key, token).map(press => keyName(press.input, press.key));
}

describe('splitKeys: every key of a chunk', () => {
	it('a single key passes through as Ink named it', () => {
		expect(splitKeys('j', {})).toEqual([{input: 'j', key: {}}]);
		expect(splitKeys('', {upArrow: true})).toEqual([{input: '', key: {upArrow: true}}]);
	});

	it('a run of characters is one key each, in order, with Enter, Tab, Backspace and Ctrl named', () => {
		expect(names('jjj')).toEqual(['j', 'j', 'j']);
		expect(names('100\r')).toEqual(['1', '0', '0', 'return']);
		expect(names('ab\u007F\t\u0003')).toEqual(['a', 'b', 'backspace', 'tab', 'ctrl+c']);
		// Shift, as Ink sets it for capitals, names no key by itself.
		expect(names('GG', {shift: true} as never)).toEqual(['G', 'G']);
		// Code points, so an emoji stays whole.
		expect(names('a😀')).toEqual(['a', '😀']);
	});
});

describe('events that are no key', () => {
	it('a sequence Ink names no key for is none, whatever Ink made of its parameters; a kitty key it reads as text is that key', () => {
		// As useInput hands them over, with the event as the parser cut it.
		expect(splitKeys('', {}, '\u001B[I')).toEqual([]);
		expect(splitKeys('[?62;c', {meta: true}, '\u001B[?62;c')).toEqual([]);
		expect(splitKeys('[12;40R', {meta: true}, '\u001B[12;40R')).toEqual([]);
		expect(splitKeys('', {ctrl: true, meta: true, shift: true}, '\u001B[5239m')).toEqual([]);
		expect(names('j', {}, '\u001B[106u')).toEqual(['j']);
		// kitty's functional keys (its Private Use Area), as Ink hands over one it does not name (F1–F12's codes), or one with Ctrl: none.
		expect(splitKeys('\uE014', {}, '\u001B[57364u')).toEqual([]);
		expect(splitKeys('\uE01F', {ctrl: true}, '\u001B[57375;5u')).toEqual([]);
		expect(splitKeys('', {}, '\u001B[57376u')).toEqual([]);
		expect(names('', {upArrow: true, ctrl: true}, '\u001B[1;5A')).toEqual(['up']);
		// Typed text that looks like the rest of a sequence is still typed.
		expect(names('[12;40R')).toEqual(['[', '1', '2', ';', '4', '0', 'R']);
	});

	it('a kitty key released is no key; pressed or repeated, it is', () => {
		expect(splitKeys('j', {}, '\u001B[106;1:3u')).toEqual([]);
		expect(splitKeys('q', {}, '\u001B[113;1:3u')).toEqual([]);
		expect(splitKeys('', {upArrow: true}, '\u001B[1;1:3A')).toEqual([]);
		expect(splitKeys('', {pageDown: true}, '\u001B[6;1:3~')).toEqual([]);
		expect(splitKeys('g', {shift: true}, '\u001B[103;2:3u')).toEqual([]);
		expect(names('j', {}, '\u001B[106;1:1u')).toEqual(['j']);
		expect(names('j', {}, '\u001B[106;1:2u')).toEqual(['j']);
		expect(names('', {upArrow: true}, '\u001B[1;1:2A')).toEqual(['up']);
		// A legacy modifier is no event type.
		expect(names('', {upArrow: true, ctrl: true}, '\u001B[1;5A')).toEqual(['up']);
	});

	it('a kitty letter with Shift and no text is the capital (G is the last row, g the first); with Caps Lock too, the small one', () => {
		expect(names('g', {shift: true}, '\u001B[103;2u')).toEqual(['G']);
		expect(names('w', {shift: true}, '\u001B[119;2u')).toEqual(['W']);
		expect(names('g', {}, '\u001B[103;65u')).toEqual(['G']);
		expect(names('g', {shift: true}, '\u001B[103;66u')).toEqual(['g']);
		expect(names('g', {shift: true}, '\u001B[103;130u')).toEqual(['G']);
		// The text field, where the terminal sends one, is what Ink reads already.
		expect(names('G', {shift: true}, '\u001B[103;2;71u')).toEqual(['G']);
		// Ctrl or Alt with Shift: the key as Ink reads it.
		expect(names('g', {shift: true, ctrl: true}, '\u001B[103;6u')).toEqual(['ctrl+g']);
		expect(names('1', {shift: true}, '\u001B[49;2u')).toEqual(['1']);
	});

	it('a bracketed paste is text, one line, never keys', () => {
		expect(pastedText('\u001B[200~file name.ndjson\r\n\u001B[201~')).toBe('file name.ndjson');
		expect(pastedText('\u001B[200~a\tb\r\nc\u0007\u001B[Ad\u001B[201~')).toBe('a b c[Ad');
		expect(pastedText('\u001B[200~\u001B[201~')).toBe('');
		expect(pastedText('\u001B[200~')).toBeUndefined();
		expect(pastedText('jjj')).toBeUndefined();
	});
});

describe('Esc and keys in one read', () => {
	it('Alt+key as Ink reads ESC then a key is Esc, then the key and the rest of the run: the browser binds no Alt key', () => {
		expect(names('/bitcoin\r', {meta: true})).toEqual(['escape', '/', 'b', 'i', 't', 'c', 'o', 'i', 'n', 'return']);
		for (const key of ['q', 'j', '?']) {
			expect(names(key, {meta: true}), key).toEqual(['escape', key]);
		}

		// A plain Esc (Ink sets meta with it) and Alt+arrow stay one named key.
		expect(names('', {escape: true, meta: true})).toEqual(['escape']);
		expect(names('', {upArrow: true, meta: true})).toEqual(['up']);
	});

	it('ESC then Enter, Backspace, Tab or a Ctrl key is Esc, then that key named as it is alone', () => {
		// As Ink reads `\x1b\r`, `\x1b\x7f`, `\x1b\b`, `\x1b\t` and `\x1b\x03`.
		expect(names('\r', {return: true, meta: true})).toEqual(['escape', 'return']);
		expect(names('', {delete: true, meta: true})).toEqual(['escape', 'backspace']);
		expect(names('', {backspace: true, meta: true})).toEqual(['escape', 'backspace']);
		expect(names('\t', {meta: true})).toEqual(['escape', 'tab']);
		expect(names('\u0003', {meta: true})).toEqual(['escape', 'ctrl+c']);
		expect(names('J', {meta: true, shift: true} as never)).toEqual(['escape', 'J']);
		// Enter and Backspace with no ESC before them stay one key.
		expect(names('\r', {return: true})).toEqual(['return']);
		expect(names('', {delete: true})).toEqual(['backspace']);
	});
});

describe('the page stack replays every key queued while loading', () => {
	it('a hundred → pressed while the first page loads reach page 101', () => {
		const pageUrl = (index: number) => (index === 0 ? url() : url(`o${index}`));
		let state: PageStackState = initialState({startUrl: url(), settings: {order: 'desc', limit: 1}});
		for (let index = 0; index < 100; index++) {
			state = reduce(state, {type: 'next'});
		}

		expect(state.queue).toHaveLength(100);
		for (let index = 0; index <= 100; index++) {
			const [wanted] = wantedRequests(state);
			expect(wanted?.url).toBe(pageUrl(index));
			state = reduce(state, {type: 'loaded', requestId: wanted!.requestId, page: makePage({url: pageUrl(index), ids: [`o${index + 1}`], next: pageUrl(index + 1), limit: 1})});
		}

		expect(state.entries).toHaveLength(101);
		expect(top(state)?.url).toBe(pageUrl(100));
		expect(state.queue).toEqual([]);
	});
});
