import type {Page} from '../../contract/types.js';
import type {EachList} from '../../config/endpoint.js';
import type {SaveWhat} from '../stack/types.js';

/**
 * What a key asks of the world outside the reducer: text for the clipboard,
 * pages for a file. The reducer stays pure: it records the request with the
 * data it needs (taken when the key was pressed) as a task (tasks.ts), the
 * task runner carries it out through the callbacks the command passed, and
 * the outcome comes back as an action that sets the status line's message.
 */

export type CopyWhat = 'id' | 'json' | 'curl';

/** A page of the walk to write: in memory, or evicted (page null) and fetched again from `url` when its turn comes. */
export type WalkPage = {url: string; page: Page | null};

/** A write asked for: the name as typed, the pages as they were when the key was pressed. */
export type SaveJob = {what: SaveWhat; name: string; pages: WalkPage[]; overwrite: boolean};

/**
 * An export of every account's lists (`E` on the accounts list), the walk of
 * `pagewalk dump transactions --all -o FILE`: which list of each account,
 * the file name as typed, and whether the file is new, or the unfinished
 * export beside it goes on (`resume`), or it is written over (`overwrite`),
 * each asked first.
 */
export type ExportJob = {each: EachList; name: string; mode: 'new' | 'resume' | 'overwrite'};

export type Effect =
	/**
	 * `text` (id, JSON) or, for curl, the request `url` the command's curlFor
	 * turns into text; the message says `words` and `label` (server text, the id,
	 * drawn inert): `copied JSON of 7c1…`; `caveat` on the first copy only
	 * (the OSC 52 caveat is said once, not on every copy).
	 */
	| {id: number; kind: 'copy'; what: CopyWhat; text: string; url: string; words: string; label: string; caveat?: boolean}
	| {id: number; kind: 'save'; job: SaveJob};
