/**
 * Tests measure text as the browser and tables do, with string-width loaded
 * (the CLI loads it wherever it draws for a terminal; see text/text-width.ts).
 */
import {loadTextWidth} from '../../source/text/text-width.js';

await loadTextWidth();
