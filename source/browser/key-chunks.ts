import type {KeyFlags} from './keymap.js';

/**
 * Every key of a chunk. A terminal hands over what arrived in one read: key
 * repeat over ssh or tmux gives `jjj`, a paste gives `100`. Ink 6.8 already
 * cuts a chunk at escape sequences (its input-parser emits `\x1b[A` and
 * `\x1b[6~` each on their own), but hands a run of plain characters over as
 * one `input` with no key flags, which would match no key at all. So we split
 * only that case, here, rather than read raw stdin through Ink's internal
 * event emitter: Ink's tokenizer stays the one parser of escape sequences,
 * and this runs on what useInput gives every component, testable without a
 * terminal.
 *
 * An escape sequence unpatched Ink cannot name (a pasted colour code,
 * `\x1b[1;5X`) makes Ink's own useInput throw before any handler of ours is
 * called, so that guard is in the Ink patch (patches/ink+6.8.0.patch), not
 * here: no code of ours runs early enough to catch it. What reaches this
 * module is a string with flags, and nothing here throws on any string.
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

/**
 * The key presses of one useInput call, in order. A single key (or a key Ink
 * named) passes through as it came; a run of characters becomes one press per
 * character (code point, so an emoji stays whole).
 */
export function splitKeys(input: string, key: KeyFlags): KeyPress[] {
	// Esc and a key in one read (`Esc / b t c`, typed fast, pasted or sent
	// by a script) reach us as Alt+key: Ink reads ESC
	// followed by a character as Meta, since that is also what a terminal
	// sends for Alt. The browser binds no Alt key, so the rule is that of
	// less and vim with no escape delay: ESC then a key is Esc, then that
	// key. That holds for every key Ink folds into Meta this way: a
	// character (Tab and Ctrl-letters named as they are alone), Enter and
	// Backspace. Ink also sets Meta on a plain Esc and on Alt+arrow sent as
	// a CSI modifier (`\x1b[1;3A`); those stay the one key they name. ESC ESC
	// (and ESC before an arrow's own ESC) is split in the Ink patch, where
	// the second ESC is still visible.
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
