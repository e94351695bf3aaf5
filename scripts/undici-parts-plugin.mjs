// An esbuild plugin: two of undici's modules that pagewalk's client can never
// reach are left out of the bundle, each replaced by a stub that throws.
//
// - dispatcher/client-h2.js, the HTTP/2 client. client.js requires it at
//   load, and it requires node:http2 (and with it node:tls) at load: Node's
//   HTTP/2 and TLS modules loaded on every start (bench:startup) for a client
//   that never offers HTTP/2. undici only calls it for a socket whose ALPN
//   protocol is h2, which takes `allowH2` or `useH2c`; the adapter
//   (source/http/undici-adapter.ts) sets neither, so every connection is
//   HTTP/1.1.
// - web/fetch/body.js, which HTTP/1.1 requires only to send a FormData body:
//   pagewalk sends GET requests without a body. It would bring undici's
//   fetch, WebIDL and multipart code into the bundle, parsed at every start.
//
// The bundle only: tests run the source with undici whole. A stub that is
// ever reached throws, naming what is missing, rather than misbehaving
// (test/cli/undici-parts-plugin.test.ts; the build fails when undici no longer
// has these files where the stubs expect them).
import {existsSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const undiciLib = path.dirname(path.dirname(createRequire(import.meta.url).resolve('undici/lib/dispatcher/client.js')));

const stubs = {
	'dispatcher/client-h2.js': "module.exports = function connectH2() { throw new Error('this pagewalk build speaks HTTP/1.1 only: undici\\'s HTTP/2 client is not in its bundle (scripts/undici-parts-plugin.mjs)'); };",
	'web/fetch/body.js': "module.exports = {extractBody() { throw new Error('this pagewalk build sends no request body: undici\\'s fetch body code is not in its bundle (scripts/undici-parts-plugin.mjs)'); }};",
};

for (const file of Object.keys(stubs)) {
	if (!existsSync(path.join(undiciLib, file))) {
		throw new Error(`undici changed: lib/${file} is gone, which scripts/undici-parts-plugin.mjs replaces`);
	}
}

const stubbed = new Map(Object.entries(stubs).map(([file, contents]) => [path.join(undiciLib, file), contents]));

export const undiciPartsPlugin = {
	name: 'undici-parts',
	setup(build) {
		// Any of undici's files; the stubs above say which are replaced (the rest load as they are).
		build.onLoad({filter: /[/\\]undici[/\\]lib[/\\]/}, ({path: file}) => {
			const contents = stubbed.get(file);
			return contents === undefined ? undefined : {contents, loader: 'js'};
		});
	},
};
