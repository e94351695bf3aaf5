import {UsageError} from '../text/errors.js';
import {quote} from '../config/flag-values.js';
import {columnsOf} from './flatten.js';
import {readsAsNumber} from './exact-cells.js';

/**
 * Which columns of a page come first: the fields people read before the ones
 * they never look at. Pure maths over flattened rows (`path → text`), shared by
 * the browser and `dump --format table`, so the first screen of a page shows
 * names, amounts and dates rather than colours and URLs.
 *
 * Every column gets a rank from its path and its values on the page; columns
 * of one rank keep their order of first appearance (a stable sort), and `id`
 * always stays first: it is the cursor users copy.
 */

/** Flattened cells of one object: path → display text. */
export type Cells = ReadonlyMap<string, string>;

/** What a column holds, in reading order: a lower rank is shown first. */
export const ranks = {
	id: 0,
	/** Top-level name or title: what a person calls the object. */
	name: 1,
	/** Amounts, balances, prices, totals (any depth: balance.amount, local_price.amount). */
	amount: 2,
	/** Currency codes: currency.code, *.currency, currency_code. */
	currency: 3,
	/** A top-level status, state, type or kind. */
	status: 4,
	created: 5,
	/** Free text: read, but long, so after the short fields above. */
	description: 6,
	other: 7,
	/** Colours, URLs, resource types, indexes, ids of related things, regexes. */
	decorative: 8,
	/** One value on every row of the page (or the same values as a column before it): it says nothing about a row. */
	constant: 9,
} as const;

export type Rank = (typeof ranks)[keyof typeof ranks];

const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1).toLowerCase();

const decorativeNames = new Set(['color', 'colour', 'resource', 'resource_path', 'sort_index', 'asset_id', 'address_regex', 'slug', 'exponent', 'logo', 'icon', 'image', 'url', 'uri', 'href', 'links']);
const amountNames = new Set(['amount', 'balance', 'price', 'total', 'subtotal', 'fee', 'value', 'native_balance']);
const statusNames = new Set(['status', 'state', 'type', 'kind']);
const hexColour = /^#(?:[\da-f]{3}|[\da-f]{4}|[\da-f]{6}|[\da-f]{8})$/i;
const webAddress = /^https?:\/\//i;
/** An ISO 8601 date-time, as `created_at` holds: kept whole where space allows. */
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Text that stands for no value: absent, empty, JSON null (as the browser shows it). */
const blank = (text: string | undefined) => text === undefined || text === '' || text === 'null';

/** Ranks a path by its name alone (values can still lower it to decorative or constant). */
export function nameRank(path: string): Rank {
	if (path === 'id') {
		return ranks.id;
	}

	const last = lastSegment(path);
	const topLevel = !path.includes('.');
	if (decorativeNames.has(last) || last.endsWith('_url') || last.endsWith('_uri') || last.endsWith('_path') || last.endsWith('_regex') || last.endsWith('_color')) {
		return ranks.decorative;
	}

	if (topLevel && (last === 'name' || last === 'title' || last === 'display_name')) {
		return ranks.name;
	}

	if (amountNames.has(last) || last.endsWith('_amount')) {
		return ranks.amount;
	}

	if (path === 'currency' || path === 'currency.code' || last === 'currency' || last === 'currency_code') {
		return ranks.currency;
	}

	if (topLevel && (statusNames.has(last) || last.endsWith('_type') || last.endsWith('_status'))) {
		return ranks.status;
	}

	if (last === 'created_at' || last === 'created') {
		return ranks.created;
	}

	if (topLevel && (last === 'description' || last === 'summary')) {
		return ranks.description;
	}

	return ranks.other;
}

/** What the values of one column on a page say about it. */
export type ColumnTraits = {
	/** Every value shown is a number (and there is one): drawn right-aligned. */
	numeric: boolean;
	/** Every value shown is an ISO date-time: its width is kept whole where space allows. */
	timestamp: boolean;
	/** Colours or web addresses. */
	decorative: boolean;
};

export function columnTraits(rows: readonly Cells[], path: string): ColumnTraits {
	let count = 0;
	let numbers = 0;
	let stamps = 0;
	let decor = 0;
	for (const row of rows) {
		const text = row.get(path);
		if (blank(text)) {
			continue;
		}

		count++;
		// Bounded: a megabyte cell is tested on its head only.
		const head = text!.length > 64 ? text!.slice(0, 64) : text!;
		if (readsAsNumber(text!)) {
			numbers++;
		}

		if (isoTimestamp.test(head)) {
			stamps++;
		}

		if (hexColour.test(head) || webAddress.test(head)) {
			decor++;
		}
	}

	return {
		numeric: count > 0 && numbers === count,
		timestamp: count > 0 && stamps === count,
		decorative: count > 0 && decor === count,
	};
}

/** Whether every row holds the same text in `a` as in `b` (absent counting as empty). */
function sameValues(rows: readonly Cells[], a: string, b: string): boolean {
	for (const row of rows) {
		if ((row.get(a) ?? '') !== (row.get(b) ?? '')) {
			return false;
		}
	}

	return true;
}

/** The values of a column on the sampled rows, each cut to a bounded head with its length. */
function signature(rows: readonly Cells[], path: string): string {
	let key = '';
	for (const row of rows) {
		const text = row.get(path) ?? '';
		key += `${text.length}:${text.length > 64 ? text.slice(0, 64) : text}\u0000`;
	}

	return key;
}

