import type {ColumnChoice} from '../core/column-order.js';
import type {RowSort} from './cells.js';
import type {StackAction} from './page-stack.js';
import type {CopyWhat, SaveJob, SaveWhat} from './effects.js';
import {parseJump} from './jump.js';
import {commandFor, type Mode} from './keymap.js';
import type {SearchDirection} from './search-pages.js';

/**
 * What covers the table (an overlay or a line being typed) and how a key
 * press is routed: to the page stack, to the screen, or to quit. Pure, so the
 * whole key handling is tested without React; the app only dispatches.
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

type Scrolling = Extract<Screen, {scroll: number}>;
type Typing = Extract<Screen, {draft: string}>;

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
	/** The sort in effect, and the column `s` sorts by (the leftmost shown after the id; asked for only then). */
	sort?: RowSort | null;
	sortColumn?: () => string | undefined;
};

/** A move between walks: open a related list of the selected object as a new walk, or return to the one it came from. */
export type WalkMove = {type: 'open'; index: number} | {type: 'parent'};

/**
 * What a key asks beyond the state (see effects.ts): a copy, a write, or
 * `kept` (the user said no to overwriting `name`). The reducer adds the data.
 */
export type Request =
	| {kind: 'copy'; what: CopyWhat}
	| {kind: 'save'; what: SaveWhat; name: string}
	| {kind: 'overwrite'; job: SaveJob}
	| {kind: 'kept'; name: string};

/** `search`: start a search across pages that way (the browser state runs it). */
/** `find`: look for this text in the pane (empty: the last text again), from the line after the top one. */
export type Routed = {stack?: StackAction[]; screen?: Screen; quit?: true; view?: ViewChange; walk?: WalkMove; request?: Request; search?: SearchDirection; find?: string};

function scrolled<S extends Scrolling>(screen: S, delta: number | 'top' | 'bottom', context: KeyContext): S {
	const max = Math.max(0, context.overlayLines - context.bodyRows);
	const target = delta === 'top' ? 0 : delta === 'bottom' ? max : screen.scroll + delta;
	return {...screen, scroll: Math.min(Math.max(target, 0), max)};
}

/** The keymap's mode for what is on screen. */
export function modeOf(screen: Screen): Mode {
	if (screen.kind === 'columns') {
		return 'picker';
	}

	if (screen.kind === 'detail') {
		return 'detail';
	}

	if (screen.kind === 'overwrite') {
		return 'confirm';
	}

	return screen.kind === 'table' ? 'table' : 'draft' in screen ? 'prompt' : 'overlay';
}

function deleted<S extends Typing>(screen: S): S {
	return {...screen, draft: [...screen.draft].slice(0, -1).join('')};
}

function typed<S extends Typing>(screen: S, name: string, input: string): S | undefined {
	// Printable text only: a pasted control sequence must not reach the draft.
	if (input.length > 0 && !/\p{Cc}/u.test(input) && !name.startsWith('ctrl+')) {
		return {...screen, draft: screen.draft + input};
	}

	return undefined;
}

