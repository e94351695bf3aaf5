/**
 * Reading the docs as claims: the files, their text with line breaks as
 * spaces (a phrase may wrap anywhere), the figures they write as digits or
 * words, and the file paths a help text points to.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md and every docs/*.md, from the repository's root. */
export function docFiles(): string[] {
	return ['README.md', ...readdirSync(path.join(root, 'docs')).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}`)];
}

export function rawDoc(file: string): string {
	return readFileSync(path.join(root, file), 'utf8');
}

/** A doc's text with every run of blanks and line ends as one space. */
export function docText(file: string): string {
	return rawDoc(file).replaceAll(/\s+/g, ' ');
}

/** A repository file a help text points to (`docs/dump.md`, `source/audit/report-schema.json`). */
export const helpFiles = /\b(?:docs|source|scripts|test)\/[\w./-]+\.(?:md|json)\b/g;

const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A figure as the docs write it: `81`, `1,000`, `six`, `Two`. */
export function figure(text: string): number {
	const word = words.indexOf(text.toLowerCase());
	if (word !== -1) {
		return word;
	}

	const value = Number(text.replaceAll(',', ''));
	if (Number.isNaN(value)) {
		throw new TypeError(`not a figure: ${text}`);
	}

	return value;
}

/**
 * A figure and what it counts or measures: `81 ways`, `15 ms`, `six key
 * files`, `100,000 levels`. "one" is left out: in these docs it is an
 * article far more often than a count ("one walker", "one cell model").
 */
export const countedFigure = new RegExp(
	String.raw`(?<![\w.,-])(\d+(?:,\d{3})*(?:\.\d+)?|${words.slice(2).join('|')})[ -]`
	+ String.raw`(?:key )?(ms|s|seconds?|minutes?|hours?|[KMG]i?B|kB|bytes?|cells?|columns?|rows?|lines?|pages?|objects?|requests?|levels?|ways|tests?|files?|checks?|keys?|patch(?:es)?|folders?|faults?|credentials?|round trips?|chains?|%)(?![\w])`,
	'gi',
);
