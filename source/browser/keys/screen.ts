import {commandFor, type Mode} from './keymap.js';
import {routePaneKey, scrolled} from './pane-keys.js';
import {routeFilter, routeFind, routeJump, routeLimit, routePicker, routeSave} from './prompt-keys.js';
import {routeTableKey} from './table-keys.js';
import type {KeyContext, Pane, Routed, Screen} from './types.js';

/**
 * What covers the table (an overlay or a line being typed) and how a key
 * press is routed: to the page stack, to the screen, or to quit. Pure, so the
 * whole key handling is tested without React; the app only dispatches.
 */

export function isPane(screen: Screen): screen is Pane {
	return screen.kind === 'help' || screen.kind === 'detail' || screen.kind === 'debug' || screen.kind === 'compare';
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

export function routeKey(screen: Screen, name: string, input: string, context: KeyContext): Routed {
	if (screen.kind === 'table') {
		return routeTableKey(name, context);
	}

	// The detail view of an object without related lists keeps the overlay's keys (← → page, Enter closes).
	const command = commandFor(screen.kind === 'detail' && (context.related ?? 0) === 0 ? 'overlay' : modeOf(screen), name);
	if (command === 'quit' || command === 'interrupt') {
		return {quit: true};
	}

	switch (screen.kind) {
		case 'filter': {
			return routeFilter(screen, command, name, input);
		}

		case 'limit': {
			return routeLimit(screen, command, name, input);
		}

		case 'jump': {
			return routeJump(screen, command, name, input);
		}

		case 'find': {
			return routeFind(screen, command, name, input);
		}

		case 'columns': {
			return routePicker(screen, command);
		}

		case 'save':
		case 'overwrite': {
			return routeSave(screen, command, name, input);
		}

		default: {
			return command === undefined ? {} : routePaneKey(screen, command, name, context);
		}
	}
}

/**
 * The mouse wheel (browser/keys/mouse.ts): on the table the selection moves
 * `rows` and the table scrolls with it; an overlay scrolls its lines;
 * a prompt or the picker takes nothing from it.
 */
export function routeWheel(screen: Screen, rows: number, context: KeyContext): Routed {
	if (screen.kind === 'table') {
		return {stack: [{type: 'move', delta: rows}]};
	}

	return 'scroll' in screen ? {screen: scrolled(screen, rows, context)} : {};
}
