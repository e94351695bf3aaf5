import {execFileSync, spawnSync} from 'node:child_process';
import {cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {patience, pollUntil} from '../../support/patience.js';

/**
 * The built CLI in a real terminal: tmux runs `node dist/cli.js --demo` in a
 * pseudo-terminal, keys go in with send-keys, the screen comes out with
 * capture-pane. Shared by every terminal test file; each file makes its own
 * tmux server (a socket of its own), so files can run side by side.
 */

export const tmuxPath = '/usr/bin/tmux';
export const hasTmux = existsSync(tmuxPath);
// Missing tmux fails these tests rather than skipping them: a skip on a fresh machine hides them.
export const noTmux = `tmux is not installed at ${tmuxPath}, so the terminal tests cannot run; install it (Debian: apt-get install -y tmux; .ci/run does this in CI).`;

export function requireTmux(): void {
	if (!hasTmux) {
		throw new Error(noTmux);
	}
}

/**
 * The built CLI, copied aside: `npm test` builds first (pretest), a bare
 * vitest run builds only when dist/ is missing, and a build started by anyone
 * else in this tree (it empties dist/ first) cannot pull the files away from
 * under a running test. The bundle is self-contained, so the copy runs as is.
 */
let cliDirectory: string | undefined;
export function builtCli(): string {
	if (!cliDirectory) {
		if (!existsSync('dist/cli.js')) {
			execFileSync(process.execPath, ['scripts/build.mjs'], {stdio: 'inherit'});
		}

		cliDirectory = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-'));
		cpSync('dist', cliDirectory, {recursive: true});
	}

	return path.join(cliDirectory, 'cli.js');
}

/** Removes the copy of the CLI (call from afterAll). */
export function removeBuiltCli(): void {
	if (cliDirectory) {
		rmSync(cliDirectory, {recursive: true, force: true});
		cliDirectory = undefined;
	}
}

/** The `node --import` module that holds the chunk back. */
export const holdBrowser = path.resolve('test/e2e/support/hold-browser.mjs');

/**
 * Writes a held browser's release file whole, in one rename: the hold reads
 * the file as soon as it exists, and a file made and then written could be
 * read empty, letting a chunk meant to fail load instead.
 */
export function releaseHeld(file: string, content: '' | 'fail' = ''): void {
	writeFileSync(`${file}.partial`, content);
	renameSync(`${file}.partial`, file);
}

/**
 * pagewalk with its browser's chunk (Ink, React, the app) held back by a
 * module hook (support/hold-browser.mjs) until `release()`, so a test acts in
 * the time between the first paint and Ink's first frame.
 */
export class HeldBrowser {
	/** The file whose existence releases the chunk (PAGEWALK_TEST_RELEASE). */
	readonly file: string;

	/** `name`'s release file goes in `directory` (the test's own). */
	constructor(directory: string, name: string) {
		this.file = path.join(directory, `${name}-release`);
	}

	/** The command line that runs the built CLI held; `under`, a command line's start (a supervisor), runs node under it. */
	program(under = ''): string {
		return `PAGEWALK_TEST_RELEASE='${this.file}' ${under}${process.execPath} --import '${holdBrowser}' ${builtCli()}`;
	}

	/** Lets the chunk load; `fail` makes it fail to load, as a broken install's would. */
	release(content: '' | 'fail' = ''): void {
		releaseHeld(this.file, content);
	}
}

/** The id of the selected row (the line starting with ›); throws with the screen when there is none. */
export function selectedRow(text: string): string {
	const id = /^› (\S+)/m.exec(text)?.[1];
	if (!id) {
		throw new Error(`no selected row on screen:\n${text}`);
	}

	return id;
}

export {pollUntil} from '../../support/patience.js';

export type SessionOptions = {
	/** Variables set for pagewalk alone, e.g. `NO_COLOR=1 ` (the tmux server's environment is shared). */
	envPrefix?: string;
	/** Arguments after `--demo`, already shell-quoted. */
	args?: string;
	/** tmux options set before the session starts, e.g. [['set-clipboard', 'on']]. */
	serverOptions?: Array<[string, string]>;
	/** The program to run instead of the built CLI under node (an installed `pagewalk` bin). */
	program?: string;
	/** Walk the sandbox of --demo (default) or, with false, only what `args` say (a server of the test's own). */
	demo?: boolean;
	/** A file that receives every byte the program writes to the terminal, from its first on. */
	log?: string;
	/** The directory the program starts in (where `w` writes), instead of the test's. */
	cwd?: string;
};

/**
 * Keeps a tmux server up when its last session ends (kill-session, or the
 * program in it exiting): otherwise the next session a test starts on the
 * same socket can meet the server on its way out, and tmux fails with
 * "server exited unexpectedly". kill() ends the server itself.
 */
export const keepServer = [';', 'set-option', '-s', 'exit-empty', 'off'];

/** One private tmux server (its own socket) and the session it runs. */
export class TmuxServer {
	readonly columns: number;
	readonly rows: number;
	session = 'e2e';
	private readonly socket: string;
	/**
	 * Where pagewalk remembers column choices (PAGEWALK_STATE_DIR): the
	 * server's own, so a test neither reads the user's choices (a picker used
	 * by hand changed what a test saw) nor leaves its own behind.
	 */
	private readonly stateDir = mkdtempSync(path.join(tmpdir(), 'pagewalk-e2e-state-'));

	constructor(name: string, size: {columns: number; rows: number} = {columns: 100, rows: 24}) {
		this.socket = `pagewalk-${name}-${process.pid}`;
		this.columns = size.columns;
		this.rows = size.rows;
	}

	tmux(...args: string[]): string {
		return execFileSync(tmuxPath, ['-L', this.socket, ...args], {encoding: 'utf8'});
	}

	/** Stops this tmux server and removes its socket file (tmux leaves it behind when killed). */
	kill(): void {
		spawnSync(tmuxPath, ['-L', this.socket, 'kill-server']);
		rmSync(this.stateDir, {recursive: true, force: true});
		rmSync(`${process.env['TMUX_TMPDIR'] ?? '/tmp'}/tmux-${process.getuid?.() ?? 0}/${this.socket}`, {force: true});
	}

	screen(): string {
		return this.tmux('capture-pane', '-p', '-t', this.session);
	}

	flag(name: string): string {
		return this.tmux('display-message', '-p', '-t', this.session, `#{${name}}`).trim();
	}

	start(name: string, options: SessionOptions = {}): void {
		this.session = name;
		mkdirSync(this.stateDir, {recursive: true});
		// CI=… makes Ink print only the last frame; a user's terminal never has it.
		const env = {...process.env};
		delete env['CI'];
		const args = options.args ? ` ${options.args}` : '';
		// With a log, the program waits until the pane is piped to it, so not one byte is missed.
		const gate = options.log === undefined ? '' : `${tmuxPath} -L ${this.socket} wait-for ${name}-logged; `;
		const command = `${gate}printf 'BEFORE\\n'; PAGEWALK_STATE_DIR='${this.stateDir}' ${options.envPrefix ?? ''}${options.program ?? `${process.execPath} ${builtCli()}`}${options.demo === false ? '' : ' --demo'}${args}; echo "AFTER rc=$?"; sleep 600`;
		const setup = (options.serverOptions ?? []).flatMap(([option, value]) => [';', 'set-option', '-g', option, value]);
		const cwd = options.cwd === undefined ? [] : ['-c', options.cwd];
		execFileSync(tmuxPath, ['-L', this.socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(this.columns), '-y', String(this.rows), ...cwd, command, ...keepServer, ...setup], {
			env: {...env, TERM: 'xterm-256color'},
		});
		if (options.log !== undefined) {
			this.tmux('pipe-pane', '-o', '-t', name, `cat >> '${options.log}'`);
			this.tmux('wait-for', '-S', `${name}-logged`);
		}
	}

	/**
	 * An interactive shell with job control (`bash`, or `dash`, which leaves
	 * the terminal's modes as a job left them) instead of one command, its
	 * prompt `$ `: pagewalk then runs as a job of it (`type` a command line),
	 * as a user runs it, and Ctrl-Z and `fg` work as they do for a user.
	 */
	startShell(name: string, shell: 'bash' | 'dash'): void {
		this.session = name;
		mkdirSync(this.stateDir, {recursive: true});
		// As start(): CI=… makes Ink print only the last frame. ENV would be a startup file for dash.
		const env: NodeJS.ProcessEnv = {...process.env, TERM: 'xterm-256color'};
		delete env['CI'];
		delete env['ENV'];
		const command = `exec env PS1='$ ' PAGEWALK_STATE_DIR='${this.stateDir}' ${shell === 'bash' ? 'bash --norc --noprofile -i' : 'dash -i'}`;
		execFileSync(tmuxPath, ['-L', this.socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(this.columns), '-y', String(this.rows), command, ...keepServer], {env});
	}

	/** Types `line` into the session, then Enter. */
	type(line: string): void {
		this.tmux('send-keys', '-t', this.session, '-l', line);
		this.tmux('send-keys', '-t', this.session, 'Enter');
	}

	/** The command line that runs the built CLI on the sandbox. */
	pagewalkLine(args = ''): string {
		return `${process.execPath} ${builtCli()} --demo${args ? ` ${args}` : ''}`;
	}

	async waitForScreen(predicate: (text: string) => boolean): Promise<string> {
		let text = '';
		await pollUntil(() => predicate(text = this.screen()), () => `screen never matched within ${patience} ms:\n${text}`);
		return text;
	}

	/** Waits until the pane's `#{name}` flag reads `value` (e.g. mouse reporting on once the browser is up). */
	async waitForFlag(name: string, value: string): Promise<void> {
		await pollUntil(() => this.flag(name) === value, () => `#{${name}} never became ${value} within ${patience} ms (it is ${this.flag(name)}):\n${this.screen()}`);
	}

	/** Whether the pane's terminal is in raw mode (no line editing): Ink has turned it on and reads each key. */
	rawMode(): boolean {
		return /(?:^|\s)-icanon(?:\s|$)/.test(this.settings());
	}

	/** Whether the pane's terminal echoes what is typed (stty's echo), as the shell's line mode does. */
	echoes(): boolean {
		return !/(?:^|\s)-echo(?:\s|$)/.test(this.settings());
	}

	/**
	 * How many bytes wait unread in the pane's terminal: keys delivered that no
	 * program has read yet. The kernel says (the FIONREAD ioctl, Linux's
	 * number); Node has no ioctl, so perl, which every Debian system has, asks.
	 */
	queued(): number {
		const script = 'use Fcntl; sysopen(my $t, $ARGV[0], O_RDONLY | O_NONBLOCK | O_NOCTTY) or die "$!\\n"; my $n = pack("i", 0); ioctl($t, 0x541B, $n) or die "$!\\n"; print unpack("i", $n);';
		return Number(execFileSync('perl', ['-e', script, this.flag('pane_tty')], {encoding: 'utf8'}));
	}

	/**
	 * Waits until `bytes` keys sent wait unread in the terminal: send-keys
	 * returns before the terminal has them, so what a test does next (let the
	 * browser load, end the start) could come first.
	 */
	async waitForQueued(bytes: number): Promise<void> {
		await pollUntil(() => this.queued() >= bytes, () => `the terminal never held ${bytes} unread bytes within ${patience} ms (it holds ${this.queued()}; raw mode: ${this.rawMode()}):\n${this.screen()}`);
	}

	private settings(): string {
		return execFileSync('stty', ['-a', '-F', this.flag('pane_tty')], {encoding: 'utf8'});
	}

	/**
	 * Sends keys once the terminal is in raw mode (the first paint or Ink turns
	 * it on, the paint before Ink reads: keys sent then wait in the terminal).
	 * A frame on screen does not mean that yet: sent earlier, Ctrl-C would be
	 * the terminal's SIGINT, not a key.
	 */
	async keys(...names: string[]): Promise<void> {
		await pollUntil(() => this.rawMode(), () => `the terminal never entered raw mode within ${patience} ms:\n${this.screen()}`);
		this.tmux('send-keys', '-t', this.session, ...names);
	}
}
