import {createContext, useContext} from 'react';

/**
 * Whether the browser may style text at all (see text/colour.ts: NO_COLOR,
 * FORCE_COLOR, TERM=dumb). When it may, Ink's chalk picks the depth from the
 * same variables; when it may not, components pass no colour, bold, dim or
 * inverse at all, so not one escape sequence of styling reaches the terminal.
 */
export const ColourContext = createContext(true);

export function useColour(): boolean {
	return useContext(ColourContext);
}

/** `props` when colour is on, nothing otherwise: `<Text {...styled(colour, {bold: true})}>`. */
export function styled<Props extends object>(colour: boolean, props: Props): Partial<Props> {
	return colour ? props : {};
}
