import type {Finding} from '../../contract/contract.js';
import type {FillMark} from '../../contract/fill-strip.js';
import type {FailedExchange, Order, Page, RetryNotice} from '../../contract/types.js';
import type {LoopEnd} from '../../http/walk-rules.js';
import type {RowSort} from './cells.js';
import type {JumpCursor} from './jump.js';

/**
 * The page stack's types, and those of a search across pages that lands on
 * it: a leaf, so the stack's steps, follow, the search and its landing read
 * them without importing the reducer that imports them.
 */

export type Settings = {order: Order; limit: number};

/** `findings`: what the contract's per-page checks found when the page landed (none when it keeps every rule). */
export type Entry = {url: string; page: Page | null; selected: number; fill?: FillMark; findings?: Finding[]};

/**
 * What a wanted page does once it arrives: `push` it on top (next page),
 * `pop` to it (back onto an entry whose page was evicted), `reset` the stack
 * to it (first page, new walk, previous_uri at the bottom), `refresh` the top;
 * `probe` asks whether anything is new past the followed end (F) and shows nothing itself.
 */
export type RequestKind = 'push' | 'pop' | 'reset' | 'refresh' | 'probe';

/** `retrying`: the client's last retry notice while it waits (worded by the status model). */
/**
 * `focus`: the id to select once the page lands (the object `o` flipped the
 * order around); `near`: the other ids of its page, nearest first, the one
 * selected instead when it is gone by then.
 */
export type Pending = {requestId: number; url: string; kind: RequestKind; retrying: RetryNotice | null; jump?: true; focus?: string; near?: readonly string[]};

/** `retrying`: the client's last retry notice while the prefetch waits, kept for → to adopt with it. */
export type Prefetch = {requestId: number; url: string; page: Page | null; retrying?: RetryNotice};

/** `retryable`: whether asking again can help (not after 401, 403, 404: the fix is elsewhere). */
/** A failed load: the error's message, and its `problem` (the message without its advice) where a caller may advise better. */
export type LoadError = {message: string; url: string; kind: RequestKind; retryable: boolean; problem?: string; jump?: true; exchange?: FailedExchange};

/** What an OSC 52 copy came to: the sequence to write, or how big the text was when over the bound (actions/clipboard.ts). */
export type ClipboardWrite = {ok: true; sequence: string; bytes: number} | {ok: false; bytes: number};

/** What a save writes: the page on screen, or the walk from it (`w`, `W`). */
export type SaveWhat = 'page' | 'walk';

/**
 * The status line's one message: what the last key, or the task it started
 * (a copy, a write, a search), did, as data. The status model words it and
 * gives it its level (status-model.ts), so the reducers hold no sentences.
 * The next key clears it (browser-state.ts), a newer one replaces it, and a
 * page landing drops what it makes stale (see `landed`).
 */
