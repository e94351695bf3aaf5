/**
 * The one IO a test hands a command, in the shape of gh's IOStreams.Test():
 * stdout and stderr captured as text, each a terminal or not (isTTY, with
 * its columns), and the environment the command reads. Every command's Io
 * type (DumpIo, AuditIo, TokenIo, CompletionIo, ProfilesIo) takes it.
 */
import {Writable} from 'node:stream';
import {describeError} from '../../source/text/report-error.js';

export type CaptureOptions = {
	/** A terminal (isTTY), 120 columns wide unless `columns` says otherwise. */
	tty?: boolean;
	columns?: number;
	/** Called with each write's text, after it is captured (a test that acts on what was written so far). */
	onWrite?: (text: string, capture: Capture) => void;
	/** Fails every write with this error code once the stream has taken `room` bytes (a full disk, a closed descriptor). */
	failAfter?: {room: number; code: string};
};

/** A writable that keeps what was written as text. */
export class Capture extends Writable {
	text = '';
	isTTY: boolean;
	columns: number | undefined;
	readonly #onWrite: CaptureOptions['onWrite'];
	readonly #fail: {room: number; code: string} | undefined;

	constructor(options: CaptureOptions = {}) {
		super();
		this.isTTY = options.tty ?? false;
		this.columns = options.columns ?? (this.isTTY ? 120 : undefined);
		this.#onWrite = options.onWrite;
		this.#fail = options.failAfter && {...options.failAfter};
	}

	override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error) => void): void {
		const fail = this.#fail;
		if (fail) {
			if (chunk.length > fail.room) {
				callback(Object.assign(new Error(`${fail.code}: write failed`), {code: fail.code}));
				return;
			}

			fail.room -= chunk.length;
		}

		const text = chunk.toString();
		this.text += text;
		this.#onWrite?.(text, this);
		callback();
	}
}

export type Env = Record<string, string | undefined>;

export type TestIo = {stdout: Capture; stderr: Capture; env: Env};

export type TestIoOptions = {
	env?: Env;
	stdout?: CaptureOptions;
	stderr?: CaptureOptions;
};

/** Captured stdout and stderr (neither a terminal unless asked) and an environment (empty unless given). */
export function testIo(options: TestIoOptions = {}): TestIo {
	return {stdout: new Capture(options.stdout), stderr: new Capture(options.stderr), env: options.env ?? {}};
}

export type Result = {code: number; stdout: string; stderr: string};

/**
 * Runs a command with `io` in this process; an error it throws is reported
 * as the CLI's entry reports it (one `pagewalk:` line, its exit status).
 */
export async function runWithIo<Io extends TestIo>(run: (io: Io) => Promise<number>, io: Io): Promise<Result> {
	let code: number;
	try {
		code = await run(io);
	} catch (error: unknown) {
		const {message, exitCode} = describeError(error);
		io.stderr.write(`pagewalk: ${message}\n`);
		code = exitCode;
	}

	return {code, stdout: io.stdout.text, stderr: io.stderr.text};
}
