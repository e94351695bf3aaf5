/**
 * Flattens a listed object into `path → cell` pairs for the csv and table
 * writers: nested objects become dotted paths (`balance.amount`), arrays and
 * empty objects stay one JSON cell, null and absent fields are empty.
 */
export function flatten(value: Record<string, unknown>, prefix = '', into = new Map<string, string>()): Map<string, string> {
	for (const [key, item] of Object.entries(value)) {
		const path = prefix === '' ? key : `${prefix}.${key}`;
		if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length > 0) {
			flatten(item as Record<string, unknown>, path, into);
		} else {
			into.set(path, cell(item));
		}
	}

	return into;
}

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

/** Column paths in order of first appearance, `id` first. */
export function columnsOf(rows: Array<Map<string, string>>): string[] {
	const seen = new Set<string>(['id']);
	for (const row of rows) {
		for (const path of row.keys()) {
			seen.add(path);
		}
	}

	return [...seen];
}
