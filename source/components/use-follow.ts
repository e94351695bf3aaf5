import {useEffect} from 'react';
import type {Follow} from '../browser/page-stack.js';

/** The pause between polls while following (F), unless the app is given another. */
export const followEveryMs = 3000;

/** The longest pause between polls, however many failed in a row. */
const maxPauseMs = 60_000;

/**
 * Following (F): asks for a poll after a pause, again each time the last one
 * is answered, twice as long after each failure in a row. The poll itself is
 * a request the page stack wants (so the client's rate-limit pacing and
 * Retry-After apply to it as to any page); nothing runs while a request is
 * on its way, or once following stops.
 */
export function useFollowPolls(follow: Follow | null, busy: boolean, everyMs: number, poll: () => void): void {
	useEffect(() => {
		if (!follow || busy) {
			return undefined;
		}

		const timer = setTimeout(poll, Math.min(everyMs * 2 ** follow.failures, maxPauseMs));
		return () => {
			clearTimeout(timer);
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- re-armed per answer (follow changes) and per request, not per render's callback
	}, [follow, busy, everyMs]);
}
