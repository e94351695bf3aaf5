import {describe, expect, it} from 'vitest';
import {loadBrowser} from '../../source/commands/browse/load-browser.js';

describe('loadBrowser', () => {
	it('loads the browser and puts the global fetch back as it was', async () => {
		const before = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
		const module = await loadBrowser();
		expect(typeof module.runBrowser).toBe('function');
		expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toEqual(before);
		expect(typeof fetch).toBe('function');
	});
});
