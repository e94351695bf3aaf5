import {describe, expect, it} from 'vitest';
import {commandFor, keyName} from '../../source/browser/keys/keymap.js';
import {modeOf, type KeyContext, type Screen} from '../../source/browser/keys/screen.js';
import {routeKey} from '../../source/browser/keys/router.js';

const items = [{path: 'id', shown: true}, {path: 'name', shown: true}, {path: 'created_at', shown: true}];
const context: KeyContext = {bodyRows: 10, overlayLines: 25, filter: '', hasSelection: true, columnItems: () => items};
const picker: Screen = {kind: 'columns', items, cursor: 1};

describe('column keys', () => {
	it('names Shift-arrows apart from arrows', () => {
		expect(keyName('', {rightArrow: true, shift: true})).toBe('shift+right');
		expect(keyName('', {leftArrow: true})).toBe('left');
		expect(commandFor('table', 'shift+left')).toBe('scroll-left');
		expect(commandFor('table', '>')).toBe('scroll-right');
		expect(commandFor('overlay', 'z')).toBe('wrap');
	});

	it('scrolls columns on the table, the text in a pane, and toggles wrapping', () => {
		expect(routeKey({kind: 'table'}, '>', '>', context)).toEqual({view: {type: 'scroll-columns', delta: 1}});
		expect(routeKey({kind: 'table'}, 'shift+left', '', context)).toEqual({view: {type: 'scroll-columns', delta: -1}});
		expect(routeKey({kind: 'detail', scroll: 0}, '>', '>', context)).toEqual({view: {type: 'scroll-pane', delta: 8}});
		expect(routeKey({kind: 'detail', scroll: 0}, 'z', 'z', context)).toEqual({view: {type: 'toggle-wrap'}});
	});

	it('C opens the picker on the page\'s columns', () => {
		expect(routeKey({kind: 'table'}, 'C', 'C', context)).toEqual({screen: {kind: 'columns', items, cursor: 0}});
		expect(modeOf(picker)).toBe('picker');
	});

	it('in the picker: Space toggles, J and K move, the id stays first and shown, Enter applies, Esc and q cancel', () => {
		expect(routeKey(picker, ' ', ' ', context).screen).toEqual({...picker, items: [items[0], {path: 'name', shown: false}, items[2]]});
		expect(routeKey({...picker, cursor: 0}, ' ', ' ', context)).toEqual({});
		expect(routeKey(picker, 'J', 'J', context).screen).toEqual({kind: 'columns', items: [items[0], items[2], items[1]], cursor: 2});
		expect(routeKey(picker, 'shift+up', '', context)).toEqual({});
		expect(routeKey(picker, 'j', 'j', context).screen).toEqual({...picker, cursor: 2});
		expect(routeKey(picker, 'return', '', context)).toEqual({
			screen: {kind: 'table'},
			view: {type: 'choose-columns', choice: {order: ['id', 'name', 'created_at'], hidden: []}},
		});
		expect(routeKey(picker, 'escape', '', context)).toEqual({screen: {kind: 'table'}});
		expect(routeKey(picker, 'q', 'q', context)).toEqual({screen: {kind: 'table'}});
		expect(routeKey(picker, 'ctrl+c', 'c', context)).toEqual({quit: true});
	});

	it('r goes back to the default columns: the empty choice, which the store forgets', () => {
		expect(routeKey(picker, 'r', 'r', context)).toEqual({screen: {kind: 'table'}, view: {type: 'choose-columns', choice: {order: [], hidden: []}}});
	});
});