export function routeKey(screen: Screen, name: string, input: string, context: KeyContext): Routed {
	// The detail view of an object without related lists keeps the overlay's keys (← → page, Enter closes).
	const related = context.related ?? 0;
	const command = commandFor(screen.kind === 'detail' && related === 0 ? 'overlay' : modeOf(screen), name);
	if (command === 'quit' || command === 'interrupt') {
		return {quit: true};
	}

	// q is Esc, except on the first list with nothing to go back from.
	if (command === 'back' && screen.kind === 'table') {
		return context.filter === '' && context.nested !== true ? {quit: true} : routeKey(screen, 'escape', '', context);
	}

	if (screen.kind === 'filter') {
		switch (command) {
			case 'prompt-apply': {
				return {screen: {kind: 'table'}};
			}

			case 'prompt-cancel': {
				return {screen: {kind: 'table'}, stack: [{type: 'set-filter', filter: screen.before}]};
			}

			default: {
				const next = command === 'prompt-delete' ? deleted(screen) : typed(screen, name, input);
				// The filter applies as it is typed.
				return next ? {screen: next, stack: [{type: 'set-filter', filter: next.draft}]} : {};
			}
		}
	}

	if (screen.kind === 'limit') {
		switch (command) {
			case 'prompt-cancel': {
				return {screen: {kind: 'table'}};
			}

			case 'prompt-apply': {
				const limit = Number(screen.draft);
				const valid = /^\d{1,3}$/.test(screen.draft) && limit <= 100;
				return {screen: {kind: 'table'}, stack: valid ? [{type: 'set-limit', limit}] : [{type: 'set-limit', limit: Number.NaN}]};
			}

			default: {
				// The limit in use is shown to be replaced: typing starts over, Backspace clears it.
				const base = screen.fresh ? {kind: 'limit' as const, draft: ''} : screen;
				if (command === 'prompt-delete') {
					return {screen: screen.fresh ? base : deleted(screen)};
				}

				const next = /^\d+$/.test(input) ? typed(base, name, input) : undefined;
				return next ? {screen: next} : {};
			}
		}
	}

	if (screen.kind === 'jump') {
		return routeJump(screen, command, name, input);
	}

	if (screen.kind === 'find') {
		switch (command) {
			case 'prompt-cancel': {
				return {screen: screen.pane};
			}

			case 'prompt-apply': {
				return {screen: screen.pane, find: screen.draft};
			}

			default: {
				const next = command === 'prompt-delete' ? deleted(screen) : typed(screen, name, input);
				return next ? {screen: next} : {};
			}
		}
	}

	if (screen.kind === 'columns') {
		return routePicker(screen, command);
	}

	if (screen.kind === 'save' || screen.kind === 'overwrite') {
		return routeSave(screen, command, name, input);
	}

	if (command === undefined) {
		return {};
	}

	if (screen.kind !== 'table') {
		switch (command) {
			case 'close':
			case 'back': {
				return {screen: {kind: 'table'}};
			}

			case 'up': {
				return {screen: scrolled(screen, -1, context)};
			}

			case 'down': {
				return {screen: scrolled(screen, 1, context)};
			}

			case 'page-up': {
				return {screen: scrolled(screen, -context.bodyRows, context)};
			}

			case 'page-down': {
				return {screen: scrolled(screen, context.bodyRows, context)};
			}

			case 'top': {
				return {screen: scrolled(screen, 'top', context)};
			}

			case 'bottom': {
				return {screen: scrolled(screen, 'bottom', context)};
			}

			// Sideways in the pane: only when wrapping is off (the reducer knows).
			case 'scroll-left':
			case 'scroll-right': {
				return {view: {type: 'scroll-pane', delta: command === 'scroll-left' ? -8 : 8}};
			}

			case 'wrap': {
				return {view: {type: 'toggle-wrap'}};
			}

			case 'find': {
				return {screen: {kind: 'find', draft: '', pane: screen}};
			}

			// Next and previous object without leaving the detail view.
			case 'detail-next':
			case 'detail-previous': {
				if (screen.kind !== 'detail') {
					return {};
				}

				return {stack: [{type: 'move', delta: command === 'detail-next' ? 1 : -1}], screen: {kind: 'detail', scroll: 0}};
			}

			// Related lists, in the detail view of an object that has some (see modeOf).
			case 'related-next':
			case 'related-previous': {
				if (screen.kind !== 'detail' || related === 0) {
					return {};
				}

				const current = Math.min(screen.related ?? 0, related - 1);
				return {screen: {...screen, related: (current + (command === 'related-next' ? 1 : related - 1)) % related}};
			}

			case 'open-related': {
				return screen.kind === 'detail' && related > 0 ? {walk: {type: 'open', index: Math.min(screen.related ?? 0, related - 1)}} : {};
			}

			// Copies from an overlay leave it open (the detail view shows what y and Y copy).
			case 'copy-id':
			case 'copy-json':
			case 'copy-curl': {
				return routeKey({kind: 'table'}, name, input, context);
			}

			// The key that opened an overlay closes it again.
			case 'help':
			case 'detail':
			case 'debug':
			case 'compare': {
				return command === screen.kind ? {screen: {kind: 'table'}} : {screen: {kind: command, scroll: 0}};
			}

			default: {
				// Page keys work from the debug panel (to watch requests) and the
				// compare view (to compare page after page); the detail view and
				// help would show a stale object, so they close.
				const routed = routeKey({kind: 'table'}, name, input, context);
				const stays = screen.kind === 'debug' || screen.kind === 'compare';
				return stays ? {...routed, screen: routed.screen ?? screen} : {...routed, screen: routed.screen ?? {kind: 'table'}};
			}
		}
	}

	switch (command) {
		case 'up': {
			return {stack: [{type: 'move', delta: -1}]};
		}

		case 'down': {
			return {stack: [{type: 'move', delta: 1}]};
		}

		case 'page-up': {
			return {stack: [{type: 'move', delta: -Math.max(1, context.bodyRows)}]};
		}

		case 'page-down': {
			return {stack: [{type: 'move', delta: Math.max(1, context.bodyRows)}]};
		}

		case 'top': {
			return {stack: [{type: 'move-to', position: 'top'}]};
		}

		case 'bottom': {
			return {stack: [{type: 'move-to', position: 'bottom'}]};
		}

		case 'next': {
			return {stack: [{type: 'next'}]};
		}

		case 'previous': {
			return {stack: [{type: 'previous'}]};
		}

		case 'first': {
			return {stack: [{type: 'first'}]};
		}

		case 'toggle-order': {
			return {stack: [{type: 'toggle-order'}]};
		}

		case 'limit-up': {
			return {stack: [{type: 'change-limit', delta: 5}]};
		}

		case 'limit-down': {
			return {stack: [{type: 'change-limit', delta: -5}]};
		}

		case 'limit-type': {
			return {screen: context.limit === undefined ? {kind: 'limit', draft: ''} : {kind: 'limit', draft: String(context.limit), fresh: true}};
		}

		case 'refresh': {
			return {stack: [{type: 'refresh'}]};
		}

		case 'detail': {
			return context.hasSelection ? {screen: {kind: 'detail', scroll: 0}} : {};
		}

		case 'debug': {
			return {screen: {kind: 'debug', scroll: 0}};
		}

		case 'compare': {
			return {screen: {kind: 'compare', scroll: 0}};
		}

		case 'help': {
			return {screen: {kind: 'help', scroll: 0}};
		}

		case 'filter': {
			return {screen: {kind: 'filter', draft: context.filter, before: context.filter}};
		}

		// Back one level: the filter first, then out of a related list.
		case 'close': {
			if (context.filter !== '') {
				return {stack: [{type: 'set-filter', filter: ''}]};
			}

			return context.nested === true ? {walk: {type: 'parent'}} : {};
		}

		// Handled above: q on the table is Esc or quit.
		case 'back': {
			return {};
		}

		case 'scroll-left': {
			return {view: {type: 'scroll-columns', delta: -1}};
		}

		case 'scroll-right': {
			return {view: {type: 'scroll-columns', delta: 1}};
		}

		case 'wrap': {
			return {view: {type: 'toggle-wrap'}};
		}

		case 'columns': {
			const items = context.columnItems?.() ?? [];
			return items.length === 0 ? {} : {screen: {kind: 'columns', items, cursor: 0}};
		}

		case 'parent': {
			return {walk: {type: 'parent'}};
		}

		case 'copy-id':
		case 'copy-json':
		case 'copy-curl': {
			const what = command === 'copy-id' ? 'id' : command === 'copy-json' ? 'json' : 'curl';
			return what !== 'curl' && !context.hasSelection ? {} : {request: {kind: 'copy', what}};
		}

		case 'save-page':
		case 'save-walk': {
			const what = command === 'save-page' ? 'page' : 'walk';
			const suggested = context.saveName?.(what);
			return {screen: {kind: 'save', draft: '', what, ...(suggested === undefined ? {} : {suggested})}};
		}

		// Bound in prompts and the picker only, handled above.
		case 'picker-up':
		case 'picker-down':
		case 'picker-toggle':
		case 'picker-move-up':
		case 'picker-move-down':
		case 'picker-apply':
		case 'picker-cancel':
		case 'prompt-apply':
		case 'prompt-cancel':
		case 'prompt-delete':
		case 'confirm-yes':
		case 'find':
		case 'detail-next':
		case 'detail-previous':
		case 'related-next':
		case 'related-previous':
		case 'open-related': {
			return {};
		}

		case 'jump': {
			return {screen: {kind: 'jump', draft: ''}};
		}

		case 'search-next':
		case 'search-previous': {
			return {search: command === 'search-next' ? 'forward' : 'backward'};
		}

		case 'follow': {
			return {stack: [{type: 'follow'}]};
		}

		// s: ▲ on a new column, then ▼, then the server's order again.
		case 'sort': {
			const path = context.sortColumn?.();
			if (path === undefined) {
				return {};
			}

			const current = context.sort;
			const sort: RowSort | null = current?.path !== path ? {path, direction: 'ascending'} : current.direction === 'ascending' ? {path, direction: 'descending'} : null;
			return {stack: [{type: 'sort', sort}]};
		}
	}
}

