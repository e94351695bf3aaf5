import {prettyLines} from '../../cells/exact-cells.js';
import {inert} from '../../text/inert.js';
import {compareViewLines, shortLabel} from '../../contract/page-compare.js';
import {describeError} from '../../text/report-error.js';
import type {BrowserState} from '../state/types.js';
import {debugLines} from './debug-lines.js';
import {jsonLines} from './format.js';
import {firstKey, helpLines} from '../keys/keymap.js';
import {statusLegend} from './status-model.js';
import {selectedRow, top} from '../stack/stack-steps.js';
import {maxParents, relatedOf} from '../related/related-walks.js';
import type {RelatedList} from '../related/related-lists.js';
import {flag} from '../../config/hints.js';
import {redact} from '../../text/secret.js';
import {shownName} from '../actions/save-path.js';

/**
 * The lines of the panes over the table: an object's detail (with its
 * related lists), the debug view, the help and the compare view.
 */

/**
 * The line the detail view starts with when the object has related lists:
 * the chosen one in brackets, and how to move (its keys from the keymap).
 */
function relatedLine(lists: readonly RelatedList[], chosen: number, depth: number): string {
	const names = lists.map((list, index) => (index === chosen ? `[${list.name}]` : list.name)).join(' ');
	const how = depth >= maxParents ? `${maxParents} lists deep: ${firstKey('parent')} first` : `${firstKey('related-previous')} ${firstKey('related-next')} ${firstKey('open-related')}`;
	return `related: ${names}  (${how})`;
}

function compareLines(state: BrowserState): string[] {
	const labels = state.compareLabels;
	if (labels === null) {
		return [
			'No second credential to compare with.',
			`Start pagewalk with ${flag(['browse'], 'compareEnv', 'NAME')}, where the environment variable NAME`,
			'holds another token or API key; c then shows which ids each one sees here.',
		];
	}

	const page = top(state.stack)?.page;
	if (!page) {
		return ['no page loaded yet'];
	}

	const result = state.compare;
	if (result?.url !== page.requestUrl) {
		return [`asking the same page with ${labels.b}…`];
	}

	if ('error' in result) {
		return [`The request with ${labels.b} failed: ${inert(describeError(result.error).message)}`];
	}

	const view = compareViewLines(result.rows, {a: shortLabel(labels.a), b: shortLabel(labels.b)});
	return [view.summary, '', ...view.lines];
}

// An object never changes once loaded: its pretty JSON is built once, and the
// same lines array lets the pane remember how many rows each line wraps to.
const detailCache = new WeakMap<object, string[]>();
const requoted = (token: string): string => JSON.stringify(JSON.parse(token) as string);
/** The object's own text pretty-printed (never re-serialized: numbers stay as sent), else its JSON. */
function detailLines(object: Record<string, unknown>, text?: string): string[] {
	let lines = detailCache.get(object);
	if (!lines) {
		// Strings as JSON.stringify writes them, then made inert, as every drawn text is: an
		// unsafe character shows as the same visible mark wherever it is drawn.
		// Nested past the flattened depth: the parsed object's note, as before.
		lines = (text === undefined ? undefined : prettyLines(text, {string: requoted, deeper: 'refuse'})?.map(line => inert(line))) ?? jsonLines(object);
		detailCache.set(object, lines);
	}

	return lines;
}

// With related lists, the same lines for the same choice (a handful per object).
const relatedCache = new WeakMap<object, Map<string, string[]>>();
function detailWithRelated(state: BrowserState, object: Record<string, unknown>, chosen: number, text?: string): string[] {
	const lists = relatedOf(state.walks, object);
	if (lists.length === 0) {
		return detailLines(object, text);
	}

	const depth = state.walks.parents.length;
	const key = `${chosen} ${depth >= maxParents}`;
	let byChoice = relatedCache.get(object);
	if (!byChoice) {
		byChoice = new Map();
		relatedCache.set(object, byChoice);
	}

	let lines = byChoice.get(key);
	if (!lines) {
		// No blank line after it: the pane's wrapping counts an empty line as no row.
		lines = [relatedLine(lists, chosen, depth), ...detailLines(object, text)];
		byChoice.set(key, lines);
	}

	return lines;
}

/** The lines of the open overlay (empty for the table); `now` counts a wait down in the debug pane, as drawn. */
export function overlayLines(state: BrowserState, now?: number): string[] {
	switch (state.screen.kind) {
		case 'detail': {
			const row = selectedRow(state.stack);
			return row ? detailWithRelated(state, row.object, state.screen.related ?? 0, row.text) : ['no object selected'];
		}

		case 'debug': {
			// Long lines (a next_uri, the cursor evidence) wrap in the pane, never cut.
			// What the last export said as it went (each failed list and why) comes first: its message sends the user here.
			const log = state.exportLog;
			const said = log === undefined || log.lines.length === 0 ? [] : [`the export to ${shownName(log.name)} said:`, ...log.lines.map(line => `  ${inert(redact(line))}`), ''];
			return [...said, ...debugLines(state.stack, now)];
		}

		case 'help': {
			return [...helpLines(), '', ...statusLegend()];
		}

		case 'compare': {
			return compareLines(state);
		}

		default: {
			return [];
		}
	}
}
