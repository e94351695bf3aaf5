/**
 * Flattens a listed object into `path → cell` pairs, the one shape behind the
 * browser's table and the dump's csv and table formats: nested objects become
 * dotted paths (`balance.amount`); arrays and empty objects stay one cell.
 * How a key and a value are shown is the caller's: the browser makes both
 * inert, csv keeps them exact.
 */
export type Show = {key?: (key: string) => string; value: (value: unknown) => string};

/**
 * Object levels flattened into paths, as in the dump's exact cells; a deeper
 * object is one cell (the caller's show.value decides how it looks).
 */
export const maxFlattenDepth = 32;

/**
 * Iterative, with an explicit stack: a parsed object nested 50,000 levels
 * deep must not overflow the call stack, and past maxFlattenDepth levels the
 * rest is one cell, so a deep object costs one path per level it shows, not
 * one ever longer path per level it has.
 */
export function flatten(object: Record<string, unknown>, show: Show): Map<string, string> {
	const into = new Map<string, string>();
	const stack: Array<{entries: Array<[string, unknown]>; next: number; prefix: string}> = [{entries: Object.entries(object), next: 0, prefix: ''}];
	while (stack.length > 0) {
		const top = stack.at(-1)!;
		if (top.next >= top.entries.length) {
			stack.pop();
			continue;
		}

		const [key, value] = top.entries[top.next++]!;
		const path = top.prefix + (show.key ? show.key(key) : key);
		if (stack.length < maxFlattenDepth && value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
			stack.push({entries: Object.entries(value), next: 0, prefix: `${path}.`});
		} else {
			into.set(path, show.value(value));
		}
	}

	return into;
}

/** Column paths: `id` first, then every path in order of first appearance. */
export function columnsOf(rows: Iterable<Map<string, string>>): string[] {
	const seen = new Set<string>(['id']);
	for (const row of rows) {
		for (const path of row.keys()) {
			seen.add(path);
		}
	}

	return [...seen];
}

/** A value as one exact text cell: null and absent are empty, objects JSON. */
export function cell(value: unknown): string {
	if (value === null || value === undefined) {
		return '';
	}

	if (typeof value === 'string') {
		return value;
	}

	if (typeof value === 'object') {
		return stringifyOrNote(value);
	}

	return String(value);
}

/** What a value too deeply nested for JSON.stringify shows instead of its text. */
export const tooDeepNote = '(nested too deep to show)';

/**
 * JSON.stringify recurses, so a value nested tens of thousands of levels deep
 * overflows the call stack: that value shows a note instead, and costs only
 * its own cell (the rest of its object and page are shown as usual).
 */
export function stringifyOrNote(value: unknown, space?: number): string {
	try {
		return JSON.stringify(value, null, space) ?? '';
	} catch (error: unknown) {
		if (error instanceof RangeError) {
			return tooDeepNote;
		}

		throw error;
	}
}
