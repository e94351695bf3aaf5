import type {ListObject, ObjectBytes} from '../contract/types.js';

/**
 * A dump format: turns pages into text. Writers only build strings; the dump
 * command owns the stream, backpressure and early close, so every format
 * behaves the same when stdout goes away.
 */
export type Writer = {
	/**
	 * Text for one page of objects ('' for nothing). `texts`, parallel to
	 * `objects`, are their exact texts from the body (Page.objectTexts); the
	 * writers fall back to serializing the values where they are absent.
	 */
	page(objects: ListObject[], texts?: readonly string[], parent?: string): string;
	/**
	 * The same as page(), as bytes copied from the body (Page.objectBytes)
	 * rather than text to encode: for the formats that write the exact texts
	 * and nothing else. Absent for the others.
	 */
	pageBytes?(objects: ListObject[], texts: readonly string[], bytes: ObjectBytes): Uint8Array;
	/**
	 * Text that closes the document; called on success and on failure alike.
	 * `objects`: how many objects the document holds, when a failed write
	 * left fewer than were given (the file was cut back to a whole page).
	 */
	end(objects?: number): string;
	/** Things the user should know once the dump ends (stderr). */
	notes(): string[];
	/**
	 * What the writer carries from one page to the next (the csv header's
	 * columns, whether the JSON array was begun), as JSON, for a walk to be
	 * resumed (WriterOptions.resume); absent where there is nothing.
	 */
	state?(): unknown;
};

export type WriterOptions = {
	/** stdout is a terminal: make server strings inert, fit the table to `columns`. */
	tty: boolean;
	columns?: number;
	color: boolean;
	/**
	 * csv only: prefix `'` to text cells a spreadsheet would run as a formula
	 * (starting with =, +, -, @, tab or CR). On unless turned off.
	 */
	formulaGuard?: boolean;
	/** csv and table: exactly these columns, in this order (--columns); absent cells are empty. */
	fields?: readonly string[] | undefined;
	/**
	 * csv only: the name of a first column holding each object's parent's id
	 * (page()'s `parent`: the account of a list of every account), where the
	 * flattened object would lose it; with --columns, only where named there.
	 */
	parentColumn?: string;
	/** A state() of the same writer after an earlier walk's last whole list: this one writes on as that one would have. */
	resume?: unknown;
};

export const formats = ['ndjson', 'json', 'csv', 'table'] as const;
export type Format = (typeof formats)[number];
