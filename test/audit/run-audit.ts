/** Runs `pagewalk audit` in this process, or the built bundle as a subprocess for exit codes. */
import {execFileSync, spawn} from 'node:child_process';
import {cpSync, existsSync, mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {runAudit} from '../../source/commands/audit/audit.js';
import type {AuditReport} from '../../source/audit/report.js';
import type {Sandbox} from '../../source/sandbox/index.js';
import {runWithIo, testIo, type Result} from '../support/test-io.js';
import type {Schema} from './json-schema.js';

export type {Result} from '../support/test-io.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const builtCli = path.join(root, 'dist/cli.js');
let cliPath = builtCli;
export const schema = JSON.parse(readFileSync(path.join(root, 'source/audit/report-schema.json'), 'utf8')) as Schema;

/** Flags and environment that point pagewalk at a sandbox, with `viewer`'s credentials as the primary ones. */
export function sandboxTarget(sandbox: Sandbox, viewer: 'full' | 'restricted' = 'full') {
	return {
		flags: ['--base-url', sandbox.accountUrl, '--commerce-url', sandbox.commerceUrl],
		env: {
			COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer],
			COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce[viewer],
			NO_COLOR: '1',
		} as Record<string, string>,
	};
}

export async function auditInProcess(argv: string[], env: Record<string, string | undefined>): Promise<Result> {
	return runWithIo(async io => runAudit(argv, io), testIo({env}));
}

export async function auditJson(argv: string[], env: Record<string, string | undefined>): Promise<{code: number; report: AuditReport; stdout: string}> {
	const result = await auditInProcess([...argv, '--json'], env);
	if (result.stderr !== '') {
		throw new Error(`audit wrote to stderr: ${result.stderr}`);
	}

	return {code: result.code, report: JSON.parse(result.stdout) as AuditReport, stdout: result.stdout};
}

/**
 * Builds the bundle when there is none, then runs a private copy of it, so a
 * build started elsewhere (which empties dist/) cannot pull it from under us.
 */
export function prepareCli(): void {
	if (!existsSync(builtCli)) {
		execFileSync(process.execPath, ['scripts/build.mjs'], {cwd: root, stdio: 'ignore'});
	}

	const directory = mkdtempSync(path.join(tmpdir(), 'pagewalk-audit-cli-'));
	cpSync(path.join(root, 'dist'), path.join(directory, 'dist'), {recursive: true});
	cpSync(path.join(root, 'package.json'), path.join(directory, 'package.json'));
	cliPath = path.join(directory, 'dist/cli.js');
}

/** Starts the built CLI; the caller reads its streams and ends it by its pid. */
export function spawnCli(argv: string[], env: Record<string, string | undefined>) {
	return spawn(process.execPath, [cliPath, ...argv], {env: {PATH: process.env.PATH, PAGEWALK_STATE_DIR: process.env['PAGEWALK_STATE_DIR'], ...env}, stdio: ['ignore', 'pipe', 'pipe']});
}

export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<Result> {
	const child = spawnCli(argv, env);
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number>((resolve) => {
		child.on('close', (status) => {
			resolve(status ?? 1);
		});
	});
	return {code, stdout, stderr};
}
