// `node --import` this file: the browser's chunk (Ink, React, the app) is
// held back until the file named by PAGEWALK_TEST_RELEASE exists, so a test
// sees, and acts in, the time between the first paint and Ink's first frame;
// a release file that says `fail` makes the chunk fail to load.
import {register} from 'node:module';

register('./hold-browser-hooks.mjs', import.meta.url);
