/**
 * The contract's findings in words: one sentence per finding, the short-page
 * explanation and the cursor evidence. The audit report and the browser both
 * word them from here, so a rule reads the same everywhere. Ids and values
 * quoted here are server text: callers make the result inert before drawing.
 */
import {contractDefaults, cursorEvidence, pageFill, type CursorEvidence, type Finding, type PageFill, type ShortPage} from './contract.js';
import {inert} from '../text/inert.js';
import type {ListObject, Page} from './types.js';

function stamp(object: ListObject): string {
	const created = object['created_at'];
	return typeof created === 'string' ? `${object.id} (created_at ${created})` : object.id;
}

/** One sentence for a finding on page `page` (1-based, in walk order). */
export function findingMessage(finding: Finding, page: number): string {
	switch (finding.check) {
		case 'over-limit': {
			return `data holds ${finding.shown} objects, more than the limit of ${finding.limit}`;
		}

		case 'echo-limit': {
			const {sent} = finding;
			const asked = sent === null ? `no limit (default ${contractDefaults.limit})` : Number(sent) === 0 ? `limit=0 (default ${contractDefaults.limit})` : `limit=${sent}`;
			return `sent ${asked} but pagination.limit is ${JSON.stringify(finding.reported)}`;
		}

		case 'echo-order': {
			const asked = finding.sent === null ? `no order (default ${contractDefaults.order})` : `order=${finding.sent}`;
			return `sent ${asked} but pagination.order is ${JSON.stringify(finding.reported)}`;
		}

		case 'echo-cursors': {
			return finding.cursors.map(cursor => `${cursor.field} sent ${JSON.stringify(cursor.sent)}, reported ${JSON.stringify(cursor.reported)}`).join('; ');
		}

		case 'next-uri-params': {
			const problems = finding.problems.map(problem => {
				if (problem.parameter === 'cursor') {
					return 'next_uri has no cursor';
				}

				const name = problem.parameter;
				return problem.carried === null
					? `${name}=${problem.sent} was sent but next_uri has no ${name}`
					: `${name}=${problem.sent} was sent but next_uri has ${name}=${problem.carried}`;
			});
			return `${problems.join('; ')} (${finding.nextUrl})`;
		}

		case 'yielded': {
			return `yielded is ${finding.yielded} but data holds ${finding.shown} objects`;
		}

		case 'cursor-range': {
			return finding.first === null
				? `the page is empty but cursor_range is ${JSON.stringify(finding.range)}`
				: `cursor_range is ${JSON.stringify(finding.range)} but the page runs from ${finding.first} to ${finding.last}`;
		}

		case 'order': {
			return `${stamp(finding.object)} on page ${page} follows ${stamp(finding.after)} in ${finding.order} order`;
		}

		case 'unique-ids': {
			return finding.firstPage === null
				? `id ${finding.id} appears twice on page ${page}`
				: `id ${finding.id} on page ${page} was already on page ${finding.firstPage}`;
		}
	}
}

/**
 * Why a page holds fewer objects than `limit`, in one sentence. Only a null
 * `next_uri` ends the list: a short page with one is filtered, not the end.
 */
export function shortPageSentence(short: ShortPage): string {
	const count = short.kind === 'empty' ? 'No objects' : `${short.shown} of ${short.limit}`;
	if (short.more) {
		return `${count}: fewer than limit: permissions or access level; the list continues.`;
	}

	return `${count} and no next_uri: this is the end of the list.`;
}

/** The short-page sentence of a fill, or null for a full page. */
export function shortPageExplanation(fill: PageFill): string | null {
	if (fill.kind === 'full') {
		return null;
	}

	return shortPageSentence({shown: fill.shown, limit: fill.limit, kind: fill.kind, more: fill.continues});
}

/**
 * The note under a short or empty page, or null for a full one:
 * `7 of 25: fewer than limit: permissions or access level; the list continues.`
 */
export function shortPageNote(page: Page): string | null {
	return shortPageExplanation(pageFill(page, 0));
}

/**
 * The cursor evidence in one sentence for the debug panel, or null when
 * there is no next page to compare with.
 */
export function cursorEvidenceSentence(evidence: CursorEvidence): string | null {
	if (evidence.nextCursor === null) {
		return null;
	}

	if (!evidence.scannedPast) {
		return `next_uri starts after ${evidence.nextCursor}, the last object shown.`;
	}

	const shown = evidence.lastShownId === null ? 'this page shows no object' : `the last object shown is ${evidence.lastShownId}`;
	return `next_uri starts after ${evidence.nextCursor} but ${shown}: the server scanned past objects this credential cannot see.`;
}

/** Lines for the debug panel: the cursor of next_uri against the last object shown, made inert. */
export function cursorEvidenceLines(page: Page): string[] {
	const evidence = cursorEvidence(page);
	const sentence = cursorEvidenceSentence(evidence);
	if (sentence === null) {
		return ['cursor evidence: no next_uri, so this page is the end of the list'];
	}

	return [
		'cursor evidence:',
		`  next_uri starting_after  ${inert(evidence.nextCursor ?? '–')}`,
		`  last object shown        ${evidence.lastShownId === null ? '– (empty page)' : inert(evidence.lastShownId)}`,
		`  ${inert(sentence)}`,
	];
}
