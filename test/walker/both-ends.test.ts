/**
 * The walk from both ends (http/both-ends.ts) against the sandbox, as
 * properties: on a still list it gives exactly what one chain gives (the
 * same objects, texts and order), for both viewers (the restricted one sees
 * clumps: empty and short pages on both sides of the meeting point), both
 * orders, both APIs, lists of 0, 1, one page and pages straddling the
 * meeting point. Under change (inserts at the head and anywhere, removals
 * anywhere, the chains' own cursors included, between any two requests) it
 * writes no object twice, every object that was there throughout, nothing
 * that never was, in the list's order. Against a server whose two orders
 * disagree (the faulty server's list faults), it gives exactly what one
 * chain gives: where the ends meet they check what they can, and finish as
 * one chain on a disagreement, which they tell.
 */
import {setTimeout as sleep} from 'node:timers/promises';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {walkBothEnds} from '../../source/http/both-ends.js';
import {createClient, type PageClient} from '../../source/http/http-client.js';
import {resolveConfig} from '../../source/config/options.js';
import type {Order} from '../../source/contract/types.js';
import {walk} from '../../source/http/walker.js';
import {startSandbox, type CollectionName, type Sandbox} from '../../source/sandbox/index.js';
import {listNumbers, listObject, type FaultName} from '../support/faulty-server.js';
import {canaryEnv} from '../support/run-dump.js';
import {useFaultyServer} from '../support/use-faulty-server.js';

type Viewer = 'full' | 'restricted';
type Walked = {ids: string[]; texts: string[]; end: string; pages: number};

function configFor(sandbox: Sandbox, endpoint: CollectionName, viewer: Viewer, order: Order | undefined, limit: number) {
	return resolveConfig({
		input: [endpoint],
		flags: {baseUrl: sandbox.accountUrl, commerceUrl: sandbox.commerceUrl, limit: String(limit), ...(order ? {order} : {})},
		env: {COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer], COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce[viewer]},
	});
}

/**
 * Runs `change` before every request but the first: the list changes while
 * both chains walk it. The request then waits the milliseconds `change`
 * returns, so the chains' pages arrive in every interleaving.
 */
function changing(client: PageClient, change: (url: string) => number): PageClient {
	let requests = 0;
	return {
		...client,
		async fetchPage(url, options) {
			if (requests++ > 0) {
				await sleep(change(url));
			}

			return client.fetchPage(url, options);
		},
	};
}

async function bothEnds(client: PageClient, query: {order?: Order}, taken: Record<Order, string[]> = {asc: [], desc: []}, told: string[] = []): Promise<Walked> {
	const ids: string[] = [];
	const texts: string[] = [];
	const steps = walkBothEnds(client, query, {
		order: query.order,
		quickMs: 0,
		onDisagreement(reason) {
			told.push(reason);
		},
	});
	let pages = 0;
	for (;;) {
		// eslint-disable-next-line no-await-in-loop -- steps come one at a time
		const step = await steps.next();
		if (step.done) {
			return {ids, texts, end: step.value.kind, pages};
		}

		const item = step.value;
		if (item.chain !== 'replay') {
			pages += 1;
			taken[item.page.pagination.order].push(...item.page.objects.slice(0, item.take).map(object => object.id));
		}

		if (item.chain === 'forward') {
			ids.push(...item.page.objects.slice(0, item.take).map(object => object.id));
			texts.push(...item.page.objectTexts!.slice(0, item.take));
		} else if (item.chain === 'replay') {
			ids.push(...item.objects.map(object => object.id));
			const {body, offsets} = item.bytes!;
			texts.push(...item.objects.map((_, index) => Buffer.from(body.subarray(offsets[index * 2], offsets[(index * 2) + 1])).toString('utf8')));
		}
	}
}

async function oneChain(client: PageClient): Promise<Walked> {
	const ids: string[] = [];
	const texts: string[] = [];
	const walked = walk(client, {maxPages: null, maxItems: null}, {readAhead: true});
	let pages = 0;
	for (;;) {
		// eslint-disable-next-line no-await-in-loop -- each page follows the one before
		const step = await walked.next();
		if (step.done) {
			return {ids, texts, end: step.value.kind, pages};
		}

		pages += 1;
		ids.push(...step.value.objects.map(object => object.id));
		texts.push(...step.value.objectTexts!);
	}
}

const endpoints = fc.constantFrom<CollectionName>('accounts', 'checkouts');
const viewers = fc.constantFrom<Viewer>('full', 'restricted');
const orders = fc.constantFrom<Order | undefined>(undefined, 'desc', 'asc');

