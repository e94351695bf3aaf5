// Bundles the CLI into dist/ for a fast start: one production bundle parses in
// about half the time of the unbundled module graph (Ink pulls in ~80 modules).
// Subcommands are dynamic imports, so `serve` and `dump` never load React or Ink.
// The options: scripts/bundle-options.mjs.
import {build} from 'esbuild';
import {chmod, rm} from 'node:fs/promises';
import {bundleOptions} from './bundle-options.mjs';

await rm('dist', {recursive: true, force: true});
await build({...bundleOptions, entryPoints: {cli: 'source/cli.tsx'}, outdir: 'dist'});
await chmod('dist/cli.js', 0o755);
