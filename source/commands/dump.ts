import process from 'node:process';
import type {Writable} from 'node:stream';
import {UsageError} from '../core/errors.js';
import {createClient} from '../core/http-client.js';
import {inert} from '../core/inert.js';
import {parseFlags} from '../core/parse-flags.js';
import type {WalkConfig} from '../core/options.js';
import {openConfig} from './demo.js';
import {walkFlags, walkFlagsHelp} from '../core/flags.js';
import {describeError} from '../core/report-error.js';
import type {ListObject, WalkEnd} from '../core/types.js';
import {describeEnd, walk} from '../core/walker.js';
import {createWriter, formats, type Format} from '../output/index.js';
import {Progress} from '../output/progress.js';
import {Sink} from '../output/sink.js';

const help = `
	Usage
	  $ pagewalk dump [endpoint] [options]

	Writes the objects of a list endpoint to stdout: one page, or every page
	with --all. Progress, warnings and errors go to stderr; stdout carries data only.

	Output
	  --all                    follow next_uri to the end of the list
	  --format ndjson|json|csv|table
	                           ndjson (default): one API object per line, exactly as sent
	                           json: one array for the whole walk (valid even if it fails)
	                           csv: flattened columns (nested fields as a.b); table: for people
${walkFlagsHelp}
	Exit status
	  0  done (also when stdout closed early, or a bound or a looping link stopped the walk; stderr says which)
	  1  the walk failed; what was read is written, and stderr says how to resume (--starting-after ID)
	  2  wrong flags or arguments, or a missing credential; nothing was sent
	  130  interrupted (Ctrl-C); what was read is written, and stderr says how to resume

	Examples
	  $ COINBASE_ACCESS_TOKEN=… pagewalk dump accounts --all > accounts.ndjson
	  $ pagewalk dump checkouts --all --format csv --limit 100 > checkouts.csv
	  $ pagewalk dump --demo --all --format table
`;

const dumpFlags = {
	...walkFlags,
	all: {type: 'boolean', default: false},
	format: {type: 'string', default: 'ndjson'},
} as const;

export type DumpIo = {
	stdout: Writable & {isTTY?: boolean; columns?: number};
	stderr: Writable & {isTTY?: boolean};
	env: Record<string, string | undefined>;
};

const number = new Intl.NumberFormat('en-US');

/** Quotes an id for a shell command line when it is not plainly safe. */
function shellWord(id: string): string {
	const shown = inert(id);
	return /^[\w.:@+-]+$/.test(shown) ? shown : `'${shown.replaceAll('\'', '\'\\\'\'')}'`;
}

function endNote(end: WalkEnd, lastId: string | undefined): string | undefined {
	if (end.kind === 'end') {
		return undefined;
	}

	const resume = end.kind !== 'not-advancing' && lastId !== undefined ? `; continue with --starting-after ${shellWord(lastId)}` : '';
	return `${inert(describeEnd(end))}${resume}.`;
}

/**
 * The dump itself, with its streams passed in so tests can run it in
 * process. Returns the exit status; usage errors are thrown (exit 2).
 */
