import type * as RunBrowser from './run-browser.js';
import {setHeapFlags} from '../process/heap-flags.js';

/**
 * Loads the browser's modules (Ink, React, yoga) without Node's fetch.
 *
 * yoga, Ink's layout engine, is Emscripten output with its WebAssembly inlined
 * as a data: URL, and its loader reads that URL with the global `fetch` when
 * there is one. In Node that first use loads Node's whole fetch
 * implementation on the main thread, before the first frame, only to decode
 * base64 (its cost: docs/benchmarks.md); without a global `fetch` the same loader decodes the same
 * bytes itself and compiles them the same way. pagewalk never uses the global
 * `fetch` (its client is undici's own), so it is set aside while the modules
 * evaluate and put back as soon as they have.
 */
export async function loadBrowser(): Promise<typeof RunBrowser> {
	setHeapFlags('browser-load');
	const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
	if (descriptor?.configurable) {
		delete (globalThis as Record<string, unknown>)['fetch'];
	}

	try {
		return await import('./run-browser.js');
	} finally {
		if (descriptor?.configurable) {
			Object.defineProperty(globalThis, 'fetch', descriptor);
		}
	}
}
