/**
 * The second credential of a compare (`--compare-env NAME`), shared by the
 * audit and the browser's compare view: read from the environment, checked,
 * and turned into the same credential model as the walk's own
 * (config/credentials.ts), so the compare client signs a fresh JWT per request
 * for a CDP key exactly as the walk's client does.
 */
import {tokenCredential, type Credential} from '../../config/credentials.js';
import {UsageError} from '../../text/errors.js';
import {createClient, type PageClient} from '../../http/http-client.js';
import type {WalkConfig} from '../../config/options.js';
import {unfitForHeader} from '../../text/secret.js';

/** A token or API key named by --compare-env, before the API (bearer or API key) is known. */
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

/** The second credential in the walk's model: a token read from the environment becomes a bearer or an API key by the API. */
export function asCredential(config: WalkConfig, second: SecondCredential | Credential): Credential {
	return 'kind' in second ? second : tokenCredential(config.api, second.value, second.envName);
}

/** How reports and the compare view name a credential: its source, never its value. */
export function credentialLabel(credential: SecondCredential | Credential): string {
	return 'kind' in credential ? credential.from : credential.envName;
}

/** The same walk with another credential; the rest of the config (origin, headers, bounds) is shared. */
export function withCredential(config: WalkConfig, second: SecondCredential | Credential): WalkConfig {
	return {...config, credential: asCredential(config, second), credentialWarnings: []};
}

/**
 * A client that asks the same origin with the second credential: the
 * browser's compare view fetches the page on screen (its requestUrl) with it.
 */
export function createCompareClient(config: WalkConfig, second: SecondCredential | Credential): PageClient {
	return createClient(withCredential(config, second));
}
