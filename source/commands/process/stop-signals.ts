import process from 'node:process';

/**
 * The signals that stop a dump or an audit early but cleanly: the document
 * is closed, the partial result written, and the exit status is the one a
 * shell reports for a process ended by that signal (128 + its number), so
 * scripts can tell an interrupted run from a failed one.
 */
export const signalExitCodes = {SIGINT: 130, SIGTERM: 143, SIGHUP: 129} as const;
export type StopSignal = keyof typeof signalExitCodes;

/** The reason a run's AbortSignal is aborted with when a stop signal arrives. */
export class Interrupted extends Error {
	constructor(readonly signal: StopSignal) {
		super(`interrupted (${signal})`);
		this.name = 'Interrupted';
	}
}

/** The exit status for an aborted run: its signal's, SIGINT's when the reason is something else. */
export function interruptedExitCode(reason: unknown): number {
	return reason instanceof Interrupted ? signalExitCodes[reason.signal] : signalExitCodes.SIGINT;
}

/**
 * Aborts `controller` with an Interrupted on the first SIGINT, SIGTERM or
 * SIGHUP. The handlers are removed at once, so a second signal while the run
 * closes up ends the process the usual way. Returns the function that removes
 * them when the run ends first.
 */
export function abortOnStopSignals(controller: AbortController): () => void {
	const handlers = new Map<StopSignal, () => void>();
	const release = () => {
		for (const [signal, handler] of handlers) {
			process.off(signal, handler);
		}
	};

	for (const signal of Object.keys(signalExitCodes) as StopSignal[]) {
		handlers.set(signal, () => {
			release();
			controller.abort(new Interrupted(signal));
		});
		process.on(signal, handlers.get(signal)!);
	}

	return release;
}
