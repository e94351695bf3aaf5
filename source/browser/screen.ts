import type {ColumnChoice} from '../core/column-order.js';
import type {StackAction} from './page-stack.js';
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
	| {kind: 'detail'; scroll: number}
	| {kind: 'debug'; scroll: number}
	| {kind: 'compare'; scroll: number}
	| {kind: 'filter'; draft: string; before: string}
	| {kind: 'limit'; draft: string}
	| {kind: 'jump'; draft: string}
	| {kind: 'columns'; items: ColumnItem[]; cursor: number};

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
};

/** `search`: start a search across pages that way (the browser state runs it). */
export type Routed = {stack?: StackAction[]; screen?: Screen; quit?: true; view?: ViewChange; search?: SearchDirection};

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
	const command = commandFor(modeOf(screen), name);
	if (command === 'quit') {
		return {quit: true};
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
				const next = command === 'prompt-delete' ? deleted(screen) : /^\d$/.test(input) ? typed(screen, name, input) : undefined;
				return next ? {screen: next} : {};
			}
		}
	}

	if (screen.kind === 'jump') {
		return routeJump(screen, command, name, input);
	}

	if (screen.kind === 'columns') {
		return routePicker(screen, command);
	}

	if (command === undefined) {
		return {};
	}

	if (screen.kind !== 'table') {
		switch (command) {
			case 'close': {
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

			// Next and previous object without leaving the detail view.
			case 'detail-next':
			case 'detail-previous': {
				if (screen.kind !== 'detail') {
					return {};
				}

				return {stack: [{type: 'move', delta: command === 'detail-next' ? 1 : -1}], screen: {kind: 'detail', scroll: 0}};
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
			return {screen: {kind: 'limit', draft: ''}};
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

		case 'close': {
			return context.filter === '' ? {} : {stack: [{type: 'set-filter', filter: ''}]};
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
		case 'detail-next':
		case 'detail-previous': {
			return {};
		}

		case 'jump': {
			return {screen: {kind: 'jump', draft: ''}};
		}

		case 'search-next':
		case 'search-previous': {
			return {search: command === 'search-next' ? 'forward' : 'backward'};
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
