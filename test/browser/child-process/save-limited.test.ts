/**
 * savePages under a real file size limit (ulimit -f), which only a process
 * of its own can be given: a disk that fills during a save. The rest of
 * savePages is tested in process (test/browser/copy-save.test.ts).
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';

let folder: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'pagewalk-save-'));
});

afterEach(() => {
	rmSync(folder, {recursive: true, force: true});
});

describe('savePages', () => {
	it('a disk that fills during the last page (a file size limit cuts its write short): the save fails and nothing is kept', () => {
		const file = path.join(folder, 'limited.ndjson');
		const child = spawnSync('sh', ['-c', 'ulimit -f 2; exec "$0" --import tsx test/browser/child-process/save-limited.ts "$1"', process.execPath, file], {encoding: 'utf8', timeout: 30_000});
		expect(child.stderr).toBe('');
		expect(JSON.parse(child.stdout)).toEqual({kind: 'failed', message: `Cannot write ${file}: it would pass the file size limit (ulimit -f); raise the limit or choose another disk.`});
		expect(existsSync(file)).toBe(false);
	});
});
