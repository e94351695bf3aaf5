import type {KeyFlags} from './keymap.js';

/**
 * Every key of a chunk. A terminal hands over what arrived in one read: key
 * repeat over ssh or tmux gives `jjj`, a paste gives `100`. Ink's input
 * parser (node_modules/ink/build/input-parser.js, as patches/ink+6.8.0.patch
 * extends it) is the one tokenizer of the input: it cuts escape sequences
 * out whole (`\x1b[A`, `\x1b[6~`), swallows control strings (OSC, DCS, SOS,
 * PM, APC, 7- and 8-bit, cut across reads or not) before any key is seen,
 * and hands a bracketed paste over as one event. useInput then names a key
 * and gives us the event as the parser cut it (`token`), but hands a run of
 * plain characters over as one `input` with no key flags, which would match
 * no key at all. So we split that case, here, and tell the events that are
 * no key: a sequence Ink names no key for, and a paste (text for a prompt).
 *
 * An escape sequence unpatched Ink cannot name (a pasted colour code,
 * `\x1b[1;5X`) makes Ink's own useInput throw before any handler of ours is
 * called, so that guard is in the Ink patch, not here: no code of ours runs
 * early enough to catch it. What reaches this module is a string with flags,
 * and nothing here throws on any string.
 */

export type KeyPress = {input: string; key: KeyFlags};

const none: KeyFlags = {};
const escapePress: KeyPress = {input: '', key: {escape: true}};

/** One character of a run, with the flags Ink gives it when it arrives alone. */
function pressOf(character: string): KeyPress {
	const code = character.codePointAt(0)!;
	if (character === '\r') {
		return {input: '', key: {return: true}};
	}

	if (character === '\t') {
		return {input: '', key: {tab: true}};
	}

	if (character === '\u007F' || character === '\b') {
		return {input: '', key: {backspace: true}};
	}

	if (code >= 1 && code <= 26) {
		// Ctrl-A … Ctrl-Z, as Ink names them alone: the letter with `ctrl`.
		return {input: String.fromCodePoint(code + 96), key: {ctrl: true}};
	}

	return {input: character, key: none};
}

/** Flags that name a key; Ink's `shift`, `meta` and the like name none by themselves. */
const namingFlags = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'return', 'escape', 'ctrl', 'backspace', 'delete', 'tab'] as const;

function named(key: KeyFlags): boolean {
	return namingFlags.some(flag => key[flag] === true);
}

const pasteStart = '\u001B[200~';
const pasteEnd = '\u001B[201~';

/**
 * The text of a bracketed paste (`ESC[200~ … ESC[201~`, one event from the
 * parser), made one line for a prompt: line ends around it dropped, those
 * inside and tabs a space each, other control characters dropped. Undefined
 * when `token` is no paste.
 */
export function pastedText(token: string): string | undefined {
	if (token.length < pasteStart.length + pasteEnd.length || !token.startsWith(pasteStart) || !token.endsWith(pasteEnd)) {
		return undefined;
	}

	return token
		.slice(pasteStart.length, -pasteEnd.length)
		.replaceAll(/^[\r\n]+|[\r\n]+$/g, '')
		.replaceAll(/[\t\r\n]+/g, ' ')
		.replaceAll(/\p{Cc}/gu, '');
}

/**
 * A sequence the parser cut out whole that Ink named no key for: a
 * terminal's answer (a cursor position `ESC[12;40R`, device attributes
 * `ESC[?62;c`, focus `ESC[I`, kitty's flags `ESC[?1u`), a key the browser
 * has no use for (F1, Insert), an SS3 no key sends. Ink hands it over as
 * nothing (`input` empty) or as its own bytes without the ESC; either way
 * its bytes are no letters, and it is no key at all (it does not even clear
 * a note). A kitty key Ink reads as text (`ESC[106u`, j) is a key.
 */
function unnamedSequence(input: string, key: KeyFlags, token: string): boolean {
	if (kittyFunctionalKey(token)) {
		return true;
	}

	// Ctrl alone names nothing: Ink reads a sequence's parameters as modifiers (`ESC[5239m` has Ctrl).
	if (namingFlags.some(flag => flag !== 'ctrl' && key[flag] === true)) {
		return false;
	}

	return input === '' || (token.length > 2 && token.startsWith('\u001B') && (token[1] === '[' || token[1] === 'O') && input === token.slice(1));
}