/**
 * The `:` prompt: Enter jumps (a new walk from the cursor typed), or says in
 * one sentence why it cannot; the walk on screen is kept either way.
 */
function routeJump(screen: Extract<Screen, {kind: 'jump'}>, command: string | undefined, name: string, input: string): Routed {
	switch (command) {
		case 'prompt-cancel': {
			return {screen: {kind: 'table'}};
		}

		case 'prompt-apply': {
			const jump = parseJump(screen.draft);
			if (!jump.ok) {
				return {screen: {kind: 'table'}, stack: [{type: 'notice', notice: {kind: jump.reason === 'empty' ? 'jump-empty' : 'jump-malformed'}}]};
			}

			return {screen: {kind: 'table'}, stack: [{type: 'jump', cursor: jump.cursor, id: jump.id}]};
		}

		default: {
			const next = command === 'prompt-delete' ? deleted(screen) : typed(screen, name, input);
			return next ? {screen: next} : {};
		}
	}
}

/**
 * The column picker's keys. The id stays first and shown: it is the cursor
 * users copy, so it cannot be hidden nor moved.
 */
function routePicker(screen: Extract<Screen, {kind: 'columns'}>, command: string | undefined): Routed {
	const {items, cursor} = screen;
	const pinned = (index: number) => items[index]?.path === 'id' && index === 0;
	switch (command) {
		case 'picker-up':
		case 'picker-down': {
			const next = Math.min(Math.max(cursor + (command === 'picker-up' ? -1 : 1), 0), items.length - 1);
			return next === cursor ? {} : {screen: {...screen, cursor: next}};
		}

		case 'picker-toggle': {
			if (pinned(cursor)) {
				return {};
			}

			return {screen: {...screen, items: items.map((item, index) => (index === cursor ? {...item, shown: !item.shown} : item))}};
		}

		case 'picker-move-up':
		case 'picker-move-down': {
			const target = cursor + (command === 'picker-move-up' ? -1 : 1);
			if (pinned(cursor) || pinned(target) || target < 0 || target >= items.length) {
				return {};
			}

			const moved = [...items];
			[moved[cursor], moved[target]] = [moved[target]!, moved[cursor]!];
			return {screen: {...screen, items: moved, cursor: target}};
		}

		case 'picker-apply': {
			const choice = {order: items.map(item => item.path), hidden: items.filter(item => !item.shown).map(item => item.path)};
			return {screen: {kind: 'table'}, view: {type: 'choose-columns', choice}};
		}

		case 'picker-cancel': {
			return {screen: {kind: 'table'}};
		}

		default: {
			return {};
		}
	}
}

