/**
 * Grapheme clusters without ICU where each code point is its own cluster.
 *
 * Every text drawn on a terminal is cut into grapheme clusters: by our cuts
 * (text-width.ts), by string-width, and by Ink's output pass, which tokenizes
 * every line it writes. `Intl.Segmenter` does it right for any text, but the
 * first one a process makes loads ICU's break rules, and each `segment()`
 * walks them; most text a terminal shows (ASCII, Latin letters, CJK, box
 * drawing, the status line's `·` and `…`, escape sequences) needs none of
 * that, since none of its code points ever joins its neighbour.
 *
 * {@link loneClusters} admits only code points that no rule of UAX #29 joins
 * to a neighbour of the same kind: it leaves out CR (joined to LF), marks
 * and format characters (Extend, ZWJ, SpacingMark, and the Prepend ones),
 * the few letters that are Prepend, SpacingMark or Extend all the same
 * (U+0D4E, U+0E33, U+0EB3, U+FF9E, U+FF9F), Hangul jamo (joined into
 * syllables), default-ignorable and unassigned code points, lone surrogates,
 * and every code point beyond the BMP (regional indicators, emoji
 * modifiers, tags). test/text/lone-clusters.test.ts checks, on the ICU of
 * the Node that runs it, that every admitted code point is its own cluster
 * beside each kind of admitted neighbour.
 *
 * The bundle's string-width, wrap-ansi's, slice-ansi's and Ink's tokenizer
 * get their segmenter from {@link graphemeSegmenter} (rewritten at build
 * time by scripts/terminal-text-plugin.mjs), so they share this one rule.
 */
export const loneClusters = /^[^\r\p{M}\p{Cf}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}\u0D4E\u0E33\u0EB3\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\uFF9E\uFF9F\u{10000}-\u{10FFFF}]*$/u;

type Segment = {segment: string; index: number; input: string};

/** What `Intl.Segmenter.prototype.segment` returns, for the uses made of it: iteration and `containing`. */
type Segments = Iterable<Segment> & {containing(index?: number): Segment | undefined};

/** The segments of a text of lone clusters: one a code unit (they are all in the BMP). */
class CodeUnits implements Segments {
	constructor(private readonly text: string) {}

	* [Symbol.iterator](): Generator<Segment> {
		for (let index = 0; index < this.text.length; index++) {
			yield {segment: this.text[index]!, index, input: this.text};
		}
	}

	containing(index = 0): Segment | undefined {
		const at = Number.isNaN(index) ? 0 : Math.trunc(index);
		return at >= 0 && at < this.text.length ? {segment: this.text[at]!, index: at, input: this.text} : undefined;
	}
}

type GraphemeSegmenter = {segment(text: string): Segments};

/**
 * A stand-in for `new Intl.Segmenter(locales, options)` at grapheme
 * granularity (the only one its users ask for): text of lone clusters is
 * split a code point a segment, anything else by a real `Intl.Segmenter`,
 * made on first need.
 */
export function graphemeSegmenter(locales?: string | string[], options?: Intl.SegmenterOptions): GraphemeSegmenter {
	if (options?.granularity !== undefined && options.granularity !== 'grapheme') {
		return new Intl.Segmenter(locales, options);
	}

	let segmenter: Intl.Segmenter | undefined;
	return {
		segment(text) {
			if (loneClusters.test(text)) {
				return new CodeUnits(text);
			}

			segmenter ??= new Intl.Segmenter(locales, options);
			return segmenter.segment(text);
		},
	};
}
