/**
 * How long a test waits for an event (a frame, a screen, a request, a
 * child's exit) before it fails: a guard against a hang, not a speed check.
 * On a loaded machine an event that takes ten seconds is slow, not wrong,
 * so every wait waits on its event and gives up only after this.
 */
export const patience = 30_000;

