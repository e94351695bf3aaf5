/**
 * Every test file belongs to exactly one vitest project (vitest.config.ts):
 * `npm test` runs every project, so a file in none would never run, and one
 * in two would run twice; and `npm run test:fast` is the unit project.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {projects} from '../../vitest.config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The globs the projects use (`**`, `*`, `{a,b}`) as a pattern. */
function globPattern(glob: string): RegExp {
	let pattern = '';
	for (let index = 0; index < glob.length; index++) {
		const character = glob[index]!;
		if (glob.startsWith('**/', index)) {
			pattern += '(?:.*/)?';
			index += 2;
		} else if (character === '*') {
			pattern += '[^/]*';
		} else if (character === '{') {
			const end = glob.indexOf('}', index);
			pattern += `(?:${glob.slice(index + 1, end).split(',').map(part => part.replaceAll('.', '\\.')).join('|')})`;
			index = end;
		} else {
			pattern += character.replace(/[.+?^$()|[\]\\]/, '\\$&');
		}
	}

	return new RegExp(`^${pattern}$`);
}

const testFiles = readdirSync(path.join(root, 'test'), {recursive: true, encoding: 'utf8'})
	.map(file => `test/${file.split(path.sep).join('/')}`)
	.filter(file => /\.test\.tsx?$/.test(file) && !file.startsWith('test/bench/'));

describe('vitest projects', () => {
	it('hold every test file once', () => {
		expect(testFiles.length).toBeGreaterThan(100);
		const patterns = Object.entries(projects).map(([name, globs]) => ({name, patterns: globs.map(globPattern)}));
		const homes = testFiles.map(file => ({file, projects: patterns.filter(project => project.patterns.some(pattern => pattern.test(file))).map(project => project.name)}));
		expect(homes.filter(home => home.projects.length !== 1)).toEqual([]);
	});

	it('keep the unit project to one process with no build: none of its files starts a child or runs dist/', () => {
		const unit = projects.unit.map(globPattern);
		const unitFiles = testFiles.filter(file => unit.some(pattern => pattern.test(file)));
		expect(unitFiles.length).toBeGreaterThan(50);
		const spawning = unitFiles.filter(file => /\bfrom\s+'node:child_process'|\bdist\/cli\.js|['"]dist['"]/.test(readFileSync(path.join(root, file), 'utf8')));
		expect(spawning).toEqual([]);
	});

	it('are unit, app, cli and terminal; npm run test:fast runs unit, npm test all of them', () => {
		expect(Object.keys(projects)).toEqual(['unit', 'app', 'cli', 'terminal']);
		const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts;
		expect(scripts['test:fast']).toBe('vitest run --project unit');
		expect(scripts['test']).toMatch(/&& vitest run$/);
	});

	it('are the ones the README names where it says how to run the tests, each with a row in docs/architecture.md', () => {
		const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
		const names = Object.keys(projects);
		expect(readme).toContain('npm run test:fast          # while you work: the unit tests alone');
		expect(readme).toContain(`The tests are four vitest projects (${names.map(name => `\`${name}\``).join(', ')}; run one with\n\`npx vitest run --project app\`)`);
		const architecture = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
		expect(names.filter(name => !architecture.includes(`\n| \`${name}\` | `))).toEqual([]);
	});
});
