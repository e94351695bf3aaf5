import {inspect} from 'node:util';

/**
 * A credential. It prints as a redaction mark everywhere (string
 * conversion, JSON, console.log, util.inspect), so a config object that ends
 * up in a log or an error report cannot leak it; only `reveal()` gives the
 * value, and only the HTTP client calls it, per request to the checked origin.
 */
export class Secret {
	static readonly mark = '[redacted]';
	readonly #value: string;

	constructor(value: string) {
		this.#value = value;
	}

	reveal(): string {
		return this.#value;
	}

	toString(): string {
		return Secret.mark;
	}

	toJSON(): string {
		return Secret.mark;
	}

	[inspect.custom](): string {
		return Secret.mark;
	}
}
