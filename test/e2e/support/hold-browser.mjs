// `node --import` this file: the browser's chunk (Ink, React, the app) is
// held back until the file named by PAGEWALK_TEST_RELEASE exists, so a test
// sees, and acts in, the time between the first paint and Ink's first frame;
// a release file that says `fail` makes the chunk fail to load.
// module.registerHooks where this Node has it (22.15 and later, 24);
// module.register, its predecessor, elsewhere (Node 20).
import module from 'node:module';
import {loadSync} from './hold-browser-hooks.mjs';

// Which one, for test/e2e/hold-browser.test.ts.
globalThis.pagewalkTestHoldApi = typeof module.registerHooks === 'function' ? 'registerHooks' : 'register';
if (globalThis.pagewalkTestHoldApi === 'registerHooks') {
	module.registerHooks({load: loadSync});
} else {
	module.register('./hold-browser-hooks.mjs', import.meta.url);
}
