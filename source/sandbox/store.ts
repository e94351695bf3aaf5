/**
 * The sandbox's lists: accounts (and each account's transactions and
 * addresses), checkouts and
 * charges, each an {@link OrderedIndex} plus the renderer that builds full
 * objects on demand. {@link SandboxStore} is the face tests and churn use.
 */
import type {ListObject, Order} from '../contract/types.js';
import {hiddenClumps} from './clumps.js';
import {OrderedIndex, type Viewer} from './ordered-index.js';
import {hash32, nameCode} from './random.js';
import {createdTimes, dataEnd, hasAddresses, renderAccount, renderAddress, renderCharge, renderCheckout, renderTransaction, type RecordKey} from './records.js';

export type {Viewer} from './ordered-index.js';
export type CollectionName = 'accounts' | 'checkouts' | 'charges';
export const collectionNames: readonly CollectionName[] = ['accounts', 'checkouts', 'charges'];
/** The lists each account has of its own (the real API has more: deposits, withdrawals, buys, sells). */
export type AccountListName = 'transactions' | 'addresses';

/** How many objects each list of an account has (from its roll, key and currency), and how one is drawn. */
const accountListKinds: Record<AccountListName, {count(roll: number, key: number, currency: string): number; render: typeof renderTransaction}> = {
	// Most accounts have a few pages of history; some have none.
	transactions: {
		count: (roll, key) => (roll < 10 ? 0 : roll < 30 ? roll % 12 : 25 + (hash32(key, 2) % 160)),
		render: renderTransaction,
	},
	// Fiat accounts receive no crypto; most others have a handful of
	// addresses, and about one in three enough for several pages.
	addresses: {
		count: (roll, key, currency) => (!hasAddresses(currency) || roll < 8 ? 0 : roll < 65 ? 1 + (roll % 15) : 26 + (hash32(key, 2) % 120)),
		render: renderAddress,
	},
};

/** One list: its index and how to render an object of it. */
export type Collection = {
	index: OrderedIndex;
	render(serial: number): ListObject;
};

export type InsertOptions = {
	/** created_at as ms since the epoch, an ISO string or a Date; default: newest (now, or just after the newest). */
	createdAt?: number | string | Date;
	/** Hidden from the restricted credential; default: about one in three, from the seed. */
	hidden?: boolean;
};

export type ListOptions = {order?: Order; viewer?: Viewer};

export type SandboxStore = {
	/** Adds an object; returns its id. */
	insert(collection: CollectionName, options?: InsertOptions): string;
	/** Removes a live object; it stays a valid cursor until it is among the oldest removals past `keepRemoved`. False when the id is not a live object of the list. */
	remove(collection: CollectionName, id: string): boolean;
	/** Ids of the live objects in list order (default `desc`, newest first) that `viewer` (default `full`) sees. */
	ids(collection: CollectionName, options?: ListOptions): string[];
	/** Ids of the live objects the restricted credential cannot see, newest first. */
	hiddenIds(collection: CollectionName): string[];
	/** Number of live objects `viewer` (default `full`) sees. */
	count(collection: CollectionName, viewer?: Viewer): number;
	/** The full object, live or removed (and not yet forgotten), or undefined for an unknown id. */
	get(collection: CollectionName, id: string): ListObject | undefined;
	/** Ids of one account's transactions in list order; undefined for an id that is not a live account. */
	transactionIds(accountId: string, options?: ListOptions): string[] | undefined;
	/** Ids of one account's addresses in list order; undefined for an id that is not a live account. */
	addressIds(accountId: string, options?: ListOptions): string[] | undefined;
	/** Ids of one account's addresses the restricted credential cannot see, newest first; undefined as above. */
	hiddenAddressIds(accountId: string): string[] | undefined;
};

const day = 86_400_000;
const spans: Record<CollectionName, number> = {accounts: 3 * 365 * day, checkouts: 2 * 365 * day, charges: 365 * day};

/** The collections and the lazily built lists of each account behind a {@link SandboxStore}. */
export class Lists implements SandboxStore {
	readonly collections: Record<CollectionName, Collection>;
	// Built on first use: a million accounts must not mean a million transaction lists.
	private readonly accountLists: Record<AccountListName, Map<number, Collection>> = {transactions: new Map(), addresses: new Map()};
	private insertCount = 0;

	/**
	 * `keepRemoved`: removed objects each list keeps as valid cursors (see
	 * ordered-index.ts). `transactions`: every account has exactly that many
	 * (a sized load for a benchmark), rather than the drawn few pages.
	 */
	constructor(readonly seed: number, records: number, keepRemoved?: number, private readonly transactions?: number) {
		const make = (name: CollectionName, render: (key: RecordKey) => ListObject): Collection => {
			const key = hash32(seed, nameCode(name));
			const index = new OrderedIndex(key, createdTimes(records, hash32(key, 1), dataEnd, spans[name]), hiddenClumps(records, hash32(key, 2), true), keepRemoved);
			const salt = hash32(seed, nameCode(name), 3);
			return {index, render: (serial) => render({seed: salt, serial, id: index.idOf(serial), created: index.createdOf(serial)})};
		};

		this.collections = {
			accounts: make('accounts', renderAccount),
			checkouts: make('checkouts', renderCheckout),
			charges: make('charges', renderCharge),
		};
	}

