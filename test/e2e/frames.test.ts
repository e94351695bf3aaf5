import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {builtCli, removeBuiltCli, requireTmux, TmuxServer} from './support/tmux.js';

/**
 * What Ink leaves on a real terminal after a frame replaces another: an
 * overlay opened and closed, a sideways scroll and back, a resize and back
 * each give back exactly the screen before, with no character of the frame
 * in between left behind. The table rows reach Ink as blank stand-ins that
 * are swapped for their text when written out (components/table-view.tsx):
 * every row on screen shows its own text, the selected one in reverse video.
 */

const server = new TmuxServer('frames', {columns: 160, rows: 30});

afterAll(() => {
	server.kill();
	removeBuiltCli();
});

/** The screen with its colours and attributes, as escape sequences (capture-pane -e). */
function styledScreen(): string {
	return server.tmux('capture-pane', '-p', '-e', '-t', server.session);
}

type Screen = {text: string; styled: string};

/** Waits until the screen shows `before`'s characters again; then its styles must be `before`'s too, which the wait did not look at. */
async function backTo(before: Screen): Promise<void> {
	await server.waitForScreen(text => text === before.text);
	expect(styledScreen()).toBe(before.styled);
}

const tableShown = (text: string) => text.startsWith('  id ') && text.includes('page 1 ·') && text.includes('more pages follow');

describe('frames on a real terminal (tmux)', () => {
	beforeAll(() => {
		requireTmux();
		builtCli();
	});

	it('draws every row with its text, and leaves nothing behind when overlays close, columns scroll and the terminal resizes', async () => {
		server.start('frames');
		await server.waitForScreen(tableShown);
		// Ink's own frame, not only the first paint: the browser reads keys (and the mouse) once it has drawn.
		await server.waitForFlag('mouse_standard_flag', '1');
		const before: Screen = {text: server.screen(), styled: styledScreen()};
		const lines = before.text.split('\n');
		const rows = lines.filter(line => /^[› ] [\da-f]{8}-[\da-f]{4}-/.test(line));
		// The demo's first page is short (17 of 25 rows).
		expect(rows.length).toBeGreaterThanOrEqual(10);
		// At 160 columns the last column is cut: every row ends in an ellipsis, on screen whole.
		expect(rows.some(line => line.includes('…'))).toBe(true);
		expect(rows[0]).toMatch(/^› /);
		// The selected row in reverse video, its text included.
		const styled = before.styled.split('\n');
		const selected = styled.find(line => line.includes(rows[0]!.slice(2, 38)))!;
		// eslint-disable-next-line no-control-regex -- the escape sequence of reverse video is what is looked for
		expect(selected).toMatch(/\u001B\[(?:\d+;)*7m/);

		await server.keys('?');
		await server.waitForScreen(text => !text.startsWith('  id '));
		await server.keys('q');
		await backTo(before);

		await server.keys('C');
		await server.waitForScreen(text => text.startsWith('columns:'));
		await server.keys('Escape');
		await backTo(before);

		await server.keys('>');
		await server.waitForScreen(text => text.includes('cols 3–'));
		await server.keys('<');
		await backTo(before);

		// Narrower, then as before: the table is laid out for 130 columns in between (fewer columns shown).
		const columnsShown = (text: string) => /cols 1–(\d+)/.exec(text)?.[1];
		server.tmux('resize-window', '-t', server.session, '-x', '130', '-y', '30');
		await server.waitForScreen(text => tableShown(text) && columnsShown(text) !== columnsShown(before.text));
		server.tmux('resize-window', '-t', server.session, '-x', '160', '-y', '30');
		await backTo(before);
	});
});
