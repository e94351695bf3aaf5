// An esbuild plugin for the bundle's string-width (the terminal width of text,
// for pagewalk's own cuts and for Ink's layout): its RGI emoji pattern is
// made on the first cluster that may be an emoji, not on the first cluster
// beyond printable ASCII.
//
// string-width tests every non-ASCII cluster against /^\p{RGI_Emoji}$/v. V8
// expands that set of strings and compiles it to machine code early on (it
// tiers a pattern up after its first run): a large part of the CPU time before
// the browser's first frame, paid for a status line's `·` or a cut cell's `…`,
// neither of which can be an emoji. Every RGI emoji sequence is fully
// qualified: a basic emoji is a code point of Emoji_Presentation or one of
// Emoji followed by VS16 (U+FE0F), a keycap has VS16, a flag is two regional
// indicators, a modifier sequence ends in a skin tone, a tag sequence starts
// with a black flag, and a ZWJ sequence is made of these; regional
// indicators, skin tones and the black flag are all Emoji_Presentation. So a
// cluster with neither such a code point nor VS16 (which leaves out digits,
// `#` and `*`, also of the Emoji property) is answered `false` by a small
// pattern, and string-width returns the same width for every text
// (test/cli/string-width-plugin.test.ts checks it against the unmodified
// package, code point by code point).
//
// A rewrite of the package's text at build time, not a patch-package patch:
// it applies to the bundle only, where the start-up cost is paid, and fails
// the build when string-width no longer has the two lines it rewrites.
// string-width itself still comes in by dynamic import (text/text-width.ts),
// so `dump` to a pipe loads none of it.
import {readFile} from 'node:fs/promises';

const declaration = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const use = 'rgiEmojiRegex.test(segment)';

const lazyDeclaration = `const emojiCharacterRegex = /[\\p{Emoji_Presentation}\\uFE0F]/u;
let rgiEmojiRegex;
function isRgiEmoji(segment) {
	if (!emojiCharacterRegex.test(segment)) {
		return false;
	}

	rgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v');
	return rgiEmojiRegex.test(segment);
}`;

/** string-width's index.js with the RGI pattern made on first need; throws when the text is not the one expected. */
export function lazyEmojiPattern(source) {
	if (source.split(declaration).length !== 2 || source.split(use).length !== 2) {
		throw new Error('string-width changed: its RGI emoji pattern is no longer declared and used once as scripts/string-width-plugin.mjs expects');
	}

	// The use first: the new declaration has a test of its own.
	return source.replace(use, 'isRgiEmoji(segment)').replace(declaration, () => lazyDeclaration);
}

export const lazyEmojiPlugin = {
	name: 'lazy-emoji-pattern',
	setup(build) {
		build.onLoad({filter: /[/\\]string-width[/\\]index\.js$/}, async ({path}) => {
			const source = await readFile(path, 'utf8');
			// Older majors (wrap-ansi's own copy) test with emoji-regex instead, and are left as they are.
			return source.includes('emoji-regex') ? undefined : {contents: lazyEmojiPattern(source), loader: 'js'};
		});
	},
};
