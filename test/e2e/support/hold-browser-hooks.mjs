// Module hooks for hold-browser.mjs (they run off the main thread).
import {existsSync} from 'node:fs';

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
	}

	return nextLoad(url, context);
}
