/**
 * The HTTP client imports three of undici's internal modules by path, for
 * start-up time (see the comment at the top of source/http/undici-adapter.ts).
 * undici promises nothing about those paths, so this test is the promise:
 * it fails loudly, naming the path, when an upgrade moves or changes one,
 * and when the version range is widened past patch releases.
 */
import {createRequire} from 'node:module';
import {readFileSync} from 'node:fs';
import * as undici from 'undici';
import {describe, expect, it} from 'vitest';

const require = createRequire(import.meta.url);
const parts = ['undici/lib/dispatcher/client.js', 'undici/lib/dispatcher/pool.js', 'undici/lib/core/errors.js'] as const;

async function load(path: (typeof parts)[number]): Promise<unknown> {
	try {
		return ((await import(path)) as {default: unknown}).default;
	} catch (error: unknown) {
		throw new Error(`undici moved ${path} (${String(error)}): import the public entry in source/http/undici-adapter.ts, or update the paths there and in source/http/undici-parts.d.ts.`);
	}
}

describe('undici internals used by the HTTP client', () => {
	it('are where the client imports them from, and are what the public entry exports', async () => {
		const [client, pool, errors] = await Promise.all(parts.map(async path => load(path)));
		expect(client, parts[0]).toBe(undici.Client);
		expect(pool, parts[1]).toBe(undici.Pool);
		expect(errors, parts[2]).toBe(undici.errors);
	});

	it('include every error class the client tells apart', async () => {
		const errors = await load('undici/lib/core/errors.js') as typeof undici.errors;
		for (const name of ['ConnectTimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError', 'ResponseExceededMaxSizeError'] as const) {
			expect(typeof errors[name], name).toBe('function');
		}
	});

	it('are only trusted within patch releases of the version they were checked against', () => {
		const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {dependencies?: Record<string, string>; devDependencies: Record<string, string>};
		const range = manifest.dependencies?.['undici'] ?? manifest.devDependencies['undici'];
		expect(range, 'package.json keeps undici to a patch range (~x.y.z): internal paths may move in a minor release').toMatch(/^~\d+\.\d+\.\d+$/);
		const installed = (require('undici/package.json') as {version: string}).version;
		expect(installed.split('.').slice(0, 2), 'installed undici is outside the range').toEqual(range!.slice(1).split('.').slice(0, 2));
	});
});
