/**
 * Background churn (`--churn N`): about N changes per second, half inserts of a
 * new newest object, half removals of a random live one, across all three
 * lists. The timer is unref'd so churn never keeps a process alive.
 */
import {generator} from './random.js';
import {collectionNames, type Lists} from './store.js';

export function startChurn(lists: Lists, perSecond: number, seed: number): () => void {
	if (!(perSecond > 0)) {
		return () => {};
	}

	const random = generator(seed ^ 0x5eed);
	const period = Math.max(10, 1000 / perSecond);
	let last = performance.now();
	let budget = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		// Cap the backlog so a stalled event loop does not cause a burst.
		budget = Math.min(budget + ((now - last) / 1000) * perSecond, perSecond + 1);
		last = now;
		for (; budget >= 1; budget--) {
			change(lists, random);
		}
	}, period);
	timer.unref();
	return () => {
		clearInterval(timer);
	};
}

function change(lists: Lists, random: () => number): void {
	const name = collectionNames[Math.floor(random() * collectionNames.length)]!;
	const {index} = lists.collections[name];
	if (random() < 0.5 || index.live === 0) {
		lists.insert(name);
		return;
	}

	// A random live object: start anywhere, step to the next live one (bounded).
	let position = Math.floor(random() * index.length);
	for (let tries = 0; tries < 1000; tries++, position = (position + 1) % index.length) {
		const serial = index.serialAt(position);
		if (index.isLiveSerial(serial)) {
			index.remove(serial);
			return;
		}
	}
}
