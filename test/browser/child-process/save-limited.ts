/**
 * Run as a child under a file size limit (test/browser/child-process/save-limited.test.ts):
 * saves two pages of about 600 bytes each to argv[2], so the limit of 1,024
 * bytes cuts the second, last, write short. Prints the result as JSON.
 */
import process from 'node:process';
import {savePages} from '../../../source/commands/browse/copy-save.js';
import type {Page} from '../../../source/contract/types.js';

function page(prefix: string): Page {
	const ids = Array.from({length: 20}, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);
	return {objects: ids.map(id => ({id})), objectTexts: ids.map(id => `{"id":"${id}","pad":"xxxxxxxxxx"}`)} as unknown as Page;
}

async function * pages(): AsyncGenerator<Page> {
	yield page('a');
	yield page('b');
}

process.stdout.write(JSON.stringify(await savePages(process.argv[2]!, pages(), {overwrite: false})));
