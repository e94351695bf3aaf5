/**
 * The one way pagewalk reads a file it is given a path to: a key file
 * (--key-file, COINBASE_API_KEY_FILE, a profile's key_file), the config
 * file, and its own state (the column choices).
 *
 * The path is opened once and everything is checked on that open handle, so
 * what is checked is what is read (no stat, then open, of what may by then
 * be another file). The open itself cannot wait or take over a terminal:
 * O_NONBLOCK, so a named pipe with no writer opens at once (and is then
 * refused) instead of waiting forever; O_NOCTTY, so a terminal device never
 * becomes ours. Only a regular file is read, and never more than a bound:
 * /dev/zero or /dev/urandom would otherwise be read for ever, into memory.
 */
import {closeSync, constants, fstatSync, openSync, readSync, type Stats} from 'node:fs';

/** What is wrong with a path, as a phrase that follows the file's name in a sentence ("… is a named pipe, not a file"). */
export class FileReadError extends Error {
	constructor(
		/** The phrase: "does not exist", "is a directory", "is a device, not a file", … */
		readonly phrase: string,
		readonly code: 'missing' | 'directory' | 'not-a-file' | 'link' | 'too-large' | 'denied' | 'unreadable',
		/** For 'too-large': the size the file has, or at least has. */
		readonly bytes?: number,
	) {
		super(phrase);
		this.name = 'FileReadError';
	}
}

export type ReadOptions = {
	/** The most bytes the file may hold; a larger one is refused, having read at most one byte past this. */
	maxBytes: number;
	/** Refuse a symbolic link in the last place of the path (pagewalk's own state files), rather than follow it. */
	refuseLink?: boolean;
};

// Zero where the platform has no such flag (Windows has none of these).
const flag = (name: 'O_NONBLOCK' | 'O_NOCTTY' | 'O_NOFOLLOW'): number => (constants as Partial<Record<string, number>>)[name] ?? 0;

function kindOf(stat: Stats): string {
	if (stat.isFIFO()) {
		return 'is a named pipe, not a file';
	}

	if (stat.isCharacterDevice() || stat.isBlockDevice()) {
		return 'is a device, not a file';
	}

	if (stat.isSocket()) {
		return 'is a socket, not a file';
	}

	return 'is not a regular file';
}

function openError(error: unknown, refuseLink: boolean): FileReadError {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case 'ENOENT':
		case 'ENOTDIR': {
			return new FileReadError('does not exist', 'missing');
		}

		case 'EISDIR': {
			return new FileReadError('is a directory', 'directory');
		}

		// O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on FreeBSD.
		case 'ELOOP':
		case 'EMLINK': {
			return refuseLink
				? new FileReadError('is a symbolic link, which pagewalk does not follow for its own files', 'link')
				: new FileReadError('is a loop of symbolic links', 'unreadable');
		}

		case 'EACCES':
		case 'EPERM': {
			return new FileReadError('cannot be read (permission denied)', 'denied');
		}

		// A device or special file that refuses to be opened (a socket, a device with no driver).
		case 'ENXIO':
		case 'ENODEV':
		case 'EOPNOTSUPP': {
			return new FileReadError('is not a regular file', 'not-a-file');
		}

		default: {
			return new FileReadError(`cannot be read (${code ?? 'unknown error'})`, 'unreadable');
		}
	}
}

/**
 * Reads the regular file at `path` whole, as UTF-8 (a leading byte order
 * mark dropped), with its mode; throws a
 * {@link FileReadError} naming the problem for anything else (missing, a
 * directory, a pipe, a device, a socket, larger than `maxBytes`).
 */
export function readRegularFile(path: string, options: ReadOptions): {text: string; mode: number} {
	const refuseLink = options.refuseLink ?? false;
	let descriptor: number;
	try {
		descriptor = openSync(path, constants.O_RDONLY | flag('O_NONBLOCK') | flag('O_NOCTTY') | (refuseLink ? flag('O_NOFOLLOW') : 0));
	} catch (error: unknown) {
		throw openError(error, refuseLink);
	}

	try {
		const stat = fstatSync(descriptor);
		if (stat.isDirectory()) {
			throw new FileReadError('is a directory', 'directory');
		}

		if (!stat.isFile()) {
			throw new FileReadError(kindOf(stat), 'not-a-file');
		}

		if (stat.size > options.maxBytes) {
			throw new FileReadError(`is ${stat.size} bytes`, 'too-large', stat.size);
		}

		// Read to the end, not to the size the file had: a file that grows (or a
		// /proc file, which says 0) is still read at most one byte past the bound.
		const chunks: Buffer[] = [];
		let total = 0;
		for (;;) {
			const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, options.maxBytes + 1 - total));
			const read = readSync(descriptor, chunk, 0, chunk.length, null);
			if (read === 0) {
				break;
			}

			chunks.push(chunk.subarray(0, read));
			total += read;
			if (total > options.maxBytes) {
				throw new FileReadError(`is more than ${options.maxBytes} bytes`, 'too-large', total);
			}
		}

		// A byte order mark some editors put first (Windows Notepad) is no part of the text: JSON.parse would refuse it.
		const text = Buffer.concat(chunks, total).toString('utf8');
		return {text: text.charCodeAt(0) === 0xFE_FF ? text.slice(1) : text, mode: stat.mode};
	} catch (error: unknown) {
		throw error instanceof FileReadError ? error : openError(error, refuseLink);
	} finally {
		closeSync(descriptor);
	}
}