export type Notice =
	| {kind: 'end-of-list'; reason: 'no-next-uri'}
	// → stopped where the walk rules (http/walk-rules.ts) stop every walk: `end` says how it would loop.
	| {kind: 'end-of-list'; reason: 'loops-back'; end: LoopEnd}
	| {kind: 'refreshed'; changed: false}
	| {kind: 'refreshed'; changed: true; added: number; removed: number}
	| {kind: 'keys-dropped'; count: number}
	| {kind: 'stopped-loading'}
	// ← took back a → that waited for the page loading: the walk now stops at page `stopsAt`.
	| {kind: 'took-back'; stopsAt: number}
	| {kind: 'already-first'}
	| {kind: 'no-previous'}
	| {kind: 'following-previous'}
	// `gone`: the object `at` was no longer there when the page came; `neighbour` was selected instead.
	// `place`: the page showed no row, so the walk starts where the page was (its cursor turned round); `noRow`: nor had it a cursor.
	| {kind: 'new-walk'; change: 'order'; order: Order; at?: string; gone?: {neighbour: string | undefined}; place?: {cursor: JumpCursor; id: string}; noRow?: true}
	// `clamped`: + or - went past the contract's bounds, so the limit is the bound.
	| {kind: 'new-walk'; change: 'limit'; limit: number; clamped?: true}
	| {kind: 'limit-stays'; limit: number; maximum: number; refused?: LimitRefusal}
	| {kind: 'retrying'}
	| ({kind: 'bound'} & WalkBound)
	// Jump to a cursor (`:`) and search across pages (`n`, `N`).
	| {kind: 'jump'; cursor: JumpCursor}
	| {kind: 'jump-empty'}
	| {kind: 'jump-malformed'}
	// The id typed after : is longer than jump.ts takes (maxJumpId): `length` characters.
	| {kind: 'jump-too-long'; length: number}
	| {kind: 'search-no-filter'}
	| {kind: 'search-busy'}
	| {kind: 'search-found'; direction: SearchDirection; searched: number; page: number; before: boolean}
	| {kind: 'search-end'; direction: SearchDirection; searched: number; filter: string; end: SearchEnd}
	| {kind: 'search-bound'; direction: SearchDirection; searched: number; filter: string; bound: SearchBound}
	| {kind: 'search-stopped'; direction: SearchDirection; searched: number; moved: boolean; by: 'escape' | 'error'}
	// `loop`: following stopped itself, where the next page would loop.
	| {kind: 'follow-stopped'; count: number; loop?: LoopEnd}
	// What a copy or a write (effects.ts) came to, and where a find in a pane landed.
	| {kind: 'copied'; words: string; label: string; write: ClipboardWrite; caveat: boolean}
	| {kind: 'nothing-to-copy'}
	| {kind: 'cannot'; what: 'curl' | 'write'}
	| {kind: 'no-file-name'; what: SaveWhat}
	| {kind: 'nothing-to-write'}
	| {kind: 'wrote'; name: string; counts: {objects: number; pages: number; refetched: number}; walk: boolean}
	| {kind: 'kept'; name: string}
	| {kind: 'exists'; name: string}
	/** The command's one sentence for a write that failed. */
	| {kind: 'write-failed'; message: string}
	| {kind: 'found'; text: string; line: number; lines: number}
	| {kind: 'not-found'; text: string}
	// The export of every account's lists (E): asked off the accounts list, asked while one runs, how it ended.
	| {kind: 'export-where'}
	| {kind: 'export-busy'}
	// `failed`: the accounts whose lists failed (the first few), of `failedCount`; the debug view says why.
	| {kind: 'exported'; name: string; objects: number; lists: number; failed: readonly string[]; failedCount: number}
	// Stopped short, the file and its state kept: `why` the failure's sentence (null: Ctrl-C); `resume` the dump line that goes on, where there is one.
	| {kind: 'export-stopped'; name: string; why: string | null; objects: number; lists: number; total: number | undefined; known: number; resume: string | null};

/** A limit typed after L that is none: nothing typed, not a whole number, or over the contract's maximum. */
export type LimitRefusal = {typed: string; why: 'empty' | 'not-whole' | 'over'};

export type StackAction =
	| {type: 'next'}
	| {type: 'previous'}
	| {type: 'first'}
	| {type: 'toggle-order'}
	| {type: 'change-limit'; delta: number}
	// `refused`: what was typed after L when it is no limit (the reducer says so and keeps the limit).
	| {type: 'set-limit'; limit: number; refused?: LimitRefusal}
	| {type: 'refresh'}
	| {type: 'move'; delta: number}
	| {type: 'move-to'; position: 'top' | 'bottom'}
	| {type: 'set-filter'; filter: string}
	| {type: 'loaded'; requestId: number; page: Page}
	| {type: 'failed'; requestId: number; message: string; retryable?: boolean; problem?: string; exchange?: FailedExchange}
	| {type: 'retrying'; requestId: number; retry: RetryNotice}
	// Jump to a cursor: a new walk from the walk's first URL with this cursor (same order and limit).
	| {type: 'jump'; cursor: JumpCursor; id: string}
	// A search across pages ended: land where it says, if the stack is still the one it started from.
	| {type: 'searched'; outcome: SearchOutcome; from: SearchStart}
	| {type: 'notice'; notice: Notice}
	// F: start or stop following the newest end; a poll asks whether anything arrived.
	| {type: 'follow'}
	| {type: 'unfollow'}
	| {type: 'follow-poll'}
	// s: sort the rows on screen by a column, or back to the server's order.
	| {type: 'sort'; sort: RowSort | null};

/** The stack a search started from: its outcome applies to this stack only. */
export type SearchStart = {walk: number; depth: number; url: string};

