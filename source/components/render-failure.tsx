import {Box, Text, useApp, useInput} from 'ink';
import {Component, type ReactNode} from 'react';
import {commandFor, firstKey, keyName, type Command} from '../browser/keys/keymap.js';
import {inert} from '../text/inert.js';
import {redact} from '../text/secret.js';
import {again, type UserLine} from '../config/hints.js';

/**
 * The browser's last line of defence: an error thrown while drawing (a page
 * of a shape nothing else caught) replaces the screen with one sentence and
 * waits for q, Esc or Ctrl-C, instead of Ink's error overview, which prints a
 * stack trace and exits. The pages already seen are gone with it; the
 * sentence says how to read the list another way.
 */
/** The keymap's commands that leave a screen: here, with nothing to go back to, each quits. */
const leaving: ReadonlySet<Command> = new Set(['back', 'close', 'quit', 'interrupt']);

function Banner({detail, onQuit, line}: {detail: string; onQuit?: (() => void) | undefined; line?: UserLine | undefined}) {
	const {exit} = useApp();
	useInput((input, key) => {
		const command = commandFor('overlay', keyName(input, key));
		if (command !== undefined && leaving.has(command)) {
			(onQuit ?? exit)();
		}
	});
	return (
		<Box flexDirection="column" paddingX={1}>
			<Text bold>pagewalk could not draw this page ({detail}).</Text>
			<Text>Press {firstKey('back')} to quit{line ? `; ${again('render-failure-dump', line, {command: 'dump'}).phrase} writes the same list as text` : ''}.</Text>
		</Box>
	);
}

type State = {detail?: string};

/** `onQuit`: what a key that leaves does (default: Ink's exit); `line`: the browser's command line, whose dump the banner names. */
export class RenderFailure extends Component<{children: ReactNode; onQuit?: () => void; line?: UserLine}, State> {
	static getDerivedStateFromError(error: unknown): State {
		const message = error instanceof Error ? error.message : String(error);
		// Inert and redacted as any text drawn: the message may quote server bytes.
		return {detail: inert(redact(message.length > 200 ? `${message.slice(0, 200)}…` : message))};
	}

	override state: State = {};

	override render(): ReactNode {
		return this.state.detail === undefined ? this.props.children : <Banner detail={this.state.detail} onQuit={this.props.onQuit} line={this.props.line} />;
	}
}
