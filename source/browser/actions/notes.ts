import {copyNote, type ClipboardWrite} from './clipboard.js';
import {noFileName, shownName, wroteNote} from './save-path.js';
import {cutToWidth} from '../../text/text-width.js';
import {inert} from '../../text/inert.js';
import {firstKey} from '../keys/keymap.js';
import type {SaveWhat} from './save-path.js';

/**
 * The status line's notes, as the reducers state them: what was copied or
 * written, why nothing was, where a find in a pane landed. The words are
 * made here, when the status line is drawn, never in a reducer.
 */
export type Note =
	| {kind: 'copied'; words: string; label: string; write: ClipboardWrite; caveat: boolean}
	| {kind: 'nothing-to-copy'}
	| {kind: 'cannot'; what: 'curl' | 'write'}
	| {kind: 'no-file-name'; what: SaveWhat}
	| {kind: 'nothing-to-write'}
	| {kind: 'wrote'; name: string; counts: {objects: number; pages: number; refetched: number}; walk: boolean}
	| {kind: 'kept'; name: string}
	| {kind: 'exists'; name: string}
	/** The command's one sentence for a write that failed. */
	| {kind: 'write-failed'; message: string}
	| {kind: 'found'; text: string; line: number; lines: number}
	| {kind: 'not-found'; text: string};

export type NoteTone = 'good' | 'warn';

/** A note's words and tone (server text in it made inert by the caller that draws it). */
export function noteText(note: Note): {text: string; tone: NoteTone} {
	switch (note.kind) {
		case 'copied': {
			return {text: copyNote(note.words, note.label, note.write, note.caveat), tone: note.write.ok ? 'good' : 'warn'};
		}

		case 'nothing-to-copy': {
			return {text: 'No page on screen yet, so there is no request to copy.', tone: 'warn'};
		}

		case 'cannot': {
			return {text: note.what === 'curl' ? 'This browser was started without a way to build curl commands.' : 'This browser was started without a way to write files.', tone: 'warn'};
		}

		case 'no-file-name': {
			return {text: noFileName(note.what), tone: 'warn'};
		}

		case 'nothing-to-write': {
			return {text: 'No page on screen yet, so nothing was written.', tone: 'warn'};
		}

		case 'wrote': {
			return {text: wroteNote(note.name, note.counts, note.walk), tone: 'good'};
		}

		case 'kept': {
			return {text: `kept ${shownName(note.name)} as it was; nothing written`, tone: 'good'};
		}

		case 'exists': {
			return {text: `${shownName(note.name)} exists, so nothing was written.`, tone: 'warn'};
		}

		case 'write-failed': {
			return {text: note.message, tone: 'warn'};
		}

		case 'found': {
			return {text: `"${shownText(note.text)}" on line ${note.line} of ${note.lines} (${firstKey('find')} ${firstKey('prompt-apply')}: the next)`, tone: 'good'};
		}

		case 'not-found': {
			return {text: `no line of this pane holds "${shownText(note.text)}"`, tone: 'warn'};
		}
	}
}

function shownText(text: string): string {
	return inert(cutToWidth(text, 40));
}
