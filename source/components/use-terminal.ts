import {useStdout} from 'ink';
import {useEffect, useState} from 'react';
import {spinnerFrames} from '../browser/view/format.js';
import type {Size} from '../browser/view/table-screen.js';

/** The terminal's size, updated on resize (Ink redraws, but does not re-render us). */
export function useTerminalSize(fixed?: Size): Size {
	const {stdout} = useStdout();
	const read = (): Size => fixed ?? {columns: stdout.columns || 80, rows: stdout.rows || 24};
	const [size, setSize] = useState(read);
	useEffect(() => {
		if (fixed) {
			return undefined;
		}

		const onResize = () => {
			setSize(read());
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- only the fixed size's numbers matter, not the object that carries them
	}, [stdout, fixed?.columns, fixed?.rows]);
	return fixed ?? size;
}

/** A spinner frame that only ticks while `active`, so an idle browser never redraws. */
export function useSpinner(active: boolean): string {
	const [frame, setFrame] = useState(0);
	useEffect(() => {
		if (!active) {
			return undefined;
		}

		const timer = setInterval(() => {
			setFrame(value => (value + 1) % spinnerFrames.length);
		}, 80);
		return () => {
			clearInterval(timer);
		};
	}, [active]);
	return spinnerFrames[frame]!;
}
