/**
 * One page seen through two credentials: which ids each sees, in list order,
 * and the compare view's text. Shared by the browser's compare view and the
 * audit; every id drawn is made inert here.
 */
import {inert} from '../text/inert.js';
import {cutToWidth} from '../text/text-width.js';

/** One row of the browser's compare view: an id, which credentials see it, and the object's name where it has one. */
export type CompareRow = {id: string; a: boolean; b: boolean; name?: string};

/**
 * The rows for one page seen through two credentials, in list order: every id
 * of A, with the ids only B sees placed after the id B showed just before them.
 */
export function comparePageRows(aIds: readonly string[], bIds: readonly string[], names?: ReadonlyMap<string, string>): CompareRow[] {
	const inA = new Set(aIds);
	const inB = new Set(bIds);
	// B-only ids waiting to be placed after a given A id ('' = before the first).
	const after = new Map<string, string[]>();
	let anchor = '';
	for (const id of bIds) {
		if (inA.has(id)) {
			anchor = id;
			continue;
		}

		const waiting = after.get(anchor) ?? [];
		waiting.push(id);
		after.set(anchor, waiting);
	}

	const rows: CompareRow[] = [];
	const placeAfter = (key: string): void => {
		for (const id of after.get(key) ?? []) {
			rows.push(named({id, a: false, b: true}, names));
		}
	};

	placeAfter('');
	for (const id of aIds) {
		rows.push(named({id, a: true, b: inB.has(id)}, names));
		placeAfter(id);
	}

	return rows;
}

function named(row: CompareRow, names: ReadonlyMap<string, string> | undefined): CompareRow {
	const name = names?.get(row.id);
	return name === undefined || name === '' ? row : {...row, name};
}

/** Each object's `name`, by id, for the compare view (objects without one are left out). */
export function namesById(...pages: ReadonlyArray<ReadonlyArray<{id: string; [key: string]: unknown}>>): Map<string, string> {
	const names = new Map<string, string>();
	for (const objects of pages) {
		for (const object of objects) {
			if (typeof object['name'] === 'string') {
				names.set(object.id, object['name']);
			}
		}
	}

	return names;
}

/**
 * A credential's label made short for a narrow view: a file named by its
 * path is named by its file name (`--key-file 'cdp.json'`, not the whole
 * path); a profile or a variable's name is short already.
 */
export function shortLabel(label: string): string {
	return label.replaceAll(/'(?:[^']*\/)([^'/]+)'/g, "'$1'");
}

/** One sentence for a compare view's header. */
export function compareSummary(rows: readonly CompareRow[], labels: {a: string; b: string}): string {
	const onlyA = rows.filter((row) => row.a && !row.b).length;
	const onlyB = rows.filter((row) => row.b && !row.a).length;
	const both = rows.length - onlyA - onlyB;
	return `${both} seen by both, ${onlyA} only by ${labels.a}, ${onlyB} only by ${labels.b}.`;
}

/** The compare view's lines: the summary, a blank line, then `✓ ✓ id`, `✓ · id` (only A), `· ✓ id` (only B). */
export function compareViewLines(rows: readonly CompareRow[], labels: {a: string; b: string}): {summary: string; lines: string[]} {
	const mark = (seen: boolean) => (seen ? '✓' : '·');
	return {
		summary: inert(compareSummary(rows, labels)),
		lines: rows.map((row) => {
			const name = row.name === undefined ? '' : `  ${cutToWidth(inert(row.name), 24)}`;
			return `${mark(row.a)} ${mark(row.b)}  ${inert(row.id)}${name}${row.a && row.b ? '' : row.a ? `  only ${inert(labels.a)}` : `  only ${inert(labels.b)}`}`;
		}),
	};
}
