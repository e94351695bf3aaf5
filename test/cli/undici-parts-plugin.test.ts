/**
 * scripts/undici-parts-plugin.mjs: the bundle holds neither undici's HTTP/2
 * client (nor so node:http2 and node:tls, loaded at every start) nor its
 * fetch body code, and a stub that were ever reached would throw, naming
 * what is missing. That the client still works with them out is every CLI
 * test that runs the built bundle against the sandbox.
 */
import {build} from 'esbuild';
import {describe, expect, it} from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without types
import {undiciPartsPlugin} from '../../scripts/undici-parts-plugin.mjs';

async function bundle(plugins: unknown[]): Promise<string> {
	const result = await build({
		entryPoints: ['source/http/undici-adapter.ts'],
		bundle: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		write: false,
		logLevel: 'error',
		plugins: plugins as [],
	});
	return result.outputFiles[0]!.text;
}

describe('undici in the bundle', () => {
	it('leaves out the HTTP/2 client and the fetch body code, with stubs that throw', async () => {
		const whole = await bundle([]);
		const lean = await bundle([undiciPartsPlugin]);
		// Without the plugin both are there: the check below does look at something.
		expect(whole).toContain('node:http2');
		expect(whole).toContain('multipart/form-data');
		expect(lean).not.toContain('node:http2');
		expect(lean).not.toContain('multipart/form-data');
		expect(lean).toContain('HTTP/1.1 only');
		expect(lean.length).toBeLessThan(whole.length * 0.8);
	});
});
