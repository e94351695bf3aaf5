/**
 * What the browser's copy and save keys need from the command: `curlFor`
 * (below) and `w` and `W`: pages written to a file as NDJSON, with the
 * dump's own writer, so the file holds exactly the bytes `dump` writes for
 * those pages. The browser hands over an async iterable of pages (it
 * fetches evicted ones again as the writing reaches them) and gets a result
 * back; the file system stays here, with the command.
 *
 * A new file is opened with O_EXCL (`wx`): a file that appears between the
 * question and the write is never overwritten unasked, and a failed write
 * removes what it created. Overwriting writes a temporary file beside the
 * target and renames it over the target at the end, so a failure leaves the
 * old file as it was.
 */
import {randomBytes} from 'node:crypto';
import {open, rename, stat, unlink, type FileHandle} from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import {curlAuthOf, curlCommand} from './curl-command.js';
import type {WalkConfig} from '../../config/options.js';
import type {UserLine} from '../../config/hints.js';
import {notAFileSentence, saveErrorSentence, savePath, shownName, type FolderFact, type SaveResult} from '../../browser/actions/save-path.js';
import type {Api, Page} from '../../contract/types.js';
import {ndjsonWriter} from '../../output/ndjson.js';
import {loadProfiles} from '../setup/profile-config.js';
import type {SaveWhat} from '../../browser/stack/types.js';
import {writeAll} from '../../output/sink.js';

/** `what`: which prompt (w or W) a failure's advice sends the user back to. */
export type SaveOptions = {overwrite: boolean; what?: SaveWhat; cwd?: string; home?: string | undefined};

/** The error of a page that could not be had (fetched again), as opposed to one of the file. */
class PageSourceError extends Error {}

async function writePages(handle: FileHandle, pages: AsyncIterable<Page>): Promise<{objects: number; pages: number}> {
	const writer = ndjsonWriter();
	let objects = 0;
	let count = 0;
	const iterator = pages[Symbol.asyncIterator]();
	for (;;) {
		let step: IteratorResult<Page>;
		try {
			// eslint-disable-next-line no-await-in-loop -- one page at a time: memory stays at one page
			step = await iterator.next();
		} catch (error: unknown) {
			throw new PageSourceError(error instanceof Error ? error.message : String(error), {cause: error});
		}

		if (step.done) {
			break;
		}

		const page = step.value;
		// The one write loop (output/sink.ts): a short write's rest again, so
		// a disk that fills during the last page fails the save rather than
		// leaving a file cut short and reported written.
		writeAll(handle.fd, Buffer.from(writer.page(page.objects, page.objectTexts)));
		objects += page.objects.length;
		count++;
	}

	return {objects, pages: count};
}

function failure(error: unknown, name: string, what: SaveWhat, where?: FolderFact): SaveResult {
	if (error instanceof PageSourceError) {
		return {kind: 'failed', message: `Stopped writing ${shownName(name)}, nothing kept: ${error.message.replace(/\.$/, '')}.`};
	}

	return {kind: 'failed', message: saveErrorSentence(error, name, where, what)};
}

/** After an open's ENOENT: whether the folder is there (then it takes no new files), asked of the file system. */
async function folderFact(error: unknown, folder: string): Promise<FolderFact | undefined> {
	if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
		return undefined;
	}

	const found = await stat(folder).catch(() => undefined);
	return {folder, exists: found?.isDirectory() === true};
}

/** Writes `pages` to the file `name` names (see savePath); never throws. */
export async function savePages(name: string, pages: AsyncIterable<Page>, options: SaveOptions): Promise<SaveResult> {
	const what = options.what ?? 'page';
	const target = savePath(name, options.cwd ?? process.cwd(), 'home' in options ? options.home : process.env.HOME, what);
	if ('error' in target) {
		return {kind: 'failed', message: target.error};
	}

	// What is there now: a folder is said at once (never "overwrite?"), and a file replaced keeps its mode and owner.
	const existing = await stat(target.path).catch(() => undefined);
	if (existing?.isDirectory()) {
		return {kind: 'failed', message: saveErrorSentence(Object.assign(new Error('is a folder'), {code: 'EISDIR'}), name, undefined, what)};
	}

	// A device, a pipe or a socket is never asked about as a file: overwriting renames a new file over it (/dev/null).
	if (existing && !existing.isFile()) {
		const kind = existing.isCharacterDevice() || existing.isBlockDevice() ? 'device' : existing.isFIFO() ? 'pipe' : existing.isSocket() ? 'socket' : 'other';
		return {kind: 'failed', message: notAFileSentence(name, kind, what)};
	}

	const file = options.overwrite ? path.join(path.dirname(target.path), `.${path.basename(target.path)}.pagewalk-${randomBytes(4).toString('hex')}.tmp`) : target.path;
	let handle: FileHandle;
	try {
		handle = await open(file, 'wx');
	} catch (error: unknown) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !options.overwrite) {
			return {kind: 'exists'};
		}

		return failure(error, name, what, await folderFact(error, path.dirname(file)));
	}

	try {
		let counts;
		try {
			counts = await writePages(handle, pages);
			if (options.overwrite && existing) {
				// The new file takes the old one's place: not its permissions loosened to the umask's.
				await handle.chmod(existing.mode & 0o7777);
				await handle.chown(existing.uid, existing.gid).catch(() => undefined);
			}
		} finally {
			await handle.close();
		}

		if (options.overwrite) {
			await rename(file, target.path);
		}

		return {kind: 'written', ...counts};
	} catch (error: unknown) {
		await unlink(file).catch(() => undefined);
		return failure(error, name, what);
	}
}

/**
 * The environment variable the profile in use reads its credential for `api`
 * from, if that is its source (not a command or a key file). Read again from
 * the config file, which was read moments before; any trouble means none.
 */
export function profileVariable(profile: string | undefined, api: Api, env: Record<string, string | undefined>): string | undefined {
	if (profile === undefined) {
		return undefined;
	}

	try {
		const source = loadProfiles(env).config?.profiles.find(candidate => candidate.name === profile)?.credentials[api];
		return source?.kind === 'env' ? source.name : undefined;
	} catch {
		return undefined;
	}
}

/** `u` in the browser: the walk's request as curl, the credential named by its source (see commands/browse/curl-command.ts). */
export function curlBuilder(config: Pick<WalkConfig, 'api' | 'credential' | 'headers' | 'demo'> & {profile?: string | undefined}, env: Record<string, string | undefined> = {}, line?: UserLine): (url: string) => string {
	// Worked out at the first `u`, not when the browser starts: naming a
	// profile's variable reads the config file again.
	let source: Parameters<typeof curlCommand>[1] | undefined;
	return url => {
		source ??= {api: config.api, auth: curlAuthOf(config.credential, {demo: config.demo, profile: config.profile, profileVariable: profileVariable(config.profile, config.api, env), line}), headers: config.headers};
		return curlCommand(url, source);
	};
}
