/**
 * Checks of single flag values: each turns what the parser gave into a value
 * of the right type, or throws a UsageError with one sentence naming the flag,
 * the rule and the value given (made inert). Pure and synchronous.
 */
import {contractDefaults} from '../contract/contract.js';
import {credentialEnv, defaults} from './config-defaults.js';
import {UsageError} from '../text/errors.js';
import {inert} from '../text/inert.js';
import {cutToWidth} from '../text/text-width.js';
import type {Api, Order} from '../contract/types.js';
import {walkFlag} from './hints.js';

/**
 * The words flags with a fixed set of values take, in the order help names
 * them: the checks below (and options.ts) read these lists, and shell
 * completion offers them (commands/completion/completion.ts), so the two cannot differ.
 */
export const orders = ['asc', 'desc'] as const satisfies readonly Order[];
export const apiNames = ['account', 'commerce'] as const satisfies readonly Api[];
export const demoCredentials = ['full', 'restricted'] as const;
export const demoAuths = ['key', 'token'] as const;

/** Whether `raw` is one of `values`, narrowed to them. */
export function isOneOf<T extends string>(values: readonly T[], raw: string): raw is T {
	return (values as readonly string[]).includes(raw);
}

/** `a or b`, or `one of a, b, c`: how an error names a flag's values. */
export function valuesText(values: readonly string[]): string {
	return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
}

/** A flag's value as text: undefined when not given, '' for a bare boolean. */
export function text(value: unknown): string | undefined {
	if (value === undefined || value === null || value === false) {
		return undefined;
	}

	if (value === true) {
		return '';
	}

	return String(value);
}

/** A value quoted for a usage error: short, and inert. */
export function quote(value: string): string {
	return `'${inert(cutToWidth(value, 61))}'`;
}

/** A whole number from `min` to `max`, or undefined when not given. */
export function integer(name: string, value: unknown, min: number, max: number): number | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
		throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not ${quote(raw)}.`);
	}

	return Number(raw);
}

/** Seconds above 0 and at most `max`, as milliseconds; `fallback` seconds when not given. */
export function seconds(name: string, value: unknown, fallback: number, max: number): number {
	const raw = text(value);
	if (raw === undefined) {
		return fallback * 1000;
	}

	const number = Number(raw);
	if (raw.trim() === '' || !Number.isFinite(number) || number <= 0 || number > max) {
		throw new UsageError(`--${name} must be a number of seconds above 0 and at most ${max}, not ${quote(raw)}.`);
	}

	// Waits are whole milliseconds: one that would round to none is said, not turned into 0.
	const ms = Math.round(number * 1000);
	if (ms === 0) {
		throw new UsageError(`--${name} must be at least 0.001 seconds (one millisecond, the least it can wait), not ${quote(raw)}.`);
	}

	return ms;
}

/** An object id for --starting-after or --ending-before. */
export function cursor(name: string, value: unknown): string | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	// Any id a server can produce is accepted (a leading '-', spaces, quotes,
	// long ids), so the resume hint always works; only control characters,
	// which no id holds and a terminal would act on, and absurd lengths are refused.
	if (raw === '' || raw.length > 4096 || /\p{Cc}/u.test(raw)) {
		throw new UsageError(`--${name} must be an object id (up to 4096 characters, no control characters), not ${quote(raw.slice(0, 200))}.`);
	}

	return raw;
}

/** asc or desc. */
export function order(value: unknown, source = '--order'): Order | undefined {
	const raw = text(value);
	if (raw === undefined) {
		return undefined;
	}

	if (!isOneOf(orders, raw)) {
		throw new UsageError(`${source} must be ${valuesText(orders)}, not ${quote(raw)}.`);
	}

	return raw;
}

/** A base URL from the flag, else the environment variable, else the default. */
export function baseUrl(name: string, envName: string, flag: unknown, env: Record<string, string | undefined>, fallback: string): string {
	const fromFlag = text(flag);
	const raw = fromFlag ?? (env[envName] || undefined) ?? fallback;
	const source = fromFlag === undefined && env[envName] ? envName : `--${name}`;
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new UsageError(`${source} must be an http or https URL such as ${fallback}, not ${quote(raw)}.`);
	}

	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new UsageError(`${source} must be an http or https URL such as ${fallback}, not ${quote(raw)}.`);
	}

	if (url.username !== '' || url.password !== '') {
		throw new UsageError(`${source} must not carry a user name or password; credentials come only from the environment.`);
	}

	if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
		throw new UsageError(`${source} must be a base URL without a query or fragment, not ${quote(raw)}.`);
	}

	return url.href;
}

const forbiddenHeaders = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'keep-alive', 'expect']);
const credentialHeaders = new Set(['authorization', 'x-cc-api-key', 'cookie', 'proxy-authorization']);

/** --header values as name/value pairs; never a managed or credential header. */
export function headers(value: unknown): Array<[string, string]> {
	const list = Array.isArray(value) ? value : (value === undefined ? [] : [value]);
	return list.map(item => {
		const raw = String(item);
		const match = /^([!#$%&'*+.^_`|~\dA-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(raw);
		// Header values must not smuggle a second header or line.
		// eslint-disable-next-line no-control-regex -- refusing control characters is the point (a tab is allowed)
		if (!match || /[\u0000-\u0008\u000A-\u001F\u007F]/.test(match[2]!)) {
			throw new UsageError(`--header must look like 'Name: value' on one line, not ${quote(raw)}.`);
		}

		const name = match[1]!;
		if (forbiddenHeaders.has(name.toLowerCase())) {
			throw new UsageError(`--header cannot set ${name}; pagewalk manages that header itself.`);
		}

		if (credentialHeaders.has(name.toLowerCase())) {
			throw new UsageError(`--header cannot set ${name}: credentials come only from the environment (${credentialEnv.account}, ${credentialEnv.commerce}, a CDP key) or ${walkFlag('keyFile')}.`);
		}

		return [name, match[2]!];
	});
}

/** The API version date, YYYY-MM-DD. */
export function apiVersion(value: unknown): string {
	const raw = text(value) ?? defaults.apiVersion;
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
	const date = match ? new Date(`${raw}T00:00:00Z`) : undefined;
	if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
		throw new UsageError(`--api-version must be a date in the form YYYY-MM-DD, such as ${defaults.apiVersion}, not ${quote(raw)}.`);
	}

	return raw;
}

/** The page size, within the contract's bounds. */
export function limit(value: unknown): number | undefined {
	return integer('limit', value, contractDefaults.minimumLimit, contractDefaults.maximumLimit);
}
