import {writeSync} from 'node:fs';
import {constants} from 'node:os';
import process from 'node:process';
import {render, useStdout} from 'ink';
import {useEffect, type ReactNode} from 'react';
import {App, type AppProps} from '../../app.js';
import {colourLevel} from '../../text/colour.js';
import {RenderFailure} from '../../components/render-failure.js';
import type {UserLine} from '../../config/hints.js';
import {setHeapFlags} from '../process/heap-flags.js';
import {terminalInput} from './terminal-input.js';
import {discardTypeahead, quietWhenTerminalGone, takeStopSignals, TerminalScreen} from './terminal-screen.js';

/**
 * How Ink draws the browser (the key benchmark renders with the same options).
 * 60 frames a second, not Ink's default 30: the frame with the first page
 * comes right after the loading frame, and Ink holds a frame back for the
 * rest of the throttle window. Ink 6.8's incremental rendering (rewrite only
 * the lines that changed) stays off: with a frame that ends in a newline, as
 * ours does (one line short of the terminal, see app.tsx), it moves the
 * cursor up one line too few before each frame, so lines it leaves alone end
 * up one row off and the screen fills with stale rows (seen in bench:keys'
 * screen model with BENCH_INCREMENTAL=1; Ink 7 fixes it, and needs Node 22).
 */
export const inkOptions = {exitOnCtrlC: false, patchConsole: true, maxFps: 60, incrementalRendering: false} as const;

/**
 * The browse command's render-and-restore lifecycle (kept with the command,
 * so components never import the app root): draws the browser on the
 * terminal until the user quits. The terminal is
 * restored on every way out: quit, an error, a signal, or the process exiting.
 * Resolves with the exit status: 0, or 128 + the signal's number.
 */
export async function runBrowser({mouse: wantsMouse = true, screen: painted, line, ...props}: AppProps & {mouse?: boolean; screen?: TerminalScreen | undefined; line?: UserLine}): Promise<number> {
	// TERM=dumb cannot move the cursor: no alternate screen, no mouse, no
	// redraw in place (Ink's debug mode prints each frame whole, with no
	// cursor movement and no synchronized-output codes), no animation.
	const dumb = process.env['TERM'] === 'dumb';
	quietWhenTerminalGone();
	const screen = dumb ? undefined : painted ?? new TerminalScreen({mouse: wantsMouse});
	// A signal that came while the first page or the modules loaded.
	const stopped = screen?.stoppedStatus();
	if (stopped !== undefined) {
		screen!.restore();
		return stopped;
	}

	// Taken already when the first page was painted.
	screen?.take();

	let status = 0;
	let restored = false;
	const restore = () => {
		if (!restored) {
			restored = true;
			if (screen) {
				screen.restore();
			} else {
				// Synchronous: this also runs from the 'exit' event, where writes queue forever.
				writeSync(process.stdout.fd, '\n');
				discardTypeahead();
			}
		}
	};

	process.once('exit', restore);
	const stdin = terminalInput(process.stdin);
	const options = dumb ? {...inkOptions, stdin, debug: true, stdout: framesOnLines(process.stdout)} : {...inkOptions, stdin};
	// Ctrl-Z: the app asks, the screen gives the terminal back and stops (TERM=dumb has no screen to give back, and ignores it).
	const suspend = screen ? () => {
		screen.suspend();
	} : undefined;
	const instance = render(
		<Redraw screen={screen}>
			<RenderFailure line={line}><App colour={colourLevel(process.env, process.stdout.isTTY === true)} still={dumb} suspend={suspend} {...props} /></RenderFailure>
		</Redraw>,
		options,
	);
	// After the first frame, not before the modules load (heap-flags.ts).
	setHeapFlags('browser');
	const stop = (signal: NodeJS.Signals) => {
		status = 128 + (constants.signals[signal] ?? 0);
		instance.unmount();
	};

	// Ctrl-C is a key in raw mode; these come from outside (kill, a closed terminal).
	const release = takeStopSignals(stop, screen);
	try {
		await instance.waitUntilExit();
	} finally {
		release();
		process.off('exit', restore);
		restore();
	}

	return status;
}

/**
 * Gives the screen Ink's way of drawing the whole frame again after a stop:
 * Ink's stdout write clears the frame it last drew and draws it anew, here
 * with nothing written before it. (A rerender draws nothing when the frame
 * is unchanged, and Ink's resize clears only when the terminal narrows.)
 */
function Redraw({screen, children}: {screen: TerminalScreen | undefined; children: ReactNode}): ReactNode {
	const {write} = useStdout();
	useEffect(() => screen?.redrawWith(() => {
		write('');
	}), [screen, write]);
	return children;
}

/**
 * The terminal as Ink's debug mode writes to it, each frame starting on a
 * line of its own (debug mode writes frames back to back). Everything else
 * (size, resize events, isTTY) is the terminal's.
 */
function framesOnLines(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
	return new Proxy(stdout, {
		get(target, property) {
			if (property === 'write') {
				return (chunk: string | Uint8Array, ...rest: unknown[]) => target.write(typeof chunk === 'string' ? `\n${chunk}` : chunk, ...(rest as []));
			}

			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}
