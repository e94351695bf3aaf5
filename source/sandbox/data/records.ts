/**
 * Deterministic, realistic objects with the field sets the real APIs use (see
 * real-api-notes.md). Only compact keys are stored; an object is built here
 * from its serial, id and created_at when a page is rendered.
 */
import type {ListObject} from '../../contract/types.js';
import {generator, hash32, pick, unit} from './random.js';

/** Newest created_at of the generated data: fixed, so a seed always gives the same list. */
export const dataEnd = Date.UTC(2026, 9, 31, 17, 45, 0);
const day = 86_400_000;

/**
 * created_at (ms, whole seconds) of `count` objects by serial, oldest first,
 * ending at `end` and spread over about `span` ms. About one in twelve shares its
 * second with the previous object, so the id tie-break of the sort matters.
 */
export function createdTimes(count: number, seed: number, end: number, span: number): Float64Array {
	const times = new Float64Array(count);
	const random = generator(seed);
	const meanGapSeconds = Math.max(1, span / 1000 / Math.max(1, count));
	let at = Math.floor(end / 1000);
	for (let serial = count - 1; serial >= 0; serial--) {
		times[serial] = at * 1000;
		if (random() >= 0.08) {
			at -= 1 + Math.floor(random() * 2 * meanGapSeconds);
		}
	}

	return times;
}

/** ISO 8601 in whole seconds, as the real APIs write it ("2026-01-02T03:04:05Z"). */
export function isoTime(ms: number): string {
	if (ms < 0 || ms >= 253_402_300_800_000) {
		// Outside years 0000-9999 the fast path below does not apply.
		const text = new Date(ms).toISOString();
		return ms % 1000 === 0 ? `${text.slice(0, 19)}Z` : text;
	}

	// Civil date from days since the epoch (Howard Hinnant's algorithm): several
	// times faster than Date#toISOString, which showed up in every page's cost.
	const days = Math.floor(ms / 86_400_000);
	const inDay = ms - days * 86_400_000;
	const shifted = days + 719_468;
	const era = Math.floor(shifted / 146_097);
	const dayOfEra = shifted - era * 146_097;
	const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
	const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
	const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
	const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
	const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
	const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
	const seconds = Math.floor(inDay / 1000);
	const millis = inDay - seconds * 1000;
	const text = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
	return millis === 0 ? `${text}Z` : `${text}.${String(millis).padStart(3, '0')}Z`;
}

const twoDigits = Array.from({length: 60}, (_, value) => String(value).padStart(2, '0'));

function two(value: number): string {
	return twoDigits[value]!;
}

function updatedTime(created: number, ...parts: number[]): string {
	// Updated some time after creation, never after the data's end (or creation, for newer objects).
	const later = Math.floor(unit(...parts, 77) * 30 * day / 1000) * 1000;
	return isoTime(Math.max(created, Math.min(created + later, dataEnd)));
}

type Currency = {
	code: string;
	name: string;
	color: string;
	sort_index: number;
	exponent: number;
	type: 'crypto' | 'fiat';
	address_regex?: string;
	asset_id?: string;
	slug?: string;
};

const currencies: readonly Currency[] = [
	{code: 'BTC', name: 'Bitcoin', color: '#F7931A', sort_index: 100, exponent: 8, type: 'crypto', address_regex: '^([13][a-km-zA-HJ-NP-Z1-9]{25,34})|^(bc1[qzry9x8gf2tvdw0s3jn54khce6mua7l]([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}|[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}))$', asset_id: '5b71fc48-3dd3-540c-809b-f8c94d0e68b5', slug: 'bitcoin'},
	{code: 'ETH', name: 'Ethereum', color: '#627EEA', sort_index: 102, exponent: 8, type: 'crypto', address_regex: '^(?:0x)?[0-9a-fA-F]{40}$', asset_id: 'd85dce9b-5b73-5c3c-8978-522ce1d1c1b4', slug: 'ethereum'},
	{code: 'USDC', name: 'USD Coin', color: '#2775CA', sort_index: 103, exponent: 6, type: 'crypto', address_regex: '^(?:0x)?[0-9a-fA-F]{40}$', asset_id: '2b92315d-eab7-5bef-84fa-089a131333f5', slug: 'usdc'},
	{code: 'SOL', name: 'Solana', color: '#9945FF', sort_index: 104, exponent: 9, type: 'crypto', address_regex: '^[1-9A-HJ-NP-Za-km-z]{32,44}$', asset_id: '4f039497-3af8-5bb3-951c-6df9afa9be1c', slug: 'solana'},
	{code: 'LTC', name: 'Litecoin', color: '#A6A9AA', sort_index: 105, exponent: 8, type: 'crypto', address_regex: '^((L|M)[a-km-zA-HJ-NP-Z1-9]{25,34})|^(ltc1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{39,59})$', asset_id: 'c9c24c6e-c045-5fde-98a2-00ea7f520437', slug: 'litecoin'},
	{code: 'DOGE', name: 'Dogecoin', color: '#BA9F33', sort_index: 106, exponent: 8, type: 'crypto', address_regex: '^((D|A|9)[a-km-zA-HJ-NP-Z1-9]{25,34})$', asset_id: '63062039-7afb-56ff-8e19-5e3215dc404a', slug: 'dogecoin'},
	{code: 'USD', name: 'US Dollar', color: '#0066cf', sort_index: 0, exponent: 2, type: 'fiat'},
	{code: 'EUR', name: 'Euro', color: '#0066cf', sort_index: 2, exponent: 2, type: 'fiat'},
	{code: 'GBP', name: 'British Pound', color: '#0066cf', sort_index: 3, exponent: 2, type: 'fiat'},
];