/** A column holding one value on every row of a page of at least two rows. */
function constant(rows: readonly Cells[], path: string): boolean {
	if (rows.length < 2) {
		return false;
	}

	const first = rows[0]!.get(path) ?? '';
	return rows.every(row => (row.get(path) ?? '') === first);
}

/** The rank of every column of a page, values considered. */
export function columnRanks(rows: readonly Cells[], paths: readonly string[]): Map<string, Rank> {
	const result = new Map<string, Rank>();
	// Informative columns by a signature of their values (heads and lengths),
	// so finding a repeat costs one lookup, not a comparison with every
	// earlier column: an object of 100,000 fields stays linear.
	const informative = new Map<string, string>();
	// One row has no repeats to find: its columns are neither constant nor twins.
	const compare = rows.length > 1;
	for (const path of paths) {
		let rank = nameRank(path);
		// Made only for a column that is looked up or kept: not for constant or decorative ones.
		let key: string | undefined;
		if (rank !== ranks.id) {
			if (constant(rows, path)) {
				rank = ranks.constant;
			} else if (rank !== ranks.decorative && columnTraits(rows, path).decorative) {
				rank = ranks.decorative;
			} else if (compare) {
				key = signature(rows, path);
				const twin = informative.get(key);
				if (twin !== undefined && sameValues(rows, twin, path)) {
					// balance.currency beside currency.code: the same text twice says nothing new.
					rank = ranks.constant;
				}
			}
		}

		if (rank < ranks.decorative && compare) {
			key ??= signature(rows, path);
			if (!informative.has(key)) {
				informative.set(key, path);
			}
		}

		result.set(path, rank);
	}

	return result;
}

/** Past a few hundred rows the ranks are already known well enough. */
const sampleRows = 200;

/**
 * The page's columns in reading order: `id` first, then by rank, ties in
 * order of first appearance. The ranks look at the first rows only, so a
 * huge page costs what a page of a few hundred rows does.
 */
export function orderColumns(rows: readonly Cells[], paths: readonly string[] = columnsOf(rows as Iterable<Map<string, string>>)): string[] {
	const sampled = rows.length > sampleRows ? rows.slice(0, sampleRows) : rows;
	// Values are compared in the order the ranks visit them: earlier names win a tie of duplicates.
	const byName = [...paths].sort((a, b) => nameRank(a) - nameRank(b));
	const rank = columnRanks(sampled, byName);
	return [...paths].sort((a, b) => rank.get(a)! - rank.get(b)!);
}

/**
 * A user's choice of columns (the picker, --columns): `order` first, in that
 * order; `only` shows nothing else, else the page's other columns follow in
 * reading order; `hidden` are left out either way. Names not on the page are
 * skipped (they may be on a later page), never an error.
 */
export type ColumnChoice = {
	order: readonly string[];
	hidden?: readonly string[];
	only?: boolean;
	/** The names were typed (--columns): one no row has is said. A choice made in the picker names the columns a page had, which a later page need not. */
	typed?: true;
};

/** A choice that names nothing: the reading order, nothing hidden, the same as no choice (the picker's reset). */
export function isEmptyChoice(choice: ColumnChoice): boolean {
	return choice.order.length === 0 && (choice.hidden?.length ?? 0) === 0 && choice.only !== true;
}

/**
 * The page's columns, ordered by `choice` when there is one, else in reading
 * order. `readingOrder`: the page's reading order when the caller already
 * has it (the browser keeps it per page: ranking reads every row, and a
 * toggle in the picker must not pay for it again).
 */
export function chooseColumns(rows: readonly Cells[], choice?: ColumnChoice, options: {pinId?: boolean; readingOrder?: readonly string[]} = {}): string[] {
	const present = options.readingOrder ?? columnsOf(rows as Iterable<Map<string, string>>);
	const pinId = options.pinId ?? true;
	const ordered = () => options.readingOrder ? [...options.readingOrder] : orderColumns(rows, present);
	if (!choice) {
		return ordered();
	}

	const onPage = new Set(present);
	const hidden = new Set(choice.hidden ?? []);
	const chosen = choice.order.filter(path => onPage.has(path) && !hidden.has(path));
	const rest = choice.only ? [] : ordered().filter(path => !hidden.has(path) && !choice.order.includes(path));
	const result = [...new Set([...chosen, ...rest])];
	// The id is the cursor: the browser pins it whatever the choice.
	return pinId ? ['id', ...result.filter(path => path !== 'id')] : result;
}

/**
 * `--columns a,b,c`: column paths as the table header and csv name them
 * (`balance.amount`). Names not on the first page are allowed, not refused:
 * a field may first appear on a later page (csv writes its column empty
 * until then; the browser shows it once a page has it). An empty name or a
 * name given twice is a usage error.
 */
export function parseColumnList(value: string | undefined): string[] | undefined {
	if (value === undefined) {
		return undefined;
	}

	const names = value.split(',').map(name => name.trim());
	if (names.some(name => name === '')) {
		throw new UsageError(`--columns takes column names separated by commas, such as id,name,balance.amount; ${quote(value)} has an empty one.`);
	}

	const twice = names.find((name, index) => names.indexOf(name) !== index);
	if (twice !== undefined) {
		throw new UsageError(`--columns names ${quote(twice)} twice; give each column once.`);
	}

	return names;
}
