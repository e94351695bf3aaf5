import type {ColumnChoice} from '../../cells/column-order.js';
import type {RowSort} from '../stack/cells.js';
import type {CopyWhat, ExportJob, SaveJob} from '../actions/effects.js';
import type {EachList} from '../../config/endpoint.js';
import type {Mode} from './keymap.js';
import type {SaveWhat, SearchDirection, StackAction} from '../stack/types.js';

/**
 * What covers the table (an overlay or a line being typed) and what a key
 * press routed asks for: of the page stack, of the screen, or to quit. The
 * routing itself is in router.ts and the routers it calls, which read these
 * types; pure, so the whole key handling is tested without React.
 */

export type Screen =
	| {kind: 'table'}
	| {kind: 'help'; scroll: number}
	/** `related`: which of the object's related lists Enter opens (the first when not given). */
	| {kind: 'detail'; scroll: number; related?: number}
	| {kind: 'debug'; scroll: number}
	| {kind: 'compare'; scroll: number}
	| {kind: 'filter'; draft: string; before: string}
	/** `fresh`: the draft is the limit in use, shown to be replaced: the first digit typed starts over, Backspace clears it. */
	| {kind: 'limit'; draft: string; fresh?: boolean}
	| {kind: 'columns'; items: ColumnItem[]; cursor: number}
	// Copy and save: the file name for w and W, and the question when that file exists.
	/** `suggested`: the name Enter takes when nothing is typed. */
	| {kind: 'save'; draft: string; what: SaveWhat; suggested?: string}
	| {kind: 'overwrite'; job: SaveJob}
	// E: the file name for every account's lists (Tab: which list), and the question when that file exists.
	| {kind: 'export'; draft: string; each: EachList; suggested: string}
	/** `resumable`: an unfinished export is beside the file (y goes on with it), else y writes over it. */
	| {kind: 'export-exists'; job: ExportJob; resumable: boolean}
	| {kind: 'jump'; draft: string}
	/** `/` in a pane: text to find in it (less); the pane stays underneath. */
	| {kind: 'find'; draft: string; pane: Pane};

/** The panes over the table, whose text scrolls. */
export type Pane = Extract<Screen, {kind: 'help' | 'detail' | 'debug' | 'compare'}>;

export function isPane(screen: Screen): screen is Pane {
	return screen.kind === 'help' || screen.kind === 'detail' || screen.kind === 'debug' || screen.kind === 'compare';
}

/** One line of the column picker: a column of the page and whether the table shows it. */
export type ColumnItem = {path: string; shown: boolean};

/**
 * How the user looks at the page, apart from the page stack: which columns
 * and how far scrolled sideways, and whether panes wrap.
 */
export type ViewChange =
	| {type: 'scroll-columns'; delta: number}
	| {type: 'scroll-pane'; delta: number}
	| {type: 'toggle-wrap'}
	| {type: 'choose-columns'; choice: ColumnChoice};

export type KeyContext = {
	/** Table rows on screen: PgUp/PgDn move by this much. */
	bodyRows: number;
	/** Lines of the open overlay, to clamp its scrolling. */
	overlayLines: number;
	/** The filter in effect (Esc on the table clears it). */
	filter: string;
	/** Whether the page has a selected object (Enter needs one). */
	hasSelection: boolean;
	/** The page's columns as the picker lists them (asked for only when it opens). */
	columnItems?: () => ColumnItem[];
	/** How many related lists the selected object has (the detail view offers them); none when not given. */
	related?: number;
	/** Whether the walk on screen is a related list (Esc and q go back to its parent). */
	nested?: boolean;
	/** The limit in use: `L` starts from it. */
	limit?: number;
	/** The file name `w` or `W` offers (asked for only when the prompt opens). */
	saveName?: (what: SaveWhat) => string;
	/** Whether the walk on screen is the account API's accounts list, the one `E` exports every account's lists from. */
	exportable?: boolean;
	/** Whether an export (E) runs: a second waits for it. */
	exporting?: boolean;
	/** The sort in effect, and the column `s` sorts by (the leftmost shown after the id; asked for only then). */
	sort?: RowSort | null;
	sortColumn?: () => string | undefined;
};

/** A move between walks: open a related list of the selected object as a new walk, or return to the one it came from. */
export type WalkMove = {type: 'open'; index: number} | {type: 'parent'};

/**
 * What a key asks beyond the state (see effects.ts): a copy, a write, or
 * `kept` (the user said no to overwriting `name`). The reducer adds the data.
 * (A request is an HTTP one: `requestId`, `requestUrl`.)
 */
export type Ask =
	| {kind: 'copy'; what: CopyWhat}
	| {kind: 'save'; what: SaveWhat; name: string}
	| {kind: 'overwrite'; job: SaveJob}
	| {kind: 'kept'; name: string}
	| {kind: 'export'; each: EachList; name: string}
	/** y to the question on an export's file: go on with it, or write over it. */
	| {kind: 'export-confirmed'; job: ExportJob};

/** `search`: start a search across pages that way (the browser state runs it). */
/** `find`: look for this text in the pane (empty: the last text again), from the line after the top one. */
export type Routed = {stack?: StackAction[]; screen?: Screen; quit?: true; view?: ViewChange; walk?: WalkMove; ask?: Ask; search?: SearchDirection; find?: string};

/** The keymap's mode for what is on screen. */
export function modeOf(screen: Screen): Mode {
	if (screen.kind === 'columns') {
		return 'picker';
	}

	if (screen.kind === 'detail') {
		return 'detail';
	}

	if (screen.kind === 'overwrite' || screen.kind === 'export-exists') {
		return 'confirm';
	}

	return screen.kind === 'table' ? 'table' : 'draft' in screen ? 'prompt' : 'overlay';
}
