/**
 * How long a test waits for an event (a frame, a screen, a request, a
 * child's exit) before it fails: a guard against a hang, not a speed check.
 * On a loaded machine an event that takes ten seconds is slow, not wrong,
 * so every wait waits on its event and gives up only after this.
 */
export const patience = 30_000;

/**
 * Polls `check` every `everyMs` until it holds: the one wait on an event a
 * test cannot await (a screen, a file, a counter). Throws `failure()`'s words
 * once `patience` has run out, rather than hang or go on.
 */
export async function pollUntil(check: () => boolean, failure: () => string, everyMs = 25): Promise<void> {
	const deadline = Date.now() + patience;
	while (!check()) {
		if (Date.now() > deadline) {
			throw new Error(failure());
		}

		// eslint-disable-next-line no-await-in-loop -- a poll, one look after another
		await new Promise(resolve => {
			setTimeout(resolve, everyMs);
		});
	}
}
