import {stringifyOrNote} from '../../cells/flatten.js';
import {inert} from '../../text/inert.js';

/** Small display helpers shared by the status line and the debug panel. */

export function formatMs(ms: number): string {
	return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes} B`;
	}

	return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Pretty JSON, one inert string per line. JSON.stringify already escapes C0
 * controls inside strings, but not C1, bidi or zero-width marks: `inert` does.
 */
export function jsonLines(value: unknown): string[] {
	return (value === undefined ? 'undefined' : stringifyOrNote(value, 2)).split('\n').map(line => inert(line));
}
