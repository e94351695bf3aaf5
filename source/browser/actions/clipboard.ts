/**
 * The clipboard through the terminal: OSC 52 (`ESC ] 52 ; c ; <base64> BEL`)
 * asks the terminal to put the text on the system clipboard. It works over
 * ssh and inside tmux (with `set-clipboard on`), where no clipboard command
 * would; the terminal must allow it, which the note says.
 */
import {Buffer} from 'node:buffer';
import {cutToWidth} from '../../text/text-width.js';
import {inert} from '../../text/inert.js';
import type {ClipboardWrite} from '../stack/types.js';

/**
 * The most text copied, in UTF-8 bytes: 75,000, which is 100,000 bytes of
 * base64. Terminals cap OSC 52 differently (hterm at 100 kB, others lower
 * or silently drop the sequence); beyond this, w writes to a file instead.
 */
export const maxClipboardBytes = 75_000;

const osc52Note = 'needs a terminal that allows OSC 52';

/** The OSC 52 sequence that copies `text`, or how big it is when over the bound. */
export function osc52(text: string): ClipboardWrite {
	const bytes = Buffer.byteLength(text, 'utf8');
	if (bytes > maxClipboardBytes) {
		return {ok: false, bytes};
	}

	return {ok: true, sequence: `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`, bytes};
}

function kilobytes(bytes: number): string {
	return `${Math.ceil(bytes / 1000)} kB`;
}

/**
 * The status line's note after a copy: what was copied (`label`, server text
 * made inert and cut short here), or the one sentence when it was too big.
 */
export function copyNote(what: string, label: string, write: ClipboardWrite, caveat = true): string {
	const shown = label === '' ? '' : ` ${cutToWidth(inert(label), 16)}`;
	if (!write.ok) {
		return `${what}${shown} is ${kilobytes(write.bytes)}, more than the ${kilobytes(maxClipboardBytes)} pagewalk copies through the terminal; w writes the page to a file instead.`;
	}

	return caveat ? `copied ${what}${shown} (${osc52Note})` : `copied ${what}${shown}`;
}
