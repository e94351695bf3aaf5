/**
 * A terminal screen just large enough to follow what Ink's terminal writer
 * (log-update, standard and incremental) sends: printable text, newlines,
 * cursor up/down/next line/column, erase in line and display, and styling
 * (ignored). The key benchmark reads frames from it, so a frame counts as
 * drawn when the screen shows it, whichever way Ink wrote it, and lines an
 * incremental write leaves alone keep their old text, as on a real terminal.
 * Hand-written rather than a terminal emulator package: these few sequences
 * are all Ink writes, and the model adds no dependency to the project.
 */
export class ScreenModel {
	private readonly lines: string[][];
	private row = 0;
	private column = 0;

	constructor(private readonly rows: number) {
		this.lines = Array.from({length: rows}, () => []);
	}

	/** The screen's text, one line per row, trailing blanks removed. */
	text(): string {
		return this.lines.map(line => line.join('').trimEnd()).join('\n').trimEnd();
	}

	write(data: string): void {
		let index = 0;
		while (index < data.length) {
			const char = data[index]!;
			if (char === '\u001B') {
				index = this.escape(data, index);
				continue;
			}

			if (char === '\n') {
				// A terminal in Ink's raw mode still has output post-processing on: \n moves to the next line's start.
				this.nextLine();
			} else if (char === '\r') {
				this.column = 0;
			} else {
				const codePoint = data.codePointAt(index)!;
				const text = String.fromCodePoint(codePoint);
				const line = this.lines[this.row]!;
				while (line.length < this.column) {
					line.push(' ');
				}

				line[this.column] = text;
				this.column++;
				index += text.length;
				continue;
			}

			index++;
		}
	}

	private nextLine() {
		this.column = 0;
		if (this.row === this.rows - 1) {
			this.lines.shift();
			this.lines.push([]);
		} else {
			this.row++;
		}
	}

	/** Applies the escape sequence at `start`; returns the index after it. */
	private escape(data: string, start: number): number {
		if (data[start + 1] !== '[') {
			// ESC and one character (for example ESC 7): nothing Ink's writer uses that moves text.
			return start + 2;
		}

		let end = start + 2;
		while (end < data.length && !/[@-~]/.test(data[end]!)) {
			end++;
		}

		const parameters = data.slice(start + 2, end);
		const count = Number.parseInt(parameters, 10);
		const n = Number.isNaN(count) ? 1 : count;
		switch (data[end]) {
			case 'A': {
				this.row = Math.max(0, this.row - n);
				break;
			}

			case 'B': {
				this.row = Math.min(this.rows - 1, this.row + n);
				break;
			}

			case 'E': {
				this.row = Math.min(this.rows - 1, this.row + n);
				this.column = 0;
				break;
			}

			case 'G': {
				this.column = n - 1;
				break;
			}

			case 'H': {
				const [row = 1, column = 1] = parameters.split(';').map(part => Number.parseInt(part, 10) || 1);
				this.row = Math.min(this.rows - 1, row - 1);
				this.column = column - 1;
				break;
			}

			case 'K': {
				if (parameters === '2') {
					this.lines[this.row] = [];
				} else {
					this.lines[this.row]!.length = Math.min(this.lines[this.row]!.length, this.column);
				}

				break;
			}

			case 'J': {
				if (parameters === '2' || parameters === '3') {
					for (let row = 0; row < this.rows; row++) {
						this.lines[row] = [];
					}
				}

				break;
			}

			default: {
				// Styling (m), private modes (?25l, ?2026h, ?1049h): no effect on the text.
				break;
			}
		}

		return end + 1;
	}
}
