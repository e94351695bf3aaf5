import {closeSync, constants as fsConstants, openSync, readSync, writeSync} from 'node:fs';
import {constants} from 'node:os';
import process from 'node:process';

// Mouse reporting for the wheel (browser/keys/mouse.ts): button events (1000) in
// the SGR form (1006).
const mouseOn = '\u001B[?1000h\u001B[?1006h';
const mouseOff = '\u001B[?1006l\u001B[?1000l';
// Bracketed paste (2004): a paste arrives between ESC[200~ and ESC[201~, so
// Ink's input parser hands it over as text, which only a prompt types; without
// it a pasted `jjq` on the table would move two rows and quit.
const pasteOn = '\u001B[?2004h';
const pasteOff = '\u001B[?2004l';
const home = '\u001B[H';
const clearScreen = '\u001B[2J\u001B[H';

/**
 * What taking the terminal writes: the alternate screen, cleared, the cursor
 * hidden, bracketed paste, and mouse reporting when the browser has turned it on.
 */
export function takeSequence(mouse: boolean): string {
	return '\u001B[?1049h' + clearScreen + '\u001B[?25l' + pasteOn + (mouse ? mouseOn : '');
}

/**
 * What giving it back writes: every mode takeSequence turns on, off again in
 * the reverse order (the mouse before the screen is left), so the user's
 * screen and scrollback are exactly as they were, the cursor shown.
 */
export function giveBackSequence(mouse: boolean): string {
	return (mouse ? mouseOff : '') + pasteOff + '\u001B[?25h\u001B[?1049l';
}

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function ignoreGoneTerminal(error: NodeJS.ErrnoException): void {
	if (error.code !== 'EIO' && error.code !== 'EPIPE') {
		throw error;
	}
}

/**
 * A terminal that hangs up fails every later write to it (EIO), and a write
 * already queued then emits an error no one listens for: a stack trace and
 * a crash instead of the hang-up's exit status (129). There is no one left
 * to tell, so those errors are dropped; the hang-up (SIGHUP) ends the
 * browser as any stop signal does. Once per process.
 */
export function quietWhenTerminalGone(): void {
	if (!process.stdout.listeners('error').includes(ignoreGoneTerminal as never)) {
		process.stdout.on('error', ignoreGoneTerminal);
	}
}

/**
 * The browser's terminal, from the moment the browser takes it until it is
 * given back: the keys held (holdKeys, from the first page asked for), the
 * alternate screen (and the mouse), restored on every way out, the
 * process's exit included. The screen is taken by the command before Ink has
 * loaded when it paints the first frame (components/first-paint.ts), else
 * by runBrowser; one restore either way. A stop (Ctrl-Z, SIGTSTP) gives the
 * terminal back the same way for as long as the process is stopped.
 */