describe('a still list: what one chain gives, object for object and byte for byte', () => {
	it('sizes 0, 1, one page, and pages straddling the meeting point', async () => {
		await fc.assert(fc.asyncProperty(
			fc.oneof(fc.constantFrom(0, 1, 2, 3, 5, 8), fc.integer({min: 0, max: 60})),
			fc.integer({min: 1, max: 9}),
			endpoints, viewers, orders, fc.integer({min: 1, max: 50}),
			async (records, limit, endpoint, viewer, order, seed) => {
				const sandbox = await startSandbox({records, seed, keyFiles: false});
				const config = configFor(sandbox, endpoint, viewer, order, limit);
				const client = createClient(config, {sequential: true, lanes: 2});
				try {
					const both = await bothEnds(client, config.query);
					const one = await oneChain(client);
					expect(both.end).toBe('end');
					expect(both.ids).toEqual(sandbox.store.ids(endpoint, {order: order ?? 'desc', viewer}));
					expect(both.ids).toEqual(one.ids);
					expect(both.texts).toEqual(one.texts);
					// The chains met: together they took about as many pages as one chain (a restricted
					// credential's hidden middle may be walked by both, until one reaches an object the other took).
					if (viewer === 'full') {
						expect(both.pages).toBeLessThanOrEqual(one.pages + 1);
					}
				} finally {
					await client.close();
					await sandbox.close();
				}
			},
		), {numRuns: 60});
	});
});

describe('a server that answers faster than a second chain can help', () => {
	it('is walked as one chain: its first page decides, the other end\'s first request is let go, nothing of it is taken', async () => {
		const sandbox = await startSandbox({records: 40, seed: 3, keyFiles: false});
		const config = configFor(sandbox, 'accounts', 'full', undefined, 5);
		const client = createClient(config, {sequential: true, lanes: 2});
		try {
			// Any answer is "fast" under an infinite bound: deterministic, whatever the machine's pace.
			const steps = walkBothEnds(client, config.query, {quickMs: Number.POSITIVE_INFINITY});
			const chains = new Set<string>();
			const ids: string[] = [];
			for await (const step of steps) {
				chains.add(step.chain);
				if (step.chain === 'forward') {
					ids.push(...step.page.objects.slice(0, step.take).map(object => object.id));
				}
			}

			expect([...chains]).toEqual(['forward']);
			expect(ids).toEqual(sandbox.store.ids('accounts', {order: 'desc', viewer: 'full'}));
		} finally {
			await client.close();
			await sandbox.close();
		}
	});
});

type Change = {kind: 'insert-newest' | 'insert-anywhere' | 'remove' | 'remove-cursor' | 'remove-taken'; where: number; hidden: boolean};

const change: fc.Arbitrary<Change> = fc.record({
	// remove-taken removes one of the last objects the other chain took: where the chains would pass each other unseen.
	kind: fc.constantFrom('insert-newest', 'insert-anywhere', 'remove', 'remove-cursor', 'remove-taken', 'remove-taken'),
	where: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}),
	hidden: fc.boolean(),
});

function apply(sandbox: Sandbox, name: CollectionName, changes: Change[], url: string, removed: Set<string>, inserted: Set<string>, taken: Record<Order, string[]>): void {
	const {searchParams} = new URL(url);
	const cursor = searchParams.get('starting_after');
	const other = taken[searchParams.get('order') === 'asc' ? 'desc' : 'asc'];
	for (const {kind, where, hidden} of changes) {
		if (kind === 'remove-taken') {
			const id = other.at(-1 - Math.floor(where * Math.min(3, other.length)));
			if (id !== undefined && sandbox.store.remove(name, id)) {
				removed.add(id);
			}

			continue;
		}

		const live = sandbox.store.ids(name);
		if (kind === 'insert-newest' || (kind === 'insert-anywhere' && live.length === 0)) {
			inserted.add(sandbox.store.insert(name, {hidden}));
		} else if (kind === 'insert-anywhere') {
			const near = sandbox.store.get(name, live[Math.floor(where * live.length)]!)!;
			inserted.add(sandbox.store.insert(name, {createdAt: Date.parse(near.created_at as string) + 1, hidden}));
		} else {
			const id = kind === 'remove-cursor' && cursor !== null ? cursor : live[Math.floor(where * live.length)];
			if (id !== undefined && sandbox.store.remove(name, id)) {
				removed.add(id);
			}
		}
	}
}