/**
 * The file name prompt of w and W, and the overwrite question: y overwrites,
 * any other key (n, Esc) keeps the file, so a stray key never destroys one.
 */
function routeSave(screen: Extract<Screen, {kind: 'save' | 'overwrite'}>, command: string | undefined, name: string, input: string): Routed {
	if (screen.kind === 'overwrite') {
		if (command === 'confirm-yes') {
			return {screen: {kind: 'table'}, request: {kind: 'overwrite', job: screen.job}};
		}

		return {screen: {kind: 'table'}, request: {kind: 'kept', name: screen.job.name}};
	}

	switch (command) {
		case 'prompt-cancel': {
			return {screen: {kind: 'table'}};
		}

		case 'prompt-apply': {
			const typedName = screen.draft.trim() === '' ? screen.suggested ?? screen.draft : screen.draft;
			return {screen: {kind: 'table'}, request: {kind: 'save', what: screen.what, name: typedName}};
		}

		default: {
			const next = command === 'prompt-delete' ? deleted(screen) : typed(screen, name, input);
			return next ? {screen: next} : {};
		}
	}
}

/**
 * The mouse wheel (browser/mouse.ts): on the table the selection moves
 * `rows` and the table scrolls with it; an overlay scrolls its lines;
 * a prompt or the picker takes nothing from it.
 */
export function routeWheel(screen: Screen, rows: number, context: KeyContext): Routed {
	if (screen.kind === 'table') {
		return {stack: [{type: 'move', delta: rows}]};
	}

	return 'scroll' in screen ? {screen: scrolled(screen, rows, context)} : {};
}
