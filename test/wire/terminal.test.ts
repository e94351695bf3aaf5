/**
 * stdout and stderr on one real terminal: `script` runs the built CLI on a
 * pseudo-terminal and hands back every byte the terminal received. Replaying
 * the carriage returns and erase-line escapes gives the lines a user would
 * see: each must be a whole object, a pagewalk note or the summary, never the
 * progress line with data run into it.
 */
import {execFileSync} from 'node:child_process';
import {cpSync, existsSync, mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {expect, test} from 'vitest';
import {cliPath} from '../support/run-dump.js';

const scriptPath = '/usr/bin/script';

/** The lines a terminal shows after `bytes`: CR returns to column 0, ESC[2K blanks the line, other escapes are dropped. */
function render(bytes: string): string[] {
	const lines: string[] = [];
	let line: string[] = [];
	let column = 0;
	for (let index = 0; index < bytes.length; index++) {
		const char = bytes[index]!;
		if (char === '\u001B') {
			// eslint-disable-next-line no-control-regex -- reading escape sequences is the point
			const match = /^\u001B\[[\d;?]*[A-Za-z]/.exec(bytes.slice(index, index + 16));
			if (match?.[0] === '\u001B[2K') {
				line = [];
			}

			index += (match?.[0].length ?? 1) - 1;
		} else if (char === '\r') {
			column = 0;
		} else if (char === '\n') {
			lines.push(line.join(''));
			line = [];
			column = 0;
		} else {
			line[column++] = char;
		}
	}

	lines.push(line.join(''));
	return lines.filter(text => text.trim() !== '');
}

test.skipIf(!existsSync(scriptPath))('dump on a terminal: progress never lands inside the data', () => {
	if (!existsSync(cliPath)) {
		throw new Error('dist/cli.js is missing: run npm run build first (npm test does).');
	}

	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-tty-'));
	cpSync(path.dirname(cliPath), path.join(directory, 'dist'), {recursive: true});
	const command = `${process.execPath} ${path.join(directory, 'dist/cli.js')} dump --demo accounts --all --limit 5 --max-pages 30`;
	const bytes = execFileSync(scriptPath, ['-q', '-e', '-c', command, '/dev/null'], {
		encoding: 'utf8',
		env: {PATH: process.env.PATH, TERM: 'xterm-256color', NO_COLOR: '1'},
		timeout: 60_000,
	});
	// Proof the progress line was drawn at all, on the same terminal.
	expect(bytes).toContain('\r\u001B[2Kpage 1 · ');
	const lines = render(bytes);
	const objects = lines.filter(line => line.startsWith('{'));
	expect(objects.length).toBeGreaterThan(5);
	for (const line of objects) {
		expect(() => JSON.parse(line) as unknown, line).not.toThrow();
	}

	for (const line of lines.filter(line => !line.startsWith('{'))) {
		expect(line).toMatch(/^pagewalk: |^[\d,]+ objects in [\d,]+ pages?/);
	}
});
