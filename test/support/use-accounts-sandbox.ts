/**
 * The fixture of the every-account suites (dump's and audit's): one sandbox
 * of 40 accounts for the file, and the environment a command walks it with,
 * as either credential sees it.
 */
import {afterAll, beforeAll} from 'vitest';
import {startSandbox, type Sandbox} from '../../source/sandbox/index.js';

export type Viewer = 'full' | 'restricted';

export function useAccountsSandbox(): {sandbox: () => Sandbox; env: (viewer?: Viewer) => Record<string, string>} {
	let started: Sandbox | undefined;

	beforeAll(async () => {
		started = await startSandbox({records: 40, keyFiles: false});
	});

	afterAll(async () => {
		await started?.close();
	});

	const sandbox = () => {
		if (!started) {
			throw new Error('the sandbox starts in beforeAll: ask for it inside a test');
		}

		return started;
	};

	return {
		sandbox,
		env: (viewer = 'full') => ({PAGEWALK_BASE_URL: sandbox().accountUrl, COINBASE_ACCESS_TOKEN: sandbox().credentials.account[viewer], NO_COLOR: '1'}),
	};
}
