/**
 * The shapes every part of pagewalk shares: what the contract says a list page
 * is (docs/contract.md#the-envelope), and what the walker hands to the dump, the audit
 * and the browser. Plain types, no behaviour.
 */

export type Api = 'account' | 'commerce';
export type Order = 'asc' | 'desc';

/** A listed object: the contract only promises an identifier that is the cursor. */
export type ListObject = Record<string, unknown> & {id: string};

/** The account API's pagination (docs/contract.md#the-envelope), plus the two fields real account servers add. */
export type AccountPagination = {
	ending_before: string | null;
	starting_after: string | null;
	limit: number;
	order: Order;
	previous_uri: string | null;
	next_uri: string | null;
	previous_ending_before?: string | null;
	next_starting_after?: string | null;
};

/** The commerce API's pagination (docs/contract.md#the-envelope). `cursor_range` is empty (or null) on a page with no objects. */
export type CommercePagination = {
	order: Order;
	starting_after: string | null;
	ending_before: string | null;
	total: number;
	yielded: number;
	limit: number;
	previous_uri: string | null;
	next_uri: string | null;
	cursor_range: [string, string] | [] | null;
};

export type Pagination = AccountPagination | CommercePagination;

/** One page as the walker read it. Every URL here is free of credentials. */
export type Page = {
	api: Api;
	/** The absolute URL requested. */
	requestUrl: string;
	/** Request headers as sent, with credential values replaced by a redaction mark. */
	requestHeaders: Record<string, string>;
	/**
	 * Response headers as received, cookies and credential-like headers
	 * (by name) replaced by a redaction mark. Absent on pages not read from a response.
	 */
	responseHeaders?: Record<string, string>;
	status: number;
	objects: ListObject[];
	/**
	 * Each object's exact text from the body, parallel to `objects`: what the
	 * dump writes (see json-spans.ts). Absent on pages not read from a body.
	 */
	objectTexts?: string[];
	/**
	 * Where those texts lie in the body's bytes, when the client was asked to
	 * keep them (the dump): the writer copies these bytes instead of encoding
	 * the texts to UTF-8 again. Absent when the body needed the slow path.
	 */
	objectBytes?: ObjectBytes;
	/** The validated pagination object. */
	pagination: Pagination;
	/** The pagination object exactly as the server sent it (for the debug view). */
	rawPagination: Record<string, unknown>;
	/** `next_uri` resolved against the base, or null when the list has ended. */
	nextUrl: string | null;
	/** `previous_uri` resolved against the base, or null when there is none. */
	previousUrl: string | null;
	/** The API's `warnings`, as text (not yet made inert). */
	warnings: string[];
	startedAt: number;
	/** Milliseconds from sending the request to the parsed body, retries included. */
	ms: number;
	/**
	 * Milliseconds from the last try's request to its whole answer, before
	 * any wait to be parsed (a page read ahead waits for its turn): the
	 * server's pace as the walk from both ends judges it.
	 */
	roundTripMs?: number;
	/** How many retries this page took. */
	retries: number;
	/** Size of the response body in bytes. */
	bytes: number;
	/** Which credential the request carried, e.g. "CDP key ES256 from --key-file 'k.json'"; never a secret. */
	credential?: string;
	/**
	 * The decoded claims of the JWT this page's request carried (CDP keys
	 * only), never its signature: what someone chasing a 401 needs.
	 */
	jwtClaims?: JwtSummary;
};

/**
 * The body's UTF-8 bytes and, for object i, `offsets[2i]` and `offsets[2i+1]`:
 * the start and end of its exact text in them. A start of -1 means the text
 * is not the bytes as sent (whitespace was removed or an unsafe character
 * escaped): write `objectTexts[i]` instead. The bytes are the writer's, used
 * once: the NDJSON writer turns the commas between objects into newlines in
 * place (see linesInPlace).
 */
export type ObjectBytes = {body: Uint8Array; offsets: Int32Array};

/** A request JWT's claims as the debug view shows them. */
export type JwtSummary = {alg?: string; kid?: string; uri?: string; nbf?: number; exp?: number};

/**
 * The request a failed load sent and what came back, as the debug view
 * shows a page's (headers redacted by the client): after a 401 these are
 * what is needed. `status` is absent when no answer came.
 */
export type FailedExchange = {
	requestUrl: string;
	requestHeaders: Record<string, string>;
	credential?: string;
	jwtClaims?: JwtSummary;
	status?: number;
	responseHeaders?: Record<string, string>;
	ms: number;
	retries: number;
};

/** Told to the caller while the client waits before retrying a request. */
export type RetryNotice = {
	attempt: number;
	waitMs: number;
	/** Why: "429 rate_limit_exceeded", "503", "connection reset", ...; when pacing, what is left ("0 of 10 left"). */
	reason: string;
	/** Set when no request failed: the server's stated budget is spent and the walk waits for it (http/rate-budget.ts). */
	pacing?: true;
	/** Set when the wait is the one the server's Retry-After asked for (not a backoff of our own). */
	retryAfter?: true;
	/** When the wait began (ms since the epoch), where a countdown is shown; set by whoever receives the notice. */
	since?: number;
};

/** Why a walk stopped. Only `end` means the list was read to its end. */
export type WalkEnd =
	| {kind: 'end'}
	| {kind: 'max-pages'; limit: number}
	| {kind: 'max-items'; limit: number}
	| {kind: 'not-advancing'; note: string};
