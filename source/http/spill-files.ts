import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/**
 * Temporary files a walk keeps on disk instead of in memory (a walk from
 * both ends: the chain written last, and the ids each chain wrote; the lists
 * of every account that finished before the lists ahead of them). Each is
 * opened and then at once unlinked, with its folder: the data is reached
 * through the descriptor only, and the system frees it when the descriptor
 * is closed or the process ends, however it ends (a signal, a crash, a
 * broken pipe, SIGKILL). Where an open file cannot be unlinked (Windows),
 * the folder stays until close() or the process's exit.
 */

const leftOver = new Set<string>();
let exitHooked = false;

function removeLeftOver(): void {
	for (const folder of leftOver) {
		fs.rmSync(folder, {recursive: true, force: true});
	}

	leftOver.clear();
}

export type SpillFile = {
	/** The open descriptor, for reading and writing at positions. */
	readonly fd: number;
	/** Closes it (and removes what is left on disk); again, does nothing. */
	close(): void;
};

/** Opens an empty temporary file under `parent` (the system's temporary folder by default). */
export function openSpillFile(name: string, parent = os.tmpdir()): SpillFile {
	const folder = fs.mkdtempSync(path.join(parent, 'pagewalk-'));
	const file = path.join(folder, name);
	const fd = fs.openSync(file, 'w+', 0o600);
	try {
		fs.unlinkSync(file);
		fs.rmdirSync(folder);
	} catch {
		leftOver.add(folder);
		if (!exitHooked) {
			exitHooked = true;
			process.on('exit', removeLeftOver);
		}
	}

	let open = true;
	return {
		fd,
		close() {
			if (!open) {
				return;
			}

			open = false;
			fs.closeSync(fd);
			if (leftOver.delete(folder)) {
				fs.rmSync(folder, {recursive: true, force: true});
			}
		},
	};
}

/**
 * A file kept on disk under its own name, for a walk that must survive its
 * process (dump -o with --resume): opened for reading and writing, created
 * (0600) when missing, never unlinked. `size`: its length when opened, where
 * appending goes on.
 */
export function openKeptFile(file: string): SpillFile & {size: number} {
	const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
	let open = true;
	return {
		fd,
		size: fs.fstatSync(fd).size,
		close() {
			if (open) {
				open = false;
				fs.closeSync(fd);
			}
		},
	};
}
