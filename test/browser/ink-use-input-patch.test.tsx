/**
 * Tripwires for the input hunks of patches/ink+6.8.0.patch outside the
 * parser (whose are in ink-input-patch.test.ts), on Ink itself with a bare
 * component, no pagewalk code: use-input.js (a nameless escape sequence read
 * as Ctrl no longer throws; ESC before any character sets meta; the handler
 * gets the event as the parser cut it, a third argument) and App.js (the
 * wait for the rest of a sequence cut by a read is the parser's deadline, a
 * timer, not the next turn of the event loop). Each fails naming the patch
 * when it is not applied (an Ink upgrade, an install that skipped `prepare`);
 * docs/dependencies.md says what each hunk is for and when it can go.
 */
import {Text, useInput} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, describe, expect, it, vi} from 'vitest';

const notPatched = (file: string) => `node_modules/ink/build/${file} is not as patches/ink+6.8.0.patch leaves it: run \`npx patch-package\` (npm install runs it)`;

type Seen = {input: string; meta: boolean; escape: boolean; upArrow: boolean; token: string | undefined};

async function turn(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

/** A component that records every useInput call, rendered; its stdin is the terminal's. */
async function probe() {
	const seen: Seen[] = [];
	function Probe() {
		useInput((input, key, token?: string) => {
			seen.push({input, meta: key.meta, escape: key.escape, upArrow: key.upArrow, token});
		});
		return <Text>probe</Text>;
	}

	const instance = render(<Probe/>);
	// useInput listens from an effect: a turn after the first render.
	await turn();
	return {seen, stdin: instance.stdin, unmount: instance.unmount};
}

let unmount: (() => void) | undefined;
afterEach(() => {
	vi.useRealTimers();
	unmount?.();
	unmount = undefined;
});

describe('Ink\'s useInput, as patched (use-input.js)', () => {
	it('an escape sequence Ink names no key for, with parameters read as Ctrl, is no text and does not throw', async () => {
		const app = await probe();
		unmount = app.unmount;
		expect(() => {
			app.stdin.write('\u001B[1;5X');
		}, notPatched('hooks/use-input.js')).not.toThrow();
		expect(app.seen.map(({input, token}) => ({input, token})), notPatched('hooks/use-input.js')).toEqual([{input: '', token: '\u001B[1;5X'}]);
	});

	it('ESC before a character that is no letter or digit sets meta, as ESC before a letter does', async () => {
		const app = await probe();
		unmount = app.unmount;
		app.stdin.write('\u001B/');
		app.stdin.write('\u001Bb');
		expect(app.seen.map(({input, meta}) => ({input, meta})), notPatched('hooks/use-input.js')).toEqual([{input: '/', meta: true}, {input: 'b', meta: true}]);
	});

	it('the handler gets the event as the parser cut it, as a third argument', async () => {
		const app = await probe();
		unmount = app.unmount;
		app.stdin.write('jk');
		app.stdin.write('\u001B[A');
		expect(app.seen.map(({input, upArrow, token}) => ({input, upArrow, token})), notPatched('hooks/use-input.js')).toEqual([
			{input: 'jk', upArrow: false, token: 'jk'},
			{input: '', upArrow: true, token: '\u001B[A'},
		]);
	});
});

describe('Ink\'s App, as patched (components/App.js)', () => {
	it('a lone ESC waits for the parser\'s deadline, not the next turn: ESC | ]… cut by a read is a control string, no key', async () => {
		const app = await probe();
		unmount = app.unmount;
		vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
		app.stdin.write('\u001B');
		// A turn of the event loop between the reads, as between two reads of a terminal.
		await turn();
		app.stdin.write(']52;c;YWJj\u0007');
		await turn();
		expect(app.seen, notPatched('components/App.js')).toEqual([]);
		// Esc alone is Esc once the deadline has passed, and not before.
		app.stdin.write('\u001B');
		await turn();
		expect(app.seen, notPatched('components/App.js')).toEqual([]);
		vi.advanceTimersByTime(1000);
		await turn();
		expect(app.seen.map(({escape}) => escape)).toEqual([true]);
	});
});
