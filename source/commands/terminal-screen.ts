import {writeSync} from 'node:fs';
import {constants} from 'node:os';
import process from 'node:process';

// Alternate screen on, and off with the cursor shown again: the user's
// scrollback is left exactly as it was, whatever happened in between.
const enterScreen = '\u001B[?1049h\u001B[H';
const leaveScreen = '\u001B[?25h\u001B[?1049l';
// Mouse reporting for the wheel (browser/mouse.ts): button events (1000) in
// the SGR form (1006). Turned off before the screen is left, on every way out.
const mouseOn = '\u001B[?1000h\u001B[?1006h';
const mouseOff = '\u001B[?1006l\u001B[?1000l';
const hideCursor = '\u001B[?25l';
const home = '\u001B[H';
const clearScreen = '\u001B[2J\u001B[H';

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
 * given back: the alternate screen (and the mouse), restored on every way
 * out, the process's exit included. Opened by the command before Ink has
 * loaded when it paints the first frame (components/first-paint.ts), else
 * by runBrowser; one restore either way.
 */
export class TerminalScreen {
	#restored = false;
	#raw = false;
	#mouseOn = false;
	#stoppedBy: NodeJS.Signals | undefined;
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

	/** `mouse`: reporting turns on when the browser takes the terminal (handOver), not before. */
	constructor({mouse}: {mouse: boolean}) {
		this.#mouse = mouse;
		quietWhenTerminalGone();
		process.stdout.write(enterScreen);
		process.once('exit', this.#restore);
	}

	/**
	 * Writes `lines` as the screen's first frame, from its top, and leaves
	 * the cursor there, hidden, for Ink's first frame to draw over it. Until
	 * the browser reads the keyboard, keys wait in raw mode (not echoed over
	 * the frame, every one kept), a signal gives the terminal back at once,
	 * and a resize clears the paint (Ink draws at the new size).
	 */
	paint(lines: readonly string[]): void {
		if (process.stdin.isTTY && !this.#raw) {
			process.stdin.setRawMode(true);
			this.#raw = true;
		}

		for (const signal of stopSignals) {
			process.once(signal, this.#stop);
		}

		process.stdout.once('resize', this.#clear);
		process.stdout.write(hideCursor + home + lines.join('\n') + home);
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
		if (this.#mouse && !this.#restored && !this.#mouseOn) {
			this.#mouseOn = true;
			process.stdout.write(mouseOn);
		}
	}

	#release(): void {
		for (const signal of stopSignals) {
			process.off(signal, this.#stop);
		}

		process.stdout.off('resize', this.#clear);
	}

	/** Leaves the alternate screen (and the mouse, and raw mode), once. */
	restore(): void {
		if (this.#restored) {
			return;
		}

		this.#restored = true;
		process.off('exit', this.#restore);
		this.#release();
		try {
			// Synchronous: this also runs from the 'exit' event, where writes queue forever.
			writeSync(process.stdout.fd, (this.#mouseOn ? mouseOff : '') + leaveScreen);
		} catch {
			// A terminal that is gone (a hang-up: EIO) has nothing left to restore.
		} finally {
			if (this.#raw && process.stdin.isTTY) {
				try {
					process.stdin.setRawMode(false);
				} catch {
					// The same: no terminal to set.
				}
			}
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
