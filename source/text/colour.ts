/**
 * Whether, and how richly, to colour what goes to a terminal: the one
 * decision the browser and `dump` share. 0: no colour and no other styling
 * either (no bold, no inverse: NO_COLOR users get plain text); 1: 16 colours;
 * 2: 256; 3: truecolor.
 *
 * FORCE_COLOR wins over everything, as in Node's own getColorDepth and in
 * chalk (0 or false: none; empty, 1 or true: 16; 2; 3). Otherwise NO_COLOR
 * (any non-empty value, see no-color.org) and TERM=dumb turn colour off, and
 * so does output that is not a terminal.
 */
export type ColourLevel = 0 | 1 | 2 | 3;

export function colourLevel(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): ColourLevel {
	const force = env['FORCE_COLOR'];
	if (force !== undefined) {
		if (force === '' || force === 'true') {
			return 1;
		}

		if (force === 'false') {
			return 0;
		}

		const level = Number.parseInt(force, 10);
		return Number.isNaN(level) ? 1 : (Math.min(Math.max(level, 0), 3) as ColourLevel);
	}

	if ((env['NO_COLOR'] ?? '') !== '' || env['TERM'] === 'dumb' || !isTTY) {
		return 0;
	}

	if (env['COLORTERM'] === 'truecolor' || env['COLORTERM'] === '24bit') {
		return 3;
	}

	return /-256(?:colou?r)?$/i.test(env['TERM'] ?? '') ? 2 : 1;
}
