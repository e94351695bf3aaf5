/**
 * The fixture of the fault suites: one misbehaving server for the file,
 * reset before every test (a fault may count requests or fail once), closed
 * after the last.
 */
import {afterAll, beforeAll, beforeEach} from 'vitest';
import {startFaultyServer, type FaultyServer} from './faulty-server.js';

export function useFaultyServer(): () => FaultyServer {
	let server: FaultyServer | undefined;

	beforeAll(async () => {
		server = await startFaultyServer();
	});

	afterAll(async () => {
		await server?.close();
	});

	beforeEach(() => {
		server?.reset();
	});

	return () => {
		if (!server) {
			throw new Error('the faulty server starts in beforeAll: ask for it inside a test');
		}

		return server;
	};
}
