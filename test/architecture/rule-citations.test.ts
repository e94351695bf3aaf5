/**
 * Comments and messages name a contract rule by what it means, and code points
 * to docs/contract.md, never to a rule's number in the provider's document
 * ("rule 7", "2.3 yielded", "section 2.2") or to an issue of a past round
 * ("issue 4/4"): a reader of the repository has nothing to look those up in.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const self = path.relative(root, fileURLToPath(import.meta.url));

const citations = [
	/\brules? \d/i,
	/\bsections? \d/i,
	/\bcontract \d\.\d/i,
	/\bissues? \d+\/\d+/i,
	/\b\d\.\d (?:yielded|total|cursor_range|order|limit)\b/,
];

function files(directory: string): string[] {
	return readdirSync(path.join(root, directory), {withFileTypes: true, recursive: true})
		.filter(entry => entry.isFile() && /\.(?:ts|tsx|mjs|js|json|md|sh)$/.test(entry.name))
		.map(entry => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('rule citations', () => {
	it('no comment or message cites a rule, section or issue by number', () => {
		const found: string[] = [];
		for (const file of [...files('source'), ...files('test'), ...files('scripts'), ...files('docs'), 'README.md']) {
			if (file === self) {
				continue;
			}

			for (const [index, line] of readFileSync(path.join(root, file), 'utf8').split('\n').entries()) {
				if (citations.some(pattern => pattern.test(line))) {
					found.push(`${file}:${index + 1}: ${line.trim()}`);
				}
			}
		}

		expect(found).toEqual([]);
	});
});
