import {withCursor} from '../../contract/links.js';

/**
 * The `:` prompt: jump to a cursor. `id` starts a new walk after that object
 * (`starting_after=id`), `<id` before it (`ending_before=id`), in the walk's
 * order and limit. Pure: the reducer turns the answer into a request or a
 * one-sentence notice.
 */

export type JumpCursor = 'starting_after' | 'ending_before';

export type JumpParse =
	| {ok: true; cursor: JumpCursor; id: string}
	| {ok: false; reason: 'empty' | 'malformed'}
	| {ok: false; reason: 'too-long'; length: number};

/** The longest id the prompt accepts: far past any UUID or opaque cursor, short enough to show. */
export const maxJumpId = 200;

export function parseJump(draft: string): JumpParse {
	const text = draft.trim();
	if (text === '') {
		return {ok: false, reason: 'empty'};
	}

	const before = text.startsWith('<');
	const id = before ? text.slice(1) : text;
	// An id is one word of printable text: spaces or control characters mean
	// something else was typed (a URL with its query, two ids, a paste gone wrong).
	if (id === '' || /[\s\p{Cc}]/u.test(id) || id.startsWith('<')) {
		return {ok: false, reason: 'malformed'};
	}

	// Said apart: "without spaces" would not say why an id of one word is refused.
	const length = [...id].length;
	if (length > maxJumpId) {
		return {ok: false, reason: 'too-long', length};
	}

	return {ok: true, cursor: before ? 'ending_before' : 'starting_after', id};
}

/** The URL of the jump: the walk's first URL (its order and limit) with the cursor, percent-encoded. */
export function jumpUrl(firstUrl: string, jump: {cursor: JumpCursor; id: string}): string {
	return withCursor(firstUrl, jump.cursor, jump.id);
}
