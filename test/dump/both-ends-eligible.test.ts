import {describe, expect, it} from 'vitest';
import {auditsBothEnds} from '../../source/commands/audit/audit-pages.js';
import {walksBothEnds} from '../../source/commands/dump/dump-steps.js';
import type {WalkConfig} from '../../source/config/options.js';
import {canWalkBothEnds} from '../../source/http/both-ends.js';

/**
 * Which walks may go from both ends is one predicate (http/both-ends.ts),
 * asked by dump and audit alike: a bound or a starting cursor keeps both to
 * one chain, and a whole list from its first page lets both go from both ends.
 */

const whole = {maxPages: null, maxItems: null, query: {}};
const configs: Array<[string, Pick<WalkConfig, 'maxPages' | 'maxItems' | 'query'>, boolean]> = [
	['a whole list from its first page', whole, true],
	['--max-pages', {...whole, maxPages: 3}, false],
	['--max-items', {...whole, maxItems: 50}, false],
	['--starting-after', {...whole, query: {startingAfter: 'a1'}}, false],
	['--ending-before', {...whole, query: {endingBefore: 'a1'}}, false],
	['an order asked for', {...whole, query: {order: 'asc'}}, true],
];

describe('one both-ends predicate for dump and audit', () => {
	it.each(configs)('%s', (_name, walk, eligible) => {
		const config = walk as WalkConfig;
		expect(canWalkBothEnds(config)).toBe(eligible);
		expect(walksBothEnds(config, {all: true, oneChain: false})).toBe(eligible);
		expect(auditsBothEnds(config, {bothEnds: true}, false)).toBe(eligible);
	});

	it('each command adds only its own asking: dump every page and not --one-chain, audit --both-ends and one walk', () => {
		const config = whole as WalkConfig;
		expect(walksBothEnds(config, {all: false, oneChain: false})).toBe(false);
		expect(walksBothEnds(config, {all: true, oneChain: true})).toBe(false);
		expect(auditsBothEnds(config, {}, false)).toBe(false);
		expect(auditsBothEnds(config, {bothEnds: true}, true)).toBe(false);
	});
});
