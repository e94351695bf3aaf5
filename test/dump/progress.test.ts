/**
 * The progress of a walk (output/progress.ts) as a core, on streams of the
 * test's: a wait every list of a walk of every account is told of is said
 * once off a terminal; a narrow terminal keeps the lists, the budget and
 * the time left, dropping the counts first; TERM=dumb gets no escape
 * sequence, the old line cleared with spaces.
 */
import {afterEach, describe, expect, it, vi} from 'vitest';
import {progressOn} from '../../source/output/progress.js';
import {displayWidth} from '../../source/text/text-width.js';

function stream(tty: boolean, columns?: number) {
	const written: string[] = [];
	return {written, isTTY: tty, columns, write(text: string) {
		written.push(text);
		return true;
	}};
}

afterEach(() => {
	vi.useRealTimers();
});

describe('progress', () => {
	it('off a terminal, a long wait that every list is told of is one line; a later wait is a line of its own', () => {
		vi.useFakeTimers({now: 1_000_000});
		const stderr = stream(false);
		const progress = progressOn(stderr);
		for (let list = 0; list < 8; list++) {
			progress.retry({attempt: 1, waitMs: 59_000, reason: '0 of 400 left', pacing: true});
		}

		expect(stderr.written).toEqual(['pagewalk: waiting 59.0 s for the server\'s request budget (0 of 400 left)…\n']);
		vi.setSystemTime(1_000_000 + 60_000);
		progress.retry({attempt: 1, waitMs: 30_000, reason: '429 rate_limit_exceeded', retryAfter: true});
		expect(stderr.written).toHaveLength(2);
	});

	it('at 60 columns the lists line keeps the lists, the budget and the time left; the counts go first', () => {
		vi.useFakeTimers({now: 1_000_000});
		const stderr = stream(true, 60);
		const progress = progressOn(stderr);
		progress.lists({done: 100, total: 3000, known: 3000, objects: 0, requests: 0, budget: undefined});
		vi.setSystemTime(1_000_000 + 10_000);
		progress.lists({done: 129, total: 3000, known: 3000, objects: 16_163_000, requests: 1_483_000, budget: {remaining: 9800, limit: 10_000}});
		const line = stderr.written.at(-1)!.replace('\r\u001B[2K', '');
		expect(displayWidth(line)).toBeLessThan(60);
		expect(line).toMatch(/^lists 129\/3,000 · (16,163,000 objects · )?budget 9,800\/10,000 · \d+ min left$/);
		const wide = stream(true, 200);
		const wideProgress = progressOn(wide);
		wideProgress.lists({done: 0, total: 3, known: 3, objects: 0, requests: 1, budget: undefined});
		vi.setSystemTime(1_000_000 + 20_000);
		wideProgress.lists({done: 1, total: 3, known: 3, objects: 5, requests: 7, budget: {remaining: 3, limit: undefined}});
		expect(wide.written.at(-1)).toBe('\r\u001B[2Klists 1/3 · 5 objects · 7 requests · budget 3 · 20 s left');
	});

	it('TERM=dumb: no escape sequence; a shorter line, and clearing, write spaces over the old one', () => {
		vi.useFakeTimers({now: 1_000_000});
		const stderr = stream(true, 80);
		const progress = progressOn(stderr, {TERM: 'dumb'});
		progress.lists({done: 1, total: undefined, known: 25, objects: 1234, requests: 10, budget: undefined});
		vi.setSystemTime(1_000_000 + 1000);
		progress.lists({done: 2, total: undefined, known: 25, objects: 1, requests: 11, budget: undefined});
		progress.clear();
		expect(stderr.written).toEqual([
			'\rlists 1/25+ · 1,234 objects · 10 requests',
			'\rlists 2/25+ · 1 objects · 11 requests    ',
			`\r${' '.repeat('lists 2/25+ · 1 objects · 11 requests'.length)}\r`,
		]);
		expect(stderr.written.join('')).not.toContain('\u001B');
	});
});
