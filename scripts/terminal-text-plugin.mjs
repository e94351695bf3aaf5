// An esbuild plugin for the terminal-text packages in the bundle
// (string-width, wrap-ansi's string-width, slice-ansi, and Ink's tokenizer,
// @alcalzone/ansi-tokenize): two rewrites of their text at build time, each
// for start-up time, neither changing a result.
//
// 1. Their grapheme segmenter comes from source/text/lone-clusters.ts: each
// makes an `Intl.Segmenter` at load, and the first one loads ICU's break
// rules; Ink's output pass then segments every line it writes. Text whose
// code points are each a cluster of their own (most of what a terminal shows)
// is split a code point a segment, and the rest by an `Intl.Segmenter` made
// on first need.
//
// 2. string-width's RGI emoji pattern is made on the first cluster that may
// be an emoji, not on the first cluster beyond printable ASCII.
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
// (test/cli/terminal-text-plugin.test.ts checks it against the unmodified
// package, code point by code point, and on mixed text).
//
// Rewrites of the packages' text at build time, not patch-package patches:
// they apply to the bundle only, where the start-up cost is paid, and fail
// the build when a package no longer has the lines they rewrite.
// string-width itself still comes in by dynamic import (text/text-width.ts),
// so `dump` to a pipe loads none of it.
import {readFile} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';

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
		throw new Error('string-width changed: its RGI emoji pattern is no longer declared and used once as scripts/terminal-text-plugin.mjs expects');
	}

	// The use first: the new declaration has a test of its own.
	return source.replace(use, 'isRgiEmoji(segment)').replace(declaration, () => lazyDeclaration);
}

const loneClusters = fileURLToPath(new URL('../source/text/lone-clusters.ts', import.meta.url));
const construction = 'new Intl.Segmenter(';

/** A module's text with its one `new Intl.Segmenter(...)` made by lone-clusters.ts's graphemeSegmenter; throws when it has not exactly one. */
export function withGraphemeSegmenter(source) {
	if (source.split(construction).length !== 2) {
		throw new Error('a terminal-text package changed: it no longer makes one Intl.Segmenter as scripts/terminal-text-plugin.mjs expects');
	}

	return `import {graphemeSegmenter as __pagewalkGraphemeSegmenter} from ${JSON.stringify(loneClusters)};\n${source.replace(construction, '__pagewalkGraphemeSegmenter(')}`;
}

/** The modules rewritten, by their path inside node_modules. */
const rewritten = /[/\\]node_modules[/\\](?:.*[/\\])?(?:string-width[/\\]index|slice-ansi[/\\]tokenize-ansi|@alcalzone[/\\]ansi-tokenize[/\\]build[/\\]tokenize)\.js$/;

export const terminalTextPlugin = {
	name: 'terminal-text',
	setup(build) {
		build.onLoad({filter: rewritten}, async ({path}) => {
			let source = await readFile(path, 'utf8');
			// Older majors of string-width (wrap-ansi's own copy) test with emoji-regex instead: their pattern is left as it is.
			if (/[/\\]string-width[/\\]/.test(path) && !source.includes('emoji-regex')) {
				source = lazyEmojiPattern(source);
			}

			return {contents: withGraphemeSegmenter(source), loader: 'js'};
		});
	},
};