export async function dump(config: WalkConfig, options: {all: boolean; format: Format; signal?: AbortSignal}, io: DumpIo): Promise<number> {
	const controller = new AbortController();
	// Ctrl-C: stop the walk, but still close the document and say how to resume.
	options.signal?.addEventListener('abort', () => {
		controller.abort(options.signal!.reason);
	});
	const sink = new Sink(io.stdout, () => {
		controller.abort();
	});
	const color = io.env.NO_COLOR === undefined || io.env.NO_COLOR === '';
	const writer = createWriter(options.format, {tty: io.stdout.isTTY === true, columns: io.stdout.columns, color: color && io.stdout.isTTY === true});
	const progress = new Progress(io.stderr.isTTY === true ? io.stderr : undefined);
	const say = (line: string) => {
		progress.clear();
		io.stderr.write(`pagewalk: ${line}\n`);
	};

	const client = createClient(config);
	const seenWarnings = new Set<string>();
	let lastId: string | undefined;
	let written = 0;
	let end: WalkEnd | undefined;
	let failure: unknown;
	let morePages = false;
	try {
		const pages = walk(client, config, {
			signal: controller.signal,
			maxPages: options.all ? config.maxPages : 1,
			onRetry(notice) {
				progress.retry(notice);
			},
		});
		for (;;) {
			// eslint-disable-next-line no-await-in-loop
			const step = await pages.next();
			if (step.done) {
				end = step.value;
				break;
			}

			const page = step.value;
			for (const warning of page.warnings) {
				if (!seenWarnings.has(warning)) {
					seenWarnings.add(warning);
					say(`the server warns: ${inert(warning)}`);
				}
			}

			let objects: ListObject[] = page.objects;
			if (config.maxItems !== null && written + objects.length > config.maxItems) {
				objects = objects.slice(0, config.maxItems - written);
			}

			// eslint-disable-next-line no-await-in-loop
			await sink.write(writer.page(objects));
			if (sink.gone || sink.failure) {
				break;
			}

			written += objects.length;
			lastId = objects.at(-1)?.id ?? lastId;
			morePages = page.nextUrl !== null;
			progress.page(page, objects.length);
		}
	} catch (error: unknown) {
		failure = error;
	} finally {
		await client.close().catch(() => {});
	}

	if (sink.gone) {
		// The reader went away (`| head`): what it wanted, it got.
		return 0;
	}

	await sink.write(writer.end());
	if (sink.failure) {
		say(`could not write the output (${inert(sink.failure.message)}).`);
		return 1;
	}

	if (sink.gone) {
		return 0;
	}

	progress.clear();
	for (const note of writer.notes()) {
		say(note);
	}

	const resume = (event: string) => (written > 0 && lastId !== undefined
		? `${number.format(written)} ${written === 1 ? 'object was' : 'objects were'} written before the ${event}; to resume, run the same command with --starting-after ${shellWord(lastId)}.`
		: undefined);
	if (options.signal?.aborted) {
		say(resume('interruption') ?? 'interrupted before any object was written.');
		return 130;
	}

	if (failure !== undefined) {
		const {message} = describeError(failure);
		say(message);
		say(resume('failure') ?? 'no objects were written; run the same command again to retry.');
		return 1;
	}

	if (end !== undefined) {
		if (!options.all && end.kind === 'max-pages') {
			if (morePages) {
				say(`more pages follow: add --all to walk them${lastId === undefined ? '' : `, or --starting-after ${shellWord(lastId)} for the next page`}.`);
			}
		} else {
			const note = endNote(end, lastId);
			if (note !== undefined) {
				say(note);
			}
		}
	}

	if (io.stderr.isTTY === true) {
		io.stderr.write(`${progress.summary()}\n`);
	}

	return 0;
}

type Parsed = {input: string[]; flags: Record<string, unknown>};

/** meow: the help and version, and bare mode, where flags only the browser knows are ignored. */
async function parseWithMeow(argv: string[], bare: boolean): Promise<Parsed> {
	const {default: meow} = await import('meow');
	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		flags: dumpFlags,
		allowUnknownFlags: bare,
		autoHelp: true,
		autoVersion: true,
	});
	return {input: cli.input, flags: cli.flags};
}

/**
 * `pagewalk dump`. With `bare`, this is the browser entry on a stdout that is
 * not a terminal (`pagewalk accounts | jq`): a dump of one page, and flags
 * only the browser knows are ignored rather than refused.
 */
export async function runDump(argv: string[], io: DumpIo, options: {bare?: boolean; signal?: AbortSignal} = {}): Promise<number> {
	const {input, flags} = options.bare === true || argv.some(argument => ['--help', '-h', '--version'].includes(argument))
		? await parseWithMeow(argv, options.bare === true)
		: parseFlags(argv, dumpFlags, 'pagewalk dump');
	const format = typeof flags.format === 'string' ? flags.format : 'ndjson';
	if (!(formats as readonly string[]).includes(format)) {
		throw new UsageError(`--format must be one of ${formats.join(', ')}, not '${inert(format)}'.`);
	}

	const config = await openConfig({input, flags, env: io.env});
	try {
		return await dump(config, {all: flags.all === true && options.bare !== true, format: format as Format, signal: options.signal}, io);
	} finally {
		await config.close();
	}
}

export async function run(argv: string[], options: {bare?: boolean} = {}): Promise<number> {
	const interrupt = new AbortController();
	const onSigint = () => {
		// A second Ctrl-C while closing up ends the process the usual way.
		process.off('SIGINT', onSigint);
		interrupt.abort(new Error('interrupted'));
	};

	process.on('SIGINT', onSigint);
	try {
		return await runDump(argv, {stdout: process.stdout, stderr: process.stderr, env: process.env}, {...options, signal: interrupt.signal});
	} finally {
		process.off('SIGINT', onSigint);
	}
}
