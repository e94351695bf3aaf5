/**
 * Pairs of dump's and audit's flags where one would silently undo the other
 * (commands/setup/flag-pairs.ts): each refused with exit 2, in one sentence naming
 * both flags as the flag table spells them, before any request; the pairs
 * that work together still do.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {kebabName} from '../../source/config/flags.js';
import {auditInProcess} from '../audit/run-audit.js';
import {dumpInProcess} from '../support/run-dump.js';

let requests = 0;
let origin: string;
const server = http.createServer((request, response) => {
	request.resume();
	requests++;
	response.writeHead(500).end();
});

beforeAll(async () => {
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
});

const env = {COINBASE_ACCESS_TOKEN: 'flag-pairs-token'};
const flag = (name: string) => `--${kebabName(name)}`;

/** A refusal: exit 2, one line on stderr naming both flags, nothing asked of the server. */
function expectRefused(result: {code: number; stdout: string; stderr: string}, first: string, second: string) {
	expect(result.code, result.stderr).toBe(2);
	expect(result.stdout).toBe('');
	expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
	expect(result.stderr).toContain(first);
	expect(result.stderr).toContain(second);
	expect(requests).toBe(0);
}

describe('audit --both-ends beside a flag that walks one chain anyway (it was dropped unsaid)', () => {
	const cases: Array<[string[], string]> = [
		[[flag('bothOrders')], flag('bothOrders')],
		[[flag('compareEnv'), 'OTHER_TOKEN'], flag('compareEnv')],
		[[flag('compareProfile'), 'other'], flag('compareProfile')],
		[[flag('maxPages'), '2'], flag('maxPages')],
		[[flag('maxItems'), '5'], flag('maxItems')],
		[[flag('startingAfter'), 'x'], flag('startingAfter')],
		[[flag('endingBefore'), 'x'], flag('endingBefore')],
	];
	for (const [more, named] of cases) {
		it(`${more.join(' ')} --both-ends`, async () => {
			const result = await auditInProcess(['accounts', '--base-url', origin, ...more, flag('bothEnds')], {...env, OTHER_TOKEN: 'other-token'});
			expectRefused(result, named, flag('bothEnds'));
			expect(result.stderr).toMatch(/not both/);
		});
	}

	it('a cursor written into the endpoint counts as its flag', async () => {
		const result = await auditInProcess([`${origin}/v2/accounts?starting_after=x`, '--base-url', origin, flag('bothEnds')], env);
		expectRefused(result, 'starting_after', flag('bothEnds'));
	});
});

describe('dump: --both-ends where one chain is walked anyway, --no-csv-guard where nothing is guarded', () => {
	const cases: Array<[string[], string, string]> = [
		[[flag('bothEnds')], flag('bothEnds'), flag('all')],
		[[flag('all'), flag('bothEnds'), flag('format'), 'csv'], `${flag('format')} csv`, flag('bothEnds')],
		[[flag('all'), flag('bothEnds'), flag('format'), 'table'], `${flag('format')} table`, flag('bothEnds')],
		[[flag('all'), flag('bothEnds'), flag('failOnFindings')], flag('failOnFindings'), flag('bothEnds')],
		[[flag('all'), flag('bothEnds'), flag('maxPages'), '2'], flag('maxPages'), flag('bothEnds')],
		[[flag('all'), flag('bothEnds'), flag('maxItems'), '5'], flag('maxItems'), flag('bothEnds')],
		[[flag('all'), flag('bothEnds'), flag('startingAfter'), 'x'], flag('startingAfter'), flag('bothEnds')],
		[[flag('noCsvGuard')], flag('noCsvGuard'), `${flag('format')} csv`],
		[[flag('noCsvGuard'), flag('format'), 'table'], flag('noCsvGuard'), `${flag('format')} csv`],
	];
	for (const [more, first, second] of cases) {
		it(more.join(' '), async () => {
			expectRefused(await dumpInProcess(['accounts', '--base-url', origin, ...more], env), first, second);
		});
	}

	it('a cursor written into the endpoint counts as its flag', async () => {
		const result = await dumpInProcess([`${origin}/v2/accounts?ending_before=x`, '--base-url', origin, flag('all'), flag('bothEnds')], env);
		expectRefused(result, 'ending_before', flag('bothEnds'));
	});

	it('pairs that work together are not refused: --all with a bound, --no-csv-guard with csv, --both-ends with --all', async () => {
		for (const more of [[flag('all'), flag('maxPages'), '2'], [flag('noCsvGuard'), flag('format'), 'csv'], [flag('all'), flag('bothEnds')]]) {
			// eslint-disable-next-line no-await-in-loop -- one run at a time, each counted
			const result = await dumpInProcess(['accounts', '--base-url', origin, '--retries', '0', ...more], env);
			// They reach the server (which fails them): usage was not the problem.
			expect(result.code, result.stderr).not.toBe(2);
		}

		expect(requests).toBeGreaterThan(0);
		requests = 0;
	});
});
