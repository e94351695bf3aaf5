/**
 * Flattens a listed object into `path → cell` pairs, the one shape behind the
 * browser's table and the dump's csv and table formats: nested objects become
 * dotted paths (`balance.amount`); arrays and empty objects stay one cell.
 * How a key and a value are shown is the caller's: the browser makes both
 * inert, csv keeps them exact.
 */
export type Show = {key?: (key: string) => string; value: (value: unknown) => string};

export function flatten(object: Record<string, unknown>, show: Show, prefix = '', into = new Map<string, string>()): Map<string, string> {
	for (const [key, value] of Object.entries(object)) {
		const path = prefix + (show.key ? show.key(key) : key);
		if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
			flatten(value as Record<string, unknown>, show, `${path}.`, into);
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
		return JSON.stringify(value);
	}

	return String(value);
}
