// Types of string-width-plugin.mjs, for the test that builds with it.
import type {Plugin} from 'esbuild';

export function lazyEmojiPattern(source: string): string;
export const lazyEmojiPlugin: Plugin;
