// Module hooks for hold-browser.mjs (they run off the main thread).
import {existsSync, readFileSync} from 'node:fs';

export async function load(url, context, nextLoad) {
	if (/\/run-browser-[\w-]+\.js$/.test(url)) {
		const release = process.env.PAGEWALK_TEST_RELEASE;
		const deadline = Date.now() + 20_000;
		while (release && !existsSync(release) && Date.now() < deadline) {
			// eslint-disable-next-line no-await-in-loop -- polling for the test's release file
			await new Promise(resolve => {
				setTimeout(resolve, 10);
			});
		}

		// A release file that says `fail`: the chunk fails to load, as a broken install's would.
		if (release && existsSync(release) && readFileSync(release, 'utf8') === 'fail') {
			throw new Error('the browser chunk is broken (test/e2e/support/hold-browser-hooks.mjs)');
		}
	}

	return nextLoad(url, context);
}
