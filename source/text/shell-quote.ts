/** One word for a POSIX shell: single quotes, and `'` as `'\''`. Nothing inside is expanded. */
export function shellQuote(text: string): string {
	return `'${text.replaceAll('\'', String.raw`'\''`)}'`;
}

/** `text` as one shell word: as it is when `plain` (characters no shell treats specially) matches it, quoted otherwise. */
export function shellWord(text: string, plain: RegExp): string {
	return plain.test(text) ? text : shellQuote(text);
}