describe('a list that changes while both chains walk it', () => {
	it('no object twice, every object there throughout, none that never was, in list order', async () => {
		await fc.assert(fc.asyncProperty(
			fc.integer({min: 0, max: 50}),
			fc.integer({min: 1, max: 7}),
			endpoints, viewers, orders,
			fc.array(fc.record({changes: fc.array(change, {maxLength: 4}), wait: fc.constantFrom(0, 0, 1, 3)}), {maxLength: 30}),
			async (records, limit, endpoint, viewer, order, schedule) => {
				const sandbox = await startSandbox({records, keyFiles: false});
				const config = configFor(sandbox, endpoint, viewer, order, limit);
				const base = createClient(config, {sequential: true, lanes: 2});
				const before = sandbox.store.ids(endpoint, {order: order ?? 'desc', viewer});
				const removed = new Set<string>();
				const inserted = new Set<string>();
				const taken: Record<Order, string[]> = {asc: [], desc: []};
				let turn = 0;
				const client = changing(base, url => {
					// Three passes over the schedule, then a still list: a list that grows as fast as a walk
					// reads it (an insert ahead of the cursor on every request, limit 1) has no end for any
					// walk, one chain or two, and a cycle repeated forever made such runs last minutes.
					const due = turn < 3 * schedule.length ? schedule[turn % schedule.length] : undefined;
					turn++;
					const {changes, wait} = due ?? {changes: [], wait: 0};
					apply(sandbox, endpoint, changes, url, removed, inserted, taken);
					return wait;
				});
				try {
					// A disagreement the ends tell under change (an object inserted or removed where they meet) only
					// makes the walk one chain: what is written keeps every promise below either way.
					const {ids, end} = await bothEnds(client, config.query, taken);
					expect(end).toBe('end');
					expect(new Set(ids).size).toBe(ids.length);
					const written = new Set(ids);
					expect(before.filter(id => !removed.has(id) && !written.has(id))).toEqual([]);
					const known = new Set(before);
					expect(ids.filter(id => !known.has(id) && !inserted.has(id))).toEqual([]);
					const rank = new Map(before.map((id, index) => [id, index]));
					const ranks = ids.filter(id => rank.has(id)).map(id => rank.get(id)!);
					expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
				} finally {
					await base.close();
					await sandbox.close();
				}
			},
		), {numRuns: 100});
	});
});

describe('a server whose two orders disagree: never a silent difference from one chain', () => {
	const faulty = useFaultyServer();

	type Disagreement = {fault: FaultName; settings: Record<string, number>; limit: number};

	/**
	 * The faults where what the ends read shows the disagreement: on the commerce API a total counts
	 * the list, wherever the chains meet; the account API has none, so there each end's half is one
	 * page, which the other end reads on past the meeting (deeper inside a half, nothing both ends read
	 * shows it: docs/walker.md#both-ends). The fault is in the order the other end reads (asc).
	 */
	const disagreement: fc.Arbitrary<Disagreement> = fc.record({
		commerce: fc.boolean(),
		size: fc.integer({min: 0, max: 120}),
		kind: fc.constantFrom('asc-lacks-one', 'cursor-varies'),
		where: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}),
		every: fc.integer({min: 1, max: 6}),
		skip: fc.integer({min: 1, max: 5}),
		limit: fc.integer({min: 1, max: 30}),
	}).map(({commerce, size, kind, where, every, skip, limit}): Disagreement => ({
		fault: `${kind}${commerce ? '-commerce' : ''}` as FaultName,
		settings: kind === 'asc-lacks-one' ? {size, missing: 1 + Math.floor(where * size)} : {size, every, skip},
		limit: commerce ? limit : Math.min(100, Math.max(limit, Math.ceil(size / 2))),
	}));

	it('what one chain gives, object for object, text for text', async () => {
		let disagreements = 0;
		await fc.assert(fc.asyncProperty(disagreement, async ({fault, settings, limit}) => {
			faulty().reset();
			const commerce = fault.endsWith('-commerce');
			const config = resolveConfig({
				input: [commerce ? 'checkouts' : 'accounts'],
				flags: {[commerce ? 'commerceUrl' : 'baseUrl']: faulty().base(fault, settings), limit: String(limit)},
				env: canaryEnv,
			});
			const client = createClient(config, {sequential: true, lanes: 2});
			try {
				const told: string[] = [];
				const both = await bothEnds(client, config.query, undefined, told);
				const one = await oneChain(client);
				expect(both.end).toBe('end');
				// The forward chain is in desc, which the faults leave whole: one chain gives the list.
				expect(one.ids).toEqual(listNumbers(settings.size!, 'desc').map(n => listObject(n).id));
				expect(both.ids).toEqual(one.ids);
				expect(both.texts).toEqual(one.texts);
				disagreements += told.length;
			} finally {
				await client.close();
			}
		}), {numRuns: 60});
		// Not vacuous: the ends did meet and disagree in some runs.
		expect(disagreements).toBeGreaterThan(0);
	});
});

describe('the temporary files', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({records: 300, keyFiles: false});
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('leave nothing on disk, during the walk or after it', async () => {
		const {mkdtempSync, readdirSync} = await import('node:fs');
		const {tmpdir} = await import('node:os');
		const path = await import('node:path');
		const folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-spill-test-'));
		const config = configFor(sandbox, 'accounts', 'restricted', undefined, 10);
		const client = createClient(config, {sequential: true, lanes: 2});
		const seen: string[][] = [];
		try {
			const steps = walkBothEnds(client, config.query, {spillFolder: folder, quickMs: 0});
			for await (const step of steps) {
				if (step.chain === 'back') {
					seen.push(readdirSync(folder));
				}
			}
		} finally {
			await client.close();
		}

		expect(seen.length).toBeGreaterThan(0);
		expect(seen.flat()).toEqual([]);
		expect(readdirSync(folder)).toEqual([]);
	});
});