// A few names users gave their vaults: wide, accented and emoji text a table has to measure.
const vaultNames = ['Savings', 'Épargne', 'Rainy day ☔', '旅行の貯金', 'Sparkonto Ü', 'House fund 🏠', 'Cold storage'] as const;

/** A decimal string with `exponent` digits after the point, as the APIs send amounts. */
function amount(value: number, exponent: number): string {
	return value.toFixed(exponent);
}

/** Everything a renderer needs to know about one stored object. */
export type RecordKey = {seed: number; serial: number; id: string; created: number};

export function renderAccount({seed, serial, id, created}: RecordKey): ListObject {
	const currency = pick(currencies, seed, serial, 1);
	const kind = currency.type === 'fiat' ? 'fiat' : unit(seed, serial, 2) < 0.12 ? 'vault' : 'wallet';
	const name = kind === 'vault' ? pick(vaultNames, seed, serial, 3) : `${currency.code} Wallet`;
	const magnitude = currency.type === 'fiat' ? 20_000 : currency.code === 'BTC' ? 3 : 400;
	const balance = unit(seed, serial, 4) < 0.2 ? 0 : unit(seed, serial, 5) ** 3 * magnitude;
	return {
		id,
		name,
		primary: serial === 0,
		type: kind,
		currency: {...currency},
		balance: {amount: amount(balance, currency.exponent), currency: currency.code},
		created_at: isoTime(created),
		updated_at: updatedTime(created, seed, serial),
		resource: 'account',
		resource_path: `/v2/accounts/${id}`,
		allow_deposits: kind !== 'vault' || unit(seed, serial, 6) < 0.5,
		allow_withdrawals: kind !== 'vault',
	};
}

const products = ['Sticker pack', 'Annual membership', 'Donation', 'Conference ticket', 'Coffee beans 1 kg', 'E-book: Cursor Paging', 'Consulting hour', 'T-shirt (L)', 'Café au lait', 'Gift card'] as const;
const descriptions = ['Thanks for your support!', 'Ships within 3 days.', 'Digital delivery by email.', '', 'Includes VAT.', 'Limited edition.'] as const;
const requestedInfo = [[], ['email'], ['name', 'email'], ['email', 'shipping_address']] as const;
const priceCurrencies = ['USD', 'EUR', 'GBP'] as const;

export function renderCheckout({seed, serial, id, created}: RecordKey): ListObject {
	const noPrice = unit(seed, serial, 11) < 0.15;
	return {
		id,
		resource: 'checkout',
		name: pick(products, seed, serial, 12),
		description: pick(descriptions, seed, serial, 13),
		logo_url: `https://res.cloudinary.com/commerce/image/upload/v1/sandbox/logo-${hash32(seed, serial, 14) % 40}.png`,
		...(noPrice ? {} : {local_price: {amount: amount(1 + Math.floor(unit(seed, serial, 15) * 49_900) / 100, 2), currency: pick(priceCurrencies, seed, serial, 16)}}),
		pricing_type: noPrice ? 'no_price' : 'fixed_price',
		requested_info: [...pick(requestedInfo, seed, serial, 17)],
		created_at: isoTime(created),
		updated_at: updatedTime(created, seed, serial),
	};
}

const chargeStatuses = ['NEW', 'PENDING', 'COMPLETED', 'EXPIRED', 'CANCELED', 'UNRESOLVED'] as const;
const customerNames = ['Ada Lovelace', 'Grace Hopper', 'Søren Kierkegaard', '李雷', 'Zoë Ngata', 'Ōtani Shōhei', 'Björk'] as const;

function chargeCode(seed: number, serial: number): string {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
	let code = '';
	for (let index = 0; index < 8; index++) {
		code += alphabet[hash32(seed, serial, 30 + index) % alphabet.length];
	}

	return code;
}

