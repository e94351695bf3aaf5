import {describe, expect, it} from 'vitest';
import {noFileName, overwriteQuestion, saveErrorSentence, savePath, shownName, wroteNote} from '../../source/browser/actions/save-path.js';
import {isInert} from '../../source/text/inert.js';

function errno(code: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: something`), {code});
}

describe('savePath', () => {
	it('takes a relative name from the cwd, an absolute one as it is, and expands ~', () => {
		expect(savePath('out.ndjson', '/work/here', '/home/u')).toEqual({path: '/work/here/out.ndjson'});
		expect(savePath(' ../x/out.ndjson ', '/work/here', '/home/u')).toEqual({path: '/work/x/out.ndjson'});
		expect(savePath('/tmp/a', '/work', '/home/u')).toEqual({path: '/tmp/a'});
		expect(savePath('~/pages.ndjson', '/work', '/home/u')).toEqual({path: '/home/u/pages.ndjson'});
		expect(savePath('~', '/work', '/home/u')).toEqual({path: '/home/u'});
		// Only a leading ~ alone or before a slash is the home folder: ~user and a~b are names.
		expect(savePath('~other/x', '/work', '/home/u')).toEqual({path: '/work/~other/x'});
	});

	it('an empty name or ~ without HOME is one sentence', () => {
		expect(savePath('  ', '/work', '/home/u')).toEqual({error: noFileName('page')});
		expect(noFileName('walk')).toBe('No file name typed, so nothing was written; press W and type one.');
		expect(savePath('~/x', '/work', undefined)).toEqual({error: 'Cannot expand ~ in ~/x: HOME is not set; press w and type the full path.'});
	});
});

describe('messages', () => {
	it('each failure is one sentence naming the file, with what to do', () => {
		const sentences = ['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENAMETOOLONG', 'EIO'].map(code => saveErrorSentence(errno(code), 'out.ndjson'));
		for (const sentence of sentences) {
			expect(sentence).toMatch(/^Cannot write out\.ndjson: [^\n]+\.$/);
			expect(sentence.split('. ')).toHaveLength(1);
		}

		expect(sentences[0]).toBe('Cannot write out.ndjson: its folder does not exist; create it, or press w and type another name.');
		expect(sentences[3]).toBe('Cannot write out.ndjson: permission denied; choose a folder you can write to.');
		expect(sentences[6]).toBe('Cannot write out.ndjson: the disk is full; free some space or choose another disk.');
		// "No such file" from a folder that is there (/proc) is not a missing folder.
		expect(saveErrorSentence(errno('ENOENT'), 'out.ndjson', {folder: '/proc', exists: true})).toBe('Cannot write out.ndjson: its folder /proc is there but takes no new files (the system answers "no such file"); choose another folder.');
		expect(saveErrorSentence(errno('ENOENT'), 'out.ndjson', {folder: '/nope', exists: false})).toBe(sentences[0]);
		expect(saveErrorSentence(errno('ELOOP'), 'out.ndjson')).toBe('Cannot write out.ndjson: its path goes round in a loop of symbolic links; press w and type another name.');
	});

	it('a typed name is drawn inert, quoted when it has a space, cut in the middle when long', () => {
		expect(isInert(shownName('\u001B[2Jx'))).toBe(true);
		expect(shownName('my pages.ndjson')).toBe('\'my pages.ndjson\'');
		expect(shownName(`/very/${'long/'.repeat(20)}name.ndjson`)).toMatch(/^\/very\/long.*….*name\.ndjson$/);
		expect(overwriteQuestion('out.ndjson')).toBe('overwrite out.ndjson? y/n');
	});

	it('wrote: objects for a page; pages and those fetched again for a walk', () => {
		expect(wroteNote('a', {objects: 25, pages: 1, refetched: 0}, false)).toBe('wrote 25 objects to a');
		expect(wroteNote('a', {objects: 1, pages: 1, refetched: 0}, false)).toBe('wrote 1 object to a');
		expect(wroteNote('a', {objects: 60, pages: 3, refetched: 1}, true)).toBe('wrote 60 objects from 3 pages to a, 1 fetched again (the list may have changed since)');
	});
});
