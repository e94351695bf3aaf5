// Types of terminal-text-plugin.mjs, for the test that builds with it.
import type {Plugin} from 'esbuild';

export function lazyEmojiPattern(source: string): string;
export function withGraphemeSegmenter(source: string): string;
export const terminalTextPlugin: Plugin;
