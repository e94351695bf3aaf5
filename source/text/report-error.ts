import {PagewalkError} from './errors.js';
import {inert} from './inert.js';
import {redact} from './secret.js';

/**
 * Turns anything thrown into the one sentence the user sees and the exit code.
 * Messages are made inert because they can quote server bytes, and any
 * credential a server echoed into them is redacted.
 */
export function describeError(error: unknown): {message: string; exitCode: number} {
	if (error instanceof PagewalkError) {
		return {message: inert(redact(error.message)), exitCode: error.exitCode};
	}

	const detail = error instanceof Error ? error.message : String(error);
	return {
		message: `pagewalk stopped on an unexpected internal error (${inert(redact(detail))}); please report it with the command you ran.`,
		exitCode: 1,
	};
}
