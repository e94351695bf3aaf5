import {inertLine} from '../../text/inert.js';
import {flagText} from '../../config/hints.js';
import type {EndsStep} from '../../http/both-ends.js';
import type {ListObject, ObjectBytes, Page} from '../../contract/types.js';
import type {Format, Writer} from '../../output/index.js';
import type {UserLine} from '../../config/hints.js';

/**
 * What dump writes and says, shared by its walk of one list (dump.ts) and
 * of every account's lists (dump-lists.ts): a step's text, the server's
 * warnings, the flag that resumes after an object.
 */

/** Distinct server warnings printed per dump; further ones are counted. */
const maxWarningLines = 20;

/**
 * The resume flag for an id, in a form a POSIX shell passes through
 * unchanged: joined with '=' so an id starting with '-' is not read as a
 * flag, and single-quoted (a quote inside written '\'') unless plainly safe.
 */
export function resumeFlag(id: string): string {
	return flagText('startingAfter', id);
}

/** The server's warnings, each said once: the first few per dump, the rest counted. */
export class ServerWarnings {
	unshown = 0;
	readonly #seen = new Set<string>();

	show(page: Page, say: (line: string) => void): void {
		for (const warning of page.warnings) {
			if (this.#seen.has(warning)) {
				continue;
			}

			// Stderr is for people: a server that sends thousands of distinct
			// warnings gets the first few shown and the rest counted.
			if (this.#seen.size < maxWarningLines) {
				this.#seen.add(warning);
				say(`the server warns: ${inertLine(warning, 300)}`);
			} else {
				this.unshown++;
			}
		}
	}
}

/** The texts of objects read back from a spool, for a writer that takes texts, not bytes: each from its bytes where they hold it. */
function textsOf(count: number, texts: readonly string[] | undefined, bytes: ObjectBytes | undefined): readonly string[] | undefined {
	if (bytes === undefined) {
		return texts;
	}

	const body = Buffer.from(bytes.body.buffer, bytes.body.byteOffset, bytes.body.byteLength);
	return Array.from({length: count}, (_, index) => {
		const start = bytes.offsets[index * 2]!;
		return start >= 0 ? body.toString('utf8', start, bytes.offsets[(index * 2) + 1]) : texts![index]!;
	});
}

/**
 * What a step of the walk writes: its objects (at most `room`, --max-items)
 * and their text; `parent`: the account whose list they are, where the
 * format writes it (csv, WriterOptions.parentColumn).
 */
export function stepData(item: Exclude<EndsStep, {chain: 'back'}>, writer: Writer, room: number | null, parent?: string): {objects: ListObject[]; data: string | Uint8Array} {
	if (item.chain === 'replay') {
		let {objects, texts, bytes} = item;
		if (room !== null && objects.length > room) {
			objects = objects.slice(0, room);
			texts = texts?.slice(0, room);
			bytes = bytes && {body: bytes.body, offsets: bytes.offsets.subarray(0, room * 2)};
		}

		const data = bytes && texts && writer.pageBytes ? writer.pageBytes(objects, texts, bytes) : writer.page(objects, textsOf(objects.length, texts, bytes), parent);
		return {objects, data};
	}

	const {page} = item;
	let objects = item.take === page.objects.length ? page.objects : page.objects.slice(0, item.take);
	if (room !== null && objects.length > room) {
		objects = objects.slice(0, room);
	}

	const data = page.objectBytes && page.objectTexts && writer.pageBytes
		? writer.pageBytes(objects, page.objectTexts, page.objectBytes)
		: writer.page(objects, page.objectTexts, parent);
	return {objects, data};
}

/** What one dump is asked to do: the flags its walks read, whichever walk it is. */
export type DumpOptions = {
	all: boolean;
	format: Format;
	formulaGuard?: boolean;
	signal?: AbortSignal;
	columns?: string[] | undefined;
	/** --quiet: no contract findings on stderr. */
	quiet?: boolean;
	/** --fail-on-findings: exit 1 when a page broke a contract rule, even if the walk succeeded. */
	failOnFindings?: boolean;
	/** --one-chain: never walk from both ends (dump-steps.ts). */
	oneChain?: boolean;
	/** --both-ends: from both ends whatever the server's pace (BothEndsOptions.quickMs 0). */
	bothEnds?: boolean;
	/** The user's command line (dump's, or the browser's on a pipe), which the hints on stderr change. */
	line: UserLine;
};