export class TerminalScreen {
	#restored = false;
	/** Whether the alternate screen is ours (take): a screen never taken is never left, nor drawn again after a stop. */
	#taken = false;
	#holding = false;
	#mouseOn = false;
	#stoppedBy: NodeJS.Signals | undefined;
	/**
	 * Set while the process stops itself: the SIGCONT that continues it finds
	 * the terminal taken again already. Where the system drops the stop (see
	 * suspend) no SIGCONT comes, and the flag waits for the next one.
	 */
	#selfStopped = false;
	/** Draws the whole frame again on a screen taken back: the paint's lines, then the browser's (redrawWith). */
	#redraw: () => void = () => undefined;
	readonly #mouse: boolean;
	readonly #restore = () => {
		this.restore();
	};

	// A paint made for the old size would be left beside the frame Ink draws at the new one.
	readonly #clear = () => {
		process.stdout.write(clearScreen);
	};

	readonly #stop = (signal: NodeJS.Signals) => {
		this.#stoppedBy ??= signal;
		this.restore();
	};

	readonly #suspend = () => {
		this.suspend();
	};

	// Continued after a stop of someone else's (SIGSTOP, which cannot be
	// caught, so nothing was given back): the shell has had the terminal
	// meanwhile and may have set it back to line mode, as bash does.
	readonly #continued = () => {
		if (this.#selfStopped) {
			this.#selfStopped = false;
		} else {
			this.#take(process.stdin.isTTY && process.stdin.isRaw);
		}
	};

	/**
	 * Nothing is written yet: the screen is taken by take() (or paint()).
	 * `mouse`: reporting turns on when the browser takes the terminal
	 * (handOver), not before.
	 */
	constructor({mouse}: {mouse: boolean}) {
		this.#mouse = mouse;
		quietWhenTerminalGone();
		process.once('exit', this.#restore);
		process.on('SIGTSTP', this.#suspend);
		process.on('SIGCONT', this.#continued);
	}

	/**
	 * From the moment the first page is asked for until the browser reads
	 * the keyboard, keys wait in raw mode: not echoed (an echo lands on the
	 * user's own screen, where it stays after quitting, in front of the
	 * shell's next line), every one kept for the browser. A signal meanwhile
	 * gives the terminal back at once. Once.
	 */
	holdKeys(): void {
		if (this.#holding || this.#restored) {
			return;
		}

		this.#holding = true;
		if (process.stdin.isTTY && !process.stdin.isRaw) {
			process.stdin.setRawMode(true);
		}

		for (const signal of stopSignals) {
			process.once(signal, this.#stop);
		}
	}

	/** Takes the screen (takeSequence), once: paint() does, else the browser when nothing was painted. */
	take(): void {
		if (this.#taken || this.#restored) {
			return;
		}

		this.#taken = true;
		process.stdout.write(takeSequence(false));
	}

	/**
	 * Writes `lines` as the screen's first frame, from its top, and leaves
	 * the cursor there, hidden, for Ink's first frame to draw over it. Keys
	 * wait as holdKeys says, and a resize clears the paint (Ink draws at the
	 * new size).
	 */
	paint(lines: readonly string[]): void {
		this.holdKeys();
		this.take();
		process.stdout.once('resize', this.#clear);
		this.#redraw = () => {
			process.stdout.write(home + lines.join('\n') + home);
		};

		this.#redraw();
	}

	/**
	 * How the browser draws its whole frame again when the terminal is taken
	 * back after a stop (the alternate screen comes back empty). Returns the
	 * function that stops using it.
	 */
	redrawWith(draw: () => void): () => void {
		this.#redraw = draw;
		return () => {
			if (this.#redraw === draw) {
				this.#redraw = () => undefined;
			}
		};
	}

	/** The signal that ended the start before the browser was up, if one did: the exit status is 128 + its number. */
	stoppedStatus(): number | undefined {
		return this.#stoppedBy === undefined ? undefined : 128 + (constants.signals[this.#stoppedBy] ?? 0);
	}

	/**
	 * The browser takes the terminal: the paint's own stop no longer listens
	 * (see takeStopSignals), and mouse reporting turns on. Not at the paint:
	 * a wheel turned before the browser reads would, if the start ended
	 * there, leave its reports to the shell.
	 */
	handOver(): void {
		this.#release();
		if (this.#mouse && this.#taken && !this.#restored && !this.#mouseOn) {
			this.#mouseOn = true;
			process.stdout.write(mouseOn);
		}
	}

	/**
	 * Ctrl-Z, or SIGTSTP from outside: gives the terminal back as the shell
	 * had it and stops, so the shell sees a stopped job; once continued
	 * (`fg`), takes the terminal again and draws the whole frame, as less
	 * and vim do.
	 */
	suspend(): void {
		if (this.#restored) {
			return;
		}

		const raw = this.#giveBack();
		// With no listener left, SIGTSTP does what it does by default: stop.
		process.off('SIGTSTP', this.#suspend);
		this.#selfStopped = true;
		try {
			// The whole process group, as the terminal's own Ctrl-Z: a wrapper
			// that started pagewalk (npx) stops too, so the shell sees its job stop.
			process.kill(0, 'SIGTSTP');
		} finally {
			process.on('SIGTSTP', this.#suspend);
		}

		// A process that signals its own stop stops before kill returns, so
		// the job has been continued by now; no timer or write of ours ran in
		// between. Where the system drops the signal instead (an orphaned
		// process group: pagewalk run as a terminal's own command, no shell
		// to go back to) the screen simply comes straight back.
		this.#take(raw);
	}

	#release(): void {
		for (const signal of stopSignals) {
			process.off(signal, this.#stop);
		}

		process.stdout.off('resize', this.#clear);
	}

	/** Takes the terminal again after a stop: raw mode if it was on, the screen, the mouse, the whole frame. */
	#take(raw: boolean): void {
		if (this.#restored) {
			return;
		}

		if (raw) {
			try {
				// Off, then on: libuv skips setting the mode it last set, and the
				// shell may have changed it since. Before anything is drawn: a
				// job continued in the background stops here until it is brought
				// to the foreground, instead of drawing over the shell.
				process.stdin.setRawMode(false);
				process.stdin.setRawMode(true);
			} catch {
				// A terminal that is gone has no mode to set.
			}
		}

		if (this.#taken) {
			process.stdout.write(takeSequence(this.#mouseOn));
			this.#redraw();
		}
	}

	/**
	 * Everything this screen turned on, off again, raw mode off, and what was
	 * typed and not read discarded. Returns whether raw mode was on.
	 */
	#giveBack(): boolean {
		if (this.#taken) {
			try {
				// Synchronous: this also runs from the 'exit' event, where writes queue forever.
				writeSync(process.stdout.fd, giveBackSequence(this.#mouseOn));
			} catch {
				// A terminal that is gone (a hang-up: EIO) has nothing left to restore.
			}
		}

		const raw = process.stdin.isTTY && process.stdin.isRaw;
		if (raw) {
			try {
				process.stdin.setRawMode(false);
			} catch {
				// The same: no terminal to set.
			}
		}

		// After line mode is back: what waited unread then reads as a line, and goes.
		discardTypeahead();
		return raw;
	}

	/** Leaves the alternate screen (and the mouse, and raw mode), once. */
	restore(): void {
		if (this.#restored) {
			return;
		}

		this.#restored = true;
		process.off('exit', this.#restore);
		process.off('SIGTSTP', this.#suspend);
		process.off('SIGCONT', this.#continued);
		this.#release();
		this.#giveBack();
	}
}

/** At most this much typed-ahead input is discarded at a give-back (bounded work: a terminal pasting without end). */
const maxDiscarded = 256 * 1024;

/**
 * Discards what was typed on the terminal and not read, as restoring a
 * terminal with TCSAFLUSH does (less, git's prompt, every kilo-style editor):
 * keys typed for the browser (a held key still repeating, keys sent after q)
 * are the browser's, never the shell's next command line. Node has no
 * tcflush: the terminal is opened again, non-blocking (as libuv itself reads
 * it), and read until it has nothing left. Synchronous: this runs from the
 * 'exit' event too. Linux opens the very terminal of stdin (/proc/self/fd/0);
 * elsewhere the controlling terminal, which is stdin's when a browser runs.
 */
export function discardTypeahead(): void {
	if (!process.stdin.isTTY || process.platform === 'win32') {
		return;
	}

	let fd: number | undefined;
	try {
		fd = openSync(process.platform === 'linux' ? '/proc/self/fd/0' : '/dev/tty', fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY);
		const buffer = Buffer.alloc(4096);
		for (let discarded = 0; discarded < maxDiscarded;) {
			const read = readSync(fd, buffer);
			if (read <= 0) {
				break;
			}

			discarded += read;
		}
	} catch {
		// EAGAIN: nothing (more) was typed. A terminal that is gone has nothing to discard.
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}
}

/**
 * The browser takes the stop signals: `handler` listens for them from now
 * on, and only then does the paint's own stop (if a screen was painted) stop
 * listening. The other order would lose a signal: when a signal's last
 * listener is removed, Node stops listening for it, and one already received
 * (while the browser's modules loaded) but not yet handed to a listener is
 * dropped. Returns the function that removes `handler`.
 */
export function takeStopSignals(handler: (signal: NodeJS.Signals) => void, screen: TerminalScreen | undefined): () => void {
	for (const signal of stopSignals) {
		process.once(signal, handler);
	}

	screen?.handOver();
	return () => {
		for (const signal of stopSignals) {
			process.off(signal, handler);
		}
	};
}
