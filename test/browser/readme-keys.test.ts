/**
 * The README's key table is generated from the keymap record; this fails
 * when someone changes one without the other (fix: npm run keys:readme).
 */
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {endMarker, keyTable, readmePath, startMarker, withKeyTable} from '../../scripts/keymap-table.js';
import {browsingCommands, keymap} from '../../source/browser/keys/keymap.js';

describe('README key table', () => {
	it('is the one generated from the keymap (run npm run keys:readme)', () => {
		const readme = readFileSync(readmePath, 'utf8');
		expect(readme).toContain(startMarker);
		expect(readme).toContain(endMarker);
		expect(readme.slice(readme.indexOf(startMarker) + startMarker.length, readme.indexOf(endMarker)).trim()).toBe(keyTable());
		expect(withKeyTable(readme)).toBe(readme);
	});

	it('has a row per command and the typing row', () => {
		const rows = keyTable().split('\n').slice(2);
		expect(rows).toHaveLength(browsingCommands().length + 2);
		expect(rows).toContain('| `Q` | quit from anywhere, restoring the terminal |');
		expect(rows).toContain(`| \`↑\` \`k\` | ${keymap.up.description} |`);
		expect(rows.at(-1)).toBe('| typing | in `/`, `L`, `:`, `w`, `W` and `E`: `Enter` applies, `Esc` cancels, `Backspace` deletes, `Tab` switches what E writes (transactions, addresses) |');
	});

	it('replaces only what lies between the markers, and refuses a README without them', () => {
		const around = `before\n${startMarker}\nstale\n${endMarker}\nafter\n`;
		expect(withKeyTable(around)).toBe(`before\n${startMarker}\n${keyTable()}\n${endMarker}\nafter\n`);
		expect(() => withKeyTable('no markers')).toThrow(/no .* section for the key table/);
	});
});
