// How pagewalk is bundled (scripts/build.mjs), apart from what and where:
// also what bench:startup builds its `ink floor` app with, so that line costs
// what pagewalk's own bundle would.
import {terminalTextPlugin} from './terminal-text-plugin.mjs';
import {undiciPartsPlugin} from './undici-parts-plugin.mjs';

export const bundleOptions = {
	bundle: true,
	// Subcommands (and Ink's devtools bridge) are dynamic imports: chunks of their own.
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	// Minified: V8 parses half the bytes (2.0 MB → 1.0 MB), which the first
	// frame waits for (bench:startup). Names are kept: error classes and
	// React components are named by them.
	minify: true,
	keepNames: true,
	sourcemap: false,
	legalComments: 'none',
	logLevel: 'warning',
	define: {'process.env.NODE_ENV': '"production"'},
	// Ink only imports the devtools bridge when DEV=true; it is not a dependency.
	external: ['react-devtools-core'],
	// The terminal-text packages segment without ICU where they can, and string-width makes its emoji pattern when needed (scripts/terminal-text-plugin.mjs).
	// undici's HTTP/2 client and fetch body code, which the client never reaches, are stubs (scripts/undici-parts-plugin.mjs).
	plugins: [terminalTextPlugin, undiciPartsPlugin],
	// Some bundled CommonJS dependencies call require() for Node built-ins.
	banner: {js: "import {createRequire as __pagewalkCreateRequire} from 'node:module'; const require = __pagewalkCreateRequire(import.meta.url);"},
};
