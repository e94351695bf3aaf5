/**
 * Background churn (`--churn N`): about N changes per second, half inserts of a
 * new newest object, half removals of a random live one, across the three
 * lists and the transactions of the accounts being walked (the lists built and
 * held now: churn builds none). The timer is unref'd so churn never keeps a
 * process alive.
 */
import type {OrderedIndex} from './ordered-index.js';
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
	// The transactions of accounts take a share of the changes only while some are held.
	const held = lists.heldTransactionLists();
	const choice = Math.floor(random() * (collectionNames.length + (held.length > 0 ? 1 : 0)));
	if (choice === collectionNames.length) {
		const list = held[Math.floor(random() * held.length)]!;
		const insert = random() < 0.5 || list.index.live === 0;
		const serial = insert ? undefined : liveSerial(list.index, random);
		lists.changeTransactions(list, serial === undefined ? {insert: true} : {remove: serial});
		return;
	}

	const name = collectionNames[choice]!;
	const {index} = lists.collections[name];
	if (random() < 0.5 || index.live === 0) {
		lists.insert(name);
		return;
	}

	const serial = liveSerial(index, random);
	if (serial !== undefined) {
		index.remove(serial);
	}
}

/** A random live object: start anywhere, step to the next live one (bounded). */
function liveSerial(index: OrderedIndex, random: () => number): number | undefined {
	let position = Math.floor(random() * index.length);
	for (let tries = 0; tries < 1000; tries++, position = (position + 1) % index.length) {
		const serial = index.serialAt(position);
		if (index.isLiveSerial(serial)) {
			return serial;
		}
	}

	return undefined;
}
