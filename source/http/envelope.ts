import {checkPaginationFields} from '../contract/contract.js';
import {PagewalkError} from '../text/errors.js';
import {leadingValue} from '../json/json-spans.js';
import {redact} from '../text/secret.js';
import {cutToWidth, windowLength} from '../text/text-width.js';
import type {AccountPagination, Api, CommercePagination, ListObject, Pagination} from '../contract/types.js';

/**
 * Checks a list response body against the envelope of its API (see the pagination objects in
 * contract.ts). A violation is one sentence naming the field, with a short excerpt
 * of the body so the user sees what actually came back (an HTML error page, a
 * truncated document). Excerpts are made inert where they are printed.
 */

export type Envelope = {
	objects: ListObject[];
	pagination: Pagination;
	rawPagination: Record<string, unknown>;
	warnings: string[];
};

/**
 * A text on one line, whitespace runs made one space, showing at most `max`
 * cells of it and then `…` if there is more. Only a head bounded by `max` is
 * read, so a megabyte body costs what a short one does.
 */
export function oneLine(text: string, max: number, more = false): string {
	const start = text.trimStart();
	const head = start.slice(0, windowLength(max + 1));
	const line = head.replace(/\s+/g, ' ').trimEnd();
	return cutToWidth(line, max + 1, {continues: more || head.length < start.length});
}

/**
 * How much more of a body than an excerpt shows is redacted before the cut:
 * a credential's run that straddles the cut is redacted whole if it starts
 * in the excerpt, however long the marks before it made the text shorter.
 */
const excerptSlack = 1024;

/** A short one-line excerpt of a body, for error messages. */
/**
 * Server text as {@link oneLine} shows it, redacted before the cut, so no
 * run of a credential is left behind; only a bounded head is read, so a long
 * body costs what a short one does.
 */
export function redactedLine(text: string, max: number): string {
	const start = text.trimStart();
	const head = start.slice(0, windowLength(max + 1) + excerptSlack);
	return oneLine(redact(head), max, head.length < start.length);
}

export function excerpt(body: string, max = 80): string {
	const line = redactedLine(body, max);
	return line === '' ? 'an empty body' : `"${line}"`;
}

export class EnvelopeError extends PagewalkError {
	constructor(problem: string, body: string) {
		super(`The response is not a valid list page: ${problem} (body starts ${excerpt(body)}).`);
		this.name = 'EnvelopeError';
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
	if (value === null) {
		return 'null';
	}

	if (Array.isArray(value)) {
		return 'an array';
	}

	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Parses the body as JSON, with an error that says what kind of body it was. */
export function parseJson(body: string, contentType: string | undefined): unknown {
	try {
		return JSON.parse(body);
	} catch {
		// Checked without copying: the body may be 32 MiB of whitespace.
		if (!/\S/.test(body)) {
			throw new EnvelopeError(body === '' ? 'the body is empty, not JSON' : `the body is ${body.length.toLocaleString('en-US')} characters of whitespace and nothing else, not JSON`, body);
		}

		const looksHtml = /^\s*</.test(body) || /html/i.test(contentType ?? '');
		const trimmed = body.trimEnd();
		const truncated = /^\s*[{[]/.test(body) && !/[}\]]$/.test(trimmed);
		const kind = looksHtml ? 'an HTML page, not JSON' : truncated ? 'truncated JSON' : 'not valid JSON';
		throw new EnvelopeError(`the body is ${kind}`, body);
	}
}

function warningText(item: unknown): string | undefined {
	if (typeof item === 'string') {
		return item;
	}

	if (isObject(item)) {
		const id = typeof item.id === 'string' ? item.id : undefined;
		const message = typeof item.message === 'string' ? item.message : undefined;
		if (id !== undefined || message !== undefined) {
			return [id, message].filter(Boolean).join(': ');
		}
	}

	return undefined;
}

/** The warnings of one page that are read; the rest are left unread. */
const maxWarnings = 100;

/** Validates a parsed body as a page of `api` and returns its parts. */
export function validateEnvelope(api: Api, value: unknown, body: string): Envelope {
	if (!isObject(value)) {
		throw new EnvelopeError(`the body is ${typeName(value)}, not a JSON object with data and pagination`, body);
	}

	const {data, pagination} = value;
	if (data === undefined) {
		throw new EnvelopeError('the field data is missing', body);
	}

	if (!Array.isArray(data)) {
		throw new EnvelopeError(`data is ${typeName(data)}, not an array`, body);
	}

	for (const [index, item] of data.entries()) {
		if (!isObject(item)) {
			throw new EnvelopeError(`data[${index}] is ${typeName(item)}, not an object`, body);
		}

		if (typeof item.id !== 'string' || item.id === '') {
			throw new EnvelopeError(item.id === undefined ? `data[${index}].id is missing` : `data[${index}].id is ${typeName(item.id)}, not a non-empty string`, body);
		}
	}

	if (pagination === undefined) {
		throw new EnvelopeError('the field pagination is missing', body);
	}

	if (!isObject(pagination)) {
		throw new EnvelopeError(`pagination is ${typeName(pagination)}, not an object`, body);
	}

	// The field rules are the contract's; this module only words the first problem.
	const fields = checkPaginationFields(api, pagination);
	if (fields.problem) {
		const {problem} = fields;
		if (problem.kind === 'missing') {
			throw new EnvelopeError(`pagination.${problem.field} is missing`, body);
		}

		throw new EnvelopeError(`pagination.${problem.field} is ${typeName(problem.value)} ${cutToWidth(redact(JSON.stringify(problem.value) ?? ''), 40, {ellipsis: ''})}, not ${problem.expected}`.replace('  ', ' '), body);
	}

	const normalized = fields.normalized;
	// A page carries a warning or two; a hostile list of a million costs no
	// more than the first hundred.
	const warnings = Array.isArray(value.warnings)
		? value.warnings.slice(0, maxWarnings).map(item => warningText(item)).filter((item): item is string => item !== undefined).map(item => redact(item))
		: [];

	return {
		objects: data as ListObject[],
		pagination: normalized as AccountPagination | CommercePagination,
		rawPagination: pagination,
		warnings,
	};
}

/**
 * A page's pagination read from the first characters of its body alone,
 * before the body is parsed: both APIs write `pagination` first. Undefined
 * when it is not the first member, does not end within `head`, or breaks a
 * rule of the contract. The whole body, parsed and validated, has the last
 * word either way (a key given twice counts by its last occurrence there).
 */
export function leadingPagination(api: Api, head: string): Pagination | undefined {
	const text = leadingValue(head, 'pagination');
	if (text === undefined) {
		return undefined;
	}

	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}

	if (!isObject(value)) {
		return undefined;
	}

	const fields = checkPaginationFields(api, value);
	return fields.problem ? undefined : fields.normalized as Pagination;
}

/** The API's own error id and message, from either error shape in the notes. */
export function apiError(value: unknown): {id?: string; message?: string} {
	if (!isObject(value)) {
		return {};
	}

	const {errors, error} = value;
	if (Array.isArray(errors) && isObject(errors[0])) {
		const first = errors[0];
		return {
			id: typeof first.id === 'string' ? first.id : undefined,
			message: typeof first.message === 'string' ? first.message : undefined,
		};
	}

	if (isObject(error)) {
		return {
			id: typeof error.type === 'string' ? error.type : (typeof error.code === 'string' ? error.code : undefined),
			message: typeof error.message === 'string' ? error.message : undefined,
		};
	}

	if (typeof value.message === 'string') {
		return {message: value.message};
	}

	return {};
}
