/**
 * The fixture most browser tests share: one sandbox for the file (tests only
 * read it), and `browse()`, which renders the app on it with the restricted
 * account credential and closes every app it opened after each test.
 */
import {afterAll, afterEach, beforeAll} from 'vitest';
import {startSandbox, type Sandbox} from '../../../source/sandbox/index.js';
import {renderApp} from './render-app.js';

type Options = Partial<Parameters<typeof renderApp>[0]>;

export function sandboxBrowser(defaults: Options = {}): {sandbox(): Sandbox; browse(options?: Options): ReturnType<typeof renderApp>} {
	let sandbox: Sandbox | undefined;
	let open: Array<{close(): Promise<void>}> = [];

	beforeAll(async () => {
		sandbox = await startSandbox({port: 0});
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	afterEach(async () => {
		await Promise.all(open.map(async app => app.close()));
		open = [];
	});

	return {
		sandbox() {
			if (!sandbox) {
				throw new Error('the sandbox starts in beforeAll: call sandbox() inside a test');
			}

			return sandbox;
		},
		async browse(options = {}) {
			const running = this.sandbox();
			const app = await renderApp({baseUrl: running.accountUrl, token: running.credentials.account.restricted, ...defaults, ...options});
			open.push(app);
			return app;
		},
	};
}
