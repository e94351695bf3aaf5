import {contractDefaults} from '../../contract/contract.js';
import {inert} from '../../text/inert.js';
import {overwriteQuestion, shownName} from '../actions/save-path.js';
import {cutToWidth} from '../../text/text-width.js';
import type {BrowserState} from '../state/types.js';
import {shownKeys} from '../keys/keymap.js';

/** The prompt the status area shows for the screen on top (typed text drawn inert), or none. */
export function promptLine(state: BrowserState): string | undefined {
	const {screen, stack} = state;
	switch (screen.kind) {
		case 'save': {
			const offered = screen.draft === '' && screen.suggested !== undefined ? `(Enter: ${screen.suggested}) ` : '';
			const pages = stack.entries.length;
			return `write ${screen.what === 'page' ? 'the page' : `the walk (${pages} page${pages === 1 ? '' : 's'})`} as NDJSON to file: ${offered}${inert(screen.draft)}`;
		}

		case 'overwrite': {
			return `${overwriteQuestion(screen.job.name, shownKeys('confirm-yes')[0])} `;
		}

		case 'export': {
			const other = screen.each === 'transactions' ? 'addresses' : 'transactions';
			const offered = screen.draft === '' ? `(Enter: ${screen.suggested}) ` : '';
			// Short enough that 80 columns show the name offered, and what is typed after it.
			return `export ${screen.each} (${shownKeys('export-choice')[0]}: ${other}) to file: ${offered}${inert(screen.draft)}`;
		}

		case 'export-exists': {
			const yes = shownKeys('confirm-yes')[0];
			return screen.resumable ? `${shownName(screen.job.name)} holds an unfinished export: go on with it? ${yes}/n ` : `${overwriteQuestion(screen.job.name, yes)} `;
		}

		case 'filter': {
			return `/ filter rows: ${inert(screen.draft)}`;
		}

		case 'limit': {
			return `limit (${contractDefaults.minimumLimit}–${contractDefaults.maximumLimit}), Enter applies: ${inert(screen.draft)}${screen.fresh ? ' (type to replace)' : ''}`;
		}

		case 'jump': {
			return `: jump (id: after it, <id: before it): ${inert(screen.draft)}`;
		}

		case 'find': {
			return `/ find in this pane${state.found === undefined ? '' : ` (Enter alone: "${inert(cutToWidth(state.found, 20))}")`}: ${inert(screen.draft)}`;
		}

		default: {
			return undefined;
		}
	}
}
