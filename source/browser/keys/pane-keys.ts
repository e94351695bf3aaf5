import type {Command} from './keymap.js';
import type {KeyContext, Pane, Routed, Screen} from './screen.js';
import {routeTableKey} from './table-keys.js';

/**
 * The keys of the panes over the table (help, detail, debug, compare): they
 * scroll, find, wrap and close; the detail view also steps through objects
 * and opens related lists. A key a pane does not bind goes to the table.
 */
type Scrolling = Extract<Screen, {scroll: number}>;

/** A pane scrolled by `delta` lines, or to its top or bottom, within its lines. */
export function scrolled<S extends Scrolling>(screen: S, delta: number | 'top' | 'bottom', context: KeyContext): S {
	const max = Math.max(0, context.overlayLines - context.bodyRows);
	const target = delta === 'top' ? 0 : delta === 'bottom' ? max : screen.scroll + delta;
	return {...screen, scroll: Math.min(Math.max(target, 0), max)};
}

type PaneRoute = (screen: Pane, context: KeyContext, related: number) => Routed;

const paneRoutes: Partial<Record<Command, PaneRoute>> = {
	close: () => ({screen: {kind: 'table'}}),
	back: () => ({screen: {kind: 'table'}}),
	up: (screen, context) => ({screen: scrolled(screen, -1, context)}),
	down: (screen, context) => ({screen: scrolled(screen, 1, context)}),
	'page-up': (screen, context) => ({screen: scrolled(screen, -context.bodyRows, context)}),
	'page-down': (screen, context) => ({screen: scrolled(screen, context.bodyRows, context)}),
	top: (screen, context) => ({screen: scrolled(screen, 'top', context)}),
	bottom: (screen, context) => ({screen: scrolled(screen, 'bottom', context)}),
	// Sideways in the pane: only when wrapping is off (the reducer knows).
	'scroll-left': () => ({view: {type: 'scroll-pane', delta: -8}}),
	'scroll-right': () => ({view: {type: 'scroll-pane', delta: 8}}),
	wrap: () => ({view: {type: 'toggle-wrap'}}),
	find: screen => ({screen: {kind: 'find', draft: '', pane: screen}}),
	// Next and previous object without leaving the detail view.
	'detail-next': screen => (screen.kind === 'detail' ? {stack: [{type: 'move', delta: 1}], screen: {kind: 'detail', scroll: 0}} : {}),
	'detail-previous': screen => (screen.kind === 'detail' ? {stack: [{type: 'move', delta: -1}], screen: {kind: 'detail', scroll: 0}} : {}),
	// Related lists, in the detail view of an object that has some (see modeOf).
	'related-next': (screen, _context, related) => stepRelated(screen, related, 1),
	'related-previous': (screen, _context, related) => stepRelated(screen, related, related - 1),
	'open-related': (screen, _context, related) => (screen.kind === 'detail' && related > 0 ? {walk: {type: 'open', index: Math.min(screen.related ?? 0, related - 1)}} : {}),
	// The key that opened a pane closes it again.
	help: screen => togglePane(screen, 'help'),
	detail: screen => togglePane(screen, 'detail'),
	debug: screen => togglePane(screen, 'debug'),
	compare: screen => togglePane(screen, 'compare'),
};

function stepRelated(screen: Pane, related: number, step: number): Routed {
	if (screen.kind !== 'detail' || related === 0) {
		return {};
	}

	const current = Math.min(screen.related ?? 0, related - 1);
	return {screen: {...screen, related: (current + step) % related}};
}

function togglePane(screen: Pane, kind: Pane['kind']): Routed {
	return kind === screen.kind ? {screen: {kind: 'table'}} : {screen: {kind, scroll: 0}};
}

/** A key on a pane, `command` read in the pane's mode. */
export function routePaneKey(screen: Pane, command: Command, name: string, context: KeyContext): Routed {
	const route = paneRoutes[command];
	if (route) {
		return route(screen, context, context.related ?? 0);
	}

	// Copies from a pane leave it open (the detail view shows what y and Y
	// copy). Page keys work from the debug panel (to watch requests) and the
	// compare view (to compare page after page); the detail view and help
	// would show a stale object, so they close.
	const routed = routeTableKey(name, context);
	const stays = command === 'copy-id' || command === 'copy-json' || command === 'copy-curl' || screen.kind === 'debug' || screen.kind === 'compare';
	return {...routed, screen: routed.screen ?? (stays ? screen : {kind: 'table'})};
}
