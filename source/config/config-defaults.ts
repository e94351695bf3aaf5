import {contractDefaults} from '../contract/contract.js';

/**
 * What pagewalk uses when a flag is not given, and where each API's
 * credential is read from. The page size and order are the contract's own
 * defaults (contract.ts), so one truth remains.
 */
export const defaults = {
	baseUrl: 'https://api.coinbase.com',
	commerceUrl: 'https://api.commerce.coinbase.com',
	apiVersion: '2018-03-22',
	timeoutSeconds: 30,
	retries: 3,
	maxWaitSeconds: 60,
	retryBaseMs: 500,
	/** What the server uses when the request leaves them out. */
	limit: contractDefaults.limit,
	order: contractDefaults.order,
} as const;

export const credentialEnv = {
	account: 'COINBASE_ACCESS_TOKEN',
	commerce: 'COINBASE_COMMERCE_API_KEY',
} as const;