	/**
	 * One list of a live account `viewer` can see, or undefined for any other
	 * id: a restricted caller cannot list what a hidden account holds either.
	 */
	accountList(name: AccountListName, accountId: string, viewer: Viewer = 'full'): Collection | undefined {
		const accounts = this.collections.accounts;
		const serial = accounts.index.serialOf(accountId.toLowerCase());
		if (serial === undefined || !accounts.index.isLiveSerial(serial) || (viewer === 'restricted' && accounts.index.isHiddenSerial(serial))) {
			return undefined;
		}

		const lists = this.accountLists[name];
		let list = lists.get(serial);
		if (!list) {
			list = this.buildAccountList(name, serial, accounts.index.idOf(serial));
			lists.set(serial, list);
		}

		return list;
	}

	insert(collection: CollectionName, options: InsertOptions = {}): string {
		const {index} = this.collection(collection);
		const number = this.insertCount++;
		let created: number;
		if (options.createdAt === undefined) {
			// Newest: now, but never before the newest object, so inserts land at the head in `desc`.
			created = Math.max(Math.floor(Date.now() / 1000) * 1000, (index.newest() ?? 0) + 1000);
		} else {
			created = options.createdAt instanceof Date ? options.createdAt.getTime() : typeof options.createdAt === 'string' ? Date.parse(options.createdAt) : options.createdAt;
			created = Math.round(created);
			// Beyond ±8.64e15 ms a time has no ISO form, and the object could not be rendered.
			if (!Number.isFinite(created) || Math.abs(created) > 8.64e15) {
				throw new TypeError(`createdAt ${String(options.createdAt)} is not a valid time.`);
			}
		}

		const hidden = options.hidden ?? hash32(this.seed, nameCode(collection), 5, number) % 3 === 0;
		return index.idOf(index.insert(created, hidden));
	}

	remove(collection: CollectionName, id: string): boolean {
		const {index} = this.collection(collection);
		const serial = index.serialOf(id);
		return serial !== undefined && index.remove(serial);
	}

	ids(collection: CollectionName, options: ListOptions = {}): string[] {
		return liveIds(this.collection(collection).index, options);
	}

	hiddenIds(collection: CollectionName): string[] {
		return liveIds(this.collection(collection).index, {}, true);
	}

	count(collection: CollectionName, viewer: Viewer = 'full'): number {
		const {index} = this.collection(collection);
		return viewer === 'full' ? index.live : index.liveVisible;
	}

	get(collection: CollectionName, id: string): ListObject | undefined {
		const list = this.collection(collection);
		const serial = typeof id === 'string' ? list.index.serialOf(id.toLowerCase()) : undefined;
		return serial === undefined ? undefined : list.render(serial);
	}

	transactionIds(accountId: string, options: ListOptions = {}): string[] | undefined {
		const list = this.accountList('transactions', accountId);
		return list && liveIds(list.index, options);
	}

	addressIds(accountId: string, options: ListOptions = {}): string[] | undefined {
		const list = this.accountList('addresses', accountId);
		return list && liveIds(list.index, options);
	}

	hiddenAddressIds(accountId: string): string[] | undefined {
		const list = this.accountList('addresses', accountId);
		return list && liveIds(list.index, {}, true);
	}

	private collection(name: CollectionName): Collection {
		const list = (this.collections as Partial<Record<string, Collection>>)[name];
		if (!list) {
			throw new TypeError(`${String(name)} is not a sandbox list; use one of ${collectionNames.join(', ')}.`);
		}

		return list;
	}

	/**
	 * One list of an account, drawn from the seed, the list's name and the
	 * account: its size, creation times and hidden clumps (a restricted caller
	 * meets short and empty pages here too), and its objects on demand.
	 */
	private buildAccountList(name: AccountListName, accountSerial: number, accountId: string): Collection {
		const accounts = this.collections.accounts;
		const kind = accountListKinds[name];
		const key = hash32(this.seed, nameCode(name), accountSerial);
		const currency = (accounts.render(accountSerial).currency as {code: string}).code;
		const count = name === 'transactions' && this.transactions !== undefined ? this.transactions : kind.count(hash32(key, 1) % 100, key, currency);
		const opened = accounts.index.createdOf(accountSerial);
		const index = new OrderedIndex(key, createdTimes(count, hash32(key, 3), dataEnd, Math.max(1000, dataEnd - opened)), hiddenClumps(count, hash32(key, 4), false));
		const salt = hash32(key, 5);
		return {
			index,
			render: (serial) => kind.render({seed: salt, serial, id: index.idOf(serial), created: index.createdOf(serial)}, {id: accountId, currency}),
		};
	}
}

/** Live ids in list order; O(n), for tests and tools, never on a request. With `onlyHidden`, just the hidden ones. */
function liveIds(index: OrderedIndex, {order = 'desc', viewer = 'full'}: ListOptions, onlyHidden = false): string[] {
	const ids: string[] = [];
	for (let position = 0; position < index.length; position++) {
		const serial = index.serialAt(position);
		const hidden = index.isHiddenSerial(serial);
		if (index.isLiveSerial(serial) && (onlyHidden ? hidden : viewer === 'full' || !hidden)) {
			ids.push(index.idOf(serial));
		}
	}

	return order === 'desc' ? ids.reverse() : ids;
}

