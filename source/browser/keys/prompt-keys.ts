import {contractDefaults} from '../../contract/contract.js';
import type {Command} from './keymap.js';
import type {LimitRefusal, StackAction} from '../stack/types.js';
import {parseJump} from '../stack/jump.js';
import type {Routed, Screen} from './screen.js';
import {exportScreen} from './table-keys.js';

/**
 * The keys of the lines being typed (filter, limit, find in a pane, jump,
 * file name, the overwrite question) and of the column picker: one router
 * per screen, each reading the command the keymap gives its mode.
 */

type Typing = Extract<Screen, {draft: string}>;
type Prompt<K extends Screen['kind']> = Extract<Screen, {kind: K}>;

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

/** What Enter and Esc do in a line being typed, and (when not only the draft changes) an edit. */
type TypingRoutes<S extends Typing> = {apply(screen: S): Routed; cancel(screen: S): Routed; edited?(next: S): Routed};

/** The keys every line being typed shares: Enter, Esc, Backspace, and printable text added to the draft. */
function routeTyping<S extends Typing>(screen: S, command: Command | undefined, name: string, input: string, routes: TypingRoutes<S>): Routed {
	if (command === 'prompt-apply') {
		return routes.apply(screen);
	}

	if (command === 'prompt-cancel') {
		return routes.cancel(screen);
	}

	const next = command === 'prompt-delete' ? deleted(screen) : typed(screen, name, input);
	return next ? routes.edited?.(next) ?? {screen: next} : {};
}

const toTable = (): Routed => ({screen: {kind: 'table'}});

/** The `/` filter: it applies as it is typed; Esc puts back the one before. */
export function routeFilter(screen: Prompt<'filter'>, command: Command | undefined, name: string, input: string): Routed {
	return routeTyping(screen, command, name, input, {
		apply: toTable,
		cancel: ({before}) => ({screen: {kind: 'table'}, stack: [{type: 'set-filter', filter: before}]}),
		edited: next => ({screen: next, stack: [{type: 'set-filter', filter: next.draft}]}),
	});
}

/**
 * `L`: Enter applies what was typed when it is a limit the contract allows;
 * anything else (`-1`, `1.5`, `101`) is kept in the draft as typed and
 * refused by name on Enter, never cut down to a limit it was not.
 */
export function routeLimit(screen: Prompt<'limit'>, command: Command | undefined, name: string, input: string): Routed {
	// The limit in use is shown to be replaced: typing starts over, Backspace clears it.
	if (screen.fresh && (command === 'prompt-delete' || typed(screen, name, input))) {
		return command === 'prompt-delete' ? {screen: {kind: 'limit', draft: ''}} : routeLimit({kind: 'limit', draft: ''}, command, name, input);
	}

	return routeTyping(screen, command, name, input, {
		apply: ({draft}) => ({screen: {kind: 'table'}, stack: [typedLimit(draft)]}),
		cancel: toTable,
	});
}

/** The action of a limit typed after L: set it, or say why it is none (the bounds are the contract's). */
export function typedLimit(draft: string): Extract<StackAction, {type: 'set-limit'}> {
	const text = draft.trim();
	const refused = (why: LimitRefusal['why']) => ({type: 'set-limit' as const, limit: Number.NaN, refused: {typed: text, why}});
	if (text === '') {
		return refused('empty');
	}

	if (!/^\d+$/.test(text) || Number(text) < contractDefaults.minimumLimit) {
		return refused('not-whole');
	}

	return Number(text) > contractDefaults.maximumLimit ? refused('over') : {type: 'set-limit', limit: Number(text)};
}

/** `/` in a pane: Enter finds the text typed (less), Esc goes back to the pane. */
export function routeFind(screen: Prompt<'find'>, command: Command | undefined, name: string, input: string): Routed {
	return routeTyping(screen, command, name, input, {
		apply: ({pane, draft}) => ({screen: pane, find: draft}),
		cancel: ({pane}) => ({screen: pane}),
	});
}

/**
 * The `:` prompt: Enter jumps (a new walk from the cursor typed), or says in
 * one sentence why it cannot; the walk on screen is kept either way.
 */
export function routeJump(screen: Prompt<'jump'>, command: Command | undefined, name: string, input: string): Routed {
	return routeTyping(screen, command, name, input, {
		apply({draft}) {
			const jump = parseJump(draft);
			if (!jump.ok) {
				const notice = jump.reason === 'too-long' ? {kind: 'jump-too-long' as const, length: jump.length} : {kind: jump.reason === 'empty' ? 'jump-empty' as const : 'jump-malformed' as const};
				return {screen: {kind: 'table'}, stack: [{type: 'notice', notice}]};
			}

			return {screen: {kind: 'table'}, stack: [{type: 'jump', cursor: jump.cursor, id: jump.id}]};
		},
		cancel: toTable,
	});
}

/**
 * The column picker's keys. The id stays first and shown: it is the cursor
 * users copy, so it cannot be hidden nor moved.
 */
export function routePicker(screen: Prompt<'columns'>, command: Command | undefined): Routed {
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

		case 'picker-reset': {
			// The empty choice: reading order, nothing hidden; remembering it forgets the endpoint's (column-store.ts).
			return {screen: {kind: 'table'}, view: {type: 'choose-columns', choice: {order: [], hidden: []}}};
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
export function routeSave(screen: Prompt<'save' | 'overwrite'>, command: Command | undefined, name: string, input: string): Routed {
	if (screen.kind === 'overwrite') {
		if (command === 'confirm-yes') {
			return {screen: {kind: 'table'}, ask: {kind: 'overwrite', job: screen.job}};
		}

		return {screen: {kind: 'table'}, ask: {kind: 'kept', name: screen.job.name}};
	}

	return routeTyping(screen, command, name, input, {
		apply({draft, suggested, what}) {
			const typedName = draft.trim() === '' ? suggested ?? draft : draft;
			return {screen: {kind: 'table'}, ask: {kind: 'save', what, name: typedName}};
		},
		cancel: toTable,
	});
}

/**
 * E's prompt: Tab switches which list of every account it writes (the name
 * offered follows, unless one is typed), Enter asks for the export (nothing
 * typed: the name offered), Esc writes nothing. The question when the file
 * exists: y goes on with the unfinished export beside it, or writes over
 * it; any other key keeps the file, as for w and W.
 */
export function routeExport(screen: Prompt<'export' | 'export-exists'>, command: Command | undefined, name: string, input: string): Routed {
	if (screen.kind === 'export-exists') {
		return command === 'confirm-yes'
			? {screen: {kind: 'table'}, ask: {kind: 'export-confirmed', job: {...screen.job, mode: screen.resumable ? 'resume' : 'overwrite'}}}
			: {screen: {kind: 'table'}, ask: {kind: 'kept', name: screen.job.name}};
	}

	if (command === 'export-choice') {
		const each = screen.each === 'transactions' ? 'addresses' : 'transactions';
		return {screen: {...exportScreen(each, screen.draft)}};
	}

	return routeTyping(screen, command, name, input, {
		apply: ({draft, suggested, each}) => ({screen: {kind: 'table'}, ask: {kind: 'export', each, name: draft.trim() === '' ? suggested : draft}}),
		cancel: toTable,
	});
}
