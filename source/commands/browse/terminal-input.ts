import {InputDecoder} from '../../browser/keys/input-bytes.js';

/**
 * The terminal's input as Ink reads it, decoded by browser/keys/input-bytes.ts
 * rather than by the stream: Ink asks for utf8 (`setEncoding`), which makes
 * a raw C1 byte U+FFFD and lets the control string it opens through as keys.
 * Here that request is declined and each read's bytes are decoded so that
 * the byte is the C1 control it names, which Ink's input parser swallows
 * with its string. Everything else is the stream itself.
 */
export function terminalInput(stdin: NodeJS.ReadStream): NodeJS.ReadStream {
	const decoder = new InputDecoder();
	const proxy: NodeJS.ReadStream = new Proxy(stdin, {
		get(target, property) {
			if (property === 'setEncoding') {
				return () => proxy;
			}

			if (property === 'read') {
				return (size?: number) => {
					const chunk = target.read(size) as Buffer | string | null;
					return chunk === null || typeof chunk === 'string' ? chunk : decoder.decode(chunk);
				};
			}

			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
		},
	});
	return proxy;
}
