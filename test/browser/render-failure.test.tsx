/**
 * An error thrown while drawing: one sentence on the screen, no stack trace.
 */
import {render} from 'ink-testing-library';
import {afterEach, expect, test, vi} from 'vitest';
import {RenderFailure} from '../../source/components/render-failure.js';
import {patience} from '../support/patience.js';

afterEach(() => {
	vi.restoreAllMocks();
});

function Broken(): never {
	throw new RangeError('Maximum call stack size exceeded \u001B[2J\u202E');
}

test('a render error becomes a banner with one sentence, inert, no stack trace', () => {
	// React reports the caught error on the console; that is not what the user sees.
	vi.spyOn(console, 'error').mockImplementation(() => {});
	const instance = render(<RenderFailure><Broken /></RenderFailure>);
	const frame = instance.lastFrame() ?? '';
	expect(frame).toContain('pagewalk could not draw this page (Maximum call stack size exceeded \\x1b[2J\\u{202e}).');
	expect(frame).toContain('Press q to quit');
	// eslint-disable-next-line no-control-regex -- the raw escape is what must be absent
	expect(frame).not.toMatch(/\n\s+at |\u001B\[2J|\u202E/);
	instance.unmount();
});

/** The banner over a broken child, and whether a key made it quit. */
async function banner() {
	vi.spyOn(console, 'error').mockImplementation(() => {});
	const state = {exited: false};
	const instance = render(<RenderFailure onQuit={() => {
		state.exited = true;
	}}><Broken /></RenderFailure>);
	// Ink reads input on the next turn after the listener is attached.
	await new Promise(resolve => setImmediate(resolve));
	return {instance, state};
}

test.each([
	['q', 'q'],
	['Q', 'Q'],
	['Esc', '\u001B'],
	['Ctrl-C', '\u0003'],
])('the banner closes the app on %s, read through the keymap', async (_name, keys) => {
	const {instance, state} = await banner();
	instance.stdin.write(keys);
	await vi.waitFor(() => {
		expect(state.exited).toBe(true);
	}, {timeout: patience});
	instance.unmount();
});

test('a key the keymap does not bind to leaving keeps the banner', async () => {
	const {instance, state} = await banner();
	instance.stdin.write('x');
	await new Promise(resolve => setImmediate(resolve));
	expect(state.exited).toBe(false);
	expect(instance.lastFrame()).toContain('pagewalk could not draw this page');
	instance.unmount();
});
