// `npm pack` packs package.json as it is on disk: prepack writes the manifest
// users install (no install scripts, no dependencies: dist/ is one bundle
// that holds them), postpack puts the repository's own back. The clone keeps
// its `prepare` (patch Ink, build dist/), which `npm install` runs; an
// installed tarball has nothing to run, so npm has nothing to warn about.
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs';

const manifest = 'package.json';
const kept = 'package.json.repository';
const mode = process.argv[2];

if (mode === 'strip') {
	if (existsSync(kept)) {
		// A pack that failed before postpack: the repository's manifest is the kept one.
		renameSync(kept, manifest);
	}

	const text = readFileSync(manifest, 'utf8');
	const {scripts: _scripts, devDependencies: _dev, dependencies: _dependencies, allowScripts: _allow, ...published} = JSON.parse(text);
	writeFileSync(kept, text);
	writeFileSync(manifest, `${JSON.stringify(published, null, '\t')}\n`);
} else if (mode === 'restore') {
	if (existsSync(kept)) {
		renameSync(kept, manifest);
	}
} else {
	process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
	process.exit(2);
}