export type PageStackState = {
	settings: Settings;
	/** Where the list starts in the current settings (no cursor). */
	firstUrl: string;
	/** Bottom to top; the top is the page on screen. */
	entries: Entry[];
	/**
	 * The page the stack waits for, and the next page (on its way, or here):
	 * the one record of each page request, the browser's `load` and
	 * `prefetch` tasks made from them (state/tasks.ts).
	 */
	pending: Pending | null;
	prefetch: Prefetch | null;
	/** Keys pressed while a page was loading, replayed in order when it lands. */
	queue: StackAction[];
	nextRequestId: number;
	/** Counts walks: a new order or limit starts the next one. */
	walk: number;
	/**
	 * Distinct ids seen in this walk: those of every page it showed. Bounded
	 * by the walk: one page's ids (at most the contract's maximum limit, 100)
	 * per page landed; a new walk starts it empty.
	 */
	seen: ReadonlySet<string>;
	/**
	 * How full each page of this walk was, from its first page (`page 1`) to
	 * the deepest reached: the fill strip. ← keeps the pages it leaves; a new
	 * walk, or a new first page, starts them over (see recordWalked). One
	 * mark per page, as the stack keeps one URL per page.
	 */
	walked: readonly FillMark[];
	error: LoadError | null;
	/** The status line's message: what the last key, or the task it started, did. */
	notice: Notice | null;
	filter: string;
	/** Pages kept in memory below the top; deeper entries keep only their URL. */
	maxCachedPages: number;
	/** --max-pages and --max-items: → stops following next_uri there, saying so. */
	bounds: Bounds;
	/** Following the newest end (F), or null. */
	follow: Follow | null;
	/** The rows of every page sorted on screen by a column (`s`), or null for the server's order. */
	sort: RowSort | null;
	/** The page the server answered last (a prefetch too): the request budget it stated is the one to show. */
	answered?: Page;
};

/**
 * Following the newest end of the list (F, like less +F): `count` objects
 * arrived since it began (ids never seen in this walk, each once; see
 * follow-steps.ts), `fresh` are the ids of the last arrival (marked new
 * until the next poll), `failures` in a row stretch the pause between polls.
 */
export type Follow = {count: number; fresh: readonly string[]; failures: number};

export type Bounds = {maxPages: number | null; maxItems: number | null};

/** A bound of the walk reached (--max-pages, --max-items): the flag, as typed, and its value. */
export type WalkBound = {flag: 'max-pages' | 'max-items'; limit: number};

export type SearchDirection = 'forward' | 'backward';

/** A page searched and passed: where it was and how full, as an evicted stack entry keeps it. */
export type PassedPage = {url: string; fill: FillMark};

/**
 * Where a search lands. `forward`: the pages passed become entries above the
 * old top, then the landing page. `stack`: back down the stack to entry
 * `index` (its page, re-fetched when it had been evicted). `before`: past the
 * bottom of the stack through previous_uri, a new stack of that one page.
 */
export type SearchLanding =
	| {kind: 'forward'; passed: PassedPage[]; url: string; page: Page}
	| {kind: 'stack'; index: number; page: Page}
	| {kind: 'before'; url: string; page: Page};

export type SearchEnd = 'no-next-uri' | 'loops-back' | 'start-of-list' | 'no-previous';

/** Where a search stops short: a bound of the walk, or its own (pages a search walks when --max-pages is not given). */
export type SearchBound = WalkBound | {flag: 'search'; limit: number};

/**
 * What a search did. `found`: landing on the matching page. `end`: the list
 * ends (or its start is reached) with no match; the search does not move.
 * `bound`, `cancelled` and `failed` stop on the last page reached (no landing
 * when none was). `searched` counts the pages looked at, fetched or cached.
 */
export type SearchOutcome = {
	direction: SearchDirection;
	filter: string;
	result: 'found' | 'end' | 'bound' | 'cancelled' | 'failed';
	searched: number;
	landing: SearchLanding | null;
	/** Ids seen in the walk, the pages searched forward included (null: unchanged). */
	seen: ReadonlySet<string> | null;
	end?: SearchEnd;
	bound?: SearchBound;
	error?: {message: string; url: string; kind: RequestKind; retryable: boolean};
};

/** What the status line says while a search runs: the page being looked at. */
export type SearchProgress = {
	direction: SearchDirection;
	/** Page number in this walk, or null past its start (through previous_uri). */
	page: number | null;
	/** Pages looked at so far. */
	searched: number;
	/** The page looked for waits (a spent budget, a 429): said with its time left. */
	waiting?: RetryNotice;
};
