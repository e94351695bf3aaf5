import type {FailedExchange} from '../contract/types.js';
/**
 * Errors the user is meant to read. Anything thrown that is not a PagewalkError
 * is a bug; the CLI still reports it in one sentence, never as a stack trace.
 */
export class PagewalkError extends Error {
	/** Process exit status when this error ends a command. */
	readonly exitCode: number;
	/**
	 * Whether asking again can help: false for a rejected credential, refused
	 * access, a missing list, a redirect or a rejected request, which only a
	 * change of flags or credential fixes (the browser then offers no retry).
	 */
	readonly retryable: boolean;
	/**
	 * What happened, without the advice that ends the message ("The account
	 * API has no such list (404 …)"), where a caller that knows more of the
	 * cause gives its own: a `:` jump's refused id, a related list the server
	 * does not serve.
	 */
	readonly problem: string | undefined;
	/** The request that failed and its answer, when it was an HTTP request (the browser's debug view shows it). */
	exchange: FailedExchange | undefined;

	constructor(message: string, options: {exitCode?: number; cause?: unknown; retryable?: boolean; problem?: string} = {}) {
		super(message, {cause: options.cause});
		this.name = 'PagewalkError';
		this.exitCode = options.exitCode ?? 1;
		this.retryable = options.retryable ?? true;
		this.problem = options.problem;
		this.exchange = undefined;
	}
}

/** A wrong flag or argument: nothing was sent, exit status 2. */
export class UsageError extends PagewalkError {
	constructor(message: string) {
		super(message, {exitCode: 2});
		this.name = 'UsageError';
	}
}

export const exitCodes = {
	ok: 0,
	failure: 1,
	usage: 2,
	incomplete: 3,
	/** dump of every account's lists: some lists failed (each said on stderr), the others were written. */
	listsFailed: 4,
} as const;