export function renderCharge({seed, serial, id, created}: RecordKey): ListObject {
	const code = chargeCode(seed, serial);
	const status = pick(chargeStatuses, seed, serial, 21);
	const price = 1 + Math.floor(unit(seed, serial, 22) * 99_900) / 100;
	const currency = pick(priceCurrencies, seed, serial, 23);
	const timeline: Array<{time: string; status: string}> = [{time: isoTime(created), status: 'NEW'}];
	if (status !== 'NEW') {
		timeline.push({time: isoTime(created + 60_000 + (hash32(seed, serial, 24) % 600) * 1000), status});
	}

	return {
		id,
		resource: 'charge',
		code,
		name: pick(products, seed, serial, 25),
		description: pick(descriptions, seed, serial, 26),
		hosted_url: `https://commerce.coinbase.com/charges/${code}`,
		created_at: isoTime(created),
		expires_at: isoTime(created + 3_600_000),
		...(status === 'COMPLETED' ? {confirmed_at: timeline[1]!.time} : {}),
		pricing_type: 'fixed_price',
		local_price: {amount: amount(price, 2), currency},
		pricing: {
			local: {amount: amount(price, 2), currency},
			bitcoin: {amount: amount(price / 68_000, 8), currency: 'BTC'},
			ethereum: {amount: amount(price / 3_400, 6), currency: 'ETH'},
		},
		timeline,
		metadata: {customer_id: String(1000 + (hash32(seed, serial, 27) % 9000)), customer_name: pick(customerNames, seed, serial, 28)},
	};
}

const transactionTypes = ['send', 'receive', 'buy', 'sell', 'transfer', 'fiat_deposit', 'staking_reward'] as const;

/** A transaction of account `account` (its id and currency code). */
export function renderTransaction(key: RecordKey, account: {id: string; currency: string}): ListObject {
	const {seed, serial, id, created} = key;
	const type = pick(transactionTypes, seed, serial, 41);
	const outgoing = type === 'send' || type === 'sell';
	const value = unit(seed, serial, 42) ** 2 * 2 * (outgoing ? -1 : 1);
	const pending = created > dataEnd - 2 * day && unit(seed, serial, 43) < 0.5;
	return {
		id,
		type,
		status: pending ? 'pending' : 'completed',
		amount: {amount: amount(value, 8), currency: account.currency},
		native_amount: {amount: amount(value * 1_000, 2), currency: 'USD'},
		description: null,
		created_at: isoTime(created),
		updated_at: updatedTime(created, seed, serial),
		resource: 'transaction',
		resource_path: `/v2/accounts/${account.id}/transactions/${id}`,
		details: {title: `${type === 'buy' ? 'Bought' : type === 'sell' ? 'Sold' : outgoing ? 'Sent' : 'Received'} ${account.currency}`, subtitle: outgoing ? 'To an external address' : 'From Coinbase'},
	};
}

/** The network a currency's addresses live on, and how one is spelled there. */
const addressNetworks: Record<string, {network: string; spell(seed: number, serial: number): string}> = {
	BTC: {network: 'bitcoin', spell: (seed, serial) => (unit(seed, serial, 51) < 0.5 ? `bc1q${characters(bech32, 38, seed, serial)}` : `3${characters(base58, 33, seed, serial)}`)},
	ETH: {network: 'ethereum', spell: (seed, serial) => `0x${characters(hex, 40, seed, serial)}`},
	USDC: {network: 'ethereum', spell: (seed, serial) => `0x${characters(hex, 40, seed, serial)}`},
	SOL: {network: 'solana', spell: (seed, serial) => characters(base58, 44, seed, serial)},
	LTC: {network: 'litecoin', spell: (seed, serial) => `ltc1q${characters(bech32, 38, seed, serial)}`},
	DOGE: {network: 'dogecoin', spell: (seed, serial) => `D${characters(base58, 33, seed, serial)}`},
};

const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const hex = '0123456789abcdef';
const addressNames = [null, 'Deposit address', 'One off payment', 'Exchange withdrawals', 'Café tips ☕', '冷蔵庫の支払い'] as const;

function characters(alphabet: string, length: number, seed: number, serial: number): string {
	let text = '';
	for (let index = 0; index < length; index++) {
		text += alphabet[hash32(seed, serial, 60 + index) % alphabet.length];
	}

	return text;
}

/** Whether an account's currency has receive addresses (fiat accounts have none). */
export function hasAddresses(currency: string): boolean {
	return currency in addressNetworks;
}

/** A receive address of account `account` (its id and currency code), with the real API's fields. */
export function renderAddress(key: RecordKey, account: {id: string; currency: string}): ListObject {
	const {seed, serial, id, created} = key;
	const {network, spell} = addressNetworks[account.currency] ?? addressNetworks['BTC']!;
	return {
		id,
		address: spell(seed, serial),
		name: pick(addressNames, seed, serial, 52),
		network,
		created_at: isoTime(created),
		updated_at: updatedTime(created, seed, serial),
		resource: 'address',
		resource_path: `/v2/accounts/${account.id}/addresses/${id}`,
	};
}
