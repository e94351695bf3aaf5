import type {ListObject} from '../core/types.js';

/**
 * A dump format: turns pages into text. Writers only build strings; the dump
 * command owns the stream, backpressure and early close, so every format
 * behaves the same when stdout goes away.
 */
export type Writer = {
	/** Text for one page of objects ('' for nothing). */
	page(objects: ListObject[]): string;
	/** Text that closes the document; called on success and on failure alike. */
	end(): string;
	/** Things the user should know once the dump ends (stderr). */
	notes(): string[];
};

export type WriterOptions = {
	/** stdout is a terminal: make server strings inert, fit the table to `columns`. */
	tty: boolean;
	columns?: number;
	color: boolean;
};

export const formats = ['ndjson', 'json', 'csv', 'table'] as const;
export type Format = (typeof formats)[number];