/** kitty's `CSI code … u` with its code in the Private Use Area, where kitty puts its functional keys. */
// eslint-disable-next-line no-control-regex -- matching the sequence's ESC is the point
const kittyKey = /^\u001B\[(\d+)[\d:;]*u$/;

/**
 * A kitty functional key (57344–63743: Caps Lock, F13 and on, the keypad,
 * media keys, modifiers, and codes kitty keeps for keys to come, such as
 * 57364–57375): none is text, and the browser binds none. Ink names some and
 * reads the others as the private-use character of their code, which would
 * be typed into a prompt; either way, no key.
 */
function kittyFunctionalKey(token: string): boolean {
	const code = Number(kittyKey.exec(token)?.[1] ?? Number.NaN);
	return code >= 0xE0_00 && code <= 0xF8_FF;
}

/**
 * kitty's event type where the sequence gives one after its modifiers
 * (`CSI 106;1:3u`, an arrow's `CSI 1;1:3A`): 3 is a release. A terminal
 * reports releases only to a program that asked, but one left in that mode
 * by another program sends them to us too; Ink reads a release as the key
 * itself, so a key pressed would count twice and `q` let go would quit.
 */
// eslint-disable-next-line no-control-regex -- matching the sequence's ESC is the point
const kittyRelease = /^\u001B\[[\d:]*;\d*:3(?:;[\d:]*)?[u~A-Z]$/;

/**
 * kitty's letter key with Shift (or Caps Lock, not both) and no text field
 * (`CSI 103;2u`, as sent when every key is reported as a sequence): the
 * capital, which Ink reads as the small letter with a Shift flag (`g`, the
 * first row, for `G`, the last). Undefined for any other token.
 */
// eslint-disable-next-line no-control-regex -- matching the sequence's ESC is the point
const kittyLetter = /^\u001B\[(\d+);(\d+)(?::[12])?u$/;

function kittyCapital(token: string): string | undefined {
	const [, code, modifiers] = kittyLetter.exec(token) ?? [];
	const letter = String.fromCodePoint(Number(code ?? 0));
	const flags = Number(modifiers ?? 1) - 1;
	// Shift is bit 1 and Caps Lock bit 64 of the modifiers; Ctrl (4), Alt (2) and the rest keep the letter as Ink reads it.
	const shifted = ((flags & 1) !== 0) !== ((flags & 64) !== 0);
	return /^[a-z]$/.test(letter) && shifted && (flags & ~(1 | 64 | 128)) === 0 ? letter.toUpperCase() : undefined;
}

/**
 * The key presses of one useInput call, in order. A single key (or a key Ink
 * named) passes through as it came; a run of characters becomes one press per
 * character (code point, so an emoji stays whole); a sequence that names no
 * key is none. `token`: the event as the parser cut it (useInput's third
 * argument, from the Ink patch).
 */
export function splitKeys(input: string, key: KeyFlags, token: string = input): KeyPress[] {
	if (kittyRelease.test(token) || unnamedSequence(input, key, token)) {
		return [];
	}

	const capital = kittyCapital(token);
	if (capital !== undefined) {
		return [{input: capital, key: {...key, shift: true}}];
	}

	// Esc and a key in one read (`Esc / b t c`, typed fast, pasted or sent
	// by a script) reach us as Alt+key: Ink reads ESC
	// followed by a character as Meta, since that is also what a terminal
	// sends for Alt. The browser binds no Alt key, so the rule is that of
	// less and vim with no escape delay: ESC then a key is Esc, then that
	// key. That holds for every key Ink folds into Meta this way: a
	// character (Tab and Ctrl-letters named as they are alone), Enter and
	// Backspace. Ink also sets Meta on a plain Esc and on Alt+arrow sent as
	// a CSI modifier (`\x1b[1;3A`); those stay the one key they name. ESC ESC
	// (and ESC before an arrow's own ESC) is split by the parser, where the
	// second ESC is still visible.
	if (key.meta === true && !named(key) && input !== '' && !input.startsWith('\u001B')) {
		return [escapePress, ...[...input].map(character => pressOf(character))];
	}

	if (key.meta === true && (key.return === true || key.backspace === true || key.delete === true)) {
		return [escapePress, {input, key: {...key, meta: false}}];
	}

	const characters = [...input];
	if (characters.length <= 1 || input.startsWith('\u001B') || named(key)) {
		return [{input, key}];
	}

	return characters.map(character => pressOf(character));
}
