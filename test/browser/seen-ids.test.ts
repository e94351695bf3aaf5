/**
 * The ids a walk has seen, shared by the states of the walk (seen-ids.ts):
 * each state counts the ids added up to it, whatever was added after it.
 */
import {describe, expect, it} from 'vitest';
import {withIds} from '../../source/browser/stack/seen-ids.js';

const objects = (...ids: string[]) => ids.map(id => ({id}));

describe('the ids seen in a walk', () => {
	it('adds a page to the newest view, and each older view still counts only its own ids', () => {
		const start = new Set<string>();
		const first = withIds(start, objects('a', 'b'));
		const second = withIds(first, objects('b', 'c'));
		expect([...second]).toEqual(['a', 'b', 'c']);
		expect(start.size).toBe(0);
		expect([...first]).toEqual(['a', 'b']);
		expect(first.has('c')).toBe(false);
		expect(second.has('c')).toBe(true);
		// A page already seen adds nothing: the same view.
		expect(withIds(second, objects('a', 'c'))).toBe(second);
	});

	it('goes its own way from an older view (another state, a search let go) without touching the newer one', () => {
		const first = withIds(new Set<string>(), objects('a', 'b'));
		const newer = withIds(first, objects('c'));
		const other = withIds(first, objects('d', 'a'));
		expect([...newer]).toEqual(['a', 'b', 'c']);
		expect([...other]).toEqual(['a', 'b', 'd']);
		expect(newer.has('d')).toBe(false);
		expect(other.has('c')).toBe(false);
		// Both go on growing, each on its own.
		expect([...withIds(newer, objects('e'))]).toEqual(['a', 'b', 'c', 'e']);
		expect([...withIds(other, objects('e'))]).toEqual(['a', 'b', 'd', 'e']);
		expect(newer.size).toBe(3);
		expect(other.size).toBe(3);
	});

	it('reads as a set: size, keys, values, entries, forEach', () => {
		const seen = withIds(new Set(['x']), objects('y'));
		expect(seen.size).toBe(2);
		expect([...seen.keys()]).toEqual(['x', 'y']);
		expect([...seen.values()]).toEqual(['x', 'y']);
		expect([...seen.entries()]).toEqual([['x', 'x'], ['y', 'y']]);
		const visited: string[] = [];
		seen.forEach((value, key) => {
			visited.push(`${key}=${value}`);
		});
		expect(visited).toEqual(['x=x', 'y=y']);
	});
});
