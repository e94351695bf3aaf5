import {cutToWidth, displayWidth} from './text-width.js';

/**
 * Word-wraps one line of text to `width` cells, so a message is read in full
 * rather than cut with … (the error banner: its advice is at the end). A word
 * wider than the line is broken where it reaches the edge. At most
 * `maxLines`; the last one is cut only when even that is not enough.
 */
export function wrapLines(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
	if (width <= 0) {
		return [''];
	}

	const lines: string[] = [];
	let line = '';
	let lineWidth = 0;
	for (const word of text.split(/(?<= )/)) {
		let rest = word;
		let restWidth = displayWidth(rest);
		if (lineWidth + displayWidth(rest.trimEnd()) > width && lineWidth > 0) {
			lines.push(line.trimEnd());
			line = '';
			lineWidth = 0;
		}

		while (restWidth > width) {
			const head = cutToWidth(rest, width, {ellipsis: ''});
			lines.push(head);
			rest = rest.slice(head.length);
			restWidth = displayWidth(rest);
		}

		line += rest;
		lineWidth += restWidth;
	}

	lines.push(line.trimEnd());
	if (lines.length > maxLines) {
		const kept = lines.slice(0, maxLines);
		kept[maxLines - 1] = cutToWidth(`${kept[maxLines - 1]!} ${lines.slice(maxLines).join(' ')}`, width);
		return kept;
	}

	return lines;
}
