import {commandFor} from './keymap.js';
import {routePaneKey, scrolled} from './pane-keys.js';
import {routeExport, routeFilter, routeFind, routeJump, routeLimit, routePicker, routeSave} from './prompt-keys.js';
import {routeTableKey} from './table-keys.js';
import {modeOf, type KeyContext, type Routed, type Screen} from './screen.js';

/**
 * How a key press is routed: by what is on screen (screen.ts) to the table's,
 * a pane's or a prompt's router. Pure; the browser state's reducer asks it.
 */

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

		case 'export':
		case 'export-exists': {
			return routeExport(screen, command, name, input);
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
