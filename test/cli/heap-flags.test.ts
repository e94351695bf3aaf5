/**
 * The V8 flags pagewalk sets after start (source/commands/process/heap-flags.ts) are
 * accepted by the Node running the suite (CI runs it on Node 20, 22 and 24).
 * V8 answers a flag it does not know, set with v8.setFlagsFromString, by
 * printing `Error: unrecognized flag …` on stdout, which would land on the
 * browser's screen, and goes on without it: so each flag is set as pagewalk
 * sets it, in a Node of its own, and nothing may be printed; and on the
 * command line, where Node refuses an unknown one, it must start.
 */
import {spawnSync} from 'node:child_process';
import process from 'node:process';
import {describe, expect, it} from 'vitest';
import {heapFlags} from '../../source/commands/process/heap-flags.js';
import {patience} from '../support/patience.js';

const entries = Object.entries(heapFlags);

describe('the V8 flags pagewalk sets', () => {
	it('are some, each a --flag', () => {
		expect(entries.length).toBeGreaterThan(0);
		for (const [, flags] of entries) {
			for (const flag of flags) {
				expect(flag).toMatch(/^--[a-z][\w-]*(?:=\S+)?$/);
			}
		}
	});

	for (const [entry, flags] of entries) {
		it(`${entry}: ${flags.join(' ')}: set after start, nothing printed; on the command line, Node starts`, () => {
			const script = `const v8 = require('node:v8'); for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);`;
			const set = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8', timeout: patience});
			expect({code: set.status, stdout: set.stdout, stderr: set.stderr}).toEqual({code: 0, stdout: '', stderr: ''});
			const started = spawnSync(process.execPath, [...flags, '-e', ''], {encoding: 'utf8', timeout: patience});
			expect({code: started.status, stdout: started.stdout, stderr: started.stderr}).toEqual({code: 0, stdout: '', stderr: ''});
		});
	}
});
