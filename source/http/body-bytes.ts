import {isUtf8} from 'node:buffer';
import process from 'node:process';
import {PagewalkError} from '../text/errors.js';
import {walkFlag} from '../config/hints.js';

/**
 * From the bytes of a response to the text of its body: the content coding
 * undone, a byte order mark dropped, and UTF-8 checked. A list page is JSON,
 * which is UTF-8 (RFC 8259); a body that is not is named in one sentence with
 * the offset of the first bad byte, rather than parsed with U+FFFD in place of
 * bytes (which would change ids and values without a word).
 */

/** Decoded bodies are held to the same cap as the bytes on the wire. */
export const maxDecodedBytes = 32 * 1024 * 1024;

const statusNames: Record<number, string> = {204: 'No Content', 205: 'Reset Content', 304: 'Not Modified'};

/**
 * We send no Accept-Encoding, so a coded body is the server's mistake; still,
 * gzip and deflate are cheap to undo with node:zlib and say nothing false,
 * so they are decoded (bounded by the cap) instead of refused.
 */
function undoCoding(coding: string, bytes: Buffer, origin: string): Buffer {
	const options = {maxOutputLength: maxDecodedBytes};
	// Loaded here, not at start-up: no server is asked for a coded body, and
	// node:zlib's load is part of every start (bench:startup) otherwise.
	const zlib = process.getBuiltinModule('node:zlib');
	try {
		switch (coding) {
			case 'gzip':
			case 'x-gzip': {
				return zlib.gunzipSync(bytes, options);
			}

			case 'deflate': {
				// Servers send both zlib-wrapped and raw deflate under this name.
				return bytes[0] === 0x78 ? zlib.inflateSync(bytes, options) : zlib.inflateRawSync(bytes, options);
			}

			case 'br': {
				return zlib.brotliDecompressSync(bytes, options);
			}

			default: {
				throw new PagewalkError(`${origin} sent the page with Content-Encoding ${JSON.stringify(coding.slice(0, 40))}, which pagewalk cannot decode (it asks for none); check the server or proxy.`);
			}
		}
	} catch (error: unknown) {
		if (error instanceof PagewalkError) {
			throw error;
		}

		if ((error as {code?: string}).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
			throw new PagewalkError(`The ${coding} response from ${origin} decodes to more than the ${maxDecodedBytes / 1024 / 1024} MiB limit; ask for smaller pages with ${walkFlag('limit')}.`);
		}

		throw new PagewalkError(`${origin} sent a body marked Content-Encoding ${coding} that does not decode as ${coding} (it is corrupt or truncated); try again later.`);
	}
}

/** `bytes` without a leading UTF-8 byte order mark. */
export function withoutBom(bytes: Buffer): Buffer {
	return bytes.length >= 3 && bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF ? bytes.subarray(3) : bytes;
}

/** Offset of the first byte that does not belong to well-formed UTF-8. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
	let index = 0;
	while (index < bytes.length) {
		const byte = bytes[index]!;
		let length = 0;
		let min = 0;
		if (byte < 0x80) {
			index += 1;
			continue;
		} else if (byte >= 0xC2 && byte <= 0xDF) {
			length = 1;
			min = 0x80;
		} else if (byte >= 0xE0 && byte <= 0xEF) {
			length = 2;
			min = 0x800;
		} else if (byte >= 0xF0 && byte <= 0xF4) {
			length = 3;
			min = 0x1_00_00;
		} else {
			return index;
		}

		let code = byte & (0x3F >> length);
		for (let k = 1; k <= length; k++) {
			const next = bytes[index + k];
			if (next === undefined || (next & 0xC0) !== 0x80) {
				return index;
			}

			code = (code << 6) | (next & 0x3F);
		}

		if (code < min || code > 0x10_FF_FF || (code >= 0xD8_00 && code <= 0xDF_FF)) {
			return index;
		}

		index += length + 1;
	}

	return -1;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string {
	const value = headers[name];
	return (Array.isArray(value) ? value.join(',') : value ?? '').trim().toLowerCase();
}

/**
 * The body of a response as text, with the bytes it was decoded from (the
 * coding undone, a byte order mark dropped): for a page, valid UTF-8 that is
 * exactly `text`. For a page (2xx) every problem is an error naming it; for
 * an error status the text is only quoted in a message, so it is decoded
 * leniently instead.
 */
export function decodeBodyBytes(status: number, headers: Record<string, string | string[] | undefined>, bytes: Buffer, origin: string): {text: string; bytes: Buffer} {
	if (status in statusNames) {
		throw new PagewalkError(`${origin} answered ${status} ${statusNames[status]!} instead of a page; pagewalk sends no cache headers, so check the endpoint and the server.`);
	}

	const page = status >= 200 && status < 300;
	let body = bytes;
	const codings = header(headers, 'content-encoding').split(',').map(coding => coding.trim()).filter(coding => coding !== '' && coding !== 'identity');
	try {
		// Codings apply in the order listed, so undo them from the last.
		for (const coding of codings.reverse()) {
			body = undoCoding(coding, body, origin);
		}
	} catch (error: unknown) {
		if (page) {
			throw error;
		}
	}

	body = withoutBom(body);

	if (page && !isUtf8(body)) {
		const offset = firstInvalidUtf8(body);
		throw new PagewalkError(`${origin} sent a page that is not valid UTF-8 (the first bad byte, 0x${body[offset]?.toString(16).padStart(2, '0') ?? '??'}, is at offset ${offset} of the body); JSON must be UTF-8, so check the server's encoding.`);
	}

	return {text: body.toString('utf8'), bytes: body};
}
