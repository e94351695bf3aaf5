/**
 * The demo credentials: deterministic from the seed, so docs and scripts can
 * rely on them, and obviously fake, so nobody mistakes them for real secrets.
 * Abbreviated, not spelled out: pagewalk redacts every run of 8 characters of
 * a credential it holds, and a token spelling "commerce", "restricted" or the
 * "sandbox-" of the keys' names would redact those words wherever they appear.
 */
import type {Viewer} from '../data/ordered-index.js';
import {hash32, nameCode} from '../data/random.js';

export type Credentials = {
	account: {full: string; restricted: string};
	commerce: {full: string; restricted: string};
};

export function credentialsFor(seed: number): Credentials {
	const short = {account: 'acct', commerce: 'comm', full: 'full', restricted: 'rstr'} as const;
	const token = (api: 'account' | 'commerce', viewer: Viewer) => `sbx-${short[api]}-${short[viewer]}-${hash32(seed, nameCode(`${api}-${viewer}`)).toString(16).padStart(8, '0')}`;
	return {
		account: {full: token('account', 'full'), restricted: token('account', 'restricted')},
		commerce: {full: token('commerce', 'full'), restricted: token('commerce', 'restricted')},
	};
}

/** Which viewer a presented credential is, or undefined when it is not one of `pair`. */
export function viewerOf(pair: {full: string; restricted: string}, presented: string): Viewer | undefined {
	return presented === pair.full ? 'full' : presented === pair.restricted ? 'restricted' : undefined;
}
