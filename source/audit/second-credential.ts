/**
 * The second credential of a compare (`--compare-env NAME`), shared by the
 * audit and the browser's compare view: read from the environment, checked,
 * and wrapped as a Secret so it never prints.
 */
import {UsageError} from '../core/errors.js';
import {createClient, type PageClient} from '../core/http-client.js';
import type {WalkConfig} from '../core/options.js';
import {Secret, unfitForHeader} from '../core/secret.js';

export type SecondCredential = {envName: string; value: string};

/** Reads the second credential: a well-formed variable name, set, one line. */
export function compareCredential(name: string | undefined, env: Record<string, string | undefined>): SecondCredential | null {
	if (name === undefined) {
		return null;
	}

	if (!/^[A-Za-z_]\w*$/.test(name)) {
		throw new UsageError('--compare-env must name an environment variable, such as OTHER_TOKEN.');
	}

	const value = env[name]?.trim();
	if (value === undefined || value === '') {
		throw new UsageError(`--compare-env ${name}: set ${name} to the second token or API key to compare with.`);
	}

	// eslint-disable-next-line no-control-regex -- refusing control characters is the point
	if (/[\u0000-\u001F\u007F]/.test(value)) {
		throw new UsageError(`${name} contains a line break or control character; set it to the bare credential.`);
	}

	const unfit = unfitForHeader(value);
	if (unfit > 0) {
		throw new UsageError(`${name} holds a character an HTTP header cannot carry (at position ${unfit}; only ASCII and Latin-1 fit); set it to the bare credential as the API issued it.`);
	}

	return {envName: name, value};
}

/** The same walk with another credential; the rest of the config (origin, headers, bounds) is shared. */
export function withCredential(config: WalkConfig, compare: SecondCredential): WalkConfig {
	const value = config.api === 'account' && !/^bearer /i.test(compare.value) ? `Bearer ${compare.value}` : compare.value;
	return {...config, credential: {...config.credential, value: new Secret(value), envName: compare.envName}};
}

/**
 * A client that asks the same origin with the second credential: the
 * browser's compare view fetches the page on screen (its requestUrl) with it.
 */
export function createCompareClient(config: WalkConfig, second: SecondCredential): PageClient {
	return createClient(withCredential(config, second));
}
