import type {RowSort} from '../stack/cells.js';
import {commandFor, type Command} from './keymap.js';
import type {KeyContext, Routed, Screen} from './screen.js';
import type {EachList} from '../../config/endpoint.js';

/**
 * The table's keys: one route per command of the keymap's table mode, each
 * saying what the command asks of the page stack, the screen or the view.
 * Commands the table does not bind (prompts, the picker, the panes) route
 * to nothing.
 */
const tableRoutes: Partial<Record<Command, (context: KeyContext) => Routed>> = {
	up: () => ({stack: [{type: 'move', delta: -1}]}),
	down: () => ({stack: [{type: 'move', delta: 1}]}),
	'page-up': context => ({stack: [{type: 'move', delta: -Math.max(1, context.bodyRows)}]}),
	'page-down': context => ({stack: [{type: 'move', delta: Math.max(1, context.bodyRows)}]}),
	top: () => ({stack: [{type: 'move-to', position: 'top'}]}),
	bottom: () => ({stack: [{type: 'move-to', position: 'bottom'}]}),
	next: () => ({stack: [{type: 'next'}]}),
	previous: () => ({stack: [{type: 'previous'}]}),
	first: () => ({stack: [{type: 'first'}]}),
	'toggle-order': () => ({stack: [{type: 'toggle-order'}]}),
	'limit-up': () => ({stack: [{type: 'change-limit', delta: 5}]}),
	'limit-down': () => ({stack: [{type: 'change-limit', delta: -5}]}),
	'limit-type': context => ({screen: context.limit === undefined ? {kind: 'limit', draft: ''} : {kind: 'limit', draft: String(context.limit), fresh: true}}),
	refresh: () => ({stack: [{type: 'refresh'}]}),
	detail: context => (context.hasSelection ? {screen: {kind: 'detail', scroll: 0}} : {}),
	debug: () => ({screen: {kind: 'debug', scroll: 0}}),
	compare: () => ({screen: {kind: 'compare', scroll: 0}}),
	help: () => ({screen: {kind: 'help', scroll: 0}}),
	filter: context => ({screen: {kind: 'filter', draft: context.filter, before: context.filter}}),
	// Back one level: the filter first, then out of a related list.
	close(context) {
		if (context.filter !== '') {
			return {stack: [{type: 'set-filter', filter: ''}]};
		}

		return context.nested === true ? {walk: {type: 'parent'}} : {};
	},
	// q is Esc, except on the first list with nothing to go back from.
	back: context => (context.filter === '' && context.nested !== true ? {quit: true} : tableRoutes.close!(context)),
	'scroll-left': () => ({view: {type: 'scroll-columns', delta: -1}}),
	'scroll-right': () => ({view: {type: 'scroll-columns', delta: 1}}),
	wrap: () => ({view: {type: 'toggle-wrap'}}),
	columns(context) {
		const items = context.columnItems?.() ?? [];
		return items.length === 0 ? {} : {screen: {kind: 'columns', items, cursor: 0}};
	},
	parent: () => ({walk: {type: 'parent'}}),
	'copy-id': context => (context.hasSelection ? {ask: {kind: 'copy', what: 'id'}} : {}),
	'copy-json': context => (context.hasSelection ? {ask: {kind: 'copy', what: 'json'}} : {}),
	'copy-curl': () => ({ask: {kind: 'copy', what: 'curl'}}),
	'save-page': context => saveScreen('page', context),
	'save-walk': context => saveScreen('walk', context),
	'export-lists'(context) {
		if (context.exportable !== true) {
			return {stack: [{type: 'notice', notice: {kind: 'export-where'}}]};
		}

		return context.exporting === true ? {stack: [{type: 'notice', notice: {kind: 'export-busy'}}]} : {screen: exportScreen('transactions')};
	},
	jump: () => ({screen: {kind: 'jump', draft: ''}}),
	'search-next': () => ({search: 'forward'}),
	'search-previous': () => ({search: 'backward'}),
	follow: () => ({stack: [{type: 'follow'}]}),
	// s: ▲ on a new column, then ▼, then the server's order again.
	sort(context) {
		const path = context.sortColumn?.();
		if (path === undefined) {
			return {};
		}

		const current = context.sort;
		const sort: RowSort | null = current?.path !== path ? {path, direction: 'ascending'} : current.direction === 'ascending' ? {path, direction: 'descending'} : null;
		return {stack: [{type: 'sort', sort}]};
	},
};

function saveScreen(what: 'page' | 'walk', context: KeyContext): Routed {
	const suggested = context.saveName?.(what);
	return {screen: {kind: 'save', draft: '', what, ...(suggested === undefined ? {} : {suggested})}};
}

/** E's prompt for `each`: the name it offers is the list's (`transactions.ndjson`), in the folder pagewalk runs in. */
export function exportScreen(each: EachList, draft = ''): Extract<Screen, {kind: 'export'}> {
	return {kind: 'export', draft, each, suggested: `${each}.ndjson`};
}

/** A key on the table, read in the keymap's table mode. */
export function routeTableKey(name: string, context: KeyContext): Routed {
	const command = commandFor('table', name);
	if (command === 'quit' || command === 'interrupt') {
		return {quit: true};
	}

	return command === undefined ? {} : tableRoutes[command]?.(context) ?? {};
}
