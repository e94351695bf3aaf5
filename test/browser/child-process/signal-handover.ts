/**
 * Run as a child (test/browser/child-process/terminal-screen.test.ts): a first paint, then
 * a SIGTERM received while the main thread is busy, then the browser taking
 * the stop signals in the same synchronous run, as runBrowser does after
 * its modules have loaded. Prints which listener got the signal.
 */
import process from 'node:process';
import {takeStopSignals, TerminalScreen} from '../../../source/commands/browse/terminal-screen.js';

const screen = new TerminalScreen({mouse: false});
screen.paint(['painted']);
// Received now; handed to a listener only when the event loop next runs.
process.kill(process.pid, 'SIGTERM');
takeStopSignals(signal => {
	process.stdout.write(`\nbrowser got ${signal}\n`);
	process.exit(0);
}, process.argv[2] === 'no-screen' ? undefined : screen);
// A guard against a hang, not a speed check: the signal is handled on the loop's
// next turn, which on a loaded machine may come seconds later.
setTimeout(() => {
	process.stdout.write(`\nlost; early stop: ${screen.stoppedStatus() ?? 'none'}\n`);
	process.exit(1);
}, 20_000);
